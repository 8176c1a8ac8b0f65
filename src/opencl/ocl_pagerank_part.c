/* PageRank over row parts on OpenCL (core/gpu.h's pr_part_* operations): one part of the rows,
 * for several devices of one context or one process of a split (MPI), run by the one-device
 * kernels of kernels/pagerank.cl unchanged, as the CUDA backend runs its one-device kernel over a
 * part (src/cuda/pagerank_part.cu).
 *
 * open orders the part's rows by descending in-degree (stable, on the host, as ocl_pagerank.c
 * does for a whole graph); the host joins the parts' orders into one relabelling that keeps every
 * part's rows in its own range and hands it back (relabel), which lays the rows out in the new
 * labels. The kernels index a row's offsets, out-degree, personalization and dangling weight by
 * the row's label and gather the whole y, so the per-row arrays are allocated up to the part's last
 * label v1 and written from v0 (labels below v0 are never read): the kernels need no row offset,
 * at the cost of 4..16 unused bytes a label below v0 on the device.
 *
 * A pass is the one-device iteration: the host writes the kernel's state (the parity that picks
 * which y is read, not done) and the last pass's global dangling mass into the sums the kernel
 * reads, then the fold, with a threshold below any change, adds the part's groups' L1 change and
 * dangling mass, which come back to the host for the sum over the parts.
 *
 * Every device handle has its own cl_context, so the slices go from part to part through the
 * host: the source's new rows are read once a pass into a host copy, and written from it into
 * each other part's next vector. */
#include <stdlib.h>
#include <string.h>

#include "../core/clock.h"
#include "ocl_work.h"

#define WG KILN_OCL_PR_WG

/* The source's rows of next as last read back; a pointer member, so a share through a const
 * source still records what it read. */
typedef struct pr_mirror {
    void *rows;
    unsigned pass; /* the pass whose rows it holds, 0 for none */
    cl_mem pinned; /* the buffer rows is mapped from, or NULL when rows is malloc'ed */
} pr_mirror;

struct kiln_gpu_pr_part {
    kiln_gpu *g;
    uint64_t n, v0, v1, rows;
    size_t elem, sbytes;
    int weighted, slots;
    uint32_t stage_cap;
    uint32_t *order; /* visiting order within the part, from open to relabel */
    cl_mem off, src, odeg, w, tp, tq, y[2], state, sums, part, bins;
    cl_kernel iter, fold;
    uint64_t groups;
    size_t part_bytes;
    int cur; /* y[cur] is read by the next pass */
    unsigned pass; /* passes launched */
    /* the host's side of a pass, untouched while its copies are in flight */
    cl_uint state_in[2];
    union {
        double d[2];
        float f[2];
    } sums_in, sums_out;
    cl_event sums_read; /* the pass's sums on their way back */
    pr_mirror mirror_store, *mirror;
    double share_s; /* host-staged shares into this part since the last share_seconds */
};

/* A device array of `bytes` (8 at least: a zero-sized buffer is invalid) with `len` bytes of host
 * written at byte `at`, the rest left unwritten. */
static kiln_status region(kiln_gpu *g, size_t bytes, size_t at, const void *host, size_t len, cl_mem *out,
                          const char *what)
{
    cl_int err;
    *out = clCreateBuffer(g->context, CL_MEM_READ_ONLY, bytes ? bytes : 8, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, what);
    if (len) KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, *out, CL_TRUE, at, len, host, 0, NULL, NULL), what);
    return KILN_OK;
}


