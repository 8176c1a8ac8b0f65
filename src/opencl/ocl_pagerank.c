/* PageRank on an OpenCL device (kernels/pagerank.cl), laid out as the CUDA backend lays it out
 * (src/cuda/pagerank.cu, docs/PAGERANK.md), with the relabelling done here on the host, once, in
 * the setup time (the CUDA backend does it with CUB on the device; OpenCL has no sort to lean on):
 *  - the vertices are put in descending order of in-degree (stable) and relabelled in that order;
 *    every source takes its new label and each row's sources are sorted ascending (rows on the
 *    context's threads);
 *  - the visiting order is cut into bins of one degree class each: a work-group a row of 2048+
 *    in-edges, else a work-group per run of rows holding at most `stage_cap` edges, with 1..32
 *    lanes a row by class (the CUDA backend's classes, so the same shapes);
 *  - NetworkX's definition, x' = d (A^T y + D q) + (1 - d) p: a weighted graph's edges carry their
 *    share of the source's out-weight (w / W, computed here), p and q come in as vectors by row
 *    when given, the dangling mass D of each iteration stays on the device and the next
 *    iteration's work-groups fold it into their coefficients;
 *  - an iteration is two launches (the rows, then the one-group fold of the work-groups' sums
 *    that counts the iteration and marks convergence), and launches are queued in batches with
 *    the same arguments: the host reads the 24-byte state after each batch when there is a
 *    tolerance (the CUDA backend's stopping test, L1 change below n * tol, the iteration that gets
 *    there counted and its x the result; launches queued after it change nothing), and only at
 *    the end for a fixed count, waiting for the batch before the last queued so that the queue
 *    never drains. A batch holds as many iterations as take about BATCH_S by the last batch's pace
 *    (one at first, at most 8 times the last, up to 36, or 6 past 2^24 edges), the interrupt read
 *    after each: on a CPU device 36 iterations of RMAT 20 took 4 s, two batches in flight 10 s
 *    to stop (issue 36.11).
 * p->reorder and p->kernel are not used: the rows are always relabelled and the kernel reported
 * is the grid one. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bench.h"
#include "../core/clock.h"
#include "../core/sort.h"
#include "../prim/pagerank.h"
#include "../prim/pagerank_layout.h"
#include "ocl_work.h"

#define WG 256 /* work-items a group: KILN_PR_WG of pagerank.cl */
#define BATCH_S 0.2 /* a batch's aim in seconds: the interrupt is read between batches */

/* The relabelled graph in host memory, before it goes to the device. */
typedef struct pr_layout {
    int wide; /* 64-bit offsets (2^32 edges or more) */
    uint32_t *new2old; /* visiting position (new label) -> vertex */
    uint32_t *odeg; /* by new label: the out-degree, or 1 / 0 (has out-weight / dangling) when weighted */
    void *off; /* n + 1 offsets, uint32_t or uint64_t */
    uint32_t *src; /* new labels, ascending within each row */
    void *w; /* weighted: each edge's share of its source's out-weight, in the rank type */
    uint64_t cls[KILN_PR_CLASSES]; /* rows in each degree class, contiguous in the visiting order */
} pr_layout;

static void layout_free(pr_layout *L)
{
    free(L->new2old);
    free(L->odeg);
    free(L->off);
    free(L->src);
    free(L->w);
    memset(L, 0, sizeof *L);
}

/* order[] = the vertices by descending deg[], ties in label order: a stable LSD radix sort on
 * ~deg, two passes of 16 bits, O(n). */
static int sort_by_degree(uint64_t n, const uint32_t *deg, uint32_t *order)
{
    uint32_t *tmp = malloc((size_t)n * 4);
    uint64_t *count = malloc(65537 * sizeof *count);
    if (!tmp || !count) {
        free(tmp);
        free(count);
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) order[i] = (uint32_t)i;
    uint32_t *in = order, *out = tmp;
    for (int shift = 0; shift < 32; shift += 16) {
        memset(count, 0, 65537 * sizeof *count);
        for (uint64_t i = 0; i < n; i++) count[((~deg[in[i]]) >> shift & 0xffffu) + 1]++;
        for (int b = 0; b < 65536; b++) count[b + 1] += count[b];
        for (uint64_t i = 0; i < n; i++) out[count[(~deg[in[i]]) >> shift & 0xffffu]++] = in[i];
        uint32_t *t = in;
        in = out;
        out = t;
    }
    /* an even number of passes: the result is back in `order` */
    free(tmp);
    free(count);
    return 0;
}

