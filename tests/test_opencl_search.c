/* The OpenCL backend's sha256d search on the first OpenCL device (PoCL in CI): (a) real Bitcoin
 * blocks (tests/real_headers.h, from tests/data/headers.json): a range around each block's nonce
 * finds that nonce and nothing else under the block's target; (b) an easy target over a random
 * header: exactly the CPU search's nonces, no false candidate, under launch shapes from 32 to 1024
 * work-items a group and 1 to 16 nonces a work-item; (c) a program that does not compile fails with the device and
 * the build log in the message (the backend's build entry, a test hook). Skipped (77) without an
 * OpenCL device, unless KILN_REQUIRE_OPENCL is set. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "opencl_device.h"
#include "kiln.h"
#include "real_headers.h"
#ifdef KILN_HAVE_OPENCL
#include "opencl/ocl_state.h"
#endif

typedef struct found {
    uint32_t nonce[4096];
    size_t n;
} found;

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    (void)hash;
    found *f = user;
    if (f->n < sizeof f->nonce / sizeof f->nonce[0]) f->nonce[f->n] = nonce;
    f->n++;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static kiln_status scan(kiln_ctx *ctx, const uint8_t header[80], const uint8_t target[32], uint64_t start,
                        uint64_t count, found *f, kiln_scan_result *res)
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
    f->n = 0;
    kiln_status st = kiln_scan(ctx, &job, res);
    size_t kept = f->n < 4096 ? f->n : 4096;
    qsort(f->nonce, kept, sizeof f->nonce[0], cmp_u32);
    return st;
}

static void real_blocks(kiln_ctx *ctx)
{
    static found f;
    for (int i = 0; i < REAL_HEADER_COUNT && i < 3; i++) {
        const real_header *h = &real_headers[i];
        uint8_t header[80], target[32];
        CHECK(kiln_header_from_hex(ctx, h->header_hex, header) == KILN_OK, "%s header", h->name);
        CHECK(kiln_target_from_bits(ctx, h->bits, target) == KILN_OK, "%s target", h->name);
        uint64_t start = h->nonce > 3000 ? h->nonce - 3000 : 0;
        kiln_scan_result res;
        kiln_status st = scan(ctx, header, target, start, 4000, &f, &res);
        CHECK(st == KILN_OK, "%s on OpenCL: %d %s", h->name, (int)st, kiln_last_error(ctx));
        CHECK(f.n == 1 && f.nonce[0] == h->nonce, "%s: %zu found, first %u, want nonce %u", h->name, f.n,
              f.n ? f.nonce[0] : 0, h->nonce);
        CHECK(res.false_candidates == 0 && res.hashes == 4000, "%s: %llu false candidates, %llu hashes", h->name,
              (unsigned long long)res.false_candidates, (unsigned long long)res.hashes);
    }
}

/* A target whose most significant word is 0x00ffffff: about one nonce in 256 meets it. Under every
 * launch shape (work-group size x nonces per work-item, as kiln tune sets them; {0, 0} the
 * default), over a range that is no whole number of groups and that ends at the nonce space's end,
 * so the last group runs past both: exactly the CPU's nonces. */
static void against_cpu(kiln_ctx *ctx)
{
    static found got, want;
    static const kiln_launch shapes[] = {{0, 0}, {32, 1}, {64, 16}, {96, 2}, {1024, 4}, {1024, 16}};
    uint8_t header[80], target[32];
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 80; i++) header[i] = (uint8_t)((s = s * 6364136223846793005ull + 1442695040888963407ull) >> 56);
    memset(target, 0xff, 32);
    target[31] = 0;
    kiln_ctx *cpu = kiln_ctx_new();
    kiln_scan_result rg, rc;
    /* a start past 2^32 - 2^16, so the range ends at the nonce space's end */
    const uint64_t start = (UINT64_C(1) << 32) - 40000, count = 40000;
    CHECK(scan(cpu, header, target, start, count, &want, &rc) == KILN_OK, "CPU easy target: %s", kiln_last_error(cpu));
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        kiln_launch l = shapes[i];
        CHECK(kiln_ctx_set_launch(ctx, KILN_ALGO_SHA256D, l) == KILN_OK, "set launch: %s", kiln_last_error(ctx));
        CHECK(scan(ctx, header, target, start, count, &got, &rg) == KILN_OK, "OpenCL easy target, shape %dx%d: %s",
              l.threads_per_block, l.items_per_thread, kiln_last_error(ctx));
        CHECK(got.n == want.n && got.n > 50, "shape %dx%d: OpenCL found %zu nonces, the CPU %zu", l.threads_per_block,
              l.items_per_thread, got.n, want.n);
        CHECK(got.n == want.n && memcmp(got.nonce, want.nonce, (got.n < 4096 ? got.n : 4096) * 4) == 0,
              "shape %dx%d: OpenCL and CPU nonces differ", l.threads_per_block, l.items_per_thread);
        CHECK(rg.false_candidates == 0 && rg.hashes == count, "shape %dx%d: %llu false candidates, %llu hashes",
              l.threads_per_block, l.items_per_thread, (unsigned long long)rg.false_candidates,
              (unsigned long long)rg.hashes);
    }
    CHECK(kiln_ctx_set_launch(ctx, KILN_ALGO_SHA256D, (kiln_launch){0, 0}) == KILN_OK, "default launch");
    kiln_ctx_free(cpu);
}

#ifdef KILN_HAVE_OPENCL
static void build_error(kiln_ctx *ctx)
{
    kiln_gpu *g;
    CHECK(kiln_ctx_gpu(ctx, 0, &g) == KILN_OK, "open: %s", kiln_last_error(ctx));
    if (!g) return;
    cl_program p = NULL;
    kiln_status st = kiln_ocl_build_source(g, "__kernel void broken(__global uint *o) { o[0] = undeclared_name; }", &p);
    const char *e = kiln_last_error(ctx);
    CHECK(st == KILN_ERR_DEVICE && p == NULL, "a bad program builds (%d)", (int)st);
    CHECK(strstr(e, "OpenCL build failed on ") && strstr(e, "undeclared_name"), "message without the log: %s", e);
}
#endif

int main(void)
{
    const int missing = test_opencl_missing();
#ifndef KILN_HAVE_OPENCL
    return missing;
#else
    if (missing) return missing;
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ctx));
    CHECK(kiln_ctx_set_device(ctx, "opencl:99") == KILN_ERR_DEVICE && strstr(kiln_last_error(ctx), "opencl:99"),
          "opencl:99: %s", kiln_last_error(ctx));
    CHECK(kiln_ctx_set_device(ctx, "opencl:x") == KILN_ERR_INPUT, "opencl:x");
    CHECK(kiln_ctx_backend(ctx) == KILN_BACKEND_OPENCL && kiln_ctx_device_count(ctx) == 1, "still %s", test_opencl_device());
    real_blocks(ctx);
    against_cpu(ctx);
    build_error(ctx);
    kiln_ctx_free(ctx);
    /* auto never picks OpenCL */
    ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, "auto") == KILN_OK && kiln_ctx_backend(ctx) != KILN_BACKEND_OPENCL, "auto");
    kiln_ctx_free(ctx);
    return check_summary();
#endif
}
