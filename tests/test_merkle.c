/* Merkle trees on the CPU: real Bitcoin blocks (mainnet 413567, 1,557 legacy transactions; testnet3
 * 000000000000045e..., 15 transactions with a segwit coinbase) against their headers and listed
 * txids, the tree shape, the merges against the streaming SHA-256, the Keccak merges' known
 * answers and whole Keccak trees against one kiln_hash a merge, inclusion proofs and their
 * tampering, and the algorithm table. */
#include "check.h"
#include "kiln.h"
#include "test_data_files.h"

static int hex_eq(const uint8_t *bytes, size_t n, int reversed, const char *want)
{
    char got[129];
    kiln_hex_encode(bytes, n, reversed, got);
    if (strcmp(got, want) != 0) fprintf(stderr, "  got  %s\n  want %s\n", got, want);
    return strcmp(got, want) == 0;
}

static void block413567(kiln_ctx *ctx)
{
    size_t len;
    unsigned char *raw = slurp(test_data("block413567.raw"), &len);
    char *txids = (char *)slurp(test_data("block413567.txids.txt"), NULL);
    CHECK(raw && txids && len == 999887, "block413567 data");
    if (!raw || !txids) return;
    kiln_block b;
    CHECK(kiln_block_parse(ctx, raw, len, &b) == KILN_OK, "parse: %s", kiln_last_error(ctx));
    CHECK(b.n_tx == 1557 && b.n_segwit == 0, "%llu transactions, %llu segwit", (unsigned long long)b.n_tx,
          (unsigned long long)b.n_segwit);
    /* every txid against the listed ones (internal and display order) */
    int bad = 0, listed = 0;
    for (const char *line = txids; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (*line == '#' || *line == '\n') continue;
        unsigned long idx;
        char internal[65], display[65];
        if (sscanf(line, "%lu %64s %64s", &idx, internal, display) != 3 || idx >= b.n_tx) {
            bad++;
            continue;
        }
        listed++;
        bad += !hex_eq(b.txids + 32 * idx, 32, 0, internal) || !hex_eq(b.txids + 32 * idx, 32, 1, display);
    }
    CHECK(listed == 1557 && bad == 0, "%d listed txids, %d differ", listed, bad);
    uint8_t root[32];
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, b.txids, b.n_tx, NULL, root, NULL) == KILN_OK, "root");
    CHECK(memcmp(root, b.header + 36, 32) == 0, "root equals the header's Merkle root");
    CHECK(hex_eq(root, 32, 1, "64a50c649fc816baaa2effda230c39cacf1504e4e616a2863685b72aaa7dce05"), "display root");
    uint8_t hash[32];
    kiln_header_hash(b.header, hash);
    CHECK(hex_eq(hash, 32, 1, "0000000000000000025aff8be8a55df8f89c77296db6198f272d6577325d4069"), "block hash");

    /* whole tree: shape, root, and every proof of a sample verifies; tampering fails */
    uint64_t size = kiln_merkle_tree_size(b.n_tx);
    uint8_t *tree = malloc(size * 32);
    CHECK(kiln_merkle_levels(1557) == 12, "1557 leaves make 12 levels");
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, b.txids, b.n_tx, NULL, root, tree) == KILN_OK &&
              memcmp(tree + 32 * (size - 1), b.header + 36, 32) == 0,
          "whole tree's last node is the root");
    uint8_t sib[64 * 32];
    int count = 0, fail = 0;
    for (uint64_t i = 0; i < b.n_tx; i++) {
        if (kiln_merkle_proof(ctx, tree, b.n_tx, i, sib, &count) != KILN_OK || count != 11) {
            fail++;
            continue;
        }
        fail += kiln_merkle_verify(ctx, KILN_MERKLE_SHA256D, b.txids + 32 * i, i, b.n_tx, sib, count, root) != KILN_OK;
    }
    CHECK(fail == 0, "%d of 1557 proofs fail", fail);
    /* the last transaction pairs with itself on the leaf level */
    CHECK(kiln_merkle_proof(ctx, tree, b.n_tx, 1556, sib, &count) == KILN_OK && memcmp(sib, b.txids + 32 * 1556, 32) == 0,
          "last leaf's sibling is itself");
    free(tree);
    kiln_block_free(&b);
    free(raw);
    free(txids);
}

