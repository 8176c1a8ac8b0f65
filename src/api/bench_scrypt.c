/* Batch KDF rate: random 8-byte passwords with 16-byte salts (the shape of a password-recovery
 * batch), batches of up to one wave of resident lanes on a GPU, the median batch rate. The GPU figure
 * is the GPU path alone (PBKDF2 in, ROMix, PBKDF2 out, copies), without the CPU spot check. */
#include <stdlib.h>
#include <string.h>

#include "../core/bench.h"
#include "../core/clock.h"
#include "../core/cpu_features.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "scrypt_internal.h"

/* Items per measured batch: at most one wave of GPU lanes (as the backend plans it; fewer where a
 * wave takes longer than the time asked for), or two per CPU thread. */
static kiln_status batch_size(kiln_ctx *ctx, kiln_scrypt_params sp, size_t *items)
{
    if (ctx->backend == KILN_BACKEND_CPU) {
        int t = ctx->threads > 0 ? ctx->threads : kiln_cpu_cores();
        *items = (size_t)(2 * t);
        return KILN_OK;
    }
    kiln_gpu *g;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &g);
    if (st != KILN_OK) return st;
    const kiln_gpu_batch w = kiln_scrypt_gpu_batch(ctx, sp);
    uint64_t slots = 0;
    uint32_t gap = 0;
    if (!ctx->gpu->batch_plan) {
        /* a backend without a plan chunks the batch itself: give it about 8 GiB of scratchpads,
         * at most 2^16 lanes */
        const double lane = 128.0 * sp.r * (double)sp.N, lanes = (double)(UINT64_C(8) << 30) / lane;
        const double n = (lanes < 65536 ? lanes : 65536) / sp.p;
        *items = n >= 1 ? (size_t)n : 1;
        return KILN_OK;
    }
    st = ctx->gpu->batch_plan(g, &w, UINT64_C(1) << 40, 64, &slots, &gap);
    if (st != KILN_OK) return st;
    *items = slots / sp.p > 0 ? (size_t)(slots / sp.p) : 1;
    return KILN_OK;
}

typedef struct kdf_pass {
    kiln_ctx *ctx;
    kiln_scrypt_params sp;
    const kiln_scrypt_input *in;
    size_t n;
    uint8_t *keys, *out;
} kdf_pass;

static kiln_status run_pass(void *user, int index, double *rate)
{
    kdf_pass *p = user;
    (void)index;
    double t = kiln_now();
    kiln_status st = p->ctx->backend == KILN_BACKEND_CPU ? kiln_scrypt_batch(p->ctx, p->in, p->n, p->sp, p->out, 64)
                                                         : kiln_scrypt_batch_gpu(p->ctx, p->in, p->n, p->sp, p->out, 64);
    *rate = (double)p->n / (kiln_now() - t);
    memcpy(p->keys, p->out, 8); /* a fresh first password each pass */
    return st;
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

    /* untimed passes first (allocations, caches; on a GPU, the batch's sizing below), then 3 to 64
     * timed ones. A backend may shrink its
     * plan during the warm-up (OpenCL backs off memory its driver refused at the first launch),
     * and a timed batch must be one wave of the plan in force: asked again, the batch follows it
     * (planned before the back-off, a batch ran its last chunk part empty: the H200's OpenCL KDF
     * measured 24 kH/s in a fresh process against 33 kH/s in one whose plan had already backed off) */
    kdf_pass p = {ctx, sp, in, n, keys, out};
    double warm = 0;
    int timed = 1;
    if (ctx->backend == KILN_BACKEND_CPU) {
        st = kiln_ctx_interrupt_requested(ctx) ? kiln_interrupted(ctx) : run_pass(&p, 0, &warm);
    } else {
        /* A GPU's batch grows to the wave from a sixteenth of it (a CPU device runs a group of
         * lanes in the time of one: fewer would measure empty lanes), each pass larger by what
         * the last one's time leaves of a quarter of `seconds` (2 to 16 times), up to the wave of
         * the plan in force; the warm-up (the kernels built) is one item at N = 2. A device that
         * takes longer than that over a wave, a CPU device (PoCL: 20 s a wave at N = 16384, r = 8)
         * or a large N, measures the batch it reached, and a pass that took `seconds` or more is
         * the measurement: `--seconds 1` ran 798 s at N = 2^22 (issue 36.11). */
        kdf_pass w = p;
        w.sp.N = 2;
        w.n = 1;
        st = kiln_ctx_interrupt_requested(ctx) ? kiln_interrupted(ctx) : run_pass(&w, 0, &warm);
        p.n = n / 16 ? n / 16 : 1;
        for (size_t wave = n; st == KILN_OK;) {
            st = kiln_ctx_poll(ctx);
            if (st == KILN_OK) st = run_pass(&p, 0, &warm);
            if (st == KILN_OK) st = batch_size(ctx, sp, &wave);
            if (st != KILN_OK) break;
            if (wave > n) wave = n;
            const double t = (double)p.n / warm;
            if (t >= seconds) {
                *rate = warm;
                timed = 0;
                break;
            }
            if (p.n >= wave || t >= seconds / 4) break;
            double f = seconds / 4 / t;
            f = f < 2 ? 2 : f > 16 ? 16 : f;
            p.n = (double)p.n * f < (double)wave ? (size_t)((double)p.n * f) : wave;
        }
    }
    size_t now = p.n;
    if (st == KILN_OK) st = batch_size(ctx, sp, &now);
    if (st == KILN_OK && now < p.n) p.n = now;
    kiln_bench_spec spec = {0, 3, 64, seconds, run_pass, NULL, &p, ctx};
    if (st == KILN_OK && timed) st = kiln_bench_median(&spec, rate, NULL);
    free(keys);
    free(out);
    free(in);
    return st;
}
