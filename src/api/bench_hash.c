/* Hash and permutation throughput. CPU: repeated passes over a batch in host memory. GPU: the
 * device-side benchmarks of src/cuda (resident data, event timing), whose sampled results are
 * re-checked here on the CPU before a rate is reported. */
#include <stdlib.h>
#include <string.h>

#include "hash_internal.h"
#include "../core/bench.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../core/clock.h"

#define GPU_BENCH_BYTES (UINT64_C(2) << 30) /* messages (or states) resident on the GPU */
#define GPU_SAMPLES 64
#define IN_REGISTER_ITERS 16

/* The CPU benches: two passes of one batch size the passes, then one warm-up pass, then passes
 * until both 3 passes and `seconds` are reached (64 at most); the rate is the median pass's. A pass
 * hashes the batch `reps` times, so many that 32 passes fill `seconds`: a small batch that hashes
 * in a few milliseconds would otherwise end the bench long before the time the user asked for. */
typedef struct cpu_pass {
    kiln_ctx *ctx;
    kiln_hash_algo algo; /* hash passes */
    const uint8_t *msgs;
    const uint64_t *offsets;
    uint8_t *out;
    size_t outlen;
    uint64_t *states; /* permutation passes when not NULL */
    size_t n;
    size_t msg_len; /* hash passes without offsets: the messages' one length */
    unsigned reps; /* batches per pass */
} cpu_pass;

static kiln_status run_pass(void *user, int index, double *rate)
{
    cpu_pass *p = user;
    (void)index;
    double t = kiln_now();
    kiln_status st = KILN_OK;
    for (unsigned r = 0; r < p->reps && st == KILN_OK; r++)
        st = p->states ? kiln_keccak_f1600_batch(p->ctx, p->states, p->n, KILN_KECCAK_LAYOUT_AUTO)
               : p->offsets ? kiln_hash_batch(p->ctx, p->algo, p->msgs, p->offsets, p->n, p->out, p->outlen)
                            : kiln_hash_batch_fixed(p->ctx, p->algo, p->msgs, p->msg_len, p->n, p->out, p->outlen);
    *rate = (double)p->n * p->reps / (kiln_now() - t);
    return st;
}

static kiln_status cpu_passes(cpu_pass *p, double seconds, double *rate)
{
    double one; /* a batch's rate, from the second pass of one batch (the first starts the threads) */
    p->reps = 1;
    kiln_status st = run_pass(p, 0, &one);
    if (st == KILN_OK) st = run_pass(p, 0, &one);
    if (st != KILN_OK) return st;
    double reps = one * seconds / 32 / (double)p->n;
    p->reps = reps < 1 ? 1 : reps > 1e6 ? 1000000 : (unsigned)reps;
    kiln_bench_spec spec = {1, 3, 64, seconds, run_pass, NULL, p, p->ctx};
    return kiln_bench_median(&spec, rate, NULL);
}

/* Launches to time on the GPU for about `seconds`, given one launch's milliseconds. */
static int gpu_reps(double seconds, float ms)
{
    double r = ms > 0 ? seconds * 1000 / ms : 1000;
    return r < 5 ? 5 : r > 200 ? 200 : (int)r;
}

/* With KILN_BENCH_OFFSETS the batch goes through an offsets array, as messages of mixed lengths
 * would; without it the messages are of one length back to back, which the SIMD lanes take. */
static kiln_status cpu_bench_hash(kiln_ctx *ctx, kiln_hash_algo algo, size_t msg_len, int flags, double seconds,
                                  double *rate)
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
    cpu_pass p = {ctx, algo, msgs, (flags & KILN_BENCH_OFFSETS) ? offsets : NULL, out, outlen, NULL, n, msg_len, 1};
    kiln_status st = cpu_passes(&p, seconds, rate);
    free(msgs), free(out), free(offsets);
    return st;
}

