/* PageRank on vectors in device memory (docs/DEVICE_MEMORY.md): a plan lays a graph out on the
 * context's one GPU through the graph table's pr_plan_new, and each kiln_pagerank_device run
 * checks the options as kiln_pagerank does and hands the caller's device vectors and stream to
 * pr_plan_run. */
#include <stdlib.h>
#include <string.h>

#include "../core/ctx.h"
#include "../core/gpu.h"
#include "pagerank_checks.h"

struct kiln_pagerank_plan {
    kiln_ctx *ctx;
    const kiln_graph *g; /* the caller's, for the vertex ids in messages */
    const kiln_gpu_graph_ops *ops;
    kiln_gpu_pr_plan *impl;
    int use_double;
};

kiln_status kiln_pagerank_plan_new(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt,
                                   kiln_pagerank_plan **out)
{
    kiln_pagerank_options defaults;
    if (!out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing plan pointer");
    *out = NULL;
    if (!opt) {
        kiln_pagerank_options_init(&defaults);
        opt = &defaults;
    }
    if (!g) return kiln_fail(ctx, KILN_ERR_INPUT, "missing graph");
    if (!ctx || ctx->backend == KILN_BACKEND_CPU)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "PageRank on device memory needs a CUDA GPU context, not the CPU");
    if (ctx->ngpu > 1)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "PageRank on device memory runs on one GPU, not a set of %d", ctx->ngpu);
    if (!ctx->gpu->graph || !ctx->gpu->graph->pr_plan_new)
        return kiln_gpu_lacks(ctx, "run PageRank on vectors in device memory");
    if (g->part) return kiln_fail(ctx, KILN_ERR_INPUT, "a graph split over processes needs kiln_dist_pagerank");
    if (g->n == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "the graph has no vertices");
    if (opt->personalization || opt->dangling || opt->nstart)
        return kiln_fail(ctx, KILN_ERR_INPUT, "a plan takes no vectors: give them (device memory) to kiln_pagerank_device");
    kiln_status st = kiln_pagerank_check_options(ctx, opt);
    if (st == KILN_OK) st = kiln_pagerank_check_out_weights(ctx, g);
    if (st != KILN_OK) return st;
    kiln_gpu *gpu;
    if ((st = kiln_ctx_gpu(ctx, 0, &gpu)) != KILN_OK) return st;
    kiln_pagerank_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    plan->ctx = ctx;
    plan->g = g;
    plan->ops = ctx->gpu->graph;
    plan->use_double = opt->precision == KILN_PRECISION_FLOAT64;
    const kiln_gpu_pr_graph cg = {.n = g->n,
                                  .m = g->m,
                                  .dangling = g->info.dangling,
                                  .offsets = g->offsets,
                                  .sources = g->sources,
                                  .outdeg = g->outdeg,
                                  .weights = g->weights,
                                  .out_weight = g->out_weight};
    const kiln_gpu_pr_params p = {.damping = opt->damping,
                                  .tol = opt->tol,
                                  .max_iter = opt->max_iter,
                                  .use_double = plan->use_double,
                                  .reorder = opt->reorder != 0,
                                  .repeat = 1,
                                  .kernel = (int)opt->kernel};
    st = plan->ops->pr_plan_new(gpu, &cg, &p, &plan->impl);
    if (st != KILN_OK) {
        free(plan);
        return st;
    }
    *out = plan;
    return KILN_OK;
}

void kiln_pagerank_plan_free(kiln_pagerank_plan *plan)
{
    if (!plan) return;
    plan->ops->pr_plan_free(plan->impl);
    free(plan);
}

kiln_status kiln_pagerank_device(kiln_ctx *ctx, kiln_pagerank_plan *plan, const kiln_pagerank_options *opt,
                                 const double *personalization, const double *dangling, const double *nstart,
                                 double *ranks, void *stream, kiln_pagerank_result *result)
{
    kiln_pagerank_options defaults;
    if (result) memset(result, 0, sizeof *result);
    if (!plan || !ranks) return kiln_fail(ctx, KILN_ERR_INPUT, "missing plan or rank vector");
    if (ctx != plan->ctx) return kiln_fail(ctx, KILN_ERR_INPUT, "the plan was made on another context");
    if (!opt) {
        kiln_pagerank_options_init(&defaults);
        opt = &defaults;
    }
    if (opt->personalization || opt->dangling || opt->nstart)
        return kiln_fail(ctx, KILN_ERR_INPUT,
                         "kiln_pagerank_device takes its vectors in device memory, as arguments, not in the options");
    kiln_status st = kiln_pagerank_check_options(ctx, opt);
    if (st != KILN_OK) return st;
    const kiln_gpu_pr_params p = {.damping = opt->damping,
                                  .tol = opt->tol,
                                  .max_iter = opt->max_iter,
                                  .use_double = plan->use_double,
                                  .repeat = 1,
                                  .kernel = (int)opt->kernel,
                                  .personalization = personalization,
                                  .dangling = dangling,
                                  .nstart = nstart};
    kiln_gpu *gpu;
    if ((st = kiln_ctx_gpu(ctx, 0, &gpu)) != KILN_OK) return st;
    kiln_gpu_pr_stats s;
    kiln_gpu_pr_bad bad = {-1, 0, 0, 0};
    st = plan->ops->pr_plan_run(plan->impl, &p, ranks, stream, result != NULL, &s, &bad);
    if (st != KILN_OK && bad.vector >= 0) {
        static const char *const names[] = {"personalization", "dangling", "nstart"};
        if (bad.zero_sum) return kiln_fail(ctx, KILN_ERR_INPUT, "%s vector sums to 0", names[bad.vector]);
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s vector: node %llu has value %g (must be finite and >= 0)",
                         names[bad.vector], (unsigned long long)kiln_graph_node_id(plan->g, bad.index), bad.value);
    }
    if (st != KILN_OK || !result) return st;
    result->iterations = s.iterations;
    result->converged = s.converged;
    result->residual = s.residual;
    result->precision = plan->use_double ? KILN_PRECISION_FLOAT64 : KILN_PRECISION_FLOAT32;
    result->kernel = s.kernel == KILN_GPU_PR_PERSISTENT ? KILN_PR_KERNEL_PERSISTENT : KILN_PR_KERNEL_GRID;
    if (!result->converged && opt->tol > 0)
        return kiln_fail(ctx, KILN_NOT_FOUND, "PageRank did not converge in %d iterations (L1 change %.3g, needs < %.3g)",
                         result->iterations, result->residual, opt->tol * (double)plan->g->n);
    return KILN_OK;
}