/* New row i of the layout: old row new2old[i]'s sources in their new labels, ascending, at
 * L->src + noff[i] (and, weighted, each edge's share of its source's out-weight beside them, the
 * edges ordered through `pairs`, (new label << 32 | position in the row), room for deg values). */
static void layout_row(const kiln_gpu_pr_graph *gr, pr_layout *L, const uint32_t *old2new, const uint64_t *noff,
                       uint64_t i, uint64_t deg, int dbl, uint64_t *pairs)
{
    const uint64_t b = gr->offsets[L->new2old[i]], q0 = noff[i];
    uint32_t *out = L->src + q0;
    if (!pairs) {
        for (uint64_t k = 0; k < deg; k++) out[k] = old2new[gr->sources[b + k]];
        kiln_sort_u32(out, deg); /* a row's sources are distinct (duplicate edges are merged) */
        return;
    }
    for (uint64_t k = 0; k < deg; k++) pairs[k] = (uint64_t)old2new[gr->sources[b + k]] << 32 | k;
    kiln_sort_u64(pairs, deg);
    for (uint64_t k = 0; k < deg; k++) {
        const uint64_t j = b + (pairs[k] & 0xffffffffu);
        /* a source whose out-weight is 0 is dangling: its edges carry nothing (not 0 / 0) */
        const double W = gr->out_weight[gr->sources[j]], share = W > 0 ? gr->weights[j] / W : 0;
        out[k] = (uint32_t)(pairs[k] >> 32);
        if (dbl) ((double *)L->w)[q0 + k] = share;
        else ((float *)L->w)[q0 + k] = (float)share;
    }
}

/* Rows [0, rows) of L laid out (layout_row) on the context's threads, one for a small layout;
 * with poll the interrupt is read every 2^16 rows (the layout of RMAT 22 takes seconds on 2
 * cores), and *stop says it asked. Returns nonzero when out of memory. */
static int layout_rows(kiln_ctx *ctx, const kiln_gpu_pr_graph *gr, pr_layout *L, const uint32_t *old2new,
                       const uint64_t *noff, uint64_t rows, int dbl, int poll, int *stop_out)
{
    const int weighted = gr->weights != NULL;
    const uint64_t cap = (rows + noff[rows]) >> 15;
    int threads = ctx->threads > 0 ? ctx->threads : omp_get_num_procs(), failed = 0, stop = 0;
    if ((uint64_t)threads > cap) threads = cap < 1 ? 1 : (int)cap;
#pragma omp parallel num_threads(threads)
    {
        uint64_t *pairs = NULL, room = 0;
#pragma omp for schedule(dynamic, 64)
        for (int64_t i = 0; i < (int64_t)rows; i++) {
            if (poll) {
                int halt;
#pragma omp atomic read
                halt = stop;
                if (halt) continue;
                if ((i & 0xffff) == 0 && kiln_ctx_interrupt_requested(ctx)) {
#pragma omp atomic write
                    stop = 1;
                    continue;
                }
            }
            const uint64_t d = noff[i + 1] - noff[i];
            if (weighted && d > room) {
                uint64_t *p = realloc(pairs, (size_t)d * sizeof *pairs);
                if (!p) {
#pragma omp atomic write
                    failed = 1;
                    continue;
                }
                pairs = p;
                room = d;
            }
            layout_row(gr, L, old2new, noff, (uint64_t)i, d, dbl, weighted ? pairs : NULL);
        }
        free(pairs);
    }
    *stop_out = stop;
    return failed;
}

/* The relabelled layout of gr (ranks in float64 when dbl): see the top of the file. The rows are
 * independent, so they are laid out on the context's threads (one for a small graph). */
