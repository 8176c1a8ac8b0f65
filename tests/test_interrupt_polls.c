/* Every long CPU call of the library reads the context's interrupt poll and stops with
 * KILN_STOPPED "interrupted": hash batches (also inside one long message), Merkle trees, scrypt
 * (also inside one ROMix), nonce searches, the benchmarks, PageRank, and output files, which are
 * then removed with the old target kept. The poll answers "stop" from its (k+1)-th call on, so a
 * poll at a given point is told apart from one at the call's start: with k = 1, a call that only
 * polled once would finish. The long message hashed in pieces is checked against Python's hashlib. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kiln.h"

static atomic_int calls;
static int allowed;

static int poll_after(void *user)
{
    (void)user;
    return atomic_fetch_add(&calls, 1) >= allowed;
}

/* The poll answers "go on" `k` times, then "stop". */
static void arm(kiln_ctx *ctx, int k)
{
    atomic_store(&calls, 0);
    allowed = k;
    kiln_ctx_set_interrupt(ctx, poll_after, NULL);
}

#define CHECK_STOPPED(st, ctx, what)                                                                            \
    CHECK((st) == KILN_STOPPED && strcmp(kiln_last_error(ctx), "interrupted") == 0, "%s: status %d, '%s'", what, \
          (int)(st), kiln_last_error(ctx))

static void test_hash(kiln_ctx *ctx)
{
    size_t n = 4096, len = 64;
    uint8_t *msgs = calloc(n, len), *out = malloc(n * 32);
    arm(ctx, 0);
    CHECK_STOPPED(kiln_hash_batch_fixed(ctx, KILN_HASH_SHA256, msgs, len, n, out, 32), ctx, "hash batch");
    kiln_ctx_set_interrupt(ctx, NULL, NULL);
    CHECK(kiln_hash_batch_fixed(ctx, KILN_HASH_SHA256, msgs, len, n, out, 32) == KILN_OK, "no poll: batch runs");
    free(msgs);
    free(out);

    /* one 33 MiB message: hashed in pieces with a poll between them */
    size_t big = (size_t)33 << 20;
    uint8_t *m = malloc(big), digest[32];
    for (size_t i = 0; i < big; i++) m[i] = (uint8_t)(i * 7 % 251);
    uint64_t offsets[2] = {0, big};
    arm(ctx, 1);
    CHECK_STOPPED(kiln_hash_batch(ctx, KILN_HASH_SHA256, m, offsets, 1, digest, 32), ctx, "inside one message");
    CHECK(atomic_load(&calls) == 2, "polled %d times, not 2", atomic_load(&calls));
    arm(ctx, 1000);
    CHECK(kiln_hash_batch(ctx, KILN_HASH_SHA3_256, m, offsets, 1, digest, 32) == KILN_OK, "long message");
    char hex[65];
    kiln_hex_encode(digest, 32, 0, hex);
    /* python3: hashlib.sha3_256(bytes(i * 7 % 251 for i in range(33 << 20))) */
    CHECK_STR(hex, "2ee0b412449c55048368036e5f08827b5cd9cc0c3856208ca1d3f13581c7ba46");
    CHECK(kiln_hash_batch(ctx, KILN_HASH_SHA256, m, offsets, 1, digest, 32) == KILN_OK, "long message");
    kiln_hex_encode(digest, 32, 0, hex);
    CHECK_STR(hex, "54e3a54cdf491cee09898c1218a785d14c23cf1f9463b465b6f40b1f2bfb00be");
    free(m);

    uint64_t *states = calloc((size_t)1 << 17, 200);
    arm(ctx, 1);
    CHECK_STOPPED(kiln_keccak_f1600_batch(ctx, states, (size_t)1 << 17, KILN_KECCAK_LAYOUT_AUTO), ctx,
                  "permutations");
    free(states);
}

static void test_merkle(kiln_ctx *ctx)
{
    uint64_t n = UINT64_C(1) << 16;
    uint8_t *leaves = calloc(n, 32), *tree = malloc(kiln_merkle_tree_size(n) * 32), root[32];
    for (int with_tree = 0; with_tree < 2; with_tree++) {
        arm(ctx, 0);
        CHECK_STOPPED(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, leaves, n, NULL, root, with_tree ? tree : NULL), ctx,
                      "merkle build");
    }
    /* rp64_256 leaves are checked a million at a time between polls: the poll after the first
     * million comes before the bad leaf that follows them */
    uint64_t many = (UINT64_C(1) << 20) + 1;
    uint8_t *more = calloc(many, 32);
    memset(more + 32 * (many - 1), 0xff, 8);
    arm(ctx, 0);
    CHECK_STOPPED(kiln_merkle_build(ctx, KILN_MERKLE_RP64_256, more, many, NULL, root, NULL), ctx, "leaf check");
    free(more);
    kiln_merkle_bench_result r;
    arm(ctx, 0);
    CHECK_STOPPED(kiln_merkle_bench(ctx, KILN_MERKLE_SHA256D, n, NULL, 3, &r), ctx, "merkle bench");
    free(leaves);
    free(tree);
}

