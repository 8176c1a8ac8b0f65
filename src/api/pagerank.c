/* PageRank dispatch: validate and normalize the options, run on the context's device, and check a
 * GPU result with one float64 CPU iteration of the same problem before returning it. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bench.h"
#include "../core/clock.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../graph/graph.h"
#include "pagerank_checks.h"
#include "pagerank_parts.h"
#include "pagerank_split.h"

void kiln_pagerank_options_init(kiln_pagerank_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->damping = KILN_PAGERANK_DAMPING_DEFAULT;
    opt->tol = KILN_PAGERANK_TOL_DEFAULT;
    opt->max_iter = KILN_PAGERANK_MAX_ITER_DEFAULT;
    opt->precision = KILN_PRECISION_AUTO;
    opt->reorder = 1;
}

/* Slack of the CPU re-check on top of the device's own last residual: float32 ranks carry
 * rounding of a few 1e-8 per value, summed over the graph. */
static double verify_slack(int use_double) { return use_double ? 1e-9 : 1e-4; }

/* A normalized copy of the option vector v (NULL stays NULL): every value finite and >= 0, the
 * sum positive, as NetworkX divides each of its dicts by its sum. */
static kiln_status normalized(kiln_ctx *ctx, const kiln_graph *g, const char *what, const double *v, double **out)
{
    *out = NULL;
    if (!v) return KILN_OK;
    const uint64_t n = g->n;
    double sum = 0, max = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (!(isfinite(v[i]) && v[i] >= 0))
            return kiln_fail(ctx, KILN_ERR_INPUT, "%s vector: node %llu has value %g (must be finite and >= 0)", what,
                             (unsigned long long)kiln_graph_node_id(g, i), v[i]);
        sum += v[i];
        if (v[i] > max) max = v[i];
    }
    if (!(sum > 0)) return kiln_fail(ctx, KILN_ERR_INPUT, "%s vector sums to 0", what);
    double *c = malloc((size_t)n * sizeof *c);
    if (!c) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the %s vector", what);
    /* a sum past the largest double: scale by the largest value first (the ratios are the same) */
    double scale = isfinite(sum) ? 1.0 : 1.0 / max;
    if (scale != 1.0) {
        sum = 0;
        for (uint64_t i = 0; i < n; i++) sum += v[i] * scale;
    }
    for (uint64_t i = 0; i < n; i++) c[i] = v[i] * scale / sum;
    *out = c;
    return KILN_OK;
}

/* y = x / W needs every nonzero out-weight sum W to be a normal double: a subnormal one would
 * overflow y, an infinite one (weights summing past the largest double) would lose the vertex's
 * rank. Such graphs are refused rather than ranked wrongly. */
kiln_status kiln_pagerank_check_out_weights(kiln_ctx *ctx, const kiln_graph *g)
{
    if (!g->out_weight) return KILN_OK;
    for (uint64_t v = 0; v < g->n; v++) {
        double W = g->out_weight[v];
        if (!isfinite(W) || (W > 0 && W < DBL_MIN))
            return kiln_fail(ctx, KILN_ERR_INPUT,
                             "node %llu's out-edge weights sum to %g, outside the range PageRank can divide by",
                             (unsigned long long)kiln_graph_node_id(g, v), W);
    }
    return KILN_OK;
}

kiln_status kiln_pagerank_check_options(kiln_ctx *ctx, const kiln_pagerank_options *opt)
{
    if (!(opt->damping >= 0 && opt->damping < 1))
        return kiln_fail(ctx, KILN_ERR_INPUT, "damping %g out of range [0, 1)", opt->damping);
    if (!(opt->tol >= 0 && isfinite(opt->tol))) return kiln_fail(ctx, KILN_ERR_INPUT, "tolerance %g must be >= 0", opt->tol);
    if (opt->max_iter < 1 || opt->max_iter > KILN_PAGERANK_MAX_ITER_LIMIT)
        return kiln_fail(ctx, KILN_ERR_INPUT, "max iterations %d out of range 1..%d", opt->max_iter,
                         KILN_PAGERANK_MAX_ITER_LIMIT);
    if ((unsigned)opt->precision > KILN_PRECISION_FLOAT64)
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown precision %d", opt->precision);
    if ((unsigned)opt->kernel > KILN_PR_KERNEL_PERSISTENT || opt->kernel == KILN_PR_KERNEL_PARTS || opt->kernel == 2)
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown PageRank kernel %d", opt->kernel);
    return KILN_OK;
}

/* The three normalized vectors a run uses (each NULL when not given). */
typedef struct pr_vectors {
    double *personalization, *dangling, *nstart;
} pr_vectors;

static void vectors_free(pr_vectors *v)
{
    free(v->personalization);
    free(v->dangling);
    free(v->nstart);
}

static kiln_status vectors_make(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt, pr_vectors *v)
{
    memset(v, 0, sizeof *v);
    kiln_status st = normalized(ctx, g, "personalization", opt->personalization, &v->personalization);
    if (st == KILN_OK) st = normalized(ctx, g, "dangling", opt->dangling, &v->dangling);
    if (st == KILN_OK) st = normalized(ctx, g, "nstart", opt->nstart, &v->nstart);
    if (st != KILN_OK) vectors_free(v);
    return st;
}

