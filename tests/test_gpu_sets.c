/* Device sets on every GPU backend of the build (CUDA, OpenCL: gpu_backends.h): the several-device
 * paths (a batch split, a Merkle tree of per-device subtrees, a nonce range split) run on logical
 * devices of the test device ("cuda:0,0", "opencl:0,0,0") and give exactly what the CPU gives, and a
 * bad leaf is refused with one device's message; on CUDA also trees past one staging chunk.
 * PageRank's row parts are test_gpu_pagerank's (its sets). The CUDA device strings are checked
 * without a GPU too. On OpenCL (PoCL on a CPU in CI) the trees stop at 1025 leaves and the nonce
 * range is 2^22. */
#include "check.h"
#include "gpu_backends.h"
#include "kiln.h"

static void test_specs(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    const char *bad[] = {"cuda:", "cuda:0,", "cuda:,0", "cuda:0,,1", "cuda:a", "cuda:0;1", "cuda:al",
                         "cuda:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        CHECK(kiln_ctx_set_device(ctx, bad[i]) == KILN_ERR_INPUT, "%s: %s", bad[i], kiln_last_error(ctx));
    CHECK(kiln_ctx_device_count(ctx) == 1 && kiln_ctx_device_ordinal(ctx, 0) == -1, "the CPU: one device, no ordinal");
    if (kiln_cuda_device_count() == 0) {
        CHECK(kiln_ctx_set_device(ctx, "cuda:all") == KILN_ERR_DEVICE, "cuda:all without a GPU");
        CHECK(kiln_ctx_set_device(ctx, "cuda:0,0") == KILN_ERR_DEVICE, "cuda:0,0 without a GPU");
    } else {
        int n = kiln_cuda_device_count();
        CHECK(kiln_ctx_set_device(ctx, "cuda:all") == KILN_OK && kiln_ctx_device_count(ctx) == n, "cuda:all: %d of %d",
              kiln_ctx_device_count(ctx), n);
        CHECK(kiln_ctx_set_device(ctx, "cuda:0,0") == KILN_OK && kiln_ctx_device_count(ctx) == 2 &&
                  kiln_ctx_device_ordinal(ctx, 1) == 0 && strncmp(kiln_ctx_device_name(ctx), "2 x ", 4) == 0,
              "cuda:0,0: %d devices, name %s", kiln_ctx_device_count(ctx), kiln_ctx_device_name(ctx));
        char absent[32];
        snprintf(absent, sizeof absent, "cuda:0,%d", n);
        CHECK(kiln_ctx_set_device(ctx, absent) == KILN_ERR_DEVICE && strstr(kiln_last_error(ctx), "no CUDA GPU"),
              "%s: %s", absent, kiln_last_error(ctx));
        CHECK(kiln_ctx_device_count(ctx) == 2, "a failed set leaves the context as it was");
    }
    kiln_ctx_free(ctx);
}

static void random_bytes(uint8_t *p, size_t n, unsigned long long *seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(test_rand(seed) >> 24);
}

static void test_hash(kiln_ctx *set, kiln_ctx *cpu, const char *name)
{
    enum { N = 3001 };
    static uint64_t off[N + 1];
    unsigned long long seed = 5;
    off[0] = 0;
    for (int i = 0; i < N; i++) off[i + 1] = off[i] + test_rand(&seed) % 300; /* empty messages too */
    uint8_t *data = malloc(off[N] + 1), *want = malloc(N * 32), *got = malloc(N * 32);
    random_bytes(data, off[N], &seed);
    const kiln_hash_algo algos[] = {KILN_HASH_SHA3_256, KILN_HASH_SHA256D};
    for (size_t a = 0; a < 2; a++) {
        memset(got, 0, N * 32);
        CHECK(kiln_hash_batch(cpu, algos[a], data, off, N, want, 32) == KILN_OK, "CPU batch");
        kiln_status st = kiln_hash_batch(set, algos[a], data, off, N, got, 32);
        CHECK(st == KILN_OK && memcmp(got, want, N * 32) == 0, "%s hash batch %s: status %d (%s)", name,
              kiln_hash_algo_name(algos[a]), st, kiln_last_error(set));
    }
    free(data);
    free(want);
    free(got);
}

static void test_merkle(kiln_ctx *set, kiln_ctx *cpu, const char *name, int small)
{
    /* odd counts whose last range is short, a lone leaf in the last range, powers of two */
    const uint64_t counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 13, 1000, 1024, 1025, 4097, 100003};
    const size_t ncounts = small ? 12 : sizeof counts / sizeof *counts;
    unsigned long long seed = 9;
    for (int algo = KILN_MERKLE_SHA256D; algo <= KILN_MERKLE_RP64_256; algo += 4) {
        for (size_t c = 0; c < ncounts; c++) {
            uint64_t n = counts[c], size = kiln_merkle_tree_size(n);
            uint8_t *leaves = malloc(n * 32), *want = malloc(size * 32), *got = malloc(size * 32), rw[32], rg[32];
            for (uint64_t i = 0; i < n * 4; i++) {
                uint64_t v = test_rand(&seed) % UINT64_C(0xFFFFFFFF00000001); /* canonical for rp64_256 */
                for (int b = 0; b < 8; b++) leaves[8 * i + (uint64_t)b] = (uint8_t)(v >> (8 * b));
            }
            CHECK(kiln_merkle_build(cpu, (kiln_merkle_algo)algo, leaves, n, NULL, rw, want) == KILN_OK, "CPU tree");
            memset(got, 0xa5, size * 32);
            kiln_status st = kiln_merkle_build(set, (kiln_merkle_algo)algo, leaves, n, NULL, rg, got);
            CHECK(st == KILN_OK && memcmp(rg, rw, 32) == 0 && memcmp(got, want, size * 32) == 0,
                  "%s %s tree of %llu leaves: status %d (%s)", name, kiln_merkle_algo_name((kiln_merkle_algo)algo),
                  (unsigned long long)n, st, kiln_last_error(set));
            /* the root alone, without the whole tree */
            memset(rg, 0, 32);
            st = kiln_merkle_build(set, (kiln_merkle_algo)algo, leaves, n, NULL, rg, NULL);
            CHECK(st == KILN_OK && memcmp(rg, rw, 32) == 0, "%s root of %llu leaves", name, (unsigned long long)n);
            free(leaves);
            free(want);
            free(got);
        }
    }
}