static void test_scrypt(kiln_ctx *ctx)
{
    uint8_t out[64];
    kiln_scrypt_params sp = {16384, 8, 1};
    /* the first poll is at the first PBKDF2's start, the second at the lane's start, the third
     * 4096 steps into ROMix */
    arm(ctx, 2);
    CHECK_STOPPED(kiln_scrypt(ctx, "pleaseletmein", 13, "SodiumChloride", 14, sp, out, 64), ctx, "inside ROMix");
    /* a long output (--length): the last PBKDF2 polls every 1024 blocks (issue 24.5: 40 MB of
     * output ignored SIGINT). With N = 2 ROMix polls twice; polls 1-4 go on, the 6th is 2048
     * blocks into the last PBKDF2 */
    size_t long_len = (size_t)1 << 20;
    uint8_t *long_out = malloc(long_len);
    kiln_scrypt_params tiny = {2, 1, 1};
    arm(ctx, 5);
    CHECK_STOPPED(kiln_scrypt(ctx, "pw", 2, "salt", 4, tiny, long_out, long_len), ctx, "inside the last PBKDF2");
    CHECK(atomic_load(&calls) == 6, "polled %d times, not 6", atomic_load(&calls));
    /* PBKDF2 itself: between blocks and every 65536 iterations of one block */
    arm(ctx, 1);
    CHECK_STOPPED(kiln_pbkdf2_sha256(ctx, "pw", 2, "salt", 4, 200000, out, 32), ctx, "inside one PBKDF2 block");
    arm(ctx, 1);
    CHECK_STOPPED(kiln_pbkdf2_sha256(ctx, "pw", 2, "salt", 4, 1, long_out, long_len), ctx, "between PBKDF2 blocks");
    free(long_out);
    kiln_scrypt_input in[8];
    for (int i = 0; i < 8; i++) in[i] = (kiln_scrypt_input){"pw", 2, "salt", 4};
    uint8_t outs[8 * 32];
    kiln_scrypt_params small = {1024, 1, 1};
    arm(ctx, 0);
    CHECK_STOPPED(kiln_scrypt_batch(ctx, in, 8, small, outs, 32), ctx, "scrypt batch");
    double rate;
    arm(ctx, 0);
    CHECK_STOPPED(kiln_bench_scrypt_kdf(ctx, small, 1, &rate), ctx, "scrypt bench");
}

static void test_scan(kiln_ctx *ctx)
{
    kiln_scan_job job;
    memset(&job, 0, sizeof job); /* a zero target: nothing is found, the whole space would be searched */
    job.count = UINT64_C(1) << 32;
    kiln_scan_result res;
    arm(ctx, 2);
    CHECK_STOPPED(kiln_scan(ctx, &job, &res), ctx, "scan");
    CHECK(res.hashes > 0 && res.hashes < job.count, "scan stopped after two launches: %llu hashes",
          (unsigned long long)res.hashes);
    double rate;
    arm(ctx, 0);
    CHECK_STOPPED(kiln_bench_scan(ctx, KILN_ALGO_SHA256D, 1, &rate), ctx, "scan bench");
    arm(ctx, 0);
    CHECK_STOPPED(kiln_bench_hash(ctx, KILN_HASH_SHA256, 64, 0, 1, &rate), ctx, "hash bench");
    arm(ctx, 0);
    CHECK_STOPPED(kiln_bench_keccak_f1600(ctx, KILN_KECCAK_LAYOUT_AUTO, 0, 1, &rate), ctx, "permutation bench");
}

static void test_pagerank(kiln_ctx *ctx)
{
    uint64_t src[] = {1, 2, 3, 3}, dst[] = {2, 3, 1, 2};
    kiln_graph *g = NULL;
    kiln_ctx_set_interrupt(ctx, NULL, NULL); /* the build polls too: only the PageRank is stopped here */
    CHECK(kiln_graph_from_edges(ctx, src, dst, 4, 0, &g) == KILN_OK, "graph: %s", kiln_last_error(ctx));
    double ranks[3];
    arm(ctx, 0);
    if (g) CHECK_STOPPED(kiln_pagerank(ctx, g, NULL, ranks, NULL), ctx, "pagerank");
    kiln_graph_free(g);
}

static int slurp_is(const char *path, const char *want)
{
    char buf[64] = "";
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strcmp(buf, want) == 0;
}

static int only_entry(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s')\" = target", dir);
    return system(cmd) == 0;
}

static void test_output(kiln_ctx *ctx)
{
    char dir[] = "/tmp/kiln-interrupt-XXXXXX", path[256];
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp: %s", strerror(errno));
        return;
    }
    snprintf(path, sizeof path, "%s/target", dir);
    FILE *f = fopen(path, "w");
    fputs("old", f);
    fclose(f);
    /* the interrupt came after the last write: the commit still abandons the file */
    kiln_output_file out;
    CHECK(kiln_output_open(ctx, path, &out) == KILN_OK, "open: %s", kiln_last_error(ctx));
    fputs("new, cut short", out.fp);
    arm(ctx, 0);
    CHECK_STOPPED(kiln_output_commit(ctx, &out, 1, 0), ctx, "commit after an interrupt");
    CHECK(slurp_is(path, "old") && only_entry(dir), "the old file stays, nothing else");
    /* the writer saw it and says so, with no poll on the context */
    kiln_ctx_set_interrupt(ctx, NULL, NULL);
    CHECK(kiln_output_open(ctx, path, &out) == KILN_OK, "open: %s", kiln_last_error(ctx));
    fputs("new, cut short", out.fp);
    CHECK_STOPPED(kiln_output_commit(ctx, &out, 0, EINTR), ctx, "writer stopped");
    CHECK(slurp_is(path, "old") && only_entry(dir), "the old file stays, nothing else");
    CHECK(kiln_output_open(ctx, path, &out) == KILN_OK, "open: %s", kiln_last_error(ctx));
    fputs("new", out.fp);
    CHECK(kiln_output_commit(ctx, &out, 1, 0) == KILN_OK, "complete: %s", kiln_last_error(ctx));
    CHECK(slurp_is(path, "new") && only_entry(dir), "complete file replaces the old");
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_ctx_set_threads(ctx, 2);
    test_hash(ctx);
    test_merkle(ctx);
    test_scrypt(ctx);
    test_scan(ctx);
    test_pagerank(ctx);
    test_output(ctx);
    kiln_ctx_free(ctx);
    return check_summary();
}
