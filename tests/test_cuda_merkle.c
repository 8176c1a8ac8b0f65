/* Merkle trees on the GPU against the CPU: whole trees, node for node, for every GPU merge, both
 * schedules (one launch per level; subtrees in shared memory, several k and block sizes), with and
 * without a CUDA graph, for N = 1, 2, 3, 5, 2^k - 1, 2^k, 2^k + 1 and large random N; the real
 * block's root; launch counts; the benchmark entry point. */
#include "check.h"
#include "kiln.h"
#include "test_data_files.h"

typedef struct shape {
    kiln_merkle_method method;
    int k, tpb, graph;
} shape;

static const shape shapes[] = {
    {KILN_MERKLE_LEVELS, 0, 128, 0},   {KILN_MERKLE_LEVELS, 0, 32, 1},  {KILN_MERKLE_SUBTREES, 1, 64, 0},
    {KILN_MERKLE_SUBTREES, 3, 32, 0},  {KILN_MERKLE_SUBTREES, 4, 128, 1}, {KILN_MERKLE_SUBTREES, 2, 1024, 0},
    {KILN_MERKLE_SUBTREES, 7, 32, 1},  {KILN_MERKLE_SUBTREES, 5, 64, 0}, {KILN_MERKLE_AUTO, 0, 0, 0},
};

static void random_leaves(uint8_t *p, uint64_t n, unsigned long long *seed)
{
    for (uint64_t i = 0; i < n * 4; i++) {
        uint64_t v = test_rand(seed) % UINT64_C(0xFFFFFFFF00000001); /* canonical for rp64_256 too */
        for (int b = 0; b < 8; b++) p[8 * i + (uint64_t)b] = (uint8_t)(v >> (8 * b));
    }
}

/* GPU whole tree and root == CPU whole tree for n leaves, every shape. */
static void compare(kiln_ctx *gpu, kiln_ctx *cpu, kiln_merkle_algo algo, uint64_t n, unsigned long long *seed,
                    int all_shapes)
{
    uint64_t size = kiln_merkle_tree_size(n);
    uint8_t *leaves = malloc(n * 32), *want = malloc(size * 32), *got = malloc(size * 32), rw[32], rg[32];
    if (!leaves || !want || !got) {
        CHECK(0, "out of memory");
        return;
    }
    random_leaves(leaves, n, seed);
    CHECK(kiln_merkle_build(cpu, algo, leaves, n, NULL, rw, want) == KILN_OK, "CPU build");
    size_t nshapes = all_shapes ? sizeof shapes / sizeof shapes[0] : 3;
    for (size_t s = 0; s < nshapes; s++) {
        const shape *sh = &shapes[all_shapes ? s : s * 3];
        kiln_merkle_opts o = {sh->method, sh->k, sh->tpb, sh->graph};
        memset(got, 0xa5, size * 32);
        kiln_status st = kiln_merkle_build(gpu, algo, leaves, n, &o, rg, got);
        if (st == KILN_ERR_INPUT && strstr(kiln_last_error(gpu), "limit")) continue; /* block too big for registers */
        CHECK(st == KILN_OK, "%s n=%llu method %d k %d tpb %d graph %d: %s", kiln_merkle_algo_name(algo),
              (unsigned long long)n, sh->method, sh->k, sh->tpb, sh->graph, kiln_last_error(gpu));
        if (st != KILN_OK) continue;
        int same = memcmp(got, want, size * 32) == 0 && memcmp(rg, rw, 32) == 0;
        if (!same) {
            for (uint64_t i = 0; i < size; i++)
                if (memcmp(got + 32 * i, want + 32 * i, 32)) {
                    fprintf(stderr, "  first difference at node %llu of %llu\n", (unsigned long long)i,
                            (unsigned long long)size);
                    break;
                }
        }
        CHECK(same, "%s n=%llu method %d k %d tpb %d graph %d: GPU tree == CPU tree", kiln_merkle_algo_name(algo),
              (unsigned long long)n, sh->method, sh->k, sh->tpb, sh->graph);
        /* root only (the tree stays on the device) */
        CHECK(kiln_merkle_build(gpu, algo, leaves, n, &o, rg, NULL) == KILN_OK && memcmp(rg, rw, 32) == 0,
              "%s n=%llu root only", kiln_merkle_algo_name(algo), (unsigned long long)n);
    }
    free(leaves);
    free(want);
    free(got);
}

static void real_block(kiln_ctx *gpu)
{
    size_t len;
    unsigned char *raw = slurp(test_data("block413567.raw"), &len);
    kiln_block b;
    CHECK(raw && kiln_block_parse(gpu, raw, len, &b) == KILN_OK, "parse block413567");
    if (!raw) return;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        kiln_merkle_opts o = {shapes[s].method, shapes[s].k, shapes[s].tpb, shapes[s].graph};
        uint8_t root[32];
        CHECK(kiln_merkle_build(gpu, KILN_MERKLE_SHA256D, b.txids, b.n_tx, &o, root, NULL) == KILN_OK &&
                  memcmp(root, b.header + 36, 32) == 0,
              "GPU root of block413567 (shape %zu) equals its header's", s);
    }
    kiln_block_free(&b);
    free(raw);
}

/* Launch counts: one per level; ceil(levels / k) for subtrees; rp64_256's narrow levels (at most
 * 65536 parents) one launch each in either schedule. */
