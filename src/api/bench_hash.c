/* Hash and permutation throughput. CPU: repeated passes over a batch in host memory. GPU: the
 * backend's device-side benchmark (the core table's batch_bench: resident data, event timing),
 * whose sampled results are re-checked here on the CPU before a rate is reported. */
#include <stdlib.h>
#include <string.h>

#include "hash_internal.h"
#include "../core/bench.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../core/clock.h"
#include "../core/par.h"

#define GPU_BENCH_BYTES (UINT64_C(2) << 30) /* messages (or states) resident on the GPU */
#define GPU_SAMPLES 64
#define IN_REGISTER_ITERS 16

/* The CPU benches: messages (or states) one after the other on each thread, as kiln.h promises.
 * A pass is `reps` batches cut into pieces of about PIECE_BYTES, each piece hashed by the batch
 * call of one thread (a context of its own with one thread), the pieces claimed one at a time on
 * kiln_par_for (core/par.h): the pass measures the threads' hashing, not their hand-off. Before,
 * every batch was one threaded call, whose end waited for each thread of the team: with the cores
 * busy that wait, not the hash, set the rate (13 algorithms at exactly 8.19 MH/s, 65536 messages
 * every 8 ms, and sha512 at half its single-thread rate).
 * Two passes of one batch size the passes, then one warm-up pass, then passes until both 3
 * passes and `seconds` are reached (KILN_BENCH_MAX_RUNS at most); the rate is the median pass's. A
 * pass hashes the batch so many times that 32 passes fill `seconds`: a small batch that hashes in
 * a few milliseconds would otherwise end the bench long before the time the user asked for. The
 * sizing passes last milliseconds, and on a busy machine one of them can take several times its
 * share: the faster one sizes the passes, and the bench may run 8 times the 32 it plans for (with
 * 64, `bench --algo sha256 --threads 1 --seconds 1` beside two busy loops once ended before 0.9 s). */
#define PIECE_BYTES (UINT64_C(64) << 10)

typedef struct cpu_pass {
    kiln_ctx *ctx;
    kiln_hash_algo algo; /* hash passes */
    const uint8_t *msgs;
    const uint64_t *offsets;
    size_t outlen;
    uint64_t *states; /* permutation passes when not NULL */
    size_t n;
    size_t msg_len; /* hash passes without offsets: the messages' one length */
    unsigned reps; /* batches per pass */
    size_t per_piece, pieces; /* messages (states) a piece, pieces a batch */
    int threads;
    kiln_ctx **one; /* per slot: a CPU context of one thread, the caller's interrupt poll */
    uint8_t **out; /* per slot: one piece's digests */
    uint64_t **perm; /* per slot: one piece's states */
    kiln_status *st; /* per slot: its first failure */
} cpu_pass;

static void run_piece(void *user, uint64_t c, int slot)
{
    cpu_pass *p = user;
    if (p->st[slot] != KILN_OK) return;
    const size_t first = (size_t)(c % p->pieces) * p->per_piece;
    const size_t k = p->n - first < p->per_piece ? p->n - first : p->per_piece;
    kiln_ctx *one = p->one[slot];
    kiln_status st;
    if (p->states) {
        /* each slot permutes a copy of its piece: no two threads write the same states */
        memcpy(p->perm[slot], p->states + 25 * first, k * 200);
        st = kiln_keccak_f1600_batch(one, p->perm[slot], k, KILN_KECCAK_LAYOUT_AUTO);
    } else if (p->offsets) {
        /* the piece's offsets as they are: the batch reads from data + offsets[0] */
        st = kiln_hash_batch(one, p->algo, p->msgs, p->offsets + first, k, p->out[slot], p->outlen);
    } else {
        st = kiln_hash_batch_fixed(one, p->algo, p->msgs + first * p->msg_len, p->msg_len, k, p->out[slot],
                                   p->outlen);
    }
    p->st[slot] = st;
}