static void segwit_block(kiln_ctx *ctx)
{
    size_t len;
    unsigned char *raw = slurp(test_data("testnet3_block_000000000000045e.raw"), &len);
    CHECK(raw && len == 4319, "testnet block data");
    if (!raw) return;
    kiln_block b;
    CHECK(kiln_block_parse(ctx, raw, len, &b) == KILN_OK, "parse: %s", kiln_last_error(ctx));
    CHECK(b.n_tx == 15 && b.n_segwit == 1, "%llu transactions, %llu segwit", (unsigned long long)b.n_tx,
          (unsigned long long)b.n_segwit);
    uint8_t root[32], hash[32];
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, b.txids, b.n_tx, NULL, root, NULL) == KILN_OK &&
              memcmp(root, b.header + 36, 32) == 0,
          "segwit block: root of the non-witness txids equals the header's");
    kiln_header_hash(b.header, hash);
    CHECK(hex_eq(hash, 32, 1, "000000000000045e0b1660b6445b5e5c5ab63c9a4f956be7e1e69be04fa4497b"), "testnet block hash");
    kiln_block_free(&b);
    free(raw);
}

static void shape(void)
{
    static const struct {
        uint64_t n;
        int levels;
        uint64_t size;
    } t[] = {{1, 1, 1}, {2, 2, 3}, {3, 3, 6}, {4, 3, 7}, {5, 4, 11}, {7, 4, 14}, {8, 4, 15}, {9, 5, 20}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        CHECK(kiln_merkle_levels(t[i].n) == t[i].levels, "levels(%llu)", (unsigned long long)t[i].n);
        CHECK(kiln_merkle_tree_size(t[i].n) == t[i].size, "tree size(%llu) = %llu", (unsigned long long)t[i].n,
              (unsigned long long)kiln_merkle_tree_size(t[i].n));
    }
    CHECK(kiln_merkle_levels(0) == 0 && kiln_merkle_tree_size(0) == 0, "empty");
    CHECK(kiln_merkle_level_size(5, 1) == 3 && kiln_merkle_level_offset(5, 1) == 5 && kiln_merkle_level_offset(5, 3) == 10,
          "levels of 5");
    CHECK(kiln_merkle_level_size(5, 4) == 0, "past the root");
    CHECK(kiln_merkle_levels(UINT64_C(1) << 40) == 41, "2^40 leaves");
}

/* sha256 and sha256d merges against the streaming hash of the 64-byte concatenation. */
static void merges(kiln_ctx *ctx)
{
    unsigned long long seed = 3;
    uint8_t lr[64], out[32], want[32];
    int bad = 0;
    for (int i = 0; i < 100; i++) {
        for (int j = 0; j < 64; j++) lr[j] = (uint8_t)test_rand(&seed);
        kiln_merkle_merge(ctx, KILN_MERKLE_SHA256, lr, lr + 32, out);
        kiln_sha256(lr, 64, want);
        bad += memcmp(out, want, 32) != 0;
        kiln_merkle_merge(ctx, KILN_MERKLE_SHA256D, lr, lr + 32, out);
        kiln_sha256d(lr, 64, want);
        bad += memcmp(out, want, 32) != 0;
    }
    CHECK(bad == 0, "%d merges differ from the streaming SHA-256", bad);
}

/* Proofs of every leaf of small trees of every algorithm verify; a flipped bit in any sibling, the
 * leaf, the index or the root does not. */
