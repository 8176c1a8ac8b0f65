/* kiln merkle: the root of a list of leaves or of a raw Bitcoin block, the whole tree, inclusion
 * proofs and their verification.
 *
 * Hashes are read and printed in the project's order: sha256d nodes byte-reversed (txids and roots
 * as explorers show them), every other algorithm in natural byte order (rp64_256: 4 little-endian
 * u64s). A proof file is what --proof prints: the root, then the siblings from the leaf level up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/json_out.h"
#include "common/opts.h"
#include "common/progress.h"
#include "merkle_cli.h"
#include "merkle_input.h"
#include "merkle_rows.h"
#include "tune/tune_cache.h"

#define NODE KILN_MERKLE_NODE_SIZE

typedef struct merkle_args {
    const char *cmd, *algo_name;
    kiln_merkle_algo algo;
    int reversed; /* sha256d: display order */
    int json;
    kiln_merkle_leaf_hash leaf; /* --rows: --leaf-hash */
} merkle_args;

/* Leaves of a tree: memory is their only limit. */
#define ALL_LEAVES UINT64_MAX
/* A proof file: the root and at most 64 siblings. */
#define PROOF_LINES 65
/* A raw block's serialized size is at most its weight, 4,000,000; one byte more is read so that
 * kiln_block_parse sees an oversized block and refuses it, naming the limit. */
#define BLOCK_READ (4000000 + 1)

/* A node as a JSON string (member `key`, or an array element when key is NULL). */
static void json_node(const merkle_args *a, const char *key, const uint8_t node[NODE])
{
    char hex[2 * NODE + 1];
    kiln_hex_encode(node, NODE, a->reversed, hex);
    json_str(key, hex);
}

/* A node as a line of text, or as json_node writes it. */
static void print_node(const merkle_args *a, const char *key, const uint8_t node[NODE])
{
    if (a->json) {
        json_node(a, key, node);
        return;
    }
    char hex[2 * NODE + 1];
    kiln_hex_encode(node, NODE, a->reversed, hex);
    puts(hex);
}

/* The tree level by level: "level index hash" lines, or JSON "tree": [[the leaves], ..., [root]]. */
static void print_tree(const merkle_args *a, const uint8_t *tree, uint64_t n)
{
    char hex[2 * NODE + 1];
    json_array("tree");
    for (int l = 0; l < kiln_merkle_levels(n); l++) {
        uint64_t off = kiln_merkle_level_offset(n, l), size = kiln_merkle_level_size(n, l);
        json_array(NULL);
        for (uint64_t i = 0; i < size; i++) {
            kiln_hex_encode(tree + NODE * (off + i), NODE, a->reversed, hex);
            if (a->json) json_str(NULL, hex);
            else printf("%d %llu %s\n", l, (unsigned long long)i, hex);
        }
        json_close();
    }
    json_close();
}

/* Builds the tree and prints the root, then the proof or the tree when asked. As JSON, the
 * document's object is opened here, once the tree is built. */
static int build_and_print(const merkle_args *a, kiln_ctx *ctx, const uint8_t *leaves, uint64_t n,
                           const kiln_merkle_opts *opts, const char *proof_s, int whole, uint8_t root[NODE])
{
    uint64_t index = 0;
    if (proof_s && (cli_parse_u64(proof_s, UINT64_MAX, &index) != 0 || index >= n))
        return cli_error(EXIT_USAGE, a->cmd, "bad --proof '%s' (a leaf index below %llu)", proof_s,
                         (unsigned long long)n);
    uint8_t *tree = NULL;
    if (proof_s || whole) {
        tree = malloc(kiln_merkle_tree_size(n) * NODE);
        if (!tree) return cli_error(EXIT_DEVICE, a->cmd, "out of memory for the tree");
    }
    kiln_status st = kiln_merkle_build(ctx, a->algo, leaves, n, opts, root, tree);
    progress_end();
    if (st != KILN_OK) {
        free(tree);
        return cli_fail(a->cmd, ctx, st);
    }
    json_object(NULL);
    json_str("algo", a->algo_name);
    json_u64("leaves", n);
    print_node(a, "root", root);
    if (proof_s) {
        uint8_t sib[64 * NODE];
        int count = 0;
        st = kiln_merkle_proof(ctx, tree, n, index, sib, &count);
        json_u64("index", index);
        json_array("proof");
        for (int i = 0; st == KILN_OK && i < count; i++) print_node(a, NULL, sib + NODE * i);
        json_close();
    } else if (whole) {
        print_tree(a, tree, n);
    }
    free(tree);
    return st == KILN_OK ? EXIT_OK : cli_fail(a->cmd, ctx, st);
}

