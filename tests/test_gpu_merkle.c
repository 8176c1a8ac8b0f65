/* Merkle trees on every GPU backend of the build (CUDA, OpenCL: gpu_backends.h) against the CPU:
 * whole trees, node for node, and the root alone (the tree left on the device), for every merge
 * (sha256d, sha256, rp64_256, rpo256, the Poseidon2 ones, and sha3-256 and keccak256 where the build has
 * them), both schedules
 * (one launch per level; subtrees in shared/local memory with several k and group sizes; on CUDA
 * with and without a CUDA graph) for N = 1, 2, 3, 5, 1000 and around powers of two to 4096 (1024
 * on OpenCL); real Bitcoin blocks' roots against their headers (mainnet 413567, 1,557
 * transactions; testnet3 000000000000045e, 15); the launch counts of each schedule (rp64_256's narrow levels, of at most
 * 65536 parents, one launch each). CUDA adds large trees (2^k - 1, 2^k, 2^k + 1 for k = 16, 20,
 * random sizes up to 3 M; the Poseidon2 merges around 2^20) and refuses a block over its limit; OpenCL adds rp64_256's and rpo256's one wide level
 * (2^17 + 3 leaves: 65538 parents, one work-item a merge). Both backends: leaves from rows (every
 * merge's leaf hashes: sponge, sponge24, miden) against the CPU's. KILN_TEST_QUICK
 * (compute-sanitizer): the small sizes only.
 * On OpenCL (PoCL on a CPU in CI: each kernel's first launch in a group size costs a fifth to
 * half a second of CPU, rp64_256's wide level 12 s) make check runs sha256d in every shape at
 * every size, and every other merge in both schedules (levels; subtrees of k = 3 in groups of 32)
 * at 1, 2, 3, 5, 33, 257 and 1025 leaves; KILN_TEST_LONG (test_gpu_merkle_long, label long)
 * runs every merge in every shape at every size, and the wide level. */
#include "check.h"
#include "gpu_backends.h"
#include "kiln.h"
#include "test_data_files.h"

typedef struct shape {
    kiln_merkle_method method;
    int k, tpb, graph;
} shape;

static const shape cuda_shapes[] = {
    {KILN_MERKLE_LEVELS, 0, 128, 0},   {KILN_MERKLE_LEVELS, 0, 32, 1},  {KILN_MERKLE_SUBTREES, 1, 64, 0},
    {KILN_MERKLE_SUBTREES, 3, 32, 0},  {KILN_MERKLE_SUBTREES, 4, 128, 1}, {KILN_MERKLE_SUBTREES, 2, 1024, 0},
    {KILN_MERKLE_SUBTREES, 7, 32, 1},  {KILN_MERKLE_SUBTREES, 5, 64, 0}, {KILN_MERKLE_AUTO, 0, 0, 0},
};
static const shape cuda_some[] = {cuda_shapes[0], cuda_shapes[3], cuda_shapes[6]};
static const shape ocl_shapes[] = {
    {KILN_MERKLE_LEVELS, 0, 128, 0},  {KILN_MERKLE_SUBTREES, 1, 64, 0}, {KILN_MERKLE_SUBTREES, 3, 32, 0},
    {KILN_MERKLE_SUBTREES, 5, 64, 0}, {KILN_MERKLE_SUBTREES, 2, 96, 0}, {KILN_MERKLE_AUTO, 0, 0, 0},
};
/* both schedules: make check's shapes for the merges other than sha256d on OpenCL */
static const shape ocl_some[] = {ocl_shapes[0], ocl_shapes[2]};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The shapes a backend's trees are compared in. */
typedef struct shapes {
    const shape *s;
    size_t n;
} shapes;

/* Canonical for the field merges too: each u64 below Goldilocks' p, or for the BabyBear and
 * KoalaBear merges each u32 below theirs. */
static void random_leaves(uint8_t *p, uint64_t n, unsigned long long *seed, kiln_merkle_algo algo)
{
    const uint32_t p31 = algo == KILN_MERKLE_POSEIDON2_BABYBEAR16    ? 0x78000001u
                         : algo == KILN_MERKLE_POSEIDON2_KOALABEAR16 ? 0x7f000001u
                                                                     : 0;
    for (uint64_t i = 0; i < n * 4; i++) {
        uint64_t v = test_rand(seed) % UINT64_C(0xFFFFFFFF00000001);
        if (p31) v = (uint64_t)((uint32_t)(v >> 32) % p31) << 32 | (uint32_t)v % p31;
        for (int b = 0; b < 8; b++) p[8 * i + (uint64_t)b] = (uint8_t)(v >> (8 * b));
    }
}