static void proofs(kiln_ctx *ctx)
{
    static const kiln_merkle_algo algos[] = {KILN_MERKLE_SHA256D,
                                             KILN_MERKLE_SHA256,
                                             KILN_MERKLE_RP64_256,
                                             KILN_MERKLE_POSEIDON2_BABYBEAR16,
                                             KILN_MERKLE_POSEIDON2_KOALABEAR16,
                                             KILN_MERKLE_POSEIDON2_GOLDILOCKS8,
                                             KILN_MERKLE_POSEIDON2_GOLDILOCKS12};
    unsigned long long seed = 9;
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        for (uint64_t n = 1; n <= 17; n++) {
            uint8_t leaves[17 * 32], tree[40 * 32], root[32], sib[64 * 32], leaf[32];
            for (size_t i = 0; i < n * 32; i++) leaves[i] = (uint8_t)test_rand(&seed);
            /* every u32 below 2^30 and u64 below 2^62: canonical for the field merges */
            for (size_t i = 3; i < n * 32; i += 4) leaves[i] &= 0x3f;
            CHECK(kiln_merkle_build(ctx, algos[a], leaves, n, NULL, root, tree) == KILN_OK, "build");
            int ok = 0, rejected = 0, tries = 0;
            for (uint64_t i = 0; i < n; i++) {
                int count;
                kiln_merkle_proof(ctx, tree, n, i, sib, &count);
                ok += kiln_merkle_verify(ctx, algos[a], leaves + 32 * i, i, n, sib, count, root) == KILN_OK;
                ok += kiln_merkle_verify(ctx, algos[a], leaves + 32 * i, i, 0, sib, count, root) == KILN_OK;
                for (int s = 0; s < count; s++) {
                    sib[32 * s + 1] ^= 0x10; /* a low bit: a canonical element stays one */
                    tries++;
                    rejected += kiln_merkle_verify(ctx, algos[a], leaves + 32 * i, i, n, sib, count, root) == KILN_NOT_FOUND;
                    sib[32 * s + 1] ^= 0x10;
                }
                memcpy(leaf, leaves + 32 * i, 32);
                leaf[0] ^= 1;
                tries++;
                rejected += kiln_merkle_verify(ctx, algos[a], leaf, i, n, sib, count, root) == KILN_NOT_FOUND;
                if (n > 1) {
                    tries++;
                    rejected += kiln_merkle_verify(ctx, algos[a], leaves + 32 * i, (i + 1) % n, n, sib, count, root) ==
                                KILN_NOT_FOUND;
                }
                tries += 2;
                rejected += kiln_merkle_verify(ctx, algos[a], leaves + 32 * i, i + n, n, sib, count, root) == KILN_NOT_FOUND;
                rejected += count > 0 &&
                            kiln_merkle_verify(ctx, algos[a], leaves + 32 * i, i, n, sib, count - 1, root) == KILN_NOT_FOUND;
                if (count == 0) rejected++;
            }
            CHECK(ok == (int)(2 * n), "%s n=%llu: %d of %llu proofs verify", kiln_merkle_algo_name(algos[a]),
                  (unsigned long long)n, ok / 2, (unsigned long long)n);
            CHECK(rejected == tries, "%s n=%llu: %d of %d tampered proofs rejected", kiln_merkle_algo_name(algos[a]),
                  (unsigned long long)n, rejected, tries);
        }
    }
    /* a duplicated last leaf cannot be proved as a leaf of its own (CVE-2012-2459's shape):
     * 3 leaves a b c; the path of "index 3" with sibling c hashes to the root, but 3 >= n */
    uint8_t leaves[3 * 32], tree[6 * 32], root[32], sib[2 * 32];
    for (int i = 0; i < 96; i++) leaves[i] = (uint8_t)(i * 7);
    kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, leaves, 3, NULL, root, tree);
    memcpy(sib, leaves + 64, 32);
    memcpy(sib + 32, tree + 3 * 32, 32);
    CHECK(kiln_merkle_verify(ctx, KILN_MERKLE_SHA256D, leaves + 64, 3, 0, sib, 2, root) == KILN_OK,
          "without the leaf count the duplicate verifies (documented)");
    CHECK(kiln_merkle_verify(ctx, KILN_MERKLE_SHA256D, leaves + 64, 3, 3, sib, 2, root) == KILN_NOT_FOUND,
          "with the leaf count it does not");
    /* leaf 2 is the last of an odd level: a sibling other than itself is refused even if chosen
     * to match */
    memcpy(sib, leaves, 32);
    CHECK(kiln_merkle_verify(ctx, KILN_MERKLE_SHA256D, leaves + 64, 2, 3, sib, 2, root) == KILN_NOT_FOUND,
          "odd-level sibling must repeat the node");
}

