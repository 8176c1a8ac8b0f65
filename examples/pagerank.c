/* PageRank of a directed graph given as an edge list, as NetworkX's nx.pagerank defines it
 * (damping 0.85, tolerance 1e-6, uniform teleport; a dangling node's rank spread uniformly).
 *   pagerank [DEVICE] < edges      one "source target" pair of node ids a line
 * Prints "node<TAB>rank" for every node. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <kiln.h>

/* An error: its message, the context freed (a program that goes on would keep it), the exit code. */
static int fail(kiln_ctx *ctx, const char *what, int code)
{
    fprintf(stderr, "%s: %s\n", what, kiln_last_error(ctx));
    kiln_ctx_free(ctx);
    return code;
}

int main(int argc, char **argv)
{
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) return fprintf(stderr, "pagerank: out of memory\n"), 3;
    if (kiln_ctx_set_device(ctx, argc > 1 ? argv[1] : "auto") != KILN_OK) return fail(ctx, "pagerank", 2);

    uint64_t *src = NULL, *dst = NULL, s, d;
    size_t n = 0, cap = 0;
    while (scanf("%" SCNu64 " %" SCNu64, &s, &d) == 2) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            src = realloc(src, cap * sizeof *src);
            dst = realloc(dst, cap * sizeof *dst);
        }
        src[n] = s, dst[n] = d, n++;
    }
    kiln_graph *g = NULL;
    kiln_status st = kiln_graph_from_edges(ctx, src, dst, n, 0, &g);
    free(src), free(dst);
    if (st != KILN_OK) return fail(ctx, "pagerank", 2);

    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    double *ranks = malloc(info.nodes * sizeof *ranks);
    kiln_pagerank_options opt;
    kiln_pagerank_options_init(&opt);
    kiln_pagerank_result result;
    st = kiln_pagerank(ctx, g, &opt, ranks, &result);
    if (st == KILN_OK || st == KILN_NOT_FOUND) /* NOT_FOUND: not converged, the last iterate */
        for (uint64_t i = 0; i < info.nodes; i++) printf("%" PRIu64 "\t%.12f\n", kiln_graph_node_id(g, i), ranks[i]);
    else
        fprintf(stderr, "pagerank: %s\n", kiln_last_error(ctx));
    free(ranks);
    kiln_graph_free(g);
    kiln_ctx_free(ctx);
    return st == KILN_OK ? 0 : st == KILN_NOT_FOUND ? 1 : 3;
}
