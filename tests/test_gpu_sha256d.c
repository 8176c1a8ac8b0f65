/* The sha256d search on every GPU backend of the build (CUDA, OpenCL: gpu_backends.h) against the
 * CPU backend and real Bitcoin blocks:
 * (a) random headers under easy targets, over ranges that are no whole number of groups, start odd
 *     or end at the nonce space's end, under launch shapes from 32 to 1024 threads a group and 1 to
 *     16 nonces a thread ({0, 0}: the default): exactly the CPU's nonces, each reported hash the
 *     header's sha256d, no false candidate, every nonce counted;
 * (b) a very easy target (thousands of hits per launch), which overflows the device's candidate
 *     buffer and makes the dispatcher split launches;
 * (c) real blocks (tests/real_headers.h, from tests/data/headers.json): the real nonce and block
 *     hash are found, and nothing else that does not meet the target: over all 2^32 nonces on
 *     CUDA, in a window around the nonce elsewhere (and under KILN_TEST_QUICK);
 * (d) kiln_selftest on CUDA (on a CPU's OpenCL device its scrypt search takes minutes).
 * CUDA sweeps ranges of 2^24 nonces; OpenCL (PoCL on a CPU in CI) ranges of 40,000 and the quick
 * sizes, in three launch shapes (all six with KILN_TEST_LONG). KILN_TEST_QUICK=1 shrinks every
 * range (compute-sanitizer). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu_backends.h"
#include "kiln.h"
#include "real_headers.h"

typedef struct found_list {
    const uint8_t *header; /* the job's header, to re-hash each reported nonce */
    uint32_t *nonce;
    size_t n, cap;
    int oom;
    int bad_hash; /* reported hashes that differ from the header's sha256d with that nonce */
} found_list;

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    found_list *f = user;
    uint8_t hdr[80], want[32];
    memcpy(hdr, f->header, 80);
    kiln_header_set_nonce(hdr, nonce);
    kiln_header_hash(hdr, want);
    if (memcmp(want, hash, 32) != 0) f->bad_hash++;
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 1024;
        uint32_t *nn = realloc(f->nonce, cap * sizeof *nn);
        if (!nn) {
            f->oom = 1;
            return 1;
        }
        f->nonce = nn;
        f->cap = cap;
    }
    f->nonce[f->n++] = nonce;
    return 0;
}