/* The device's whole tree and root == the CPU's for n leaves, every shape of sh. */
static void compare(const test_gpu *g, kiln_ctx *cpu, kiln_merkle_algo algo, uint64_t n, unsigned long long *seed,
                    shapes sh)
{
    uint64_t size = kiln_merkle_tree_size(n);
    uint8_t *leaves = malloc(n * 32), *want = malloc(size * 32), *got = malloc(size * 32), rw[32], rg[32];
    if (!leaves || !want || !got) {
        CHECK(0, "out of memory");
        free(leaves), free(want), free(got);
        return;
    }
    random_leaves(leaves, n, seed, algo);
    CHECK(kiln_merkle_build(cpu, algo, leaves, n, NULL, rw, want) == KILN_OK, "CPU build");
    for (size_t s = 0; s < sh.n; s++) {
        kiln_merkle_opts o = {sh.s[s].method, sh.s[s].k, sh.s[s].tpb, sh.s[s].graph};
        memset(got, 0xa5, size * 32);
        kiln_status st = kiln_merkle_build(g->ctx, algo, leaves, n, &o, rg, got);
        /* CUDA: a block too big for the registers of this merge (k 7 x 32, 2 x 1024) is refused */
        if (st == KILN_ERR_INPUT && g->backend == KILN_BACKEND_CUDA && strstr(kiln_last_error(g->ctx), "limit")) continue;
        CHECK(st == KILN_OK, "%s %s n=%llu method %d k %d group %d graph %d: %s", g->name, kiln_merkle_algo_name(algo),
              (unsigned long long)n, o.method, o.subtree_log2, o.threads_per_block, o.graph, kiln_last_error(g->ctx));
        if (st != KILN_OK) continue;
        int same = memcmp(got, want, size * 32) == 0 && memcmp(rg, rw, 32) == 0;
        for (uint64_t i = 0; !same && i < size; i++)
            if (memcmp(got + 32 * i, want + 32 * i, 32)) {
                fprintf(stderr, "  first difference at node %llu of %llu\n", (unsigned long long)i,
                        (unsigned long long)size);
                break;
            }
        CHECK(same, "%s %s n=%llu method %d k %d group %d graph %d: device tree == CPU tree", g->name,
              kiln_merkle_algo_name(algo), (unsigned long long)n, o.method, o.subtree_log2, o.threads_per_block,
              o.graph);
        CHECK(kiln_merkle_build(g->ctx, algo, leaves, n, &o, rg, NULL) == KILN_OK && memcmp(rg, rw, 32) == 0,
              "%s %s n=%llu root only", g->name, kiln_merkle_algo_name(algo), (unsigned long long)n);
    }
    free(leaves);
    free(want);
    free(got);
}

static void real_block(const test_gpu *g, const char *file, shapes sh)
{
    size_t len;
    unsigned char *raw = slurp(test_data(file), &len);
    kiln_block b;
    CHECK(raw && kiln_block_parse(g->ctx, raw, len, &b) == KILN_OK, "parse %s", file);
    if (!raw) return;
    for (size_t s = 0; s < sh.n; s++) {
        kiln_merkle_opts o = {sh.s[s].method, sh.s[s].k, sh.s[s].tpb, sh.s[s].graph};
        uint8_t root[32];
        CHECK(kiln_merkle_build(g->ctx, KILN_MERKLE_SHA256D, b.txids, b.n_tx, &o, root, NULL) == KILN_OK &&
                  memcmp(root, b.header + 36, 32) == 0,
              "%s root of %s (shape %zu) equals its header's: %s", g->name, file, s, kiln_last_error(g->ctx));
    }
    kiln_block_free(&b);
    free(raw);
}

/* A benchmark's launch count: one per level above the leaves; ceil(levels / k) for subtrees;
 * launches -1: refused as over the limit. */
typedef struct launch_case {
    kiln_merkle_algo algo;
    uint64_t n;
    kiln_merkle_opts o;
    int reps, launches, raw_rate;
    const char *what;
} launch_case;

