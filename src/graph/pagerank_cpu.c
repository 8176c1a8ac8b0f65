/* PageRank on the CPU threads in float64: the reference every GPU result is checked against.
 *
 * Each vertex keeps y = x / out-degree (x itself for a dangling vertex), so the pull loop adds
 * y[u] over the in-neighbours without a division per edge (the contribution trick), and the same
 * pass produces the next y, the L1 change and the dangling mass of the new x. */
#include <math.h>
#include <stdlib.h>

#include "graph.h"
#include "../core/clock.h"

/* One pull pass: y_out from y_in; returns the L1 change, *dangling_out the new dangling mass. */
static double pass(const kiln_graph *g, const double *y_in, double *y_out, double damping, double dangling,
                   double *dangling_out, int threads)
{
    const int64_t n = (int64_t)g->n;
    const double base = ((1.0 - damping) + damping * dangling) / (double)g->n;
    const uint64_t *off = g->offsets;
    const uint32_t *src = g->sources, *od = g->outdeg;
    double res = 0, dang = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 2048) reduction(+ : res, dang)
    for (int64_t v = 0; v < n; v++) {
        double s = 0;
        for (uint64_t j = off[v]; j < off[v + 1]; j++) s += y_in[src[j]];
        double x = damping * s + base;
        uint32_t d = od[v];
        double old = d ? y_in[v] * (double)d : y_in[v];
        res += fabs(x - old);
        if (d) {
            y_out[v] = x / (double)d;
        } else {
            y_out[v] = x;
            dang += x;
        }
    }
    *dangling_out = dang;
    return res;
}

static void to_y(const kiln_graph *g, const double *x, double *y, double *dangling, int threads)
{
    const int64_t n = (int64_t)g->n;
    double dang = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : dang)
    for (int64_t v = 0; v < n; v++) {
        uint32_t d = g->outdeg[v];
        y[v] = d ? x[v] / (double)d : x[v];
        if (!d) dang += x[v];
    }
    *dangling = dang;
}

kiln_status kiln_pagerank_cpu(kiln_ctx *ctx, const kiln_graph *g, double damping, double tol, int max_iter,
                              double *ranks, kiln_pr_cpu_stats *stats)
{
    const int threads = kiln_graph_threads(ctx);
    const int64_t n = (int64_t)g->n;
    double *y = malloc((size_t)n * sizeof *y);
    if (!y) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %lld ranks", (long long)n);
    double *a = ranks, *b = y, dang;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) b[v] = 1.0 / (double)n;
    to_y(g, b, a, &dang, threads);
    const double threshold = (double)n * tol;
    double t0 = kiln_now(), res = 0;
    int it = 0, converged = 0;
    while (it < max_iter) {
        if (kiln_ctx_interrupt_requested(ctx)) {
            free(y);
            return kiln_interrupted(ctx);
        }
        res = pass(g, a, b, damping, dang, &dang, threads);
        double *t = a;
        a = b;
        b = t;
        it++;
        if (res < threshold) {
            converged = 1;
            break;
        }
    }
    double secs = kiln_now() - t0;
    /* x from y, into ranks */
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t v = 0; v < n; v++) {
        uint32_t d = g->outdeg[v];
        ranks[v] = d ? a[v] * (double)d : a[v];
    }
    free(y);
    stats->iterations = it;
    stats->converged = converged;
    stats->residual = res;
    stats->seconds = secs;
    return KILN_OK;
}

double kiln_pagerank_cpu_residual(const kiln_graph *g, double damping, const double *x, int threads)
{
    const int64_t n = (int64_t)g->n;
    double *y = malloc((size_t)n * sizeof *y), *y2 = malloc((size_t)n * sizeof *y2);
    if (!y || !y2) {
        free(y);
        free(y2);
        return -1;
    }
    double dang, dang2;
    to_y(g, x, y, &dang, threads);
    double res = pass(g, y, y2, damping, dang, &dang2, threads);
    free(y);
    free(y2);
    return res;
}