kiln_status kiln_ocl_pr_part_open(kiln_gpu *g, const kiln_gpu_pr_part_spec *spec, uint32_t *order,
                                  kiln_gpu_pr_part **out)
{
    *out = NULL;
    if (spec->v1 < spec->v0 || spec->v1 > spec->n || spec->n == 0 || spec->n > 0xfffffffeull)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "PageRank part rows [%llu, %llu) outside the graph's %llu",
                         (unsigned long long)spec->v0, (unsigned long long)spec->v1, (unsigned long long)spec->n);
    if ((spec->weights == NULL) != (spec->out_weight == NULL))
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "PageRank part: edge weights without out-weights");
    kiln_gpu_pr_part *p = calloc(1, sizeof *p);
    if (!p) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    p->g = g;
    p->n = spec->n;
    p->v0 = spec->v0;
    p->v1 = spec->v1;
    p->rows = spec->v1 - spec->v0;
    p->elem = spec->use_double ? 8 : 4;
    p->weighted = spec->weights != NULL;
    p->mirror = &p->mirror_store;
    /* the device's float64 and local memory first: a refusal comes before the host's work */
    kiln_status st = kiln_ocl_pr_shape(g, spec->use_double, &p->sbytes, &p->stage_cap);
    uint32_t *deg = NULL;
    if (st == KILN_OK) {
        p->order = malloc((size_t)(p->rows ? p->rows : 1) * 4);
        deg = malloc((size_t)(p->rows ? p->rows : 1) * 4);
        if (!p->order || !deg) st = kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    }
    if (st == KILN_OK) {
        for (uint64_t r = 0; r < p->rows; r++)
            deg[r] = (uint32_t)(spec->offsets[p->v0 + r + 1] - spec->offsets[p->v0 + r]);
        if (kiln_ocl_pr_sort_by_degree(p->rows, deg, p->order) != 0)
            st = kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    }
    free(deg);
    if (st == KILN_OK) memcpy(order, p->order, (size_t)p->rows * 4);
    if (st != KILN_OK) {
        kiln_ocl_pr_part_close(p);
        return st;
    }
    *out = p;
    return KILN_OK;
}

/* The part's rows in the new labels, on the device (see the top of the file). */
static kiln_status upload_rows(kiln_gpu_pr_part *p, const kiln_gpu_pr_part_spec *s, const uint32_t *old2new)
{
    kiln_gpu *g = p->g;
    const uint64_t rows = p->rows, v0 = p->v0, v1 = p->v1;
    const int dbl = p->elem == 8;
    uint32_t *rows_old = malloc((size_t)(rows ? rows : 1) * 4), *odeg = malloc((size_t)(rows ? rows : 1) * 4);
    uint64_t *noff = malloc((size_t)(rows + 1) * 8);
    kiln_status st = rows_old && odeg && noff ? KILN_OK : kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    for (uint64_t r = 0; st == KILN_OK && r < rows; r++) {
        const uint64_t v = v0 + p->order[r];
        if (old2new[v] != v0 + r) {
            st = kiln_fail(g->ctx, KILN_ERR_INPUT, "PageRank part [%llu, %llu): the relabelling moves vertex %llu to %u",
                           (unsigned long long)v0, (unsigned long long)v1, (unsigned long long)v, old2new[v]);
            break;
        }
        rows_old[r] = (uint32_t)v;
    }
    if (st == KILN_OK && !rows) { /* nothing to run: the part only holds the vector */
        free(rows_old);
        free(odeg);
        free(noff);
        return KILN_OK;
    }
    if (st == KILN_OK) {
        noff[0] = 0;
        for (uint64_t r = 0; r < rows; r++) {
            const uint32_t v = rows_old[r];
            noff[r + 1] = noff[r] + (s->offsets[v + 1] - s->offsets[v]);
            odeg[r] = p->weighted ? s->out_weight[v] > 0 : s->outdeg[v];
        }
    }
    const uint64_t m = st == KILN_OK ? noff[rows] : 0;
    const int wide = m > 0xffffffffull;
    uint32_t *src = NULL;
    void *w = NULL, *off = NULL;
    if (st == KILN_OK) {
        src = malloc((size_t)(m ? m : 1) * 4);
        w = p->weighted ? malloc((size_t)(m ? m : 1) * p->elem) : NULL;
        off = malloc((size_t)(rows + 1) * (wide ? 8 : 4));
        if (!src || !off || (p->weighted && !w)) st = kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    }
    if (st == KILN_OK) {
        const kiln_gpu_pr_graph gr = {.n = s->n,
                                      .m = m,
                                      .dangling = 0,
                                      .offsets = s->offsets,
                                      .sources = s->sources,
                                      .outdeg = s->outdeg,
                                      .weights = s->weights,
                                      .out_weight = s->out_weight};
        st = kiln_ocl_pr_layout_rows(g->ctx, &gr, rows_old, rows, old2new, noff, dbl, src, w);
    }
    if (st == KILN_OK) {
        for (uint64_t r = 0; r <= rows; r++) {
            if (wide) ((uint64_t *)off)[r] = noff[r];
            else ((uint32_t *)off)[r] = (uint32_t)noff[r];
        }
        cl_ulong bins[KILN_OCL_PR_BIN_WORDS];
        if (kiln_ocl_pr_part_bins(noff, rows, v0, p->stage_cap, bins, &p->groups) != 0)
            st = kiln_fail(g->ctx, KILN_ERR_DEVICE, "PageRank part: the degree classes do not cover its %llu rows",
                           (unsigned long long)rows);
        const size_t os = wide ? 8 : 4;
        if (st == KILN_OK)
            st = region(g, (size_t)(v1 + 1) * os, (size_t)v0 * os, off, (size_t)(rows + 1) * os, &p->off,
                        "clCreateBuffer (part offsets)");
        if (st == KILN_OK)
            st = region(g, (size_t)m * 4, 0, src, (size_t)m * 4, &p->src, "clCreateBuffer (part sources)");
        if (st == KILN_OK)
            st = region(g, (size_t)v1 * 4, (size_t)v0 * 4, odeg, (size_t)rows * 4, &p->odeg,
                        "clCreateBuffer (part out-degrees)");
        if (st == KILN_OK && p->weighted)
            st = region(g, (size_t)m * p->elem, 0, w, (size_t)m * p->elem, &p->w, "clCreateBuffer (part edge weights)");
        if (st == KILN_OK) st = region(g, sizeof bins, 0, bins, sizeof bins, &p->bins, "clCreateBuffer (part bins)");
    }
    /* personalization and dangling weights of the rows, in the rank type, by label as odeg */
    const double *vec[2] = {s->personalization, s->dangling};
    cl_mem *dev[2] = {&p->tp, &p->tq};
    void *h = st == KILN_OK && (vec[0] || vec[1]) ? malloc((size_t)(rows ? rows : 1) * p->elem) : NULL;
    if (st == KILN_OK && (vec[0] || vec[1]) && !h) st = kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    for (int i = 0; i < 2 && st == KILN_OK; i++) {
        if (!vec[i]) continue;
        for (uint64_t r = 0; r < rows; r++) {
            if (dbl) ((double *)h)[r] = vec[i][rows_old[r]];
            else ((float *)h)[r] = (float)vec[i][rows_old[r]];
        }
        st = region(g, (size_t)v1 * p->elem, (size_t)v0 * p->elem, h, (size_t)rows * p->elem, dev[i],
                    "clCreateBuffer (part vector)");
    }
    free(h);
    if (st == KILN_OK) {
        cl_kernel iter = NULL, fold = NULL;
        st = kiln_ocl_pr_kernels(g, dbl, wide, p->weighted, &iter, &fold);
        p->iter = iter;
        p->fold = fold;
    }
    free(rows_old);
    free(odeg);
    free(noff);
    free(src);
    free(w);
    free(off);
    return st;
}