static void found_free(found_list *f)
{
    free(f->nonce);
    memset(f, 0, sizeof *f);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Runs one find_all scan; returns the status and fills f (sorted) and res. */
static kiln_status scan_all(kiln_ctx *ctx, const uint8_t header[80], const uint8_t target[32], uint64_t start,
                            uint64_t count, found_list *f, kiln_scan_result *res)
{
    kiln_scan_job job;
    memset(&job, 0, sizeof job);
    job.algo = KILN_ALGO_SHA256D;
    memcpy(job.header, header, 80);
    memcpy(job.target, target, 32);
    job.start = start;
    job.count = count;
    job.find_all = 1;
    job.on_found = on_found;
    job.user = f;
    f->header = header;
    kiln_status st = kiln_scan(ctx, &job, res);
    if (f->n) qsort(f->nonce, f->n, sizeof *f->nonce, cmp_u32);
    return st;
}

/* Target whose most significant 32-bit word is top and whose other words are random. */
static void make_target(uint32_t top, unsigned long long *seed, uint8_t target[32])
{
    for (int i = 0; i < 28; i++) target[i] = (uint8_t)test_rand(seed);
    for (int i = 0; i < 4; i++) target[28 + i] = (uint8_t)(top >> (8 * i));
}

static void random_header(unsigned long long *seed, uint8_t header[80])
{
    for (int i = 0; i < 80; i++) header[i] = (uint8_t)test_rand(seed);
}

/* The device under every shape in shapes[] reports the CPU's nonces (at least min_hits) for one
 * header/target/range. */
static void compare_range(kiln_ctx *gpu, kiln_ctx *cpu, const char *what, const uint8_t header[80],
                          const uint8_t target[32], uint64_t start, uint64_t count, const kiln_launch *shapes,
                          int nshapes, size_t min_hits)
{
    found_list want;
    memset(&want, 0, sizeof want);
    kiln_scan_result rc;
    kiln_status sc = scan_all(cpu, header, target, start, count, &want, &rc);
    CHECK(sc == KILN_OK || sc == KILN_NOT_FOUND, "%s: CPU scan: %s", what, kiln_last_error(cpu));
    CHECK(!want.oom, "%s: out of memory", what);
    CHECK(want.n > min_hits, "%s: the CPU found %zu nonces, so the comparison would be (nearly) empty", what, want.n);
    for (int s = 0; s < nshapes; s++) {
        CHECK(kiln_ctx_set_launch(gpu, KILN_ALGO_SHA256D, shapes[s]) == KILN_OK, "set launch: %s", kiln_last_error(gpu));
        found_list got;
        memset(&got, 0, sizeof got);
        kiln_scan_result rg;
        kiln_status sg = scan_all(gpu, header, target, start, count, &got, &rg);
        const int tpb = shapes[s].threads_per_block, ipt = shapes[s].items_per_thread;
        CHECK(sg == sc, "%s tpb %d ipt %d: status %d, CPU %d (%s)", what, tpb, ipt, sg, sc, kiln_last_error(gpu));
        CHECK(rg.hashes == count, "%s tpb %d ipt %d: %llu hashes for %llu nonces", what, tpb, ipt,
              (unsigned long long)rg.hashes, (unsigned long long)count);
        CHECK(rg.false_candidates == 0, "%s tpb %d ipt %d: %llu false candidates", what, tpb, ipt,
              (unsigned long long)rg.false_candidates);
        CHECK(got.bad_hash == 0, "%s tpb %d ipt %d: %d reported hashes are wrong", what, tpb, ipt, got.bad_hash);
        int same = got.n == want.n && !got.oom;
        for (size_t i = 0; same && i < got.n; i++) same = got.nonce[i] == want.nonce[i];
        CHECK(same, "%s tpb %d ipt %d: device found %zu nonces, CPU %zu (start %llu count %llu)", what, tpb, ipt,
              got.n, want.n, (unsigned long long)start, (unsigned long long)count);
        found_free(&got);
    }
    found_free(&want);
    kiln_ctx_set_launch(gpu, KILN_ALGO_SHA256D, (kiln_launch){0, 0});
}

static const kiln_launch shapes_all[] = {{0, 0},   {32, 1},  {64, 16},  {96, 2},    {128, 8},
                                         {256, 4}, {512, 2}, {1024, 1}, {1024, 16}, {992, 4}};
static const kiln_launch shapes_quick[] = {{0, 0}, {32, 16}, {96, 2}, {1024, 1}};
static const kiln_launch shapes_opencl[] = {{0, 0}, {32, 1}, {1024, 16}, {64, 16}, {96, 2}, {1024, 4}};
/* make check's OpenCL shapes: the default, the smallest group with a nonce a thread, the largest
 * with 16 (PoCL compiles the kernel anew for each group size, a second and more of CPU each); the
 * others with KILN_TEST_LONG (test_gpu_sha256d_long, label long) */
#define OPENCL_SHAPES_DEFAULT 3
#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

/* (a) CUDA: four ranges of 2^24 nonces (2^20 quick), about 256 hits each, every shape */
static void random_headers_cuda(kiln_ctx *gpu, kiln_ctx *cpu, int quick)
{
    unsigned long long seed = 0x6b696c6e00000001ull;
    const kiln_launch *shapes = quick ? shapes_quick : shapes_all;
    int nshapes = quick ? COUNT(shapes_quick) : COUNT(shapes_all);
    /* top word 2^16 - 1 over 2^24 nonces (2^20 - 1 over 2^20 quick) */
    const uint64_t big = quick ? (UINT64_C(1) << 20) : (UINT64_C(1) << 24);
    const uint32_t top = quick ? 0x000fffffu : 0x0000ffffu;
    struct {
        uint64_t start, count;
    } ranges[4];
    ranges[0].start = 0, ranges[0].count = big;
    ranges[1].start = 1 + (test_rand(&seed) % (UINT64_C(1) << 30)) * 2, ranges[1].count = big - 77; /* odd */
    ranges[2].start = (UINT64_C(1) << 32) - big + 3, ranges[2].count = big - 3; /* ends at 2^32 - 1 */
    ranges[3].start = 12345, ranges[3].count = big + 4097; /* not a multiple of any block */
    for (int r = 0; r < 4; r++) {
        uint8_t header[80], target[32];
        random_header(&seed, header);
        make_target(top, &seed, target);
        char what[64];
        snprintf(what, sizeof what, "random header %d", r);
        compare_range(gpu, cpu, what, header, target, ranges[r].start, ranges[r].count, shapes, nshapes, 0);
    }
}

/* (a) OpenCL: about one nonce in 256 meets the target over 40,000 nonces that end at the nonce
 * space's end, so the last group runs past both it and the range */
static void random_header_opencl(kiln_ctx *gpu, kiln_ctx *cpu)
{
    uint8_t header[80], target[32];
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 80; i++) header[i] = (uint8_t)((s = s * 6364136223846793005ull + 1442695040888963407ull) >> 56);
    memset(target, 0xff, 32);
    target[31] = 0;
    compare_range(gpu, cpu, "easy target 2^-8", header, target, (UINT64_C(1) << 32) - 40000, 40000, shapes_opencl,
                  getenv("KILN_TEST_LONG") ? COUNT(shapes_opencl) : OPENCL_SHAPES_DEFAULT, 50);
}

