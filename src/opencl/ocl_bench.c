/* Benches of the batch kernels on device-resident inputs made on the device (core/gpu.h's
 * batch_bench): one warm-up launch, reps timed launches (event profiling), their median, and the
 * inputs and outputs of evenly spaced samples read back for the caller's CPU check. */
#include <stdlib.h>

#include "../core/bench.h"
#include "ocl_state.h"

#define SEED 0x6b696c6eu

typedef struct bench_res {
    cl_mem data, offsets, out;
    cl_kernel k, fill;
    float *times;
} bench_res;

static void release(bench_res *r)
{
    if (r->data) clReleaseMemObject(r->data);
    if (r->offsets) clReleaseMemObject(r->offsets);
    if (r->out) clReleaseMemObject(r->out);
    if (r->k) clReleaseKernel(r->k);
    if (r->fill) clReleaseKernel(r->fill);
    free(r->times);
}

#define ARG(k, i, v) KILN_OCL_TRY(g->ctx, clSetKernelArg((k), (i), sizeof(v), &(v)), "clSetKernelArg")

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
    return kiln_ocl_run(g, r->fill, random ? (size_t)count : (size_t)count + 1, &ms);
}

/* reps timed launches of r->k over n work-items in groups of local into r->times; before_last,
 * when not NULL, runs between the last two (the permutation bench reads its samples there). */
static kiln_status timed(kiln_gpu *g, bench_res *r, size_t n, size_t local, int reps, float *median_ms,
                         kiln_status (*before_last)(kiln_gpu *, bench_res *, void *), void *arg)
{
    float ms;
    kiln_status st = kiln_ocl_run_items(g, r->k, n, local, &ms); /* warm-up */
    r->times = malloc((size_t)reps * sizeof *r->times);
    if (!r->times) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of memory");
    for (int i = 0; i < reps && st == KILN_OK; i++) {
        if (i == reps - 1 && before_last) st = before_last(g, r, arg);
        if (st == KILN_OK) st = kiln_ocl_run_items(g, r->k, n, local, &r->times[i]);
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
    r->data = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)words * 8, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (messages)");
    r->offsets = clCreateBuffer(g->context, CL_MEM_READ_WRITE, b->with_offsets ? (size_t)(n + 1) * 8 : 8, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (offsets)");
    r->out = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)n * p->outlen, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (digests)");
    if ((st = fill(g, r, r->data, words, 0, 1)) != KILN_OK) return st;
    if (b->with_offsets && (st = fill(g, r, r->offsets, n, len, 0)) != KILN_OK) return st;
    size_t local = 0;
    st = kiln_ocl_digest_kernel(g, p, r->data, r->offsets, b->with_offsets, 0, len, n, r->out, &r->k, &local);
    if (st == KILN_OK) st = timed(g, r, (size_t)n, local, b->reps, median_ms, NULL, NULL);
    for (size_t k = 0; k < b->nsample && st == KILN_OK; k++) {
        size_t i = k * (b->n / b->nsample);
        st = read(g, r->data, i * b->item_len, b->item_len, sample_in + k * b->item_len);
        if (st == KILN_OK) st = read(g, r->out, i * p->outlen, p->outlen, sample_out + k * p->outlen);
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
        st = read(g, r->data, k * (s->b->n / s->b->nsample) * 200, 200, s->dst + 25 * k);
    return st;
}

static kiln_status permute_bench(kiln_gpu *g, kiln_keccak_layout layout, const kiln_gpu_bench_spec *b,
                                 float *median_ms, uint64_t *before, uint64_t *after, bench_res *r)
{
    const cl_ulong n = b->n;
    const cl_uint iters = (cl_uint)b->item_len;
    cl_int err;
    r->data = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)n * 200, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (states)");
    size_t items = 0, local = 0;
    kiln_status st = fill(g, r, r->data, n * 25, 0, 1);
    if (st == KILN_OK) st = kiln_ocl_perm_kernel(g, layout, r->data, n, iters, &r->k, &items, &local);
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