/* pow: the block's proof of work, sha256d (Bitcoin; also its id) or scrypt (Litecoin) */
static int block_mode(const merkle_args *a, kiln_ctx *ctx, const char *path, const kiln_merkle_opts *opts,
                      const char *proof_s, int whole, kiln_algo pow)
{
    size_t len;
    unsigned char *raw;
    int code = merkle_read_bytes(a->cmd, path, BLOCK_READ, &raw, &len);
    if (code != EXIT_OK) return code;
    kiln_block b;
    kiln_status st = kiln_block_parse(ctx, raw, len, &b);
    free(raw);
    if (st != KILN_OK) return cli_error(cli_exit_for(st), a->cmd, "%s: %s", path, kiln_last_error(ctx));
    uint8_t root[NODE], hash[32], target[32];
    code = build_and_print(a, ctx, b.txids, b.n_tx, opts, proof_s, whole, root);
    if (code != EXIT_OK) {
        kiln_block_free(&b);
        return code;
    }
    int root_ok = memcmp(root, b.header + 36, NODE) == 0;
    uint8_t pow_hash[32];
    kiln_header_hash(b.header, hash);
    kiln_pow_hash(pow, b.header, pow_hash);
    uint32_t bits = kiln_header_bits(b.header);
    int pow_ok = kiln_target_from_bits(NULL, bits, target) == KILN_OK && kiln_hash_meets_target(pow_hash, target);
    char header_root[65], block_hash[65], pow_hex[65];
    kiln_hex_encode(b.header + 36, 32, 1, header_root);
    kiln_hex_encode(hash, 32, 1, block_hash);
    kiln_hex_encode(pow_hash, 32, 1, pow_hex);
    const char *pow_name = kiln_algo_name(pow);
    json_str("header_root", header_root);
    json_bool("root_matches", root_ok);
    json_str("block_hash", block_hash);
    json_str("pow", pow_name);
    json_str("pow_hash", pow_hex);
    json_bool("pow_ok", pow_ok);
    char bits_hex[9];
    snprintf(bits_hex, sizeof bits_hex, "%08x", bits);
    json_str("bits", bits_hex);
    json_u64("transactions", b.n_tx);
    json_u64("segwit", b.n_segwit);
    if (!proof_s && !whole && !a->json) {
        printf("header_root=%s %s\n", header_root, root_ok ? "match" : "MISMATCH");
        if (pow == KILN_ALGO_SHA256D)
            printf("block_hash=%s pow=%s (bits %08x)\n", block_hash, pow_ok ? "ok" : "FAILED", bits);
        else
            printf("block_hash=%s pow=%s (%s %s, bits %08x)\n", block_hash, pow_ok ? "ok" : "FAILED", pow_name, pow_hex,
                   bits);
        printf("transactions=%llu segwit=%llu\n", (unsigned long long)b.n_tx, (unsigned long long)b.n_segwit);
    }
    kiln_block_free(&b);
    if (!root_ok) return cli_error(EXIT_NOT_FOUND, a->cmd, "%s: Merkle root does not match the header's (%s)", path,
                                   header_root);
    if (!pow_ok)
        return cli_error(EXIT_NOT_FOUND, a->cmd, "%s: %s hash %s does not meet its target (bits %08x)%s", path, pow_name,
                         pow_hex, bits, pow == KILN_ALGO_SHA256D ? " (a Litecoin block? --pow scrypt)" : "");
    return EXIT_OK;
}