static kiln_status layout_build(kiln_ctx *ctx, const kiln_gpu_pr_graph *gr, int dbl, pr_layout *L)
{
    const uint64_t n = gr->n, m = gr->m;
    const int weighted = gr->weights != NULL;
    const size_t es = dbl ? 8 : 4;
    memset(L, 0, sizeof *L);
    L->wide = m > 0xffffffffull;
    /* deg zeroed: GCC cannot see that the loop below writes all of it before the sort reads it */
    uint32_t *deg = calloc((size_t)n, 4), *old2new = malloc((size_t)n * 4);
    uint64_t *noff = malloc((size_t)(n + 1) * 8);
    L->new2old = malloc((size_t)n * 4);
    L->odeg = malloc((size_t)n * 4);
    L->src = malloc((size_t)(m ? m : 1) * 4);
    if (weighted) L->w = malloc((size_t)(m ? m : 1) * es);
    int failed = !deg || !old2new || !noff || !L->new2old || !L->odeg || !L->src || (weighted && !L->w), stop = 0;
    if (!failed) {
        for (uint64_t v = 0; v < n; v++) deg[v] = (uint32_t)(gr->offsets[v + 1] - gr->offsets[v]);
        failed = sort_by_degree(n, deg, L->new2old) != 0;
    }
    if (!failed) {
        noff[0] = 0;
        for (uint64_t i = 0; i < n; i++) {
            const uint32_t v = L->new2old[i];
            old2new[v] = (uint32_t)i;
            noff[i + 1] = noff[i] + deg[v];
            L->cls[kiln_pr_degree_class(deg[v])]++;
            L->odeg[i] = weighted ? gr->out_weight[v] > 0 : gr->outdeg[v];
        }
        failed = layout_rows(ctx, gr, L, old2new, noff, n, dbl, 1, &stop);
    }
    if (!failed && stop) {
        free(deg);
        free(old2new);
        free(noff);
        layout_free(L);
        return kiln_interrupted(ctx);
    }
    if (!failed && L->wide) {
        L->off = noff;
        noff = NULL;
    } else if (!failed) {
        uint32_t *o = malloc((size_t)(n + 1) * 4);
        if (o)
            for (uint64_t i = 0; i <= n; i++) o[i] = (uint32_t)noff[i];
        L->off = o;
        failed = !o;
    }
    free(deg);
    free(old2new);
    free(noff);
    if (!failed) return KILN_OK;
    layout_free(L);
    return kiln_fail(ctx, KILN_ERR_DEVICE, "out of host memory laying out the graph for PageRank");
}

/* The bins over the visiting order (src/prim/pagerank_layout.h, the CUDA backend's shapes) as
 * pagerank.cl's table, and the work-groups they take; -1 when the classes do not cover the rows
 * or the groups overflow. */
static int make_bins(const uint64_t cls[KILN_PR_CLASSES], uint64_t rows, uint32_t stage_cap,
                     cl_ulong bins[KILN_PR_BIN_WORDS], uint64_t *groups)
{
    kiln_pr_bins b;
    const int bad = kiln_pr_make_bins(cls, 1, rows, (int)stage_cap, WG, &b);
    kiln_pr_bins_table(&b, bins); /* cl_ulong is uint64_t */
    *groups = b.block_begin[b.count];
    return bad;
}

typedef struct pr_res {
    cl_mem off, src, odeg, w, tp, tq, y[2], state, sums, part, bins;
    cl_kernel iter, fold;
    uint64_t groups;
    size_t sbytes; /* the sums' type: float64 where the device has it, as pagerank.cl's KILN_PR_S */
    /* pagerank.cl's KILN_PR_SLOTS (NVIDIA with float64): the groups add their sums into 32 slots of
     * 16 doubles with atomics, emptied by the fold; else part[] has a pair of sums a group */
    int slots;
    size_t part_bytes;
    pr_layout L;
    void *y_host; /* n ranks: the start vector, then the result */
} pr_res;

static void pr_release(pr_res *r)
{
    cl_mem *m[] = {&r->off, &r->src, &r->odeg, &r->w,     &r->tp,   &r->tq,
                   &r->y[0], &r->y[1], &r->state, &r->sums, &r->part, &r->bins};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (*m[i]) clReleaseMemObject(*m[i]);
    if (r->iter) clReleaseKernel(r->iter);
    if (r->fold) clReleaseKernel(r->fold);
    layout_free(&r->L);
    free(r->y_host);
}

static cl_mem upload(kiln_gpu *g, size_t bytes, const void *host, cl_int *err)
{
    /* an empty array (no edges) still gets a buffer: a zero-sized one is invalid */
    return clCreateBuffer(g->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 8, (void *)host, err);
}