/* Trees past one staging chunk (2^19 leaves, src/cuda/merkle.cu): a range copied in several chunks,
 * the last one short or of a few leaves; and leaves that are not field elements, refused with the
 * message of one device (the first bad leaf), also when the bad one is a range's lone leaf. */
static void test_merkle_staged(kiln_ctx *set, kiln_ctx *cpu, const char *name, int staged)
{
    static const struct {
        kiln_merkle_algo algo;
        uint64_t n;
    } big[] = {{KILN_MERKLE_SHA256D, 3 * (UINT64_C(1) << 19) + 5}, {KILN_MERKLE_SHA256, (UINT64_C(1) << 21) + 1},
               {KILN_MERKLE_RP64_256, (UINT64_C(1) << 20) + 5}};
    unsigned long long seed = 11;
    for (size_t c = 0; c < sizeof big / sizeof *big && staged; c++) {
        uint64_t n = big[c].n, size = kiln_merkle_tree_size(n);
        uint8_t *leaves = malloc(n * 32), *want = malloc(size * 32), *got = malloc(size * 32), rw[32], rg[32];
        for (uint64_t i = 0; i < n * 4; i++) {
            uint64_t v = test_rand(&seed) % UINT64_C(0xFFFFFFFF00000001);
            for (int b = 0; b < 8; b++) leaves[8 * i + (uint64_t)b] = (uint8_t)(v >> (8 * b));
        }
        CHECK(kiln_merkle_build(cpu, big[c].algo, leaves, n, NULL, rw, want) == KILN_OK, "CPU tree");
        memset(got, 0xa5, size * 32);
        kiln_status st = kiln_merkle_build(set, big[c].algo, leaves, n, NULL, rg, got);
        CHECK(st == KILN_OK && memcmp(rg, rw, 32) == 0 && memcmp(got, want, size * 32) == 0,
              "%s %s staged tree of %llu leaves: status %d (%s)", name, kiln_merkle_algo_name(big[c].algo),
              (unsigned long long)n, st, kiln_last_error(set));
        memset(rg, 0, 32);
        st = kiln_merkle_build(set, big[c].algo, leaves, n, NULL, rg, NULL);
        CHECK(st == KILN_OK && memcmp(rg, rw, 32) == 0, "%s staged root of %llu leaves", name, (unsigned long long)n);
        free(leaves);
        free(want);
        free(got);
    }
    /* bad leaves: 1000 leaves (one in the last range), then 5 (the last range a lone leaf) */
    static const struct {
        uint64_t n, bad[2];
    } bad[] = {{1000, {700, 999}}, {1000, {3, 990}}, {5, {4, 4}}, {9, {8, 8}}};
    for (size_t c = 0; c < sizeof bad / sizeof *bad; c++) {
        uint64_t n = bad[c].n;
        uint8_t *leaves = calloc(n, 32), root[32];
        for (int k = 0; k < 2; k++) memset(leaves + 32 * bad[c].bad[k] + 8 * (uint64_t)(k + 1), 0xff, 8);
        kiln_status want = kiln_merkle_build(cpu, KILN_MERKLE_RP64_256, leaves, n, NULL, root, NULL);
        char msg[512];
        snprintf(msg, sizeof msg, "%s", kiln_last_error(cpu));
        kiln_status st = kiln_merkle_build(set, KILN_MERKLE_RP64_256, leaves, n, NULL, root, NULL);
        CHECK(want == KILN_ERR_INPUT && st == KILN_ERR_INPUT && strcmp(msg, kiln_last_error(set)) == 0,
              "%s: %llu leaves, bad leaf %llu refused as on one device: %d '%s' (want '%s')", name,
              (unsigned long long)n, (unsigned long long)bad[c].bad[0], st, kiln_last_error(set), msg);
        free(leaves);
    }
}