/* (b) the device buffer holds 4096 candidates, the dispatcher's 65536 */
static void overflow_split(kiln_ctx *gpu, kiln_ctx *cpu, int quick)
{
    unsigned long long seed = 0x6b696c6e00000002ull;
    static const kiln_launch shapes[] = {{0, 0}, {256, 16}};
    uint8_t header[80], target[32];
    random_header(&seed, header);
    make_target(0x00ffffffu, &seed, target); /* 1 in 256: 16384 hits over 2^22 (8192 over 2^21) */
    compare_range(gpu, cpu, "easy target 2^-8", header, target, 5, (quick ? UINT64_C(1) << 21 : UINT64_C(1) << 22) + 11,
                  shapes, 2, 0);
    random_header(&seed, header);
    make_target(0x0fffffffu, &seed, target); /* 1 in 16: 65536 hits over 2^20, past the dispatcher's buffer */
    compare_range(gpu, cpu, "easy target 2^-4", header, target, 1000,
                  (quick ? UINT64_C(1) << 17 : UINT64_C(1) << 20) + 1, shapes, 1, 0);
}

/* (c) window 0: all 2^32 nonces; else `window` nonces from a third of it below the real one,
 * off-centre and not block-aligned */
static void real_blocks(kiln_ctx *gpu, uint64_t window)
{
    static const char *const names[] = {"genesis", "block_125552", "block_650000", "block_840000"};
    for (size_t b = 0; b < sizeof names / sizeof names[0]; b++) {
        const real_header *rh = NULL;
        for (int i = 0; i < REAL_HEADER_COUNT; i++)
            if (strcmp(real_headers[i].name, names[b]) == 0) rh = &real_headers[i];
        CHECK(rh != NULL, "%s missing from real_headers.h", names[b]);
        if (!rh) continue;
        uint8_t header[80], target[32];
        CHECK(kiln_header_from_hex(gpu, rh->header_hex, header) == KILN_OK, "%s header", rh->name);
        CHECK(kiln_target_from_bits(gpu, kiln_header_bits(header), target) == KILN_OK && kiln_header_bits(header) == rh->bits,
              "%s bits", rh->name);
        CHECK(kiln_header_nonce(header) == rh->nonce, "%s nonce field", rh->name);
        kiln_header_set_nonce(header, 0); /* the search must find it, not read it */
        uint64_t start = 0, count = UINT64_C(1) << 32;
        if (window) {
            start = rh->nonce > window / 3 ? rh->nonce - window / 3 : 0;
            count = window;
        }
        found_list f;
        memset(&f, 0, sizeof f);
        kiln_scan_result res;
        kiln_status st = scan_all(gpu, header, target, start, count, &f, &res);
        CHECK(st == KILN_OK, "%s: scan status %d (%s)", rh->name, st, kiln_last_error(gpu));
        CHECK(res.hashes == count && res.false_candidates == 0, "%s: %llu hashes, %llu false candidates", rh->name,
              (unsigned long long)res.hashes, (unsigned long long)res.false_candidates);
        CHECK(f.bad_hash == 0 && !f.oom, "%s: %d reported hashes are wrong", rh->name, f.bad_hash);
        int real_seen = 0;
        for (size_t i = 0; i < f.n; i++) {
            /* every hit is re-hashed here on the CPU and must meet the target */
            uint8_t hdr[80], hash[32];
            char hex[65];
            memcpy(hdr, header, 80);
            kiln_header_set_nonce(hdr, f.nonce[i]);
            kiln_header_hash(hdr, hash);
            CHECK(kiln_hash_meets_target(hash, target), "%s: nonce %u does not meet the target", rh->name, f.nonce[i]);
            kiln_hex_encode(hash, 32, 1, hex);
            if (f.nonce[i] == rh->nonce) {
                real_seen = 1;
                CHECK_STR(hex, rh->block_hash);
            } else {
                printf("%s: another nonce meets the target: %u hash %s\n", rh->name, f.nonce[i], hex);
            }
        }
        CHECK(real_seen, "%s: real nonce %u not found (%zu hits)", rh->name, rh->nonce, f.n);
        /* genesis (difficulty 1) may have other nonces under its target over 2^32 or 2^22 nonces;
         * for the later blocks a second hit among 2^32 has probability below 2^-18, and in a
         * window of 4,000 none has */
        if (b > 0 || count <= 4096) CHECK(f.n == 1, "%s: %zu hits, expected only the real nonce", rh->name, f.n);
        found_free(&f);
    }
}

static void run(const test_gpu *g, kiln_ctx *cpu)
{
    const int quick = test_quick();
    if (g->backend == KILN_BACKEND_CUDA) {
        random_headers_cuda(g->ctx, cpu, quick);
        overflow_split(g->ctx, cpu, quick);
        real_blocks(g->ctx, quick ? UINT64_C(1) << 22 : 0);
    } else {
        random_header_opencl(g->ctx, cpu);
        overflow_split(g->ctx, cpu, 1);
        real_blocks(g->ctx, 4000);
    }
    /* (d) on CUDA: on a CPU's OpenCL device its scrypt search over 2^20 nonces takes minutes */
    if (g->backend == KILN_BACKEND_CUDA)
        CHECK(kiln_selftest(g->ctx) == KILN_OK, "selftest on %s: %s", g->device, kiln_last_error(g->ctx));
}

int main(void)
{
    return test_gpu_each(run);
}
