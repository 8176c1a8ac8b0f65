/* kiln bench --algo pagerank: PageRank on an RMAT graph that fills the device. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

kiln_status bench_graph(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a)
{
    (void)kind;
    /* a graph that fills the device: RMAT scale 22 (65M edges) on a GPU, 20 on the CPU */
    const int scale = kiln_ctx_backend(ctx) != KILN_BACKEND_CPU ? 22 : 20;
    kiln_graph *g = NULL;
    kiln_status st = kiln_graph_rmat(ctx, scale, 16, 1, 0, &g);
    double *ranks = NULL;
    kiln_pagerank_result res;
    if (st == KILN_OK) {
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        ranks = malloc(info.nodes * sizeof *ranks);
        kiln_pagerank_options opt;
        kiln_pagerank_options_init(&opt);
        opt.tol = 0;
        opt.max_iter = 20;
        opt.repeat = 3;
        st = ranks ? kiln_pagerank(ctx, g, &opt, ranks, &res) : KILN_ERR_DEVICE;
        if (st == KILN_OK) {
            bench_row r = {w->name, NULL, "edges/s", res.edges_per_second, "", ""};
            snprintf(r.json, sizeof r.json, ", \"graph\": \"rmat:%d:16:1\", \"edges\": %llu, \"seconds_per_iteration\": %.9e",
                     scale, (unsigned long long)info.edges, res.seconds_per_iteration);
            snprintf(r.text, sizeof r.text, "   (RMAT scale %d, %.3f ms/iteration)", scale,
                     res.seconds_per_iteration * 1e3);
            bench_row_print(ctx, &r, a);
        }
    }
    free(ranks);
    kiln_graph_free(g);
    return st;
}