static int verify_mode(const merkle_args *a, kiln_ctx *ctx, const char *path, const char *leaf_s, const char *index_s,
                       const char *count_s)
{
    uint64_t index, n = 0;
    uint8_t leaf[NODE];
    if (!leaf_s || !index_s || !count_s)
        return cli_error(EXIT_USAGE, a->cmd,
                         "--verify needs --leaf HEX, --index I and --count N (the tree's leaf count: without it a "
                         "proof cannot tell a leaf past the end from the last one, which an odd level pairs with itself)");
    if (merkle_parse_hash(leaf_s, strlen(leaf_s), a->reversed, leaf) != 0)
        return cli_error(EXIT_USAGE, a->cmd, "bad --leaf (expected %d hex digits)", 2 * NODE);
    if (cli_parse_u64(index_s, UINT64_MAX, &index) != 0) return cli_error(EXIT_USAGE, a->cmd, "bad --index '%s'", index_s);
    if (cli_parse_u64(count_s, UINT64_C(1) << 40, &n) != 0 || n == 0)
        return cli_error(EXIT_USAGE, a->cmd, "bad --count '%s'", count_s);
    uint8_t *nodes = NULL;
    uint64_t lines = 0;
    int code = merkle_read_hashes(a->cmd, path, a->reversed, PROOF_LINES, " (a proof holds the root and 0..64 siblings)",
                                  1, &nodes, &lines);
    if (code != EXIT_OK) return code;
    if (lines == 0) {
        free(nodes);
        return cli_error(EXIT_USAGE, a->cmd, "%s: a proof file holds the root and 0..64 siblings, and this one is empty",
                         path);
    }
    kiln_status st = kiln_merkle_verify(ctx, a->algo, leaf, index, n, nodes + NODE, (int)(lines - 1), nodes);
    if (st == KILN_OK || st == KILN_NOT_FOUND) {
        json_object(NULL);
        json_str("algo", a->algo_name);
        json_node(a, "leaf", leaf);
        json_u64("index", index);
        json_u64("count", n);
        json_node(a, "root", nodes);
        json_bool("ok", st == KILN_OK);
        if (st == KILN_NOT_FOUND) {
            json_str("reason", kiln_last_error(ctx));
            json_note_error(kiln_last_error(ctx));
        }
    }
    free(nodes);
    if (st == KILN_OK) {
        if (!a->json) puts("OK");
        return EXIT_OK;
    }
    if (st == KILN_NOT_FOUND) {
        if (!a->json) printf("FAILED: %s\n", kiln_last_error(ctx));
        return EXIT_NOT_FOUND;
    }
    return cli_fail(a->cmd, ctx, st);
}

/* --rows: the rows' leaf hashes (on the context's device), then the tree as for --leaves. */
static int rows_mode(const merkle_args *a, kiln_ctx *ctx, const char *path, const kiln_merkle_opts *opts,
                     const char *proof_s, int whole)
{
    uint8_t *rows = NULL, *leaves = NULL, root[NODE];
    uint64_t n = 0;
    size_t width = 0;
    int code = merkle_read_rows(a->cmd, path, kiln_merkle_row_element_bytes(a->algo), &rows, &n, &width);
    if (code) return code;
    if (n == 0) code = cli_error(EXIT_USAGE, a->cmd, "%s holds no rows", path);
    else if (!(leaves = malloc((size_t)n * NODE))) code = cli_error(EXIT_DEVICE, a->cmd, "out of memory for %llu leaves", (unsigned long long)n);
    else {
        kiln_status st = kiln_merkle_leaves_from_rows_with(ctx, a->algo, a->leaf, rows, n, width, leaves);
        code = st == KILN_OK ? build_and_print(a, ctx, leaves, n, opts, proof_s, whole, root) : cli_fail(a->cmd, ctx, st);
    }
    free(rows);
    free(leaves);
    return code;
}