/* The one-device kernels (pagerank.cu): the whole graph on the context's only GPU. */
static kiln_status run_one_gpu(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *prob, int use_double,
                               double *ranks, kiln_pagerank_result *res, double *device_residual)
{
    if (!ctx->gpu->graph) return kiln_gpu_lacks(ctx, "run PageRank");
    kiln_gpu *gpu;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &gpu);
    if (st != KILN_OK) return st;
    const kiln_gpu_pr_graph cg = {.n = g->n,
                                  .m = g->m,
                                  .dangling = g->info.dangling,
                                  .offsets = g->offsets,
                                  .sources = g->sources,
                                  .outdeg = g->outdeg,
                                  .weights = g->weights,
                                  .out_weight = g->out_weight};
    const kiln_gpu_pr_params p = {.damping = prob->damping,
                                  .tol = prob->tol,
                                  .max_iter = prob->max_iter,
                                  .use_double = use_double,
                                  .reorder = prob->reorder != 0,
                                  .repeat = prob->repeat > 1 ? prob->repeat : 1,
                                  .kernel = (int)prob->kernel,
                                  .personalization = prob->personalization,
                                  .dangling = prob->dangling,
                                  .nstart = prob->nstart};
    kiln_gpu_pr_stats s;
    st = ctx->gpu->graph->pagerank(gpu, &cg, &p, ranks, &s);
    if (st != KILN_OK) return st;
    res->iterations = s.iterations;
    res->converged = s.converged;
    res->residual = s.residual;
    res->seconds = s.loop_ms * 1e-3;
    res->setup_seconds = s.setup_s;
    res->kernel = s.kernel == KILN_GPU_PR_PERSISTENT ? KILN_PR_KERNEL_PERSISTENT : KILN_PR_KERNEL_GRID;
    *device_residual = s.residual;
    return KILN_OK;
}

/* Row parts (pagerank_parts.c): several devices, or a GPU process of a split. */
static kiln_status run_gpu_parts(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *prob, int use_double,
                                 const kiln_pr_split *split, double *ranks, kiln_pagerank_result *res,
                                 double *device_residual)
{
    if (prob->kernel == KILN_PR_KERNEL_PERSISTENT)
        return kiln_fail(ctx, KILN_ERR_INPUT, "the persistent kernel runs on one GPU only (not on %s)",
                         split ? "a process of a split" : "a device set");
    if (!ctx->gpu->graph || !ctx->gpu->graph->parts) return kiln_gpu_lacks(ctx, "run PageRank in row parts (a device set or a split)");
    kiln_pr_cpu_stats s;
    memset(&s, 0, sizeof s);
    double t = kiln_now();
    kiln_status st = kiln_pagerank_gpu_parts(ctx, g, prob, use_double, prob->repeat, split, ranks, &s);
    if (st != KILN_OK) return st;
    res->iterations = s.iterations;
    res->converged = s.converged;
    res->residual = s.residual;
    res->seconds = s.seconds;
    res->exchange_seconds = s.exchange_seconds;
    res->exchange = (kiln_pr_exchange)s.exchange;
    res->parts = s.parts;
    memcpy(res->part_edges, s.part_edges, sizeof res->part_edges);
    memcpy(res->part_peak_bytes, s.part_peak_bytes, sizeof res->part_peak_bytes);
    res->setup_seconds = kiln_now() - t - s.seconds * (prob->repeat > 1 ? prob->repeat : 1);
    res->kernel = KILN_PR_KERNEL_PARTS;
    *device_residual = s.residual;
    return KILN_OK;
}

static kiln_status run_gpu(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *prob, int use_double,
                           const kiln_pr_split *split, double *ranks, kiln_pagerank_result *res)
{
    double device_residual = 0;
    kiln_status st = split || ctx->ngpu > 1
                         ? run_gpu_parts(ctx, g, prob, use_double, split, ranks, res, &device_residual)
                         : run_one_gpu(ctx, g, prob, use_double, ranks, res, &device_residual);
    if (st != KILN_OK) return st;
    /* the device result must be (nearly) a fixed point, and a distribution; a process of a split
     * checks its rows and the sums are those of every process */
    const int threads = kiln_graph_threads_for(ctx, g->n + g->m);
    double sum = 0;
    const int64_t n = (int64_t)g->n;
    int finite = 1;
#pragma omp parallel for num_threads(threads) reduction(+ : sum) reduction(&& : finite)
    for (int64_t v = 0; v < n; v++) {
        sum += ranks[v];
        finite = finite && isfinite(ranks[v]) && ranks[v] >= 0;
    }
    double r = split ? kiln_pagerank_cpu_residual_rows(g, prob, ranks, split->v0, split->v1, threads)
                     : kiln_pagerank_cpu_residual(g, prob, ranks, threads);
    int failed = r < 0 || !finite;
    if (split) {
        double sums[2] = {r < 0 ? 0 : r, 0};
        if (split->exchange(split->arg, NULL, 0, sums, &failed) != 0)
            return kiln_fail(ctx, KILN_ERR_DEVICE, "the exchange between processes failed");
        r = sums[0];
    }
    if (r < 0) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory checking the GPU result");
    res->verify_residual = r;
    double slack = verify_slack(use_double);
    if (failed || fabs(sum - 1.0) > slack || !(r <= device_residual + slack))
        return kiln_fail(ctx, KILN_ERR_DEVICE,
                         "the GPU PageRank failed the CPU check: sum %.9g, one more float64 iteration changes it by "
                         "%.3g (device reported %.3g)%s",
                         sum, r, device_residual, failed && finite && r >= 0 ? " (in another process)" : "");
    return KILN_OK;
}