static const launch_case cuda_launches[] = {
    /* 2^16 + 3 leaves: 18 levels, 17 above the leaves */
    {KILN_MERKLE_SHA256D, (1u << 16) + 3, {KILN_MERKLE_LEVELS, 0, 128, 0}, 3, 17, 1, "levels"},
    {KILN_MERKLE_SHA256D, (1u << 16) + 3, {KILN_MERKLE_SUBTREES, 5, 128, 1}, 3, 4, 0, "subtrees k=5 (ceil(17/5))"},
    {KILN_MERKLE_RP64_256, (1u << 16) + 3, {KILN_MERKLE_SUBTREES, 5, 128, 1}, 3, 17, 0, "rp64_256 narrow levels"},
    /* 2^18 + 3 leaves: 20 levels; one subtree launch (k = 3) while the next level has more than
     * 65536 nodes, then 16 narrow levels */
    {KILN_MERKLE_RP64_256, (1u << 18) + 3, {KILN_MERKLE_SUBTREES, 3, 128, 1}, 2, 17, 0, "rp64_256 subtrees then narrow levels"},
    {KILN_MERKLE_SHA256D, (1u << 16) + 3, {KILN_MERKLE_SUBTREES, 6, 128, 0}, 1, -1, 0, "2^6 x 128 nodes per block"},
    {KILN_MERKLE_RPO256, (1u << 16) + 3, {KILN_MERKLE_SUBTREES, 5, 128, 1}, 1, 17, 0, "rpo256 narrow levels"},
};
static const launch_case ocl_launches[] = {
    /* 1000 leaves: 11 levels, 10 above the leaves */
    {KILN_MERKLE_SHA256D, 1000, {KILN_MERKLE_LEVELS, 0, 64, 0}, 1, 10, 0, "levels"},
    {KILN_MERKLE_KECCAK256, 1000, {KILN_MERKLE_SUBTREES, 3, 64, 0}, 1, 4, 0, "subtrees k=3"},
};

static void launches(const test_gpu *g, const launch_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        kiln_merkle_bench_result r;
        memset(&r, 0, sizeof r);
        kiln_status st = kiln_merkle_bench(g->ctx, c[i].algo, c[i].n, &c[i].o, c[i].reps, &r);
        if (c[i].launches < 0)
            CHECK(st == KILN_ERR_INPUT && strstr(kiln_last_error(g->ctx), "limit"), "%s %s refused: %s", g->name,
                  c[i].what, kiln_last_error(g->ctx));
        else
            CHECK(st == KILN_OK && r.launches == c[i].launches && r.rate > 0 && (!c[i].raw_rate || r.raw_rate > 0),
                  "%s %s: %d launches (want %d): %s", g->name, c[i].what, r.launches, c[i].launches,
                  kiln_last_error(g->ctx));
    }
}

/* 1 when this build's CPU has the merge (the SHA-3 / Keccak ones are optional). */
static int have_merge(kiln_ctx *cpu, kiln_merkle_algo a)
{
    uint8_t z[32] = {0}, o[32];
    return kiln_merkle_merge(cpu, a, z, z, o) == KILN_OK;
}

/* CUDA's large trees: 2^k - 1, 2^k, 2^k + 1 and random sizes; rp64_256 past 2^17 + 2 leaves also
 * runs its bulk levels through the one-thread kernels. */