static void launches(kiln_ctx *gpu)
{
    kiln_merkle_bench_result r;
    uint64_t n = (UINT64_C(1) << 16) + 3; /* 18 levels */
    kiln_merkle_opts lv = {KILN_MERKLE_LEVELS, 0, 128, 0}, st = {KILN_MERKLE_SUBTREES, 5, 128, 1};
    CHECK(kiln_merkle_bench(gpu, KILN_MERKLE_SHA256D, n, &lv, 3, &r) == KILN_OK && r.launches == 17 && r.rate > 0 &&
              r.raw_rate > 0,
          "levels: %d launches (want 17): %s", r.launches, kiln_last_error(gpu));
    CHECK(kiln_merkle_bench(gpu, KILN_MERKLE_SHA256D, n, &st, 3, &r) == KILN_OK && r.launches == 4 && r.rate > 0,
          "subtrees k=5: %d launches (want ceil(17/5) = 4): %s", r.launches, kiln_last_error(gpu));
    CHECK(kiln_merkle_bench(gpu, KILN_MERKLE_RP64_256, n, &st, 3, &r) == KILN_OK && r.launches == 17,
          "rp64_256 narrow levels: %d launches (want 17): %s", r.launches, kiln_last_error(gpu));
    /* 2^18 + 3 leaves: 20 levels; one subtree launch (k = 3) while the next level has more than
     * 65536 nodes, then 16 narrow levels */
    st.subtree_log2 = 3;
    CHECK(kiln_merkle_bench(gpu, KILN_MERKLE_RP64_256, (UINT64_C(1) << 18) + 3, &st, 2, &r) == KILN_OK &&
              r.launches == 17,
          "rp64_256 subtrees then narrow levels: %d launches (want 17): %s", r.launches, kiln_last_error(gpu));
    kiln_merkle_opts over = {KILN_MERKLE_SUBTREES, 6, 128, 0};
    CHECK(kiln_merkle_bench(gpu, KILN_MERKLE_SHA256D, n, &over, 1, &r) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(gpu), "limit"),
          "2^6 x 128 nodes per block refused: %s", kiln_last_error(gpu));
}

int main(void)
{
    if (kiln_cuda_device_count() == 0) {
        printf("no CUDA GPU: skipped\n");
        return TEST_SKIP;
    }
    kiln_ctx *gpu = kiln_ctx_new(), *cpu = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(gpu, "cuda") == KILN_OK, "cuda device");
    unsigned long long seed = 2024;
    /* KILN_TEST_QUICK (for compute-sanitizer runs): the small sizes only */
    int quick = getenv("KILN_TEST_QUICK") != NULL;
    static const kiln_merkle_algo algos[] = {KILN_MERKLE_SHA256D, KILN_MERKLE_SHA256, KILN_MERKLE_RP64_256};
    static const uint64_t small[] = {1, 2, 3, 5, 31, 32, 33, 255, 256, 257, 1023, 1024, 1025, 4095, 4096, 4097};
    static const uint64_t small_quick[] = {1, 2, 3, 5, 33, 1025, 4097};
    for (size_t a = 0; a < 3; a++) {
        size_t count = quick ? sizeof small_quick / sizeof small_quick[0] : sizeof small / sizeof small[0];
        for (size_t i = 0; i < count; i++) compare(gpu, cpu, algos[a], quick ? small_quick[i] : small[i], &seed, 1);
    }
    /* the SHA-3 / Keccak merges when this build has them */
    static const kiln_merkle_algo keccaks[] = {KILN_MERKLE_SHA3_256, KILN_MERKLE_KECCAK256};
    for (size_t a = 0; a < 2; a++) {
        uint8_t z[32] = {0}, o[32];
        if (kiln_merkle_merge(cpu, keccaks[a], z, z, o) != KILN_OK) continue;
        compare(gpu, cpu, keccaks[a], 3, &seed, 1);
        compare(gpu, cpu, keccaks[a], 1025, &seed, 1);
        if (!quick) compare(gpu, cpu, keccaks[a], (1u << 20) + 1, &seed, 0);
    }
    if (quick) {
        real_block(gpu);
        launches(gpu);
        kiln_ctx_free(gpu);
        kiln_ctx_free(cpu);
        return check_summary();
    }
    /* large: 2^k - 1, 2^k, 2^k + 1 and random sizes */
    static const uint64_t big_sha[] = {(1u << 20) - 1, 1u << 20, (1u << 20) + 1, 3000017, 524309};
    for (size_t i = 0; i < sizeof big_sha / sizeof big_sha[0]; i++) {
        compare(gpu, cpu, KILN_MERKLE_SHA256D, big_sha[i], &seed, 1);
        compare(gpu, cpu, KILN_MERKLE_SHA256, big_sha[i], &seed, 0);
    }
    /* rp64_256 past 2^17 + 2 leaves also runs its bulk levels through the one-thread kernels */
    static const uint64_t big_rp[] = {(1u << 16) - 1, 1u << 16, (1u << 16) + 1, 100003, (1u << 18) + 3, 300007};
    for (size_t i = 0; i < sizeof big_rp / sizeof big_rp[0]; i++) compare(gpu, cpu, KILN_MERKLE_RP64_256, big_rp[i], &seed, i >= 3);
    for (int i = 0; i < 4; i++) compare(gpu, cpu, KILN_MERKLE_SHA256D, 1 + test_rand(&seed) % 200000, &seed, 1);
    real_block(gpu);
    launches(gpu);
    kiln_ctx_free(gpu);
    kiln_ctx_free(cpu);
    return check_summary();
}