enum { LEAVES = 1, BLOCK = 2, VERIFY = 4, ROWS = 8 };
#define BUILD (LEAVES | BLOCK | ROWS)

int cmd_merkle(int argc, char **argv)
{
    const char *cmd = "merkle", *algo_s = "sha256d", *leaves_s = NULL, *block_s = NULL, *proof_s = NULL;
    const char *rows_s = NULL, *verify_s = NULL, *leaf_s = NULL, *index_s = NULL, *count_s = NULL, *device = "auto";
    int method = KILN_MERKLE_AUTO, pow = KILN_ALGO_SHA256D, leaf = KILN_MERKLE_LEAF_SPONGE;
    uint64_t k = 0, tpb = 0, threads = 0;
    int whole = 0, graph = 0;
    cli_output out = {0, 0, 0};
    cli_option opts[] = {
        {"--algo", OPT_ALGO, &algo_s, "A", "the merge (default sha256d)", .kinds = KILN_KIND_TREE},
        {"--leaves", OPT_STR, &leaves_s, "FILE", "one 64-hex-digit hash per line ('-' = stdin)", .modes = 0},
        {"--rows", OPT_STR, &rows_s, "FILE",
         "a matrix, one row of decimal field elements a line, each row hashed into a leaf (Poseidon2 merges)",
         .modes = 0},
        {"--leaf-hash", OPT_CHOICE, &leaf, "sponge|sponge24|miden",
         "how --rows hashes a row (default sponge: Plonky3's at the merge's width; sponge24: width 24, "
         "BabyBear and KoalaBear; miden: miden-crypto's hash_elements, poseidon2_goldilocks12)",
         .modes = ROWS,
         .choices = (const int[]){KILN_MERKLE_LEAF_SPONGE, KILN_MERKLE_LEAF_SPONGE24, KILN_MERKLE_LEAF_MIDEN}},
        {"--block", OPT_STR, &block_s, "RAWFILE", "a raw Bitcoin block: check its Merkle root and proof of work", .modes = 0},
        {"--pow", OPT_CHOICE, &pow, "sha256d|scrypt", "the block's proof of work (default sha256d; scrypt: Litecoin)",
         .modes = BLOCK, .choices = (const int[]){KILN_ALGO_SHA256D, KILN_ALGO_SCRYPT}},
        {"--verify", OPT_STR, &verify_s, "PROOFFILE", "check a proof (as --proof prints it)", .modes = 0},
        {"--proof", OPT_STR, &proof_s, "INDEX", "print the root, then the siblings of leaf INDEX from the leaf level up",
         .modes = BUILD},
        {"--tree", OPT_FLAG, &whole, NULL, "print every node as 'level index hash'", .modes = BUILD},
        {"--leaf", OPT_STR, &leaf_s, "HEX", "the leaf a proof is for", .modes = VERIFY},
        {"--index", OPT_STR, &index_s, "I", "the leaf's index", .modes = VERIFY},
        {"--count", OPT_STR, &count_s, "N", "the tree's leaf count (needed: it bounds the index)", .modes = VERIFY},
        CLI_OPT_DEVICE(&device, CLI_DEVICE_VALUES, "where to build the tree (default auto); a set builds a subtree on each GPU",
                       BUILD),
        {"--threads", OPT_U64, &threads, "N", "CPU threads (0: one per core)", .modes = BUILD, .hi = 4096},
        {"--method", OPT_CHOICE, &method, "auto|levels|subtrees", "how the GPU builds the tree", .modes = BUILD,
         .gpu_only = 1, .choices = (const int[]){KILN_MERKLE_AUTO, KILN_MERKLE_LEVELS, KILN_MERKLE_SUBTREES}},
        {"--k", OPT_U64, &k, "K", "levels per launch of the subtree kernel", .modes = BUILD, .lo = 1, .hi = 12,
         .gpu_only = 1},
        {"--threads-per-block", OPT_U64, &tpb, "T", "GPU threads per block", .modes = BUILD, .hi = 1024,
         .gpu_only = 1},
        {"--graph", OPT_FLAG, &graph, NULL, "launch the levels as one CUDA graph", .modes = BUILD,
         .gpu_only = 1},
        CLI_OPT_JSON(&out, 0),
        CLI_OPT_PROGRESS(&out, BUILD),
    };
    cli_command c = CLI_COMMAND(cmd, "(--leaves FILE | --rows FILE | --block RAWFILE | --verify PROOFFILE --leaf HEX --index I --count N) [options]",
                                "sha256d hashes are byte-reversed (txids as explorers show them). Prints the root;\n"
                                "--block also checks the header's root and proof of work (exit 1 when either fails;\n"
                                "--pow scrypt for a Litecoin block).\n",
                                opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return json_end(code == CLI_HELP ? EXIT_OK : code);
    merkle_args a = {cmd, algo_s, KILN_MERKLE_SHA256D, 1, out.json, (kiln_merkle_leaf_hash)leaf};
    const kiln_workload *w = cli_workload(cmd, algo_s, KILN_KIND_TREE, &code);
    if (!w) return json_end(code);
    a.algo = (kiln_merkle_algo)w->tree_algo;
    a.algo_name = w->name;
    a.reversed = a.algo == KILN_MERKLE_SHA256D;
    int modes = (leaves_s != NULL) + (rows_s != NULL) + (block_s != NULL) + (verify_s != NULL);
    if (modes != 1)
        return json_end(cli_error(EXIT_USAGE, cmd, "give exactly one of --leaves, --rows, --block and --verify (see --help)"));
    unsigned mode = leaves_s ? LEAVES : rows_s ? ROWS : block_s ? BLOCK : VERIFY;
    if ((code = cli_check_mode(&c, mode, leaves_s ? "--leaves" : rows_s ? "--rows" : block_s ? "--block" : "--verify")) != 0)
        return json_end(code);
    if (rows_s && !kiln_merkle_row_element_bytes(a.algo))
        return json_end(cli_error(EXIT_USAGE, cmd, "--rows hashes rows for the poseidon2_* merges, not --algo %s", algo_s));
    if (block_s && a.algo != KILN_MERKLE_SHA256D)
        return json_end(cli_error(EXIT_USAGE, cmd, "--block builds Bitcoin's %s tree; --algo %s does not apply",
                                  kiln_merkle_algo_name(KILN_MERKLE_SHA256D), algo_s));
    if ((code = cli_exclusive(&c, "--proof", "--tree")) != 0) return json_end(code);
    if ((code = cli_output_start(&c, &out)) != 0) return json_end(code);

    kiln_merkle_opts opts_m = {(kiln_merkle_method)method, (int)k, (int)tpb, graph};

    kiln_ctx *ctx = cli_open(cmd, verify_s ? "cpu" : device, (int)threads, &code);
    if (!ctx) return json_end(code);
    if ((code = cli_check_gpu(&c, ctx)) != 0) {
        kiln_ctx_free(ctx);
        return json_end(code);
    }
    progress_attach(ctx);
    tune_cache_apply(ctx, w, KILN_KIND_TREE, &opts_m);
    if (verify_s) code = verify_mode(&a, ctx, verify_s, leaf_s, index_s, count_s);
    else if (block_s) code = block_mode(&a, ctx, block_s, &opts_m, proof_s, whole, (kiln_algo)pow);
    else if (rows_s) code = rows_mode(&a, ctx, rows_s, &opts_m, proof_s, whole);
    else {
        uint8_t *leaves = NULL, root[NODE];
        uint64_t n = 0;
        code = merkle_read_hashes(cmd, leaves_s, a.reversed, ALL_LEAVES, "", (unsigned)threads, &leaves, &n);
        if (code == EXIT_OK && n == 0) code = cli_error(EXIT_USAGE, cmd, "%s holds no hashes", leaves_s);
        else if (code == EXIT_OK) code = build_and_print(&a, ctx, leaves, n, &opts_m, proof_s, whole, root);
        free(leaves);
    }
    progress_end();
    kiln_ctx_free(ctx);
    return json_end(code);
}