static void cuda_large(const test_gpu *g, kiln_ctx *cpu, unsigned long long *seed)
{
    const shapes all = {cuda_shapes, COUNT(cuda_shapes)}, some = {cuda_some, COUNT(cuda_some)};
    static const kiln_merkle_algo keccaks[] = {KILN_MERKLE_SHA3_256, KILN_MERKLE_KECCAK256};
    for (size_t a = 0; a < 2; a++)
        if (have_merge(cpu, keccaks[a])) compare(g, cpu, keccaks[a], (1u << 20) + 1, seed, some);
    static const uint64_t big_sha[] = {(1u << 20) - 1, 1u << 20, (1u << 20) + 1, 3000017, 524309};
    for (size_t i = 0; i < COUNT(big_sha); i++) {
        compare(g, cpu, KILN_MERKLE_SHA256D, big_sha[i], seed, all);
        compare(g, cpu, KILN_MERKLE_SHA256, big_sha[i], seed, some);
    }
    static const uint64_t big_rp[] = {(1u << 16) - 1, 1u << 16, (1u << 16) + 1, 100003, (1u << 18) + 3, 300007};
    for (size_t i = 0; i < COUNT(big_rp); i++) compare(g, cpu, KILN_MERKLE_RP64_256, big_rp[i], seed, i >= 3 ? all : some);
    /* rpo256's bulk levels one thread a merge, the top 16 on 16 lanes */
    compare(g, cpu, KILN_MERKLE_RPO256, (1u << 18) + 3, seed, some);
    for (int i = 0; i < 4; i++) compare(g, cpu, KILN_MERKLE_SHA256D, 1 + test_rand(seed) % 200000, seed, all);
    static const uint64_t big_p2[] = {(1u << 20) - 1, 1u << 20, (1u << 20) + 1, 300007};
    for (size_t i = 0; i < COUNT(big_p2); i++) {
        compare(g, cpu, KILN_MERKLE_POSEIDON2_BABYBEAR16, big_p2[i], seed, i == 1 ? all : some);
        compare(g, cpu, KILN_MERKLE_POSEIDON2_KOALABEAR16, big_p2[i], seed, some);
        compare(g, cpu, KILN_MERKLE_POSEIDON2_GOLDILOCKS8, big_p2[i], seed, some);
    }
}

/* Leaves from rows on the device (CUDA's and OpenCL's kernels) == the CPU's, for every merge's leaf
 * hashes (kiln_merkle_leaf_hash) and row lengths around the sponges' rates (4, 8, 16) and of none. */
static void rows_leaves(const test_gpu *g, kiln_ctx *cpu, unsigned long long *seed)
{
    static const struct {
        kiln_merkle_algo algo;
        kiln_merkle_leaf_hash leaf;
    } cases[] = {{KILN_MERKLE_POSEIDON2_BABYBEAR16, KILN_MERKLE_LEAF_SPONGE},
                 {KILN_MERKLE_POSEIDON2_KOALABEAR16, KILN_MERKLE_LEAF_SPONGE},
                 {KILN_MERKLE_POSEIDON2_GOLDILOCKS8, KILN_MERKLE_LEAF_SPONGE},
                 {KILN_MERKLE_POSEIDON2_BABYBEAR16, KILN_MERKLE_LEAF_SPONGE24},
                 {KILN_MERKLE_POSEIDON2_KOALABEAR16, KILN_MERKLE_LEAF_SPONGE24},
                 {KILN_MERKLE_POSEIDON2_GOLDILOCKS12, KILN_MERKLE_LEAF_SPONGE},
                 {KILN_MERKLE_POSEIDON2_GOLDILOCKS12, KILN_MERKLE_LEAF_MIDEN}};
    static const size_t widths[] = {0, 1, 4, 8, 13, 16, 37};
    static const uint64_t counts[] = {1, 5, 1000};
    for (size_t a = 0; a < COUNT(cases); a++) {
        const kiln_merkle_algo algo = cases[a].algo;
        const kiln_merkle_leaf_hash leaf = cases[a].leaf;
        const int gl = algo == KILN_MERKLE_POSEIDON2_GOLDILOCKS8 || algo == KILN_MERKLE_POSEIDON2_GOLDILOCKS12;
        const size_t size = gl ? 8 : 4;
        const uint64_t p = gl ? UINT64_C(0xFFFFFFFF00000001)
                           : algo == KILN_MERKLE_POSEIDON2_BABYBEAR16 ? 0x78000001u
                                                                      : 0x7f000001u;
        for (size_t w = 0; w < COUNT(widths); w++) {
            for (size_t c = 0; c < COUNT(counts); c++) {
                const uint64_t n = counts[c];
                uint8_t *rows = malloc(n * widths[w] * size + 1), *want = malloc(n * 32), *got = malloc(n * 32);
                if (!rows || !want || !got) {
                    CHECK(0, "out of memory");
                    free(rows), free(want), free(got);
                    return;
                }
                for (uint64_t i = 0; i < n * widths[w]; i++) {
                    const uint64_t v = test_rand(seed) % p;
                    for (size_t b = 0; b < size; b++) rows[size * i + b] = (uint8_t)(v >> (8 * b));
                }
                memset(got, 0xee, n * 32);
                CHECK(kiln_merkle_leaves_from_rows_with(cpu, algo, leaf, rows, n, widths[w], want) == KILN_OK, "CPU rows");
                kiln_status st = kiln_merkle_leaves_from_rows_with(g->ctx, algo, leaf, rows, n, widths[w], got);
                CHECK(st == KILN_OK && memcmp(got, want, n * 32) == 0, "%s %s %s: %llu rows of %zu: leaves differ (%s)",
                      g->name, kiln_merkle_algo_name(algo), kiln_merkle_leaf_hash_name(leaf), (unsigned long long)n,
                      widths[w], kiln_last_error(g->ctx));
                free(rows), free(want), free(got);
            }
        }
    }
}