/* A vector of n doubles by new label, in the rank type, on the device. */
static kiln_status upload_vector(kiln_gpu *g, const double *v, const uint32_t *new2old, uint64_t n, int dbl,
                                 cl_mem *out)
{
    void *h = malloc((size_t)n * (dbl ? 8 : 4));
    if (!h) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    for (uint64_t i = 0; i < n; i++) {
        if (dbl) ((double *)h)[i] = v[new2old[i]];
        else ((float *)h)[i] = (float)v[new2old[i]];
    }
    cl_int err;
    *out = upload(g, (size_t)n * (dbl ? 8 : 4), h, &err);
    free(h);
    return kiln_ocl_check(g->ctx, err, "clCreateBuffer (PageRank vector)");
}

static double event_ms(cl_event a, cl_event b)
{
    cl_ulong t0 = 0, t1 = 0;
    if (clGetEventProfilingInfo(a, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(b, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS || t1 < t0)
        return 0;
    return (double)(t1 - t0) / 1e6;
}

#define ARG(k, i, v) KILN_OCL_TRY(g->ctx, clSetKernelArg((k), (i), sizeof(v), &(v)), "clSetKernelArg (PageRank)")

/* Sets argument i of k, of the sums' type, to v. */
static kiln_status arg_sum(kiln_gpu *g, size_t sbytes, cl_kernel k, cl_uint i, double v)
{
    float f = (float)v;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(k, i, sbytes, sbytes == 8 ? (const void *)&v : (const void *)&f),
                 "clSetKernelArg (PageRank)");
    return KILN_OK;
}

kiln_status kiln_ocl_pr_set_args(kiln_gpu *g, cl_kernel iter, cl_kernel fold, const kiln_ocl_pr_args *a)
{
    const cl_mem bufs[] = {a->off, a->src, a->odeg, a->w, a->tp, a->tq, a->y0, a->y1, a->y0, a->y1};
    for (cl_uint i = 0; i < sizeof bufs / sizeof bufs[0]; i++) ARG(iter, i, bufs[i]);
    cl_int has_tp = a->tp != NULL, has_tq = a->tq != NULL;
    ARG(iter, 10, has_tp);
    ARG(iter, 11, has_tq);
    ARG(iter, 12, a->state);
    ARG(iter, 13, a->sums);
    ARG(iter, 14, a->part);
    ARG(iter, 15, a->bins);
    KILN_OCL_TRY(g->ctx, clSetKernelArg(iter, 16, a->stage_bytes, NULL), "clSetKernelArg (PageRank local memory)");
    kiln_status st;
    if ((st = arg_sum(g, a->sbytes, iter, 17, a->damping)) != KILN_OK ||
        (st = arg_sum(g, a->sbytes, iter, 18, a->inv_n)) != KILN_OK)
        return st;
    ARG(fold, 0, a->part);
    ARG(fold, 1, a->groups);
    ARG(fold, 2, a->state);
    ARG(fold, 3, a->sums);
    return arg_sum(g, a->sbytes, fold, 4, a->threshold);
}

/* Whether the device's OpenCL C has cl_khr_fp64 (pagerank.cl's sums are float64 then). */
static int has_fp64(kiln_gpu *g)
{
    size_t len = 0;
    if (clGetDeviceInfo(g->device, CL_DEVICE_EXTENSIONS, 0, NULL, &len) != CL_SUCCESS || len == 0) return 0;
    char *ext = malloc(len + 1);
    int yes = 0;
    if (ext && clGetDeviceInfo(g->device, CL_DEVICE_EXTENSIONS, len, ext, NULL) == CL_SUCCESS) {
        ext[len] = 0;
        yes = strstr(ext, "cl_khr_fp64") != NULL;
    }
    free(ext);
    return yes;
}

/* ---- what the PageRank parts (ocl_pagerank_part.c) share with the one-device path */

_Static_assert(KILN_OCL_PR_BIN_WORDS == KILN_PR_BIN_WORDS, "the bin table's size as ocl_work.h gives it");
_Static_assert(KILN_OCL_PR_WG == WG, "the work-group size as ocl_work.h gives it");

kiln_status kiln_ocl_pr_shape(kiln_gpu *g, int dbl, size_t *sbytes, uint32_t *stage_cap)
{
    const size_t es = dbl ? 8 : 4;
    *sbytes = has_fp64(g) ? 8 : 4;
    if (dbl && *sbytes != 8)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE,
                         "%s has no float64 arithmetic (cl_khr_fp64): run PageRank with float32 ranks", g->name);
    /* the staging of a work-group's edges in local memory, beside the two reduction arrays */
    cl_ulong local = 0;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL),
                 "clGetDeviceInfo (local memory)");
    const cl_ulong fixed = (cl_ulong)WG * (es + *sbytes) + 1024;
    uint32_t cap = KILN_PR_STAGE_EDGES;
    while (cap >= KILN_PR_BLOCK_ROW_MIN && (cl_ulong)cap * es + fixed > local) cap /= 2;
    if (cap < KILN_PR_BLOCK_ROW_MIN)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "%s has %llu bytes of local memory: PageRank needs %llu", g->name,
                         (unsigned long long)local, (unsigned long long)(KILN_PR_BLOCK_ROW_MIN * es + fixed));
    *stage_cap = cap;
    return KILN_OK;
}