/* The SHA-3 / Keccak merges against the 64-byte (Len = 512) known answers of NIST's
 * SHA3_256ShortMsg.rsp and the Keccak team's ShortMsgKAT_256.txt. */
static void keccak_merges(kiln_ctx *ctx)
{
    static const struct {
        kiln_merkle_algo algo;
        const char *msg, *md;
    } kat[] = {
        {KILN_MERKLE_SHA3_256,
         "67e384d209f1bc449fa67da6ce5fbbe84f4610129f2f0b40f7c0caea7ed5cb69be22ffb7541b2077ec1045356d9db4ee7141f7d3f84d32"
         "4a5d00b33689f0cb78",
         "9c9160268608ef09fe0bd3927d3dffa0c73499c528943e837be467b50e5c1f1e"},
        {KILN_MERKLE_KECCAK256,
         "e926ae8b0af6e53176dbffcc2a6b88c6bd765f939d3d178a9bde9ef3aa131c61e31c1e42cdfaf4b4dcde579a37e150efbef5555b4c1cb4"
         "0439d835a724e2fae7",
         "574271cd13959e8ddeae5bfbdb02a3fdf54f2babfd0cbeb893082a974957d0c1"},
    };
    for (int i = 0; i < 2; i++) {
        uint8_t msg[64], out[32];
        kiln_hex_decode(ctx, kat[i].msg, msg, 64);
        kiln_status st = kiln_merkle_merge(ctx, kat[i].algo, msg, msg + 32, out);
        CHECK(st == KILN_OK && hex_eq(out, 32, 0, kat[i].md), "%s merge KAT: %s", kiln_merkle_algo_name(kat[i].algo),
              kiln_last_error(ctx));
    }
}

/* Whole CPU trees of the Keccak merges (whose levels go through the SIMD lanes kernels, several
 * pairs at once) against a tree made level by level with one kiln_hash of left || right a node,
 * at sizes around the lanes' widths and the builder's runs, odd levels included. */
static void keccak_trees(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_ctx_set_device(ctx, "cpu");
    static const struct {
        kiln_merkle_algo algo;
        kiln_hash_algo hash;
    } kinds[] = {{KILN_MERKLE_SHA3_256, KILN_HASH_SHA3_256}, {KILN_MERKLE_KECCAK256, KILN_HASH_KECCAK256}};
    static const uint64_t sizes[] = {2, 3, 5, 8, 9, 17, 33, 255, 512, 513, 1000, 4099};
    for (size_t k = 0; k < 2; k++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const uint64_t n = sizes[s];
            uint8_t *tree = malloc(32 * kiln_merkle_tree_size(n)), *level = malloc(32 * n), pair[64], root[32];
            for (uint64_t i = 0; i < 32 * n; i++) level[i] = (uint8_t)(i * 131 + n);
            kiln_status st = kiln_merkle_build(ctx, kinds[k].algo, level, n, NULL, root, tree);
            CHECK(st == KILN_OK, "%s tree of %llu: %s", kiln_merkle_algo_name(kinds[k].algo), (unsigned long long)n,
                  kiln_last_error(ctx));
            int ok = 1;
            for (uint64_t m = n, l = 0; m > 1; m = (m + 1) / 2, l++) {
                for (uint64_t i = 0; i < (m + 1) / 2; i++) {
                    memcpy(pair, level + 64 * i, 32);
                    memcpy(pair + 32, level + 32 * (2 * i + 1 < m ? 2 * i + 1 : 2 * i), 32);
                    kiln_hash(kinds[k].hash, pair, 64, level + 32 * i, 32);
                }
                ok &= memcmp(tree + 32 * kiln_merkle_level_offset(n, (int)l + 1), level, 32 * ((m + 1) / 2)) == 0;
            }
            CHECK(ok && memcmp(root, level, 32) == 0, "%s tree of %llu leaves differs from the one-merge reference",
                  kiln_merkle_algo_name(kinds[k].algo), (unsigned long long)n);
            free(tree), free(level);
        }
    }
    kiln_ctx_free(ctx);
}

