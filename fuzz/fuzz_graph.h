/* The graph harnesses' shared body: load the input through kiln_graph_load (the public path, from
 * a memfd) in one format, then check the CSR's invariants (with KILN_GRAPH_WEIGHTED, the weights':
 * finite, >= 0, each vertex's out-weight the sum of its out-edges' weights, dangling = out-weight
 * 0) and that PageRank over it gives ranks that sum to 1. Include after fuzz_util.h. */
#ifndef KILN_FUZZ_GRAPH_H
#define KILN_FUZZ_GRAPH_H

#include <math.h>

#include "fuzz_util.h"
#include "graph/graph.h" /* the out-weights, which the public API does not show */

/* PageRank only on graphs this small, so one input stays well under a millisecond or so. */
#define FUZZ_PAGERANK_MAX_NODES 4096u

/* Weights aligned with the CSR's sources; the out-weights summed again here, in CSR order. */
static void fuzz_check_weights(const kiln_graph *g, const kiln_graph_info *info, const uint64_t *off,
                               const uint32_t *src)
{
    const double *w = kiln_graph_edge_weights(g);
    FUZZ_CHECK(w != NULL && g->out_weight != NULL);
    double *sum = calloc(info->nodes ? info->nodes : 1, sizeof *sum);
    if (!sum) abort();
    for (uint64_t v = 0; v < info->nodes; v++)
        for (uint64_t j = off[v]; j < off[v + 1]; j++) {
            FUZZ_CHECK(isfinite(w[j]) && w[j] >= 0);
            sum[src[j]] += w[j];
        }
    uint64_t dangling = 0;
    for (uint64_t u = 0; u < info->nodes; u++) {
        double ow = g->out_weight[u];
        FUZZ_CHECK(isfinite(ow) && ow >= 0);
        /* the same non-negative terms in another order: within a few ulps per term */
        FUZZ_CHECK(isinf(sum[u]) || fabs(ow - sum[u]) <= 1e-12 * sum[u] * (double)(g->outdeg[u] + 1));
        dangling += ow == 0;
    }
    FUZZ_CHECK(dangling == info->dangling);
    free(sum);
}

static void fuzz_check_graph(kiln_ctx *ctx, const kiln_graph *g, int weighted)
{
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    const uint64_t *off;
    const uint32_t *src, *outdeg;
    kiln_graph_csr(g, &off, &src, &outdeg);
    FUZZ_CHECK(off[0] == 0 && off[info.nodes] == info.edges);
    uint64_t outsum = 0, dangling = 0;
    for (uint64_t v = 0; v < info.nodes; v++) {
        FUZZ_CHECK(off[v] <= off[v + 1]);
        for (uint64_t j = off[v]; j < off[v + 1]; j++) {
            FUZZ_CHECK(src[j] < info.nodes);
            FUZZ_CHECK(j == off[v] || src[j] > src[j - 1]); /* ascending, no duplicate edge */
        }
        if (v > 0) FUZZ_CHECK(kiln_graph_node_id(g, v) > kiln_graph_node_id(g, v - 1));
        outsum += outdeg[v];
        dangling += outdeg[v] == 0;
    }
    FUZZ_CHECK(outsum == info.edges);
    if (weighted) fuzz_check_weights(g, &info, off, src);
    else FUZZ_CHECK(kiln_graph_edge_weights(g) == NULL && dangling == info.dangling);

    if (info.nodes == 0 || info.nodes > FUZZ_PAGERANK_MAX_NODES) return;
    kiln_pagerank_options opt;
    kiln_pagerank_options_init(&opt);
    opt.max_iter = 5;
    double *ranks = malloc(info.nodes * sizeof *ranks);
    if (!ranks) abort();
    kiln_pagerank_result res;
    kiln_status st = kiln_pagerank(ctx, g, &opt, ranks, &res);
    /* weighted graphs whose out-weight sums are subnormal or infinite are refused by name
     * (src/api/pagerank.c's check_out_weights), never ranked */
    if (weighted && st == KILN_ERR_INPUT) {
        FUZZ_CHECK(strstr(kiln_last_error(ctx), "out-edge weights sum to") != NULL);
        free(ranks);
        return;
    }
    FUZZ_CHECK(st == KILN_OK || st == KILN_NOT_FOUND);
    double sum = 0;
    for (uint64_t v = 0; v < info.nodes; v++) {
        FUZZ_CHECK(ranks[v] >= 0 && isfinite(ranks[v]));
        sum += ranks[v];
    }
    FUZZ_CHECK(fabs(sum - 1) < 1e-9);
    free(ranks);
}

/* Loads data as `format` with `flags`; a refusal must be an input error with a message. */
static void fuzz_load_graph(const uint8_t *data, size_t size, kiln_graph_format format, unsigned flags)
{
    kiln_ctx *ctx = fuzz_ctx();
    char path[64];
    int fd = fuzz_memfd(data, size, path);
    kiln_graph *g = NULL;
    kiln_status st = kiln_graph_load(ctx, path, format, flags, &g);
    close(fd);
    if (st != KILN_OK) {
        FUZZ_CHECK(st == KILN_ERR_INPUT && kiln_last_error(ctx)[0] != '\0');
        return;
    }
    fuzz_check_graph(ctx, g, (flags & KILN_GRAPH_WEIGHTED) != 0);
    kiln_graph_free(g);
}

#endif