/* The kernels' arguments: the one-device ones, over the part's arrays; the fold never marks the
 * run done (the host decides convergence over all the parts). */
static kiln_status set_args(kiln_gpu_pr_part *p, const kiln_gpu_pr_part_spec *s)
{
    const kiln_ocl_pr_args args = {.off = p->off, .src = p->src, .odeg = p->odeg, .w = p->w, .tp = p->tp, .tq = p->tq,
                                   .y0 = p->y[0], .y1 = p->y[1], .state = p->state, .sums = p->sums, .part = p->part,
                                   .bins = p->bins, .groups = (cl_uint)p->groups, .sbytes = p->sbytes,
                                   .stage_bytes = (size_t)p->stage_cap * p->elem, .damping = s->damping,
                                   .inv_n = 1.0 / (double)p->n, .threshold = -1.0};
    return kiln_ocl_pr_set_args(p->g, p->iter, p->fold, &args);
}

/* The host copy of the part's rows: page-locked where the driver gives it (a host-allocated buffer
 * kept mapped: NVIDIA's way to page-locked memory, which its copies reach at the link's speed),
 * else malloc'ed. */
static kiln_status mirror_alloc(kiln_gpu_pr_part *p)
{
    kiln_gpu *g = p->g;
    pr_mirror *mir = p->mirror;
    const size_t bytes = (size_t)p->rows * p->elem;
    cl_int err;
    mir->pinned = clCreateBuffer(g->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
    if (err == CL_SUCCESS) {
        mir->rows = clEnqueueMapBuffer(g->queue, mir->pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
                                       NULL, &err);
        if (err == CL_SUCCESS && mir->rows) return KILN_OK;
        clReleaseMemObject(mir->pinned);
    }
    mir->pinned = NULL;
    mir->rows = malloc(bytes);
    return mir->rows ? KILN_OK : kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
}

kiln_status kiln_ocl_pr_part_relabel(kiln_gpu_pr_part *p, const kiln_gpu_pr_part_spec *spec, const uint32_t *old2new)
{
    kiln_gpu *g = p->g;
    kiln_status st = upload_rows(p, spec, old2new);
    if (st != KILN_OK) return st;
    free(p->order);
    p->order = NULL;
    cl_int err;
    for (int i = 0; i < 2; i++) {
        p->y[i] = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)p->n * p->elem, NULL, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (part ranks)");
        /* rows of other parts not yet shared read as zeros, not garbage */
        const cl_uint zero = 0;
        KILN_OCL_TRY(g->ctx,
                     clEnqueueFillBuffer(g->queue, p->y[i], &zero, sizeof zero, 0, (size_t)p->n * p->elem, 0, NULL, NULL),
                     "clEnqueueFillBuffer (part ranks)");
    }
    if (p->rows) {
        if ((st = mirror_alloc(p)) != KILN_OK) return st;
        p->state = clCreateBuffer(g->context, CL_MEM_READ_WRITE, 2 * sizeof(cl_uint), NULL, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (part state)");
        p->sums = clCreateBuffer(g->context, CL_MEM_READ_WRITE, 2 * p->sbytes, NULL, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (part sums)");
        /* as ocl_pagerank.c: 32 slots the groups add into with atomics (NVIDIA, float64), else a
         * pair a group; the slots start empty and the fold empties them */
        p->slots = kiln_ocl_is_nv(g) && p->sbytes == 8;
        p->part_bytes = p->slots ? 32 * 16 * 8 : (size_t)p->groups * 2 * p->sbytes;
        p->part = clCreateBuffer(g->context, CL_MEM_READ_WRITE, p->part_bytes, NULL, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (part partial sums)");
        const cl_uint zero = 0;
        KILN_OCL_TRY(g->ctx, clEnqueueFillBuffer(g->queue, p->part, &zero, sizeof zero, 0, p->part_bytes, 0, NULL, NULL),
                     "clEnqueueFillBuffer (part partial sums)");
        if ((st = set_args(p, spec)) != KILN_OK) return st;
    }
    KILN_OCL_TRY(g->ctx, clFinish(g->queue), "PageRank part setup");
    return KILN_OK;
}

kiln_status kiln_ocl_pr_part_put(kiln_gpu_pr_part *p, const void *y, uint64_t first, uint64_t count)
{
    if (!count) return KILN_OK;
    KILN_OCL_TRY(p->g->ctx,
                 clEnqueueWriteBuffer(p->g->queue, p->y[p->cur], CL_TRUE, (size_t)first * p->elem, (size_t)count * p->elem,
                                      (const unsigned char *)y + first * p->elem, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (rank vector to the device)");
    return KILN_OK;
}

kiln_status kiln_ocl_pr_part_get(kiln_gpu_pr_part *p, void *y, uint64_t first, uint64_t count)
{
    if (!count) return KILN_OK;
    /* after the pass and the shares into this vector: the queue is in order */
    KILN_OCL_TRY(p->g->ctx,
                 clEnqueueReadBuffer(p->g->queue, p->y[p->cur], CL_TRUE, (size_t)first * p->elem, (size_t)count * p->elem,
                                     (unsigned char *)y + first * p->elem, 0, NULL, NULL),
                 "clEnqueueReadBuffer (rank vector from the device)");
    return KILN_OK;
}

kiln_status kiln_ocl_pr_part_launch(kiln_gpu_pr_part *p, double dangling)
{
    kiln_gpu *g = p->g;
    p->pass++;
    if (!p->rows) return KILN_OK;
    /* the kernel reads y[state[0] & 1] and, from the sums, the dangling mass it folds in */
    p->state_in[0] = (cl_uint)p->cur;
    p->state_in[1] = 0;
    if (p->sbytes == 8) p->sums_in.d[0] = 0, p->sums_in.d[1] = dangling;
    else p->sums_in.f[0] = 0, p->sums_in.f[1] = (float)dangling;
    KILN_OCL_TRY(g->ctx,
                 clEnqueueWriteBuffer(g->queue, p->state, CL_FALSE, 0, sizeof p->state_in, p->state_in, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (part state)");
    KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, p->sums, CL_FALSE, 0, 2 * p->sbytes, &p->sums_in, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (part dangling mass)");
    size_t global = (size_t)p->groups * WG, local = WG, one = WG;
    KILN_OCL_TRY(g->ctx, clEnqueueNDRangeKernel(g->queue, p->iter, 1, NULL, &global, &local, 0, NULL, NULL),
                 "clEnqueueNDRangeKernel (PageRank part)");
    KILN_OCL_TRY(g->ctx, clEnqueueNDRangeKernel(g->queue, p->fold, 1, NULL, &one, &local, 0, NULL, NULL),
                 "clEnqueueNDRangeKernel (PageRank part fold)");
    if (p->sums_read) {
        clReleaseEvent(p->sums_read);
        p->sums_read = NULL;
    }
    KILN_OCL_TRY(g->ctx,
                 clEnqueueReadBuffer(g->queue, p->sums, CL_FALSE, 0, 2 * p->sbytes, &p->sums_out, 0, NULL, &p->sums_read),
                 "clEnqueueReadBuffer (part sums)");
    KILN_OCL_TRY(g->ctx, clFlush(g->queue), "clFlush (PageRank part)");
    return KILN_OK;
}

kiln_status kiln_ocl_pr_part_sums(kiln_gpu_pr_part *p, double *res, double *dangling)
{
    *res = *dangling = 0;
    if (!p->rows) return KILN_OK;
    if (!p->sums_read) return kiln_fail(p->g->ctx, KILN_ERR_DEVICE, "PageRank part: sums asked for before a pass");
    KILN_OCL_TRY(p->g->ctx, clWaitForEvents(1, &p->sums_read), "PageRank part pass");
    *res = p->sbytes == 8 ? p->sums_out.d[0] : p->sums_out.f[0];
    *dangling = p->sbytes == 8 ? p->sums_out.d[1] : p->sums_out.f[1];
    return KILN_OK;
}

kiln_status kiln_ocl_pr_part_share(kiln_gpu_pr_part *dst, const kiln_gpu_pr_part *src)
{
    if (!src->rows) return KILN_OK;
    const double t = kiln_now();
    const size_t at = (size_t)src->v0 * src->elem, bytes = (size_t)src->rows * src->elem;
    pr_mirror *mir = src->mirror;
    if (mir->pass != src->pass) {
        /* the source's new rows, once a pass whatever the number of parts they go to */
        KILN_OCL_TRY(src->g->ctx,
                     clEnqueueReadBuffer(src->g->queue, src->y[1 - src->cur], CL_TRUE, at, bytes, mir->rows, 0, NULL, NULL),
                     "clEnqueueReadBuffer (rank vector slice)");
        mir->pass = src->pass;
    }
    /* waited for: the copy is reused by the next part and rewritten by the next pass */
    KILN_OCL_TRY(dst->g->ctx,
                 clEnqueueWriteBuffer(dst->g->queue, dst->y[1 - dst->cur], CL_TRUE, at, bytes, mir->rows, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (rank vector slice)");
    dst->share_s += kiln_now() - t;
    return KILN_OK;
}

void kiln_ocl_pr_part_flip(kiln_gpu_pr_part *p)
{
    p->cur = 1 - p->cur;
}

double kiln_ocl_pr_part_share_seconds(kiln_gpu_pr_part *p)
{
    const double s = p->share_s;
    p->share_s = 0;
    return s;
}

void kiln_ocl_pr_part_close(kiln_gpu_pr_part *p)
{
    if (!p) return;
    clFinish(p->g->queue);
    if (p->sums_read) clReleaseEvent(p->sums_read);
    cl_mem *m[] = {&p->off, &p->src, &p->odeg, &p->w, &p->tp, &p->tq, &p->y[0], &p->y[1],
                   &p->state, &p->sums, &p->part, &p->bins};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (*m[i]) clReleaseMemObject(*m[i]);
    if (p->iter) clReleaseKernel(p->iter);
    if (p->fold) clReleaseKernel(p->fold);
    if (p->mirror_store.pinned) {
        if (p->mirror_store.rows)
            clEnqueueUnmapMemObject(p->g->queue, p->mirror_store.pinned, p->mirror_store.rows, 0, NULL, NULL);
        clFinish(p->g->queue);
        clReleaseMemObject(p->mirror_store.pinned);
    } else {
        free(p->mirror_store.rows);
    }
    free(p->order);
    free(p);
}