static kiln_status run_pass(void *user, int index, double *rate)
{
    cpu_pass *p = user;
    (void)index;
    double t = kiln_now();
    kiln_par_for(p->threads, (uint64_t)p->reps * p->pieces, run_piece, p);
    double dt = kiln_now() - t;
    for (int i = 0; i < p->threads; i++)
        if (p->st[i] != KILN_OK) {
            /* interrupted, as a rule: the caller's context says so with the slot's message */
            kiln_status st = p->st[i];
            return st == KILN_STOPPED ? kiln_interrupted(p->ctx) : kiln_fail(p->ctx, st, "%s", kiln_last_error(p->one[i]));
        }
    *rate = (double)p->n * p->reps / dt;
    return KILN_OK;
}

static void free_slots(cpu_pass *p)
{
    for (int i = 0; i < p->threads; i++) {
        if (p->one) kiln_ctx_free(p->one[i]);
        if (p->out) free(p->out[i]);
        if (p->perm) free(p->perm[i]);
    }
    free(p->one), free(p->out), free(p->perm), free(p->st);
}

/* item_bytes: a message's (a state's) bytes, for the piece size. */
static kiln_status cpu_passes(cpu_pass *p, size_t item_bytes, double seconds, double *rate)
{
    p->threads = kiln_threads_auto(p->ctx->threads);
    p->per_piece = item_bytes ? (size_t)(PIECE_BYTES / item_bytes) : p->n;
    if (p->per_piece < 1) p->per_piece = 1;
    if (p->per_piece > p->n) p->per_piece = p->n;
    p->pieces = (p->n + p->per_piece - 1) / p->per_piece;
    const size_t t = (size_t)p->threads;
    p->one = calloc(t, sizeof *p->one), p->out = calloc(t, sizeof *p->out), p->perm = calloc(t, sizeof *p->perm);
    p->st = calloc(t, sizeof *p->st);
    kiln_status st = p->one && p->out && p->perm && p->st ? KILN_OK : KILN_ERR_DEVICE;
    for (size_t i = 0; i < t && st == KILN_OK; i++) {
        p->one[i] = kiln_ctx_new();
        if (p->states) p->perm[i] = malloc(p->per_piece * 200);
        else p->out[i] = malloc(p->per_piece * p->outlen + 1);
        if (!p->one[i] || (p->states ? !p->perm[i] : !p->out[i])) st = KILN_ERR_DEVICE;
        else {
            kiln_ctx_set_threads(p->one[i], 1);
            kiln_ctx_set_interrupt(p->one[i], p->ctx->interrupt, p->ctx->interrupt_user);
        }
    }
    if (st != KILN_OK) {
        free_slots(p);
        return kiln_fail(p->ctx, KILN_ERR_DEVICE, "out of memory");
    }
    double one = 0, again = 0; /* a batch's rate: the faster of two passes of one batch */
    p->reps = 1;
    st = run_pass(p, 0, &one);
    if (st == KILN_OK) st = run_pass(p, 0, &again);
    if (st == KILN_OK) {
        if (again > one) one = again;
        double reps = one * seconds / 32 / (double)p->n;
        p->reps = reps < 1 ? 1 : reps > 1e6 ? 1000000 : (unsigned)reps;
        kiln_bench_spec spec = {1, 3, KILN_BENCH_MAX_RUNS, seconds, run_pass, NULL, p, p->ctx};
        st = kiln_bench_median(&spec, rate, NULL);
    }
    free_slots(p);
    return st;
}

/* Launches to time on the GPU for about `seconds`, given one launch's milliseconds. */
static int gpu_reps(double seconds, float ms)
{
    double r = ms > 0 ? seconds * 1000 / ms : 1000;
    return r < 5 ? 5 : r > 200 ? 200 : (int)r;
}

#define PROBE_ITEMS ((size_t)1 << 20)

/* The timed run of a batch bench, sized to about `seconds`: a probe of at most PROBE_ITEMS items
 * (one warm-up, 3 timed launches) gives a launch's time an item; spec->n (the device-sized batch
 * on entry) stays where 5 launches of it fit the time, else shrinks to what does, never below the
 * probe's. A CPU's OpenCL device took 93 s over `--seconds 0.1` with 2^25 messages a launch. */
