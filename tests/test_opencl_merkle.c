/* Merkle trees on the first OpenCL device (PoCL in CI) against the CPU: whole trees node for node
 * for every merge (sha256d, sha256, sha3-256, keccak256, rp64_256), both schedules (one launch per
 * level; subtrees in local memory with several k and group sizes), for N = 1, 2, 3, 5, around powers
 * of two and 1000; real Bitcoin blocks' roots against their headers (mainnet 413567, 1,557
 * transactions; testnet3 000000000000045e, 15); launch counts. Skipped (77) without an OpenCL
 * device, unless KILN_REQUIRE_OPENCL is set. */
#include "check.h"
#include "opencl_device.h"
#include "kiln.h"
#include "test_data_files.h"

typedef struct shape {
    kiln_merkle_method method;
    int k, tpb;
} shape;

static const shape shapes[] = {
    {KILN_MERKLE_LEVELS, 0, 128}, {KILN_MERKLE_SUBTREES, 1, 64}, {KILN_MERKLE_SUBTREES, 3, 32},
    {KILN_MERKLE_SUBTREES, 5, 64}, {KILN_MERKLE_SUBTREES, 2, 96}, {KILN_MERKLE_AUTO, 0, 0},
};

static void random_leaves(uint8_t *p, uint64_t n, unsigned long long *seed)
{
    for (uint64_t i = 0; i < n * 4; i++) {
        uint64_t v = test_rand(seed) % UINT64_C(0xFFFFFFFF00000001); /* canonical for rp64_256 too */
        for (int b = 0; b < 8; b++) p[8 * i + (uint64_t)b] = (uint8_t)(v >> (8 * b));
    }
}

/* The OpenCL whole tree and root == the CPU's for n leaves, every shape of sh[0..nsh). */
static void compare_shapes(kiln_ctx *ocl, kiln_ctx *cpu, kiln_merkle_algo algo, uint64_t n, unsigned long long *seed,
                           const shape *sh, size_t nsh)
{
    uint64_t size = kiln_merkle_tree_size(n);
    uint8_t *leaves = malloc(n * 32), *want = malloc(size * 32), *got = malloc(size * 32), rw[32], rg[32];
    if (!leaves || !want || !got) {
        CHECK(0, "out of memory");
        return;
    }
    random_leaves(leaves, n, seed);
    CHECK(kiln_merkle_build(cpu, algo, leaves, n, NULL, rw, want) == KILN_OK, "CPU build");
    for (size_t s = 0; s < nsh; s++) {
        kiln_merkle_opts o = {sh[s].method, sh[s].k, sh[s].tpb, 0};
        memset(got, 0xa5, size * 32);
        kiln_status st = kiln_merkle_build(ocl, algo, leaves, n, &o, rg, got);
        CHECK(st == KILN_OK && memcmp(got, want, size * 32) == 0 && memcmp(rg, rw, 32) == 0,
              "%s n=%llu method %d k %d group %d: OpenCL tree == CPU tree (%s)", kiln_merkle_algo_name(algo),
              (unsigned long long)n, o.method, o.subtree_log2, o.threads_per_block, st ? kiln_last_error(ocl) : "ok");
        /* the root alone: the tree stays on the device and the checks read it there */
        CHECK(kiln_merkle_build(ocl, algo, leaves, n, &o, rg, NULL) == KILN_OK && memcmp(rg, rw, 32) == 0,
              "%s n=%llu root only", kiln_merkle_algo_name(algo), (unsigned long long)n);
    }
    free(leaves);
    free(want);
    free(got);
}

static void compare(kiln_ctx *ocl, kiln_ctx *cpu, kiln_merkle_algo algo, uint64_t n, unsigned long long *seed)
{
    compare_shapes(ocl, cpu, algo, n, seed, shapes, sizeof shapes / sizeof shapes[0]);
}

static void real_block(kiln_ctx *ocl, const char *file)
{
    size_t len;
    unsigned char *raw = slurp(test_data(file), &len);
    kiln_block b;
    CHECK(raw && kiln_block_parse(ocl, raw, len, &b) == KILN_OK, "parse %s", file);
    if (!raw) return;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        kiln_merkle_opts o = {shapes[s].method, shapes[s].k, shapes[s].tpb, 0};
        uint8_t root[32];
        CHECK(kiln_merkle_build(ocl, KILN_MERKLE_SHA256D, b.txids, b.n_tx, &o, root, NULL) == KILN_OK &&
                  memcmp(root, b.header + 36, 32) == 0,
              "OpenCL root of %s (shape %zu) equals its header's: %s", file, s, kiln_last_error(ocl));
    }
    kiln_block_free(&b);
    free(raw);
}

/* One launch per level; ceil(levels above the leaves / k) for subtrees. */
static void launches(kiln_ctx *ocl)
{
    kiln_merkle_bench_result r;
    uint64_t n = 1000; /* 11 levels: 10 above the leaves */
    kiln_merkle_opts lv = {KILN_MERKLE_LEVELS, 0, 64, 0}, st = {KILN_MERKLE_SUBTREES, 3, 64, 0};
    CHECK(kiln_merkle_bench(ocl, KILN_MERKLE_SHA256D, n, &lv, 1, &r) == KILN_OK && r.launches == 10,
          "levels: %d launches (want 10): %s", r.launches, kiln_last_error(ocl));
    CHECK(kiln_merkle_bench(ocl, KILN_MERKLE_KECCAK256, n, &st, 1, &r) == KILN_OK && r.launches == 4,
          "subtrees k=3: %d launches (want 4): %s", r.launches, kiln_last_error(ocl));
}

int main(void)
{
    const int missing = test_opencl_missing();
#ifndef KILN_HAVE_OPENCL
    return missing;
#else
    if (missing) return missing;
    kiln_ctx *ocl = kiln_ctx_new(), *cpu = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ocl, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ocl));
    CHECK(kiln_ctx_set_device(cpu, "cpu") == KILN_OK, "cpu");
    unsigned long long seed = 2026;
    static const uint64_t sizes[] = {1, 2, 3, 5, 31, 32, 33, 255, 256, 257, 1000};
    for (int a = 0; a < KILN_MERKLE_ALGO_COUNT; a++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) compare(ocl, cpu, (kiln_merkle_algo)a, sizes[i], &seed);
    /* rp64_256 levels of at most 65536 parents run 16 work-items a merge (every level of the trees
     * above), wider ones one work-item a merge: 2^17 + 3 leaves have one wide level (65538
     * parents), here in the first subtree launch, then narrow ones */
    static const shape wide[] = {{KILN_MERKLE_SUBTREES, 3, 32}};
    compare_shapes(ocl, cpu, KILN_MERKLE_RP64_256, (UINT64_C(1) << 17) + 3, &seed, wide, 1);
    real_block(ocl, "block413567.raw");
    real_block(ocl, "testnet3_block_000000000000045e.raw");
    launches(ocl);
    kiln_ctx_free(ocl);
    kiln_ctx_free(cpu);
    return check_summary();
#endif
}