/* KILN_TEST_PART "I/N": the merges whose index is I modulo N; the large trees, real blocks and
 * launch counts in part 0, the leaves from rows in part N - 1 (make check runs three parts beside
 * each other, tests/CMakeLists.txt: with PoCL's kernel cache empty one test was 110 s on a busy
 * 2-core machine) */
static unsigned part_i, part_n = 1;

static void run(const test_gpu *g, kiln_ctx *cpu)
{
    const int quick = test_quick();
    const int cuda = g->backend == KILN_BACKEND_CUDA;
    const int full = cuda || getenv("KILN_TEST_LONG"); /* OpenCL in make check: see the head */
    const shapes sh = cuda ? (shapes){cuda_shapes, COUNT(cuda_shapes)} : (shapes){ocl_shapes, COUNT(ocl_shapes)};
    unsigned long long seed = 2026;
    static const uint64_t sizes[] = {1, 2, 3, 5, 31, 32, 33, 255, 256, 257, 1000, 1023, 1024, 1025, 4095, 4096, 4097};
    static const uint64_t sizes_quick[] = {1, 2, 3, 5, 33, 1025, 4097};
    static const uint64_t sizes_some[] = {1, 2, 3, 5, 33, 257, 1025};
    /* on OpenCL up to 1025 leaves: PoCL takes 3 s a tree of 4096 rp64_256 leaves in every shape */
    const uint64_t most = cuda ? 4097 : 1025;
    for (int a = 0; a < KILN_MERKLE_ALGO_COUNT; a++) {
        if (!have_merge(cpu, (kiln_merkle_algo)a) || (unsigned)a % part_n != part_i) continue;
        const int some = !full && a != KILN_MERKLE_SHA256D;
        const uint64_t *sz = quick ? sizes_quick : some ? sizes_some : sizes;
        const size_t nsz = quick ? COUNT(sizes_quick) : some ? COUNT(sizes_some) : COUNT(sizes);
        for (size_t i = 0; i < nsz; i++)
            if (sz[i] <= most)
                compare(g, cpu, (kiln_merkle_algo)a, sz[i], &seed, some ? (shapes){ocl_some, COUNT(ocl_some)} : sh);
    }
    if (part_i == part_n - 1) rows_leaves(g, cpu, &seed);
    if (part_i != 0) return;
    if (cuda && !quick) cuda_large(g, cpu, &seed);
    if (!cuda && full) { /* rp64_256's one wide level (65538 parents) in the first subtree launch, then narrow ones */
        static const shape wide[] = {{KILN_MERKLE_SUBTREES, 3, 32, 0}};
        compare(g, cpu, KILN_MERKLE_RP64_256, (UINT64_C(1) << 17) + 3, &seed, (shapes){wide, 1});
        compare(g, cpu, KILN_MERKLE_RPO256, (UINT64_C(1) << 17) + 3, &seed, (shapes){wide, 1});
    }
    real_block(g, "block413567.raw", sh);
    real_block(g, "testnet3_block_000000000000045e.raw", sh);
    if (cuda) launches(g, cuda_launches, COUNT(cuda_launches));
    else launches(g, ocl_launches, COUNT(ocl_launches));
}

int main(void)
{
    const char *p = getenv("KILN_TEST_PART");
    unsigned i, n;
    if (p && sscanf(p, "%u/%u", &i, &n) == 2 && n > 0 && i < n) part_i = i, part_n = n;
    else CHECK(!p || !*p, "KILN_TEST_PART '%s' is not I/N", p);
    return test_gpu_each(run);
}