typedef struct found {
    uint32_t nonce[4096];
    int n;
} found;

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    (void)hash;
    found *f = user;
    if (f->n < 4096) f->nonce[f->n++] = nonce;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Every nonce of a range under an easy target, the set against the CPU (and a range whose
 * candidates overflow one device's buffer is split as one device's is). */
static void test_scan(kiln_ctx *set, kiln_ctx *cpu, const char *name, int small)
{
    static found fc, fs;
    kiln_scan_job job;
    memset(&job, 0, sizeof job);
    job.algo = KILN_ALGO_SHA256D;
    for (int i = 0; i < 76; i++) job.header[i] = (uint8_t)(i * 7 + 1);
    memset(job.target, 0, 32);
    job.target[29] = 0x04; /* the hash as a little-endian number below 2^234: about 1 in 2^22 */
    job.start = 12345;
    /* small: KILN_TEST_QUICK (the compute-sanitizer runs: a range the instrumented kernels get
     * through) or OpenCL (PoCL) */
    job.count = small ? UINT64_C(1) << 22 : UINT64_C(1) << 30;
    if (small) job.target[30] = 0x02; /* 1 in 2^15 */
    job.find_all = 1;
    job.on_found = on_found;
    fc.n = fs.n = 0;
    job.user = &fc;
    kiln_scan_result rc, rs;
    CHECK(kiln_scan(cpu, &job, &rc) == KILN_OK, "CPU scan: %s", kiln_last_error(cpu));
    job.user = &fs;
    kiln_status st = kiln_scan(set, &job, &rs);
    qsort(fc.nonce, (size_t)fc.n, 4, cmp_u32);
    qsort(fs.nonce, (size_t)fs.n, 4, cmp_u32);
    CHECK(st == KILN_OK && fs.n == fc.n && fc.n > 40 && fc.n < 4096 && memcmp(fs.nonce, fc.nonce, (size_t)fc.n * 4) == 0 &&
              rs.hashes == job.count && rs.false_candidates == 0,
          "%s scan: status %d (%s), %d nonces (CPU %d), %llu hashes", name, st, kiln_last_error(set), fs.n, fc.n,
          (unsigned long long)rs.hashes);
    printf("%s: %d nonces of %llu, as the CPU\n", name, fs.n, (unsigned long long)job.count);
}

static void run(const test_gpu *g, kiln_ctx *cpu)
{
    const int cuda = g->backend == KILN_BACKEND_CUDA, small = !cuda || test_quick();
    for (int k = 2; k <= 3; k++) {
        char spec[64];
        test_gpu_set(g, k, spec, sizeof spec);
        kiln_ctx *set = kiln_ctx_new();
        CHECK(kiln_ctx_set_device(set, spec) == KILN_OK && kiln_ctx_device_count(set) == k, "%s: %s", spec,
              kiln_last_error(set));
        test_hash(set, cpu, spec);
        test_merkle(set, cpu, spec, small);
        test_merkle_staged(set, cpu, spec, cuda && !test_quick()); /* src/cuda/merkle.cu's staging */
        test_scan(set, cpu, spec, small);
        kiln_ctx_free(set);
    }
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* each line out before an abort inside a driver */
    test_specs();
    return test_gpu_each(run);
}