/* kiln_merkle_leaves_from_rows' refusals and edge cases (its answers: test_poseidon2_merkle.sh,
 * against the reference). */
static void rows_errors(kiln_ctx *ctx)
{
    uint8_t rows[4 * 8] = {0}, leaves[2 * 32];
    CHECK(kiln_merkle_leaves_from_rows(ctx, KILN_MERKLE_SHA256, rows, 1, 4, leaves) == KILN_ERR_INPUT,
          "rows refused for a merge without a sponge");
    CHECK(kiln_merkle_leaves_from_rows(ctx, KILN_MERKLE_RP64_256, rows, 1, 4, leaves) == KILN_ERR_INPUT,
          "rows refused for rp64_256");
    memset(leaves, 0xaa, sizeof leaves);
    CHECK(kiln_merkle_leaves_from_rows(ctx, KILN_MERKLE_POSEIDON2_BABYBEAR16, rows, 2, 0, leaves) == KILN_OK &&
              leaves[0] == 0 && leaves[63] == 0,
          "empty rows hash to zero digests, as Plonky3's sponge without input");
    rows[4 * 5 + 3] = 0x78, rows[4 * 5] = 1; /* element 5 = 0x78000001 = BabyBear's p */
    CHECK(kiln_merkle_leaves_from_rows(ctx, KILN_MERKLE_POSEIDON2_BABYBEAR16, rows, 2, 4, leaves) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(ctx), "row 1: element 1") != NULL,
          "p is refused, naming its row: %s", kiln_last_error(ctx));
    CHECK(kiln_merkle_leaves_from_rows(ctx, KILN_MERKLE_POSEIDON2_KOALABEAR16, rows, 2, 4, leaves) == KILN_OK,
          "the same word is a KoalaBear element: %s", kiln_last_error(ctx));
    /* the element sizes the fields need: p below 2^31 (BabyBear, KoalaBear) or 2^64 (Goldilocks) */
    CHECK(kiln_merkle_row_element_bytes(KILN_MERKLE_POSEIDON2_BABYBEAR16) == 4 &&
              kiln_merkle_row_element_bytes(KILN_MERKLE_POSEIDON2_KOALABEAR16) == 4 &&
              kiln_merkle_row_element_bytes(KILN_MERKLE_POSEIDON2_GOLDILOCKS8) == 8 &&
              kiln_merkle_row_element_bytes(KILN_MERKLE_POSEIDON2_GOLDILOCKS12) == 8,
          "row element bytes of the Poseidon2 merges");
    CHECK(kiln_merkle_row_element_bytes(KILN_MERKLE_SHA256D) == 0 && kiln_merkle_row_element_bytes(KILN_MERKLE_RPO256) == 0 &&
              kiln_merkle_row_element_bytes((kiln_merkle_algo)KILN_MERKLE_ALGO_COUNT) == 0,
          "no row elements for a merge without leaves from rows, or no merge");
    CHECK(kiln_merkle_leaves_from_rows_with(ctx, KILN_MERKLE_POSEIDON2_GOLDILOCKS8, KILN_MERKLE_LEAF_MIDEN, rows, 1, 1,
                                            leaves) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(ctx), "no leaf hash miden (it takes sponge)") != NULL,
          "a leaf hash the merge lacks, naming those it takes: %s", kiln_last_error(ctx));
    CHECK(kiln_merkle_leaves_from_rows_with(ctx, KILN_MERKLE_POSEIDON2_BABYBEAR16, KILN_MERKLE_LEAF_MIDEN, rows, 1, 1,
                                            leaves) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(ctx), "(it takes sponge or sponge24)") != NULL,
          "BabyBear's leaf hashes named: %s", kiln_last_error(ctx));
}