static kiln_status gpu_bench_sized(kiln_ctx *ctx, kiln_gpu *g, const kiln_gpu_batch *w, kiln_gpu_bench_spec *spec,
                                   double seconds, float *ms, void *sample_in, void *sample_out)
{
    if (!ctx->gpu->batch_bench) return kiln_gpu_lacks(ctx, "time a batch on the device");
    const size_t most = spec->n;
    spec->n = most < PROBE_ITEMS ? most : PROBE_ITEMS;
    spec->reps = 3;
    kiln_status st = ctx->gpu->batch_bench(g, w, spec, ms, sample_in, sample_out);
    if (st != KILN_OK) return st;
    const double per_item = *ms > 0 ? (double)*ms / (double)spec->n : 0;
    const double fit = per_item > 0 ? seconds * 1000 / 5 / per_item : (double)most;
    if (fit >= (double)most) spec->n = most;
    else if (fit > (double)spec->n) spec->n = (size_t)fit;
    spec->reps = gpu_reps(seconds, (float)(per_item * (double)spec->n));
    return ctx->gpu->batch_bench(g, w, spec, ms, sample_in, sample_out);
}

/* With KILN_BENCH_OFFSETS the batch goes through an offsets array, as messages of mixed lengths
 * would; without it the messages are of one length back to back, which the SIMD lanes take. */
static kiln_status cpu_bench_hash(kiln_ctx *ctx, kiln_hash_algo algo, size_t msg_len, int flags, double seconds,
                                  double *rate)
{
    size_t outlen = kiln_hash_digest_len(algo);
    size_t n = msg_len >= 4096 ? 256 : 65536;
    uint8_t *msgs = malloc(n * msg_len + 1);
    uint64_t *offsets = malloc((n + 1) * sizeof *offsets);
    if (!msgs || !offsets) {
        free(msgs), free(offsets);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    uint64_t z = 0x6b696c6e;
    for (size_t i = 0; i < n * msg_len; i++) msgs[i] = (uint8_t)((z = z * 6364136223846793005ull + 1) >> 56);
    for (size_t i = 0; i <= n; i++) offsets[i] = i * msg_len;
    cpu_pass p = {.ctx = ctx, .algo = algo, .msgs = msgs, .offsets = (flags & KILN_BENCH_OFFSETS) ? offsets : NULL,
                  .outlen = outlen, .n = n, .msg_len = msg_len, .reps = 1};
    kiln_status st = cpu_passes(&p, msg_len ? msg_len : 1, seconds, rate);
    free(msgs), free(offsets);
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
    st = gpu_bench_sized(ctx, g, &w, &spec, seconds, &ms, sm, so);
    if (st == KILN_OK) st = kiln_hash_verify_sample(ctx, algo, sm, NULL, msg_len, GPU_SAMPLES, so, outlen);
    free(sm), free(so);
    if (st == KILN_OK) *rate = ms > 0 ? (double)spec.n / (ms / 1000) : 0;
    return st;
}

static kiln_status cpu_bench_perm(kiln_ctx *ctx, double seconds, double *rate)
{
    size_t n = 16384;
    uint64_t *s = calloc(n, 200);
    if (!s) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    cpu_pass p = {.ctx = ctx, .algo = KILN_HASH_SHA256, .states = s, .n = n, .reps = 1};
    kiln_status st = cpu_passes(&p, 200, seconds, rate);
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
    st = gpu_bench_sized(ctx, g, &w, &spec, seconds, &ms, before, after);
    for (int k = 0; k < GPU_SAMPLES && st == KILN_OK; k++) {
        for (int r = 0; r < iters; r++) kiln_keccak_permute(before + 25 * k);
        if (memcmp(before + 25 * k, after + 25 * k, 200) != 0)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU Keccak-f[1600] (%s layout) differs from the CPU's",
                           kiln_keccak_layout_name(lay));
    }
    free(before), free(after);
    if (st == KILN_OK) *rate = ms > 0 ? (double)spec.n * iters / (ms / 1000) : 0;
    return st;
}
