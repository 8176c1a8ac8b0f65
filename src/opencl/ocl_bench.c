/* Benches of the batch kernels on device-resident inputs made on the device (core/gpu.h's
 * batch_bench): one warm-up run, reps timed runs (event profiling), their median, and the inputs
 * and outputs of evenly spaced samples read back for the caller's CPU check.
 *
 * A run (and each fill of the inputs) is queued in pieces of whole work-groups at a global offset,
 * each of about PIECE_S by the kernel's pace measured on the pieces before (at most GROWTH times
 * the last piece within a run: a small piece's pace overstates a large one's, whose pages the
 * device touches first), each waited for, the interrupt read between them; a run's time is its
 * pieces' device time. A GPU runs its 2 GiB of inputs in one piece after the warm-up, as before;
 * a CPU device (PoCL) took 57 s over one SHA3-256 run and waited for it past an interrupt. */
#include <stdlib.h>

#include "../core/bench.h"
#include "../core/clock.h"
#include "ocl_work.h"

#define SEED 0x6b696c6eu
#define PIECE_S 0.2
/* work-items of a kernel's first piece, its pace not yet measured: with 65536, an interrupt waited
 * up to 0.6 s for the Keccak-f[1600] bench's first piece on PoCL (2 busy cores) */
#define FIRST_PIECE 16384.0
#define GROWTH 2.0

typedef struct bench_res {
    kiln_ocl_batch_res b;
    cl_kernel fill;
    float *times;
    double rate, fill_rate; /* the bench kernel's and the fill's work-items a second (0: not yet) */
} bench_res;

static void release(bench_res *r)
{
    kiln_ocl_batch_release(&r->b);
    if (r->fill) clReleaseKernel(r->fill);
    free(r->times);
}

#define ARG(k, i, v) KILN_OCL_TRY(g->ctx, clSetKernelArg((k), (i), sizeof(v), &(v)), "clSetKernelArg")

/* Runs k over `items` work-items in groups of local (0: the runtime's choice; the range rounded up
 * to whole groups, the kernels return past their end) in paced pieces, *rate the pace: *ms the
 * pieces' device time. */
static kiln_status paced_run(kiln_gpu *g, cl_kernel k, size_t items, size_t local, double *rate, float *ms)
{
    *ms = 0;
    const size_t wg = local ? local : 1, global = (items + wg - 1) / wg * wg;
    double last = 0;
    for (size_t at = 0; at < global;) {
        double want = *rate > 0 ? *rate * PIECE_S : FIRST_PIECE;
        if (last > 0 && want > GROWTH * last) want = GROWTH * last;
        size_t piece = want >= (double)(global - at) ? global - at : (size_t)want / wg * wg;
        if (piece < wg) piece = wg;
        size_t off = at;
        cl_event ev;
        const double t0 = kiln_now();
        KILN_OCL_TRY(g->ctx, clEnqueueNDRangeKernel(g->queue, k, 1, &off, &piece, local ? &local : NULL, 0, NULL, &ev),
                     "clEnqueueNDRangeKernel (bench)");
        cl_int err = clWaitForEvents(1, &ev);
        if (err == CL_SUCCESS) *ms += kiln_ocl_span_ms(ev, ev);
        clReleaseEvent(ev);
        KILN_OCL_TRY(g->ctx, err, "bench kernel");
        const double t = kiln_now() - t0;
        at += piece;
        /* a piece cut short by the run's end says little of the pace */
        if (t > 0 && (double)piece >= want / 2) *rate = (double)piece / t;
        last = (double)piece;
        if (at < global && kiln_ctx_interrupt_requested(g->ctx)) return kiln_interrupted(g->ctx);
    }
    return KILN_OK;
}

/* buf's words pseudo-random (fill != 0) or i * len offsets of n + 1 items (fill == 0). */
static kiln_status fill(kiln_gpu *g, bench_res *r, cl_mem buf, cl_ulong count, cl_ulong len, int random)
{
    if (r->fill) clReleaseKernel(r->fill), r->fill = NULL;
    kiln_status st = kiln_ocl_kernel(g, random ? "kiln_fill_random" : "kiln_fill_offsets", &r->fill);
    if (st != KILN_OK) return st;
    cl_ulong third = random ? (cl_ulong)SEED : len;
    ARG(r->fill, 0, buf);
    ARG(r->fill, 1, count);
    ARG(r->fill, 2, third);
    float ms;
    return paced_run(g, r->fill, random ? (size_t)count : (size_t)count + 1, 0, &r->fill_rate, &ms);
}

/* reps timed runs of r->b.k over n work-items in groups of local into r->times; before_last,
 * when not NULL, runs between the last two (the permutation bench reads its samples there). */
static kiln_status timed(kiln_gpu *g, bench_res *r, size_t n, size_t local, int reps, float *median_ms,
                         kiln_status (*before_last)(kiln_gpu *, bench_res *, void *), void *arg)
{
    float ms;
    kiln_status st = paced_run(g, r->b.k, n, local, &r->rate, &ms); /* warm-up */
    r->times = malloc((size_t)reps * sizeof *r->times);
    if (!r->times) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of memory");
    for (int i = 0; i < reps && st == KILN_OK; i++) {
        if (i == reps - 1 && before_last) st = before_last(g, r, arg);
        if (st == KILN_OK) st = paced_run(g, r->b.k, n, local, &r->rate, &r->times[i]);
        if (st == KILN_OK && kiln_ctx_interrupt_requested(g->ctx)) st = kiln_interrupted(g->ctx);
    }
    if (st == KILN_OK) *median_ms = kiln_median_f(r->times, (size_t)reps);
    return st;
}