kiln_status kiln_bench_hash(kiln_ctx *ctx, kiln_hash_algo algo, size_t msg_len, int flags, double seconds,
                            double *rate)
{
    if (!ctx || !rate) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or output");
    if ((size_t)algo >= kiln_hash_algo_count()) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown hash algorithm");
    if (!(seconds > 0 && seconds <= 3600)) return kiln_fail(ctx, KILN_ERR_INPUT, "bench time out of range");
    if (msg_len > (UINT64_C(1) << 24)) return kiln_fail(ctx, KILN_ERR_INPUT, "bench message size over 16 MiB");
    if (ctx->backend == KILN_BACKEND_CPU) return cpu_bench_hash(ctx, algo, msg_len, flags, seconds, rate);

    kiln_gpu *g;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &g);
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
    const kiln_gpu_batch w = {.kind = KILN_GPU_BATCH_DIGEST, .by.digest = kiln_hash_gpu_params(algo, outlen)};
    kiln_gpu_bench_spec spec = {n, msg_len, (flags & KILN_BENCH_OFFSETS) != 0, 3, GPU_SAMPLES};
    float ms = 0;
    /* a short run sizes the timed one to about `seconds` */
    if (!ctx->gpu->batch_bench) st = kiln_gpu_lacks(ctx, "time a batch on the device");
    if (st == KILN_OK) st = ctx->gpu->batch_bench(g, &w, &spec, &ms, sm, so);
    spec.reps = gpu_reps(seconds, ms);
    if (st == KILN_OK) st = ctx->gpu->batch_bench(g, &w, &spec, &ms, sm, so);
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
    cpu_pass p = {ctx, KILN_HASH_SHA256, NULL, NULL, NULL, 0, s, n, 0, 1};
    kiln_status st = cpu_passes(&p, seconds, rate);
    free(s);
    return st;
}

kiln_status kiln_bench_keccak_f1600(kiln_ctx *ctx, kiln_keccak_layout layout, int flags, double seconds, double *rate)
{
    if (!ctx || !rate) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or output");
    if ((unsigned)layout > KILN_KECCAK_LAYOUT_LANE) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown Keccak layout");
    if (!(seconds > 0 && seconds <= 3600)) return kiln_fail(ctx, KILN_ERR_INPUT, "bench time out of range");
    if (ctx->backend == KILN_BACKEND_CPU) return cpu_bench_perm(ctx, seconds, rate);

    kiln_gpu *g;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &g);
    if (st != KILN_OK) return st;
    int iters = (flags & KILN_BENCH_IN_REGISTERS) ? IN_REGISTER_ITERS : 1;
    size_t n = (size_t)(GPU_BENCH_BYTES / 200);
    uint64_t *before = malloc(GPU_SAMPLES * 200), *after = malloc(GPU_SAMPLES * 200);
    if (!before || !after) {
        free(before), free(after);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    kiln_keccak_layout lay = kiln_keccak_layout_resolve(layout);
    const kiln_gpu_batch w = {.kind = KILN_GPU_BATCH_PERMUTE, .by.permute = lay};
    kiln_gpu_bench_spec spec = {n, (size_t)iters, 0, 3, GPU_SAMPLES};
    float ms = 0;
    if (!ctx->gpu->batch_bench) st = kiln_gpu_lacks(ctx, "time a batch on the device");
    if (st == KILN_OK) st = ctx->gpu->batch_bench(g, &w, &spec, &ms, before, after);
    spec.reps = gpu_reps(seconds, ms);
    if (st == KILN_OK) st = ctx->gpu->batch_bench(g, &w, &spec, &ms, before, after);
    for (int k = 0; k < GPU_SAMPLES && st == KILN_OK; k++) {
        for (int r = 0; r < iters; r++) kiln_keccak_permute(before + 25 * k);
        if (memcmp(before + 25 * k, after + 25 * k, 200) != 0)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU Keccak-f[1600] (%s layout) differs from the CPU's",
                           kiln_keccak_layout_name(lay));
    }
    free(before), free(after);
    if (st == KILN_OK) *rate = ms > 0 ? (double)n * iters / (ms / 1000) : 0;
    return st;
}