static void errors(kiln_ctx *ctx)
{
    kiln_merkle_algo a;
    static const char *names[] = {"sha256d",      "sha256", "sha3-256",          "keccak256",
                                  "rp64_256",     "blake2s", "blake2s-stwo",     "blake3",
                                  "poseidon2_babybear16", "poseidon2_koalabear16", "poseidon2_goldilocks8", "rpo256",
                                  "poseidon2_goldilocks12"};
    _Static_assert(sizeof names / sizeof names[0] == KILN_MERKLE_ALGO_COUNT, "a name for every merge");
    for (int i = 0; i < KILN_MERKLE_ALGO_COUNT; i++) {
        CHECK(kiln_merkle_algo_from_name(ctx, names[i], &a) == KILN_OK && (int)a == i, "name %s", names[i]);
        CHECK(strcmp(kiln_merkle_algo_name(a), names[i]) == 0, "name of %d", i);
    }
    CHECK(kiln_merkle_algo_from_name(ctx, "md4", &a) == KILN_ERR_INPUT, "unknown name");
    uint8_t leaf[32] = {0}, root[32];
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA3_256, leaf, 1, NULL, root, NULL) == KILN_OK && memcmp(root, leaf, 32) == 0,
          "sha3-256 one leaf: %s", kiln_last_error(ctx));
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, leaf, 0, NULL, root, NULL) == KILN_ERR_INPUT, "no leaves");
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, leaf, 1, NULL, root, NULL) == KILN_OK &&
              memcmp(root, leaf, 32) == 0,
          "one leaf is its own root");
    kiln_merkle_opts bad = {KILN_MERKLE_SUBTREES, 13, 0, 0};
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, leaf, 1, &bad, root, NULL) == KILN_ERR_INPUT, "k out of range");
    bad.subtree_log2 = 4;
    bad.threads_per_block = 100;
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, leaf, 1, &bad, root, NULL) == KILN_ERR_INPUT, "bad block size");
    uint8_t big[64];
    memset(big, 0xff, sizeof big);
    CHECK(kiln_merkle_build(ctx, KILN_MERKLE_RP64_256, big, 2, NULL, root, NULL) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(ctx), "leaf 0"),
          "non-canonical rp64 leaf: %s", kiln_last_error(ctx));
    int count;
    uint8_t sib[32];
    CHECK(kiln_merkle_proof(ctx, leaf, 1, 1, sib, &count) == KILN_ERR_INPUT, "proof index out of range");
    /* root only and whole tree agree, one thread and all */
    enum { N = 1000 };
    uint8_t *leaves = malloc(N * 32), *tree = malloc(kiln_merkle_tree_size(N) * 32), r1[32], r2[32];
    unsigned long long seed = 4;
    for (int i = 0; i < N * 32; i++) leaves[i] = (uint8_t)test_rand(&seed);
    kiln_ctx_set_threads(ctx, 1);
    kiln_merkle_build(ctx, KILN_MERKLE_SHA256, leaves, N, NULL, r1, NULL);
    kiln_ctx_set_threads(ctx, 0);
    kiln_merkle_build(ctx, KILN_MERKLE_SHA256, leaves, N, NULL, r2, tree);
    CHECK(memcmp(r1, r2, 32) == 0 && memcmp(tree + 32 * (kiln_merkle_tree_size(N) - 1), r1, 32) == 0,
          "root only == whole tree, 1 thread == all");
    free(leaves);
    free(tree);
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    block413567(ctx);
    segwit_block(ctx);
    shape();
    merges(ctx);
    proofs(ctx);
    keccak_merges(ctx);
    keccak_trees();
    errors(ctx);
    rows_errors(ctx);
    kiln_ctx_free(ctx);
    return check_summary();
}