kiln_status kiln_ocl_pr_kernels(kiln_gpu *g, int dbl, int wide, int weighted, cl_kernel *iter, cl_kernel *fold)
{
    char name[48];
    snprintf(name, sizeof name, "kiln_pr_iter_%s_%s%s", dbl ? "f64" : "f32", wide ? "u64" : "u32", weighted ? "_w" : "");
    kiln_status st;
    if ((st = kiln_ocl_kernel(g, name, iter)) != KILN_OK) return st;
    if ((st = kiln_ocl_kernel(g, "kiln_pr_fold", fold)) != KILN_OK) return st;
    for (int i = 0; i < 2; i++) {
        size_t kmax = 0;
        KILN_OCL_TRY(g->ctx,
                     clGetKernelWorkGroupInfo(i ? *fold : *iter, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax,
                                              &kmax, NULL),
                     "clGetKernelWorkGroupInfo");
        if (kmax < WG)
            return kiln_fail(g->ctx, KILN_ERR_DEVICE,
                             "%s runs the PageRank kernels in groups of at most %zu (they need %d)", g->name, kmax, WG);
    }
    return KILN_OK;
}

int kiln_ocl_pr_sort_by_degree(uint64_t n, const uint32_t *deg, uint32_t *order)
{
    return sort_by_degree(n, deg, order);
}

kiln_status kiln_ocl_pr_layout_rows(kiln_ctx *ctx, const kiln_gpu_pr_graph *gr, uint32_t *rows_old, uint64_t rows,
                                    const uint32_t *old2new, const uint64_t *noff, int dbl, uint32_t *src, void *w)
{
    pr_layout L;
    memset(&L, 0, sizeof L);
    L.new2old = rows_old;
    L.src = src;
    L.w = w;
    int stop;
    const int failed = layout_rows(ctx, gr, &L, old2new, noff, rows, dbl, 0, &stop);
    return failed ? kiln_fail(ctx, KILN_ERR_DEVICE, "out of host memory laying out a PageRank part") : KILN_OK;
}

int kiln_ocl_pr_part_bins(const uint64_t *noff, uint64_t rows, uint64_t row0, uint32_t stage_cap, cl_ulong *bins,
                          uint64_t *groups)
{
    uint64_t cls[KILN_PR_CLASSES] = {0};
    for (uint64_t i = 0; i < rows; i++) cls[kiln_pr_degree_class(noff[i + 1] - noff[i])]++;
    if (make_bins(cls, rows, stage_cap, bins, groups) != 0) return -1;
    /* the kernel reads the offsets at the rows' own labels */
    for (cl_ulong k = 0; k <= bins[KILN_PR_BIN_COUNT]; k++) bins[KILN_PR_BIN_ROW + k] += row0;
    return 0;
}

