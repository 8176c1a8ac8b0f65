/* PageRank on an OpenCL device (kernels/pagerank.cl): the plain pull form, one work-item per row
 * over the in-edge CSR in the graph's own vertex order (no relabelling: p->reorder and p->kernel
 * are not used, and the kernel reported is the grid one). NetworkX's definition, x' = d (A^T y +
 * D q) + (1 - d) p, as the CUDA backend runs it: a weighted graph's edges carry their share of the
 * source's out-weight (w / W, computed here once), p and q come in as vectors when given, and the
 * dangling mass D of each iteration folds into the next one's coefficients. After every iteration
 * the host reads the work-groups' partial sums (L1 change, dangling mass) and stops once the change
 * is below n * tol, the CUDA backend's test: the iteration that gets there counts and its x is
 * the result. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ocl_work.h"

#define GROUP 64 /* work-items a group (a power of two, for the reduction) */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct pr_res {
    cl_mem off, src, odeg, w, tp, tq, y[2], part;
    cl_kernel k;
    void *host[6]; /* converted copies and read-back buffers, freed at the end */
} pr_res;

static void pr_release(pr_res *r)
{
    cl_mem *m[] = {&r->off, &r->src, &r->odeg, &r->w, &r->tp, &r->tq, &r->y[0], &r->y[1], &r->part};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (*m[i]) clReleaseMemObject(*m[i]);
    if (r->k) clReleaseKernel(r->k);
    for (int i = 0; i < 6; i++) free(r->host[i]);
}

/* n doubles as the rank type (4 or 8 bytes each) in a new host array kept in r->host[slot]. */
static void *as_real(pr_res *r, int slot, const double *v, uint64_t n, int dbl)
{
    void *out = malloc((size_t)(n ? n : 1) * (dbl ? 8 : 4));
    r->host[slot] = out;
    if (!out) return NULL;
    for (uint64_t i = 0; i < n; i++) {
        if (dbl) ((double *)out)[i] = v[i];
        else ((float *)out)[i] = (float)v[i];
    }
    return out;
}

static cl_mem upload(kiln_gpu *g, size_t bytes, const void *host, cl_int *err)
{
    /* an empty array (no edges) still gets a buffer: a zero-sized one is invalid */
    return clCreateBuffer(g->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 8, (void *)host, err);
}

static double event_ms(cl_event a, cl_event b)
{
    cl_ulong t0 = 0, t1 = 0;
    if (clGetEventProfilingInfo(a, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) != CL_SUCCESS ||
        clGetEventProfilingInfo(b, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) != CL_SUCCESS || t1 < t0)
        return 0;
    return (double)(t1 - t0) / 1e6;
}

#define ARG(i, v) KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, (i), sizeof(v), &(v)), "clSetKernelArg (PageRank)")

/* Sets the rank-typed scalar argument i to v. */
static kiln_status arg_real(kiln_gpu *g, pr_res *r, cl_uint i, double v, int dbl)
{
    float f = (float)v;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, i, dbl ? sizeof v : sizeof f, dbl ? (const void *)&v : (const void *)&f),
                 "clSetKernelArg (PageRank)");
    return KILN_OK;
}

