/* PageRank dispatch: validate, run on the context's device, and check a GPU result with one
 * float64 CPU iteration before returning it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/bench.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../graph/graph.h"

void kiln_pagerank_options_init(kiln_pagerank_options *opt)
{
    if (!opt) return;
    memset(opt, 0, sizeof *opt);
    opt->damping = 0.85;
    opt->tol = 1e-6;
    opt->max_iter = 100;
    opt->precision = KILN_PRECISION_AUTO;
    opt->reorder = 1;
}

/* Slack of the CPU re-check on top of the device's own last residual: float32 ranks carry
 * rounding of a few 1e-8 per value, summed over the graph. */
static double verify_slack(int use_double) { return use_double ? 1e-9 : 1e-4; }

static kiln_status run_cuda(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt, int use_double,
                            double *ranks, kiln_pagerank_result *res)
{
    kiln_gpu *gpu;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &gpu);
    if (st != KILN_OK) return st;
    kiln_gpu_pr_graph cg = {g->n, g->m, g->info.dangling, g->offsets, g->sources, g->outdeg, g->weights, g->out_weight};
    kiln_gpu_pr_params p = {opt->damping, opt->tol, opt->max_iter, use_double, opt->reorder != 0, opt->repeat > 1 ? opt->repeat : 1,
                            NULL, NULL, NULL};
    kiln_gpu_pr_stats s;
    st = ctx->gpu->pagerank(gpu, &cg, &p, ranks, &s);
    if (st != KILN_OK) return st;
    res->iterations = s.iterations;
    res->converged = s.converged;
    res->residual = s.residual;
    res->seconds = s.loop_ms * 1e-3;
    res->setup_seconds = s.setup_s;

    /* the device result must be (nearly) a fixed point, and a distribution */
    const int threads = kiln_graph_threads(ctx);
    double sum = 0;
    const int64_t n = (int64_t)g->n;
    int finite = 1;
#pragma omp parallel for num_threads(threads) reduction(+ : sum) reduction(&& : finite)
    for (int64_t v = 0; v < n; v++) {
        sum += ranks[v];
        finite = finite && isfinite(ranks[v]) && ranks[v] >= 0;
    }
    double r = kiln_pagerank_cpu_residual(g, opt->damping, ranks, threads);
    if (r < 0) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory checking the GPU result");
    res->verify_residual = r;
    double slack = verify_slack(use_double);
    if (!finite || fabs(sum - 1.0) > slack || !(r <= s.residual + slack))
        return kiln_fail(ctx, KILN_ERR_DEVICE,
                         "the GPU PageRank failed the CPU check: sum %.9g, one more float64 iteration changes it by "
                         "%.3g (device reported %.3g)",
                         sum, r, s.residual);
    return KILN_OK;
}

kiln_status kiln_pagerank(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt, double *ranks,
                          kiln_pagerank_result *result)
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
    if (g->n == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "the graph has no vertices");
    if (!(opt->damping >= 0 && opt->damping < 1))
        return kiln_fail(ctx, KILN_ERR_INPUT, "damping %g out of range [0, 1)", opt->damping);
    if (!(opt->tol >= 0 && isfinite(opt->tol))) return kiln_fail(ctx, KILN_ERR_INPUT, "tolerance %g must be >= 0", opt->tol);
    if (opt->max_iter < 1 || opt->max_iter > 100000000)
        return kiln_fail(ctx, KILN_ERR_INPUT, "max iterations %d out of range 1..100000000", opt->max_iter);
    if ((unsigned)opt->precision > KILN_PRECISION_FLOAT64)
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown precision %d", opt->precision);
    kiln_backend backend = ctx ? ctx->backend : KILN_BACKEND_CPU;
    kiln_status st;
    if (backend == KILN_BACKEND_CPU) {
        if (opt->precision == KILN_PRECISION_FLOAT32)
            return kiln_fail(ctx, KILN_ERR_INPUT, "the CPU computes PageRank in float64 only");
        kiln_pr_cpu_stats s;
        int runs = opt->repeat > 1 ? opt->repeat : 1;
        double *secs = malloc((size_t)runs * sizeof *secs);
        if (!secs) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
        for (int i = 0; i < runs; i++) {
            /* the iterations poll the interrupt themselves (src/graph/pagerank_cpu.c) */
            st = kiln_ctx_poll(ctx);
            if (st == KILN_OK) st = kiln_pagerank_cpu(ctx, g, opt->damping, opt->tol, opt->max_iter, ranks, &s);
            if (st != KILN_OK) {
                free(secs);
                return st;
            }
            secs[i] = s.seconds;
        }
        s.seconds = kiln_median(secs, (size_t)runs);
        free(secs);
        result->iterations = s.iterations;
        result->converged = s.converged;
        result->residual = s.residual;
        result->seconds = s.seconds;
        result->precision = KILN_PRECISION_FLOAT64;
    } else {
        int use_double = opt->precision == KILN_PRECISION_FLOAT64;
        st = run_cuda(ctx, g, opt, use_double, ranks, result);
        if (st != KILN_OK) return st;
        result->precision = use_double ? KILN_PRECISION_FLOAT64 : KILN_PRECISION_FLOAT32;
    }
    if (result->iterations > 0 && result->seconds > 0) {
        result->seconds_per_iteration = result->seconds / result->iterations;
        result->edges_per_second = (double)g->m * result->iterations / result->seconds;
    }
    if (!result->converged && opt->tol > 0)
        return kiln_fail(ctx, KILN_NOT_FOUND, "PageRank did not converge in %d iterations (L1 change %.3g, needs < %.3g)",
                         result->iterations, result->residual, opt->tol * (double)g->n);
    return KILN_OK;
}