/* The layout, the device arrays and the kernels with their arguments. */
static kiln_status setup(kiln_gpu *g, pr_res *r, const kiln_gpu_pr_graph *gr, const kiln_gpu_pr_params *p)
{
    const uint64_t n = gr->n, m = gr->m;
    const int dbl = p->use_double != 0, weighted = gr->weights != NULL;
    const size_t es = dbl ? 8 : 4;
    uint32_t stage_cap = 0;
    kiln_status st = kiln_ocl_pr_shape(g, dbl, &r->sbytes, &stage_cap);
    if (st != KILN_OK) return st;

    st = layout_build(g->ctx, gr, dbl, &r->L);
    if (st != KILN_OK) return st;
    cl_ulong bins[KILN_PR_BIN_WORDS];
    if (make_bins(r->L.cls, n, stage_cap, bins, &r->groups) != 0)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "PageRank setup: the degree classes do not cover the %llu vertices",
                         (unsigned long long)n);
    cl_int err;
    r->off = upload(g, (size_t)(n + 1) * (r->L.wide ? 8 : 4), r->L.off, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (offsets)");
    r->src = upload(g, (size_t)m * 4, r->L.src, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (sources)");
    r->odeg = upload(g, (size_t)n * 4, r->L.odeg, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (out-degrees)");
    if (weighted) {
        r->w = upload(g, (size_t)m * es, r->L.w, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (edge weights)");
    }
    /* the host copies of the edges are not needed any more (the order and out-degrees are) */
    free(r->L.off);
    free(r->L.src);
    free(r->L.w);
    r->L.off = r->L.src = r->L.w = NULL;
    if (p->personalization && (st = upload_vector(g, p->personalization, r->L.new2old, n, dbl, &r->tp)) != KILN_OK)
        return st;
    if (p->dangling && (st = upload_vector(g, p->dangling, r->L.new2old, n, dbl, &r->tq)) != KILN_OK) return st;
    for (int b = 0; b < 2; b++) {
        r->y[b] = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)n * es, NULL, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (ranks)");
    }
    r->state = clCreateBuffer(g->context, CL_MEM_READ_WRITE, 2 * sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (PageRank state)");
    r->sums = clCreateBuffer(g->context, CL_MEM_READ_WRITE, 2 * r->sbytes, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (PageRank sums)");
    r->slots = kiln_ocl_is_nv(g) && r->sbytes == 8;
    r->part_bytes = r->slots ? 32 * 16 * 8 : (size_t)r->groups * 2 * r->sbytes;
    r->part = clCreateBuffer(g->context, CL_MEM_READ_WRITE, r->part_bytes, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (partial sums)");
    r->bins = upload(g, sizeof bins, bins, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (PageRank bins)");
    r->y_host = malloc((size_t)n * es);
    if (!r->y_host) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");

    if ((st = kiln_ocl_pr_kernels(g, dbl, r->L.wide, weighted, &r->iter, &r->fold)) != KILN_OK) return st;
    const kiln_ocl_pr_args args = {.off = r->off, .src = r->src, .odeg = r->odeg, .w = r->w, .tp = r->tp, .tq = r->tq,
                                   .y0 = r->y[0], .y1 = r->y[1], .state = r->state, .sums = r->sums, .part = r->part,
                                   .bins = r->bins, .groups = (cl_uint)r->groups, .sbytes = r->sbytes,
                                   .stage_bytes = (size_t)stage_cap * es, .damping = p->damping,
                                   .inv_n = 1.0 / (double)n, .threshold = (double)n * p->tol};
    return kiln_ocl_pr_set_args(g, r->iter, r->fold, &args);
}

/* y0 from x0 (nstart, else uniform) over the out-degree (1 / 0 when weighted), by new label, into
 * r->y_host; and the dangling mass of x0, added in vertex order. */
static void start_vector(pr_res *r, const kiln_gpu_pr_graph *gr, const kiln_gpu_pr_params *p, double *dangling0)
{
    const uint64_t n = gr->n;
    const int dbl = p->use_double != 0, weighted = gr->weights != NULL;
    *dangling0 = kiln_pr_start_dangling(n, gr->outdeg, gr->out_weight, p->nstart);
    for (uint64_t i = 0; i < n; i++) {
        const uint32_t v = r->L.new2old[i], od = r->L.odeg[i];
        const double x = p->nstart ? p->nstart[v] : 1.0 / (double)n, y = od && !weighted ? x / (double)od : x;
        if (dbl) ((double *)r->y_host)[i] = y;
        else ((float *)r->y_host)[i] = (float)y;
    }
}

/* The iteration count, done flag, L1 change and dangling mass on the device, read back. */
typedef struct pr_state {
    cl_uint count, done;
    double res, dang;
} pr_state;

static kiln_status read_state(kiln_gpu *g, const pr_res *r, pr_state *s)
{
    cl_uint f[2];
    union {
        double d[2];
        float f[2];
    } u;
    KILN_OCL_TRY(g->ctx, clEnqueueReadBuffer(g->queue, r->state, CL_FALSE, 0, sizeof f, f, 0, NULL, NULL),
                 "clEnqueueReadBuffer (PageRank state)");
    KILN_OCL_TRY(g->ctx, clEnqueueReadBuffer(g->queue, r->sums, CL_TRUE, 0, 2 * r->sbytes, &u, 0, NULL, NULL),
                 "PageRank iterations");
    s->count = f[0];
    s->done = f[1];
    s->res = r->sbytes == 8 ? u.d[0] : u.f[0];
    s->dang = r->sbytes == 8 ? u.d[1] : u.f[1];
    return KILN_OK;
}

/* Sets the state of a run from x0: nothing counted, not done, the dangling mass of x0. */
static kiln_status write_start(kiln_gpu *g, const pr_res *r, uint64_t n, int dbl, double dangling0)
{
    const cl_uint f[2] = {0, 0};
    union {
        double d[2];
        float f[2];
    } u;
    if (r->sbytes == 8) u.d[0] = 0, u.d[1] = dangling0;
    else u.f[0] = 0, u.f[1] = (float)dangling0;
    const size_t bytes = (size_t)n * (dbl ? 8 : 4);
    KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, r->y[0], CL_FALSE, 0, bytes, r->y_host, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (start ranks)");
    KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, r->state, CL_FALSE, 0, sizeof f, f, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (PageRank state)");
    if (r->slots) { /* the slots start empty (the fold empties them after each iteration) */
        const cl_double zero = 0;
        KILN_OCL_TRY(g->ctx,
                     clEnqueueFillBuffer(g->queue, r->part, &zero, sizeof zero, 0, r->part_bytes, 0, NULL, NULL),
                     "clEnqueueFillBuffer (PageRank sums)");
    }
    KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, r->sums, CL_TRUE, 0, 2 * r->sbytes, &u, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (PageRank sums)");
    return KILN_OK;
}

/* Queues k iterations; *first gets the first iteration kernel's event when it is NULL, *last
 * (released first when set) the last fold's. */
static kiln_status enqueue_batch(kiln_gpu *g, const pr_res *r, int k, cl_event *first, cl_event *last)
{
    size_t global = (size_t)r->groups * WG, local = WG, one = WG;
    for (int i = 0; i < k; i++) {
        cl_event *e1 = *first ? NULL : first;
        KILN_OCL_TRY(g->ctx, clEnqueueNDRangeKernel(g->queue, r->iter, 1, NULL, &global, &local, 0, NULL, e1),
                     "clEnqueueNDRangeKernel (PageRank)");
        cl_event e2 = NULL;
        KILN_OCL_TRY(g->ctx,
                     clEnqueueNDRangeKernel(g->queue, r->fold, 1, NULL, &one, &local, 0, NULL, i == k - 1 ? &e2 : NULL),
                     "clEnqueueNDRangeKernel (PageRank fold)");
        if (e2) {
            if (*last) clReleaseEvent(*last);
            *last = e2;
        }
    }
    return KILN_OK;
}

/* One run from x0: its iterations queued in batches (see the top of the file); its time from the
 * first iteration's start to the last fold's end. */
static kiln_status run_once(kiln_gpu *g, pr_res *r, const kiln_gpu_pr_params *p, uint64_t n, uint64_t m,
                            double dangling0, pr_state *s, double *ms)
{
    kiln_status st = write_start(g, r, n, p->use_double != 0, dangling0);
    if (st != KILN_OK) return st;
    const int batch = m <= (UINT64_C(1) << 24) ? 36 : 6, check = p->tol > 0;
    cl_event first = NULL, last = NULL, prev = NULL; /* prev: the last batch's end, waited for (tol 0) */
    int queued = 0, marked = 0, pace = 1, prev_k = 0;
    double mark = kiln_now(); /* when the batch last timed began: its enqueue (tol > 0), the wait before it */
    memset(s, 0, sizeof *s);
    while (st == KILN_OK && queued < p->max_iter) {
        const int left = p->max_iter - queued, k = left < pace ? left : pace;
        if (check) mark = kiln_now();
        if ((st = enqueue_batch(g, r, k, &first, &last)) != KILN_OK) break;
        queued += k;
        /* the time of a batch of `timed` iterations: the one just waited for */
        int timed = 0;
        if (check) {
            clFlush(g->queue);
            if ((st = read_state(g, r, s)) != KILN_OK) break;
            timed = k;
            if (s->done) break;
            kiln_ctx_report_residual(g->ctx, "pagerank", "iterations", s->count, (uint64_t)p->max_iter, s->res);
        } else {
            clFlush(g->queue);
            if (prev) {
                st = kiln_ocl_check(g->ctx, clWaitForEvents(1, &prev), "PageRank iterations");
                clReleaseEvent(prev);
                prev = NULL;
                if (st != KILN_OK) break;
                timed = prev_k;
            }
            prev_k = k;
            kiln_ctx_report(g->ctx, "pagerank", "iterations", (uint64_t)marked, (uint64_t)p->max_iter);
            clRetainEvent(last);
            prev = last;
            marked = queued;
        }
        if (timed) {
            const double t = kiln_now(), per = (t - mark) / timed;
            const double want = per > 0 ? BATCH_S / per : batch;
            pace = want >= 8.0 * pace ? 8 * pace : want < 1 ? 1 : (int)want;
            if (pace > batch) pace = batch;
            if (!check) mark = t;
        }
        if (kiln_ctx_interrupt_requested(g->ctx)) {
            clFinish(g->queue);
            st = kiln_interrupted(g->ctx);
        }
    }
    if (prev) clReleaseEvent(prev);
    if (st == KILN_OK) st = read_state(g, r, s);
    if (st == KILN_OK && !s->done && s->count != (cl_uint)queued)
        st = kiln_fail(g->ctx, KILN_ERR_DEVICE, "PageRank: the device carried out %u iterations of %d launched",
                       s->count, queued);
    *ms = first && last ? event_ms(first, last) : 0;
    if (first) clReleaseEvent(first);
    if (last) clReleaseEvent(last);
    return st;
}

/* The runs from x0, their median time, and the last run's ranks in the graph's vertex order. */
static kiln_status run(kiln_gpu *g, pr_res *r, const kiln_gpu_pr_graph *gr, const kiln_gpu_pr_params *p, double *ranks,
                       kiln_gpu_pr_stats *stats)
{
    const uint64_t n = gr->n;
    const int dbl = p->use_double != 0, runs = p->repeat > 1 ? p->repeat : 1;
    double *times = malloc((size_t)runs * sizeof *times), dangling0;
    if (!times) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    start_vector(r, gr, p, &dangling0);
    kiln_status st = KILN_OK;
    pr_state s;
    memset(&s, 0, sizeof s);
    for (int k = 0; k < runs && st == KILN_OK; k++) st = run_once(g, r, p, n, gr->m, dangling0, &s, &times[k]);
    if (st == KILN_OK) {
        stats->loop_ms = kiln_median(times, (size_t)runs);
        stats->iterations = (int)s.count;
        stats->residual = s.res;
        stats->converged = s.res < (double)n * p->tol;
        /* iteration c reads y[c & 1] and writes the other: after `count` the last x is in y[count & 1] */
        void *y = r->y_host;
        cl_int err = clEnqueueReadBuffer(g->queue, r->y[s.count & 1], CL_TRUE, 0, (size_t)n * (dbl ? 8 : 4), y, 0,
                                         NULL, NULL);
        st = kiln_ocl_check(g->ctx, err, "clEnqueueReadBuffer (ranks)");
        /* x = y times the out-degree (y itself for a dangling vertex and in a weighted graph) */
        for (uint64_t i = 0; st == KILN_OK && i < n; i++) {
            const double yv = dbl ? ((double *)y)[i] : ((float *)y)[i];
            const uint32_t od = gr->weights ? 0 : r->L.odeg[i];
            ranks[r->L.new2old[i]] = od ? yv * (double)od : yv;
        }
    }
    free(times);
    return st;
}

kiln_status kiln_ocl_pagerank(kiln_gpu *g, const kiln_gpu_pr_graph *graph, const kiln_gpu_pr_params *p, double *ranks,
                              kiln_gpu_pr_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    stats->kernel = KILN_GPU_PR_GRID;
    if (graph->n == 0 || graph->n > 0xfffffffeull || p->max_iter < 1 || (graph->weights == NULL) != (graph->out_weight == NULL))
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "PageRank: bad graph or parameters");
    if (p->use_double) {
        cl_device_fp_config fp64 = 0;
        KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL),
                     "clGetDeviceInfo (float64)");
        if (!fp64)
            return kiln_fail(g->ctx, KILN_ERR_DEVICE,
                             "%s has no float64 arithmetic (cl_khr_fp64): run PageRank with float32 ranks", g->name);
    }
    const double t = kiln_now();
    pr_res r;
    memset(&r, 0, sizeof r);
    kiln_status st = setup(g, &r, graph, p);
    stats->setup_s = kiln_now() - t;
    if (st == KILN_OK) st = run(g, &r, graph, p, ranks, stats);
    pr_release(&r);
    return st;
}