/* The device arrays and the kernel's fixed arguments. */
static kiln_status setup(kiln_gpu *g, pr_res *r, const kiln_gpu_pr_graph *gr, const kiln_gpu_pr_params *p)
{
    const uint64_t n = gr->n, m = gr->m;
    const int dbl = p->use_double != 0, weighted = gr->weights != NULL;
    const size_t es = dbl ? 8 : 4;
    cl_int err;
    r->off = upload(g, (size_t)(n + 1) * 8, gr->offsets, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (offsets)");
    r->src = upload(g, (size_t)m * 4, gr->sources, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (sources)");
    const uint32_t *odeg = gr->outdeg;
    if (weighted) { /* 1 for a vertex with out-weight, 0 for a dangling one; the edges carry w / W */
        uint32_t *o = malloc((size_t)n * 4);
        r->host[0] = o;
        void *w = as_real(r, 1, gr->weights, m, dbl);
        if (!o || !w) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
        for (uint64_t v = 0; v < n; v++) o[v] = gr->out_weight[v] > 0;
        for (uint64_t j = 0; j < m; j++) {
            /* a source whose out-weight is 0 is dangling: its edges carry nothing (not 0 / 0) */
            double W = gr->out_weight[gr->sources[j]], share = W > 0 ? gr->weights[j] / W : 0;
            if (dbl) ((double *)w)[j] = share;
            else ((float *)w)[j] = (float)share;
        }
        r->w = upload(g, (size_t)m * es, w, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (edge weights)");
        odeg = o;
    }
    r->odeg = upload(g, (size_t)n * 4, odeg, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (out-degrees)");
    if (p->personalization) {
        void *v = as_real(r, 2, p->personalization, n, dbl);
        if (!v) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
        r->tp = upload(g, (size_t)n * es, v, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (personalization)");
    }
    if (p->dangling) {
        void *v = as_real(r, 3, p->dangling, n, dbl);
        if (!v) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
        r->tq = upload(g, (size_t)n * es, v, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (dangling vector)");
    }
    for (int b = 0; b < 2; b++) {
        r->y[b] = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)n * es, NULL, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (ranks)");
    }
    const uint64_t groups = (n + GROUP - 1) / GROUP;
    r->part = clCreateBuffer(g->context, CL_MEM_WRITE_ONLY, (size_t)groups * 2 * es, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (partial sums)");
    r->host[4] = malloc((size_t)groups * 2 * es);
    r->host[5] = malloc((size_t)n * es);
    if (!r->host[4] || !r->host[5]) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    kiln_status st = kiln_ocl_kernel(g, dbl ? "kiln_pr_iter_f64" : "kiln_pr_iter_f32", &r->k);
    if (st != KILN_OK) return st;
    size_t kmax = 0;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(r->k, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL),
                 "clGetKernelWorkGroupInfo");
    if (kmax < GROUP)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "%s runs the PageRank kernel in groups of at most %zu (it needs %d)",
                         g->name, kmax, GROUP);
    cl_int has_w = weighted, has_tp = r->tp != NULL, has_tq = r->tq != NULL;
    cl_ulong nn = n;
    ARG(0, r->off);
    ARG(1, r->src);
    ARG(2, r->odeg);
    ARG(3, r->w);
    ARG(4, has_w);
    ARG(5, r->tp);
    ARG(6, has_tp);
    ARG(7, r->tq);
    ARG(8, has_tq);
    ARG(11, nn);
    ARG(16, r->part);
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 17, 2 * GROUP * es, NULL), "clSetKernelArg (PageRank local memory)");
    return KILN_OK;
}

/* y0 from x0 (nstart, else uniform) over the out-degree (1 / 0 when weighted) into y[0]; and the
 * dangling mass of x0. */
static kiln_status start_vector(kiln_gpu *g, pr_res *r, const kiln_gpu_pr_graph *gr, const kiln_gpu_pr_params *p,
                                double *dangling0)
{
    const uint64_t n = gr->n;
    const int dbl = p->use_double != 0, weighted = gr->weights != NULL;
    void *y = r->host[5];
    double dang = 0;
    for (uint64_t v = 0; v < n; v++) {
        double x = p->nstart ? p->nstart[v] : 1.0 / (double)n, yv = x;
        int dangles = weighted ? !(gr->out_weight[v] > 0) : gr->outdeg[v] == 0;
        if (dangles) dang += x;
        else if (!weighted) yv = x / (double)gr->outdeg[v];
        if (dbl) ((double *)y)[v] = yv;
        else ((float *)y)[v] = (float)yv;
    }
    *dangling0 = dang;
    KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, r->y[0], CL_TRUE, 0, (size_t)n * (dbl ? 8 : 4), y, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (start ranks)");
    return KILN_OK;
}

/* One iteration from y[from] into y[1 - from] after one that left `dang` on the dangling
 * vertices: its L1 change and dangling mass into *res and *dang; *first and *last its kernel's and
 * read's events (the caller releases them). */
static kiln_status iterate(kiln_gpu *g, pr_res *r, const kiln_gpu_pr_params *p, uint64_t n, int from, double *res,
                           double *dang, cl_event *first, cl_event *last)
{
    const int dbl = p->use_double != 0;
    const double d = p->damping, dd = d * *dang;
    /* the teleport and the dangling mass as coefficients (CUDA's make_coef) */
    double base = 0, cp = 0, cq = 0;
    if (r->tp) cp = 1.0 - d;
    else base = (1.0 - d) / (double)n;
    if (r->tq) cq = dd;
    else if (r->tp) cp += dd;
    else base += dd / (double)n;
    ARG(9, r->y[from]);
    ARG(10, r->y[1 - from]);
    kiln_status st;
    if ((st = arg_real(g, r, 12, d, dbl)) != KILN_OK || (st = arg_real(g, r, 13, base, dbl)) != KILN_OK ||
        (st = arg_real(g, r, 14, cp, dbl)) != KILN_OK || (st = arg_real(g, r, 15, cq, dbl)) != KILN_OK)
        return st;
    const uint64_t groups = (n + GROUP - 1) / GROUP;
    size_t global = (size_t)(groups * GROUP), local = GROUP;
    KILN_OCL_TRY(g->ctx, clEnqueueNDRangeKernel(g->queue, r->k, 1, NULL, &global, &local, 0, NULL, first),
                 "clEnqueueNDRangeKernel (PageRank)");
    void *part = r->host[4];
    KILN_OCL_TRY(g->ctx,
                 clEnqueueReadBuffer(g->queue, r->part, CL_TRUE, 0, (size_t)groups * 2 * (dbl ? 8 : 4), part, 0, NULL,
                                     last),
                 "PageRank iteration");
    double s = 0, q = 0;
    for (uint64_t i = 0; i < groups; i++) {
        s += dbl ? ((double *)part)[2 * i] : ((float *)part)[2 * i];
        q += dbl ? ((double *)part)[2 * i + 1] : ((float *)part)[2 * i + 1];
    }
    *res = s;
    *dang = q;
    return KILN_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The runs from x0, their median time, and the last run's ranks. */
static kiln_status run(kiln_gpu *g, pr_res *r, const kiln_gpu_pr_graph *gr, const kiln_gpu_pr_params *p, double *ranks,
                       kiln_gpu_pr_stats *stats)
{
    const uint64_t n = gr->n;
    const int dbl = p->use_double != 0, runs = p->repeat > 1 ? p->repeat : 1;
    const double threshold = (double)n * p->tol;
    double *times = malloc((size_t)runs * sizeof *times);
    if (!times) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    kiln_status st = KILN_OK;
    int iters = 0, cur = 0;
    double res = HUGE_VAL;
    for (int k = 0; k < runs && st == KILN_OK; k++) {
        double dang;
        if ((st = start_vector(g, r, gr, p, &dang)) != KILN_OK) break;
        cl_event t0 = NULL, t1 = NULL;
        iters = 0, cur = 0, res = HUGE_VAL;
        while (iters < p->max_iter) {
            cl_event a = NULL, b = NULL;
            st = iterate(g, r, p, n, cur, &res, &dang, &a, &b);
            if (a && !t0) t0 = a;
            else if (a) clReleaseEvent(a);
            if (b) {
                if (t1) clReleaseEvent(t1);
                t1 = b;
            }
            if (st != KILN_OK) break;
            iters++;
            cur = 1 - cur;
            kiln_ctx_report_residual(g->ctx, "pagerank", "iterations", (uint64_t)iters, (uint64_t)p->max_iter, res);
            if (res < threshold) break;
            if (kiln_ctx_interrupt_requested(g->ctx)) {
                st = kiln_interrupted(g->ctx);
                break;
            }
        }
        times[k] = t0 && t1 ? event_ms(t0, t1) : 0;
        if (t0) clReleaseEvent(t0);
        if (t1) clReleaseEvent(t1);
    }
    if (st == KILN_OK) {
        qsort(times, (size_t)runs, sizeof *times, cmp_double);
        stats->loop_ms = runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]);
        stats->iterations = iters;
        stats->residual = res;
        stats->converged = res < threshold;
        /* x = y times the out-degree (y itself for a dangling vertex and in a weighted graph) */
        void *y = r->host[5];
        cl_int err = clEnqueueReadBuffer(g->queue, r->y[cur], CL_TRUE, 0, (size_t)n * (dbl ? 8 : 4), y, 0, NULL, NULL);
        st = kiln_ocl_check(g->ctx, err, "clEnqueueReadBuffer (ranks)");
        for (uint64_t v = 0; st == KILN_OK && v < n; v++) {
            double yv = dbl ? ((double *)y)[v] : ((float *)y)[v];
            uint32_t od = gr->weights ? 0 : gr->outdeg[v];
            ranks[v] = od ? yv * (double)od : yv;
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
    const double t = now_s();
    pr_res r;
    memset(&r, 0, sizeof r);
    kiln_status st = setup(g, &r, graph, p);
    stats->setup_s = now_s() - t;
    if (st == KILN_OK) st = run(g, &r, graph, p, ranks, stats);
    pr_release(&r);
    return st;
}
