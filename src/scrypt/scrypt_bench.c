/* Batch KDF rate: random 8-byte passwords with 16-byte salts (the shape of a password-recovery
 * batch), batches of one wave of resident lanes on a GPU, the median batch rate. The GPU figure
 * is the GPU path alone (PBKDF2 in, ROMix, PBKDF2 out, copies), without the CPU spot check. */
#include <stdlib.h>
#include <string.h>

#include "../core/cpu_features.h"
#include "../core/ctx.h"
#include "../cuda/cuda_backend.h"
#include "scrypt_kdf.h"
#include "../core/clock.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Items per measured batch: one wave of GPU lanes, or two per CPU thread. */
static kiln_status batch_size(kiln_ctx *ctx, kiln_scrypt_params sp, size_t *items)
{
    if (ctx->backend == KILN_BACKEND_CPU) {
        int t = ctx->threads > 0 ? ctx->threads : kiln_cpu_cores();
        *items = (size_t)(2 * t);
        return KILN_OK;
    }
    char err[KILN_ERR_MAX];
    if (!ctx->cuda) {
        kiln_status st = kiln_cuda_open(ctx->gpu_legacy_ordinal, &ctx->cuda, err, sizeof err);
        if (st != KILN_OK) return kiln_fail(ctx, st, "%s", err);
    }
    kiln_cuda_scrypt_kdf_cfg cfg = {sp.N, sp.r, sp.p, ctx->scrypt_kdf_launch.threads_per_block,
                                    ctx->scrypt_kdf_shape.lookup_gap};
    uint64_t slots = 0;
    uint32_t gap = 0;
    kiln_status st = kiln_cuda_scrypt_kdf_plan(ctx->cuda, &cfg, UINT64_C(1) << 40, 64, &slots, &gap, err, sizeof err);
    if (st != KILN_OK) return kiln_fail(ctx, st, "%s", err);
    *items = slots / sp.p > 0 ? (size_t)(slots / sp.p) : 1;
    return KILN_OK;
}

kiln_status kiln_bench_scrypt_kdf(kiln_ctx *ctx, kiln_scrypt_params sp, double seconds, double *rate)
{
    if (!ctx || !rate) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or output");
    if (!(seconds > 0 && seconds <= 3600)) return kiln_fail(ctx, KILN_ERR_INPUT, "bench time out of range");
    kiln_status st = kiln_scrypt_check(ctx, sp, 64);
    size_t n = 0;
    if (st == KILN_OK) st = batch_size(ctx, sp, &n);
    if (st != KILN_OK) return st;
    uint8_t *keys = malloc(n * 24), *out = malloc(n * 64);
    kiln_scrypt_input *in = malloc(n * sizeof *in);
    if (!keys || !out || !in) {
        free(keys);
        free(out);
        free(in);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %zu bench inputs", n);
    }
    uint64_t s = 0x243f6a8885a308d3u;
    for (size_t i = 0; i < n * 24; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        keys[i] = (uint8_t)(0x21 + (s >> 32) % 94); /* printable, like a mask attack's candidates */
    }
    for (size_t i = 0; i < n; i++) in[i] = (kiln_scrypt_input){keys + 24 * i, 8, keys + 24 * i + 8, 16};

    double rates[64];
    int k = 0;
    double t0 = kiln_now();
    for (int pass = 0; pass < 65 && (pass < 4 || kiln_now() - t0 < seconds); pass++) {
        double t = kiln_now();
        st = ctx->backend == KILN_BACKEND_CPU ? kiln_scrypt_batch(ctx, in, n, sp, out, 64)
                                              : kiln_scrypt_batch_gpu(ctx, in, n, sp, out, 64);
        double dt = kiln_now() - t;
        if (st != KILN_OK) break;
        if (pass > 0) rates[k++] = (double)n / dt; /* pass 0 warms up (allocations, caches) */
        memcpy(keys, out, 8); /* a fresh first password each pass */
    }
    free(keys);
    free(out);
    free(in);
    if (st != KILN_OK) return st;
    qsort(rates, (size_t)k, sizeof *rates, cmp_double);
    *rate = k % 2 ? rates[k / 2] : (rates[k / 2 - 1] + rates[k / 2]) / 2;
    return KILN_OK;
}
