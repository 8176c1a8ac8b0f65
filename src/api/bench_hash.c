/* Hash and permutation throughput. CPU: repeated passes over a batch in host memory. GPU: the
 * device-side benchmarks of src/cuda (resident data, event timing), whose sampled results are
 * re-checked here on the CPU before a rate is reported. */
#include <stdlib.h>
#include <string.h>

#include "../cuda/cuda_backend.h"
#include "hash_internal.h"
#include "../core/ctx.h"
#include "../core/clock.h"

#define GPU_BENCH_BYTES (UINT64_C(2) << 30) /* messages (or states) resident on the GPU */
#define GPU_SAMPLES 64
#define IN_REGISTER_ITERS 16

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Launches to time on the GPU for about `seconds`, given one launch's milliseconds. */
static int gpu_reps(double seconds, float ms)
{
    double r = ms > 0 ? seconds * 1000 / ms : 1000;
    return r < 5 ? 5 : r > 200 ? 200 : (int)r;
}

static kiln_status cpu_bench_hash(kiln_ctx *ctx, kiln_hash_algo algo, size_t msg_len, double seconds, double *rate)
{
    size_t outlen = kiln_hash_digest_len(algo);
    size_t n = msg_len >= 4096 ? 256 : 65536;
    uint8_t *msgs = malloc(n * msg_len + 1), *out = malloc(n * outlen);
    uint64_t *offsets = malloc((n + 1) * sizeof *offsets);
    if (!msgs || !out || !offsets) {
        free(msgs), free(out), free(offsets);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    uint64_t z = 0x6b696c6e;
    for (size_t i = 0; i < n * msg_len; i++) msgs[i] = (uint8_t)((z = z * 6364136223846793005ull + 1) >> 56);
    for (size_t i = 0; i <= n; i++) offsets[i] = i * msg_len;
    double rates[64];
    int k = 0;
    kiln_status st = kiln_hash_batch(ctx, algo, msgs, offsets, n, out, outlen); /* warm-up */
    double t0 = kiln_now();
    while (st == KILN_OK && k < 64 && (k < 3 || kiln_now() - t0 < seconds)) {
        double t = kiln_now();
        st = kiln_hash_batch(ctx, algo, msgs, offsets, n, out, outlen);
        rates[k++] = (double)n / (kiln_now() - t);
    }
    free(msgs), free(out), free(offsets);
    if (st == KILN_OK) *rate = median(rates, k);
    return st;
}

kiln_status kiln_bench_hash(kiln_ctx *ctx, kiln_hash_algo algo, size_t msg_len, int flags, double seconds,
                            double *rate)
{
    if (!ctx || !rate) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or output");
    if ((unsigned)algo >= KILN_HASH_ALGO_COUNT) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown hash algorithm");
    if (!(seconds > 0 && seconds <= 3600)) return kiln_fail(ctx, KILN_ERR_INPUT, "bench time out of range");
    if (msg_len > (UINT64_C(1) << 24)) return kiln_fail(ctx, KILN_ERR_INPUT, "bench message size over 16 MiB");
    if (ctx->backend == KILN_BACKEND_CPU) return cpu_bench_hash(ctx, algo, msg_len, seconds, rate);

    kiln_status st = kiln_hash_gpu_open(ctx);
    if (st != KILN_OK) return st;
    size_t outlen = kiln_hash_digest_len(algo);
    uint64_t per = msg_len + outlen + ((flags & KILN_BENCH_OFFSETS) ? 8 : 0);
    size_t n = (size_t)(GPU_BENCH_BYTES / per);
    if (n > (UINT64_C(1) << 26)) n = (size_t)1 << 26;
    uint8_t *sm = malloc(GPU_SAMPLES * msg_len + 1), *so = malloc(GPU_SAMPLES * outlen);
    if (!sm || !so) {
        free(sm), free(so);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    kiln_cuda_hash_params p = {kiln_hash_rate(algo), kiln_hash_domain(algo), algo == KILN_HASH_SHA256D, outlen};
    char err[KILN_ERR_MAX];
    float ms = 0;
    int off = (flags & KILN_BENCH_OFFSETS) != 0;
    st = kiln_cuda_hash_bench(ctx->cuda, &p, msg_len, n, off, 3, &ms, sm, so, GPU_SAMPLES, err, sizeof err);
    if (st == KILN_OK)
        st = kiln_cuda_hash_bench(ctx->cuda, &p, msg_len, n, off, gpu_reps(seconds, ms), &ms, sm, so, GPU_SAMPLES, err,
                                  sizeof err);
    if (st != KILN_OK) st = kiln_fail(ctx, st, "%s", err);
    if (st == KILN_OK) st = kiln_hash_verify_sample(ctx, algo, sm, NULL, msg_len, GPU_SAMPLES, so, outlen);
    free(sm), free(so);
    if (st == KILN_OK) *rate = ms > 0 ? (double)n / (ms / 1000) : 0;
    return st;
}

static kiln_status cpu_bench_perm(kiln_ctx *ctx, double seconds, double *rate)
{
    size_t n = 16384;
    uint64_t *s = calloc(n, 200);
    if (!s) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    double rates[64];
    int k = 0;
    kiln_status st = kiln_keccak_f1600_batch(ctx, s, n, KILN_KECCAK_LAYOUT_AUTO);
    double t0 = kiln_now();
    while (st == KILN_OK && k < 64 && (k < 3 || kiln_now() - t0 < seconds)) {
        double t = kiln_now();
        st = kiln_keccak_f1600_batch(ctx, s, n, KILN_KECCAK_LAYOUT_AUTO);
        rates[k++] = (double)n / (kiln_now() - t);
    }
    free(s);
    if (st == KILN_OK) *rate = median(rates, k);
    return st;
}

kiln_status kiln_bench_keccak_f1600(kiln_ctx *ctx, kiln_keccak_layout layout, int flags, double seconds, double *rate)
{
    if (!ctx || !rate) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or output");
    if ((unsigned)layout > KILN_KECCAK_LAYOUT_LANE) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown Keccak layout");
    if (!(seconds > 0 && seconds <= 3600)) return kiln_fail(ctx, KILN_ERR_INPUT, "bench time out of range");
    if (ctx->backend == KILN_BACKEND_CPU) return cpu_bench_perm(ctx, seconds, rate);

    kiln_status st = kiln_hash_gpu_open(ctx);
    if (st != KILN_OK) return st;
    int iters = (flags & KILN_BENCH_IN_REGISTERS) ? IN_REGISTER_ITERS : 1;
    size_t n = (size_t)(GPU_BENCH_BYTES / 200);
    uint64_t *before = malloc(GPU_SAMPLES * 200), *after = malloc(GPU_SAMPLES * 200);
    if (!before || !after) {
        free(before), free(after);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    int lay = (int)kiln_keccak_layout_resolve(layout);
    char err[KILN_ERR_MAX];
    float ms = 0;
    st = kiln_cuda_keccak_bench(ctx->cuda, lay, n, iters, 3, &ms, before, after, GPU_SAMPLES, err, sizeof err);
    if (st == KILN_OK)
        st = kiln_cuda_keccak_bench(ctx->cuda, lay, n, iters, gpu_reps(seconds, ms), &ms, before, after, GPU_SAMPLES,
                                    err, sizeof err);
    if (st != KILN_OK) st = kiln_fail(ctx, st, "%s", err);
    for (int k = 0; k < GPU_SAMPLES && st == KILN_OK; k++) {
        for (int r = 0; r < iters; r++) kiln_keccak_permute(before + 25 * k);
        if (memcmp(before + 25 * k, after + 25 * k, 200) != 0)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU Keccak-f[1600] (%s layout) differs from the CPU's",
                           kiln_keccak_layout_name((kiln_keccak_layout)lay));
    }
    free(before), free(after);
    if (st == KILN_OK) *rate = ms > 0 ? (double)n * iters / (ms / 1000) : 0;
    return st;
}