static kiln_status run_cpu(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *prob, const kiln_pr_split *split,
                           double *ranks, kiln_pagerank_result *result)
{
    kiln_pr_cpu_stats s;
    int runs = prob->repeat > 1 ? prob->repeat : 1;
    double *secs = malloc((size_t)runs * 2 * sizeof *secs), *xsecs = secs + runs;
    if (!secs) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    for (int i = 0; i < runs; i++) {
        /* the iterations poll the interrupt themselves (src/graph/pagerank_cpu.c) */
        kiln_status st = split ? KILN_OK : kiln_ctx_poll(ctx); /* a split agrees on stopping in its loop */
        if (st == KILN_OK)
            st = kiln_pagerank_cpu_split(ctx, g, prob, prob->precision == KILN_PRECISION_FLOAT32, split, ranks, &s);
        if (st != KILN_OK) {
            free(secs);
            return st;
        }
        secs[i] = s.seconds;
        xsecs[i] = s.exchange_seconds;
    }
    result->iterations = s.iterations;
    result->converged = s.converged;
    result->residual = s.residual;
    result->seconds = kiln_median(secs, (size_t)runs);
    result->exchange_seconds = kiln_median(xsecs, (size_t)runs);
    result->exchange = split ? KILN_PR_EXCHANGE_HOST : KILN_PR_EXCHANGE_NONE;
    result->precision = prob->precision == KILN_PRECISION_FLOAT32 ? KILN_PRECISION_FLOAT32 : KILN_PRECISION_FLOAT64;
    free(secs);
    return KILN_OK;
}

kiln_status kiln_pagerank(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt, double *ranks,
                          kiln_pagerank_result *result)
{
    return kiln_pagerank_part(ctx, g, opt, NULL, ranks, result);
}

kiln_status kiln_pagerank_part(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt,
                               const kiln_pr_split *split, double *ranks, kiln_pagerank_result *result)
{
    kiln_pagerank_result local;
    kiln_pagerank_options defaults;
    if (!result) result = &local;
    memset(result, 0, sizeof *result);
    if (!opt) {
        kiln_pagerank_options_init(&defaults);
        opt = &defaults;
    }
    if (!g || !ranks) return kiln_fail(ctx, KILN_ERR_INPUT, "missing graph or rank array");
    if (g->part && !split) return kiln_fail(ctx, KILN_ERR_INPUT, "a graph split over processes needs kiln_dist_pagerank");
    if (g->n == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "the graph has no vertices");
    kiln_status st = kiln_pagerank_check_options(ctx, opt);
    if (st == KILN_OK) st = kiln_pagerank_check_out_weights(ctx, g);
    if (st != KILN_OK) return st;
    pr_vectors vec;
    st = vectors_make(ctx, g, opt, &vec);
    if (st != KILN_OK) return st;
    kiln_pr_problem prob = *opt;
    prob.personalization = vec.personalization;
    prob.dangling = vec.dangling;
    prob.nstart = vec.nstart;
    kiln_backend backend = ctx ? ctx->backend : KILN_BACKEND_CPU;
    if (backend == KILN_BACKEND_CPU) {
        st = run_cpu(ctx, g, &prob, split, ranks, result);
    } else {
        int use_double = opt->precision == KILN_PRECISION_FLOAT64;
        st = run_gpu(ctx, g, &prob, use_double, split, ranks, result);
        result->precision = use_double ? KILN_PRECISION_FLOAT64 : KILN_PRECISION_FLOAT32;
    }
    vectors_free(&vec);
    if (st != KILN_OK) return st;
    if (result->iterations > 0 && result->seconds > 0) {
        result->seconds_per_iteration = result->seconds / result->iterations;
        /* a part's CSR holds its rows only; info.edges counts them all */
        const double m = split ? (double)g->info.edges : (double)g->m;
        result->edges_per_second = m * result->iterations / result->seconds;
    }
    if (!result->converged && opt->tol > 0)
        return kiln_fail(ctx, KILN_NOT_FOUND, "PageRank did not converge in %d iterations (L1 change %.3g, needs < %.3g)",
                         result->iterations, result->residual, opt->tol * (double)g->n);
    return KILN_OK;
}