static kiln_status read(kiln_gpu *g, cl_mem buf, size_t off, size_t bytes, void *dst)
{
    KILN_OCL_TRY(g->ctx, clEnqueueReadBuffer(g->queue, buf, CL_TRUE, off, bytes, dst, 0, NULL, NULL),
                 "clEnqueueReadBuffer (samples)");
    return KILN_OK;
}

static kiln_status digest_bench(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_gpu_bench_spec *b,
                                float *median_ms, uint8_t *sample_in, uint8_t *sample_out, bench_res *r)
{
    kiln_status st = kiln_ocl_check_digest(g, p);
    if (st != KILN_OK) return st;
    const cl_ulong n = b->n, len = b->item_len, words = (len * n + 16 + 7) / 8;
    cl_int err;
    r->b.data = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)words * 8, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (messages)");
    r->b.offsets = clCreateBuffer(g->context, CL_MEM_READ_WRITE, b->with_offsets ? (size_t)(n + 1) * 8 : 8, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (offsets)");
    r->b.out = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)n * p->outlen, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (digests)");
    if ((st = fill(g, r, r->b.data, words, 0, 1)) != KILN_OK) return st;
    if (b->with_offsets && (st = fill(g, r, r->b.offsets, n, len, 0)) != KILN_OK) return st;
    size_t local = 0;
    st = kiln_ocl_digest_kernel(g, p, r->b.data, r->b.offsets, b->with_offsets, 0, len, n, r->b.out, &r->b.k, &local);
    if (st == KILN_OK) st = timed(g, r, (size_t)n, local, b->reps, median_ms, NULL, NULL);
    for (size_t k = 0; k < b->nsample && st == KILN_OK; k++) {
        size_t i = k * (b->n / b->nsample);
        st = read(g, r->b.data, i * b->item_len, b->item_len, sample_in + k * b->item_len);
        if (st == KILN_OK) st = read(g, r->b.out, i * p->outlen, p->outlen, sample_out + k * p->outlen);
    }
    return st;
}

typedef struct perm_samples {
    const kiln_gpu_bench_spec *b;
    uint64_t *dst;
} perm_samples;

static kiln_status read_states(kiln_gpu *g, bench_res *r, void *arg)
{
    perm_samples *s = arg;
    kiln_status st = KILN_OK;
    for (size_t k = 0; k < s->b->nsample && st == KILN_OK; k++)
        st = read(g, r->b.data, k * (s->b->n / s->b->nsample) * 200, 200, s->dst + 25 * k);
    return st;
}

static kiln_status permute_bench(kiln_gpu *g, kiln_keccak_layout layout, const kiln_gpu_bench_spec *b,
                                 float *median_ms, uint64_t *before, uint64_t *after, bench_res *r)
{
    const cl_ulong n = b->n;
    const cl_uint iters = (cl_uint)b->item_len;
    cl_int err;
    r->b.data = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)n * 200, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (states)");
    size_t items = 0, local = 0;
    kiln_status st = fill(g, r, r->b.data, n * 25, 0, 1);
    if (st == KILN_OK) st = kiln_ocl_perm_kernel(g, layout, r->b.data, n, iters, &r->b.k, &items, &local);
    if (st != KILN_OK) return st;
    perm_samples pre = {b, before}, post = {b, after};
    st = timed(g, r, items, local, b->reps, median_ms, read_states, &pre);
    if (st == KILN_OK) st = read_states(g, r, &post);
    return st;
}

kiln_status kiln_ocl_batch_bench(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_bench_spec *spec,
                                 float *median_ms, void *sample_in, void *sample_out)
{
    *median_ms = 0;
    if (spec->n == 0 || spec->reps < 1 || spec->reps > 1000 || spec->nsample > spec->n)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "bad benchmark size");
    /* the 2 GiB of inputs beside the scrypt scratchpads an earlier call left on the handle (88 GiB on
     * an H200) were refused by NVIDIA's driver (CL_MEM_OBJECT_ALLOCATION_FAILURE at the first launch):
     * a bench needs the memory more than a later scrypt call needs its buffers kept */
    kiln_ocl_scrypt_release(g);
    bench_res r = {0};
    kiln_status st;
    switch (w->kind) {
    case KILN_GPU_BATCH_DIGEST:
        st = digest_bench(g, &w->by.digest, spec, median_ms, sample_in, sample_out, &r);
        break;
    case KILN_GPU_BATCH_PERMUTE:
        st = permute_bench(g, w->by.permute, spec, median_ms, sample_in, sample_out, &r);
        break;
    default: st = kiln_fail(g->ctx, KILN_ERR_INPUT, "opencl: no bench for a batch of kind %d", (int)w->kind);
    }
    release(&r);
    return st;
}
