/* What the GPU PageRank tests share (test_gpu_pagerank, test_cuda_pagerank_kernels): the ways a
 * comparison runs on a device (the vertex order kept or relabelled, a kernel asked for, the device
 * as a set of logical devices, each holding a part of the rows) and one call of kiln_pagerank
 * under a way, with NetworkX's optional vectors. */
#ifndef KILN_TESTS_PAGERANK_WAYS_H
#define KILN_TESTS_PAGERANK_WAYS_H

#include "check.h"
#include "gpu_backends.h"
#include "graph_test_util.h"
#include "kiln.h"

/* NetworkX's optional vectors (NULL: its default). */
typedef struct pr_vectors {
    const double *personalization, *dangling, *nstart;
} pr_vectors;

typedef struct pr_way {
    const char *name;
    int reorder; /* kiln_pagerank_options.reorder (a set relabels its parts whatever it says) */
    kiln_pagerank_kernel kernel; /* a kernel that cannot run on a graph falls back to the default */
    int exact; /* no fall back: the kernel asked for runs, or its error is the call's */
    int set; /* > 1: the device as a set of this many logical devices (the row parts) */
    kiln_ctx *ctx; /* the context the way runs on (pr_way_open) */
} pr_way;

/* Opens the way's context on g's device: g's own, or a set of it. */
static inline void pr_way_open(pr_way *w, const test_gpu *g)
{
    if (w->set <= 1) {
        w->ctx = g->ctx;
        return;
    }
    char spec[64];
    test_gpu_set(g, w->set, spec, sizeof spec);
    w->ctx = kiln_ctx_new();
    CHECK(w->ctx && kiln_ctx_set_device(w->ctx, spec) == KILN_OK && kiln_ctx_device_count(w->ctx) == w->set, "%s: %s",
          spec, w->ctx ? kiln_last_error(w->ctx) : "out of memory");
}

static inline void pr_way_close(pr_way *w, const test_gpu *g)
{
    if (w->ctx != g->ctx) kiln_ctx_free(w->ctx);
    w->ctx = NULL;
}

/* The ranks (malloc'd, poisoned first) of one run on ctx: as way w asks when w is given (a set's
 * run that did not run as parts is KILN_ERR_DEVICE), else the default (the CPU reference). */
static inline double *pr_run(kiln_ctx *ctx, const pr_way *w, const kiln_graph *g, kiln_precision prec, double tol,
                             int iters, const pr_vectors *v, int repeat, kiln_pagerank_result *res, kiln_status *st)
{
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    double *x = malloc(info.nodes * sizeof *x);
    for (uint64_t i = 0; i < info.nodes; i++) x[i] = -1; /* poison */
    kiln_pagerank_options o;
    kiln_pagerank_options_init(&o);
    o.precision = prec;
    o.tol = tol;
    o.max_iter = iters;
    o.repeat = repeat;
    if (w) {
        ctx = w->ctx;
        o.reorder = w->reorder;
        o.kernel = w->kernel;
    }
    if (v) {
        o.personalization = v->personalization;
        o.dangling = v->dangling;
        o.nstart = v->nstart;
    }
    memset(res, 0, sizeof *res);
    *st = kiln_pagerank(ctx, g, &o, x, res);
    if (*st == KILN_ERR_INPUT && w && !w->exact && o.kernel != KILN_PR_KERNEL_AUTO &&
        strstr(kiln_last_error(ctx), "kernel cannot run")) {
        o.kernel = KILN_PR_KERNEL_AUTO;
        *st = kiln_pagerank(ctx, g, &o, x, res);
    }
    if (*st == KILN_OK && w && w->set > 1 && (res->kernel != KILN_PR_KERNEL_PARTS || res->parts != w->set))
        *st = KILN_ERR_DEVICE;
    return x;
}

#endif
