/* kiln_graph_from_edges_n: a graph of exactly n nodes whose ids are 0..n-1, so nodes no edge names
 * are isolated (and dangling) without zero-weight self loops. Checked against PageRank's closed
 * form on small graphs, against kiln_graph_from_(weighted_)edges where every id appears (the CPU
 * reference), and its refusals of bad input. */
#include <math.h>

#include "check.h"
#include "kiln.h"

static double rank_l1(const double *a, const double *b, uint64_t n)
{
    double s = 0;
    for (uint64_t i = 0; i < n; i++) s += fabs(a[i] - b[i]);
    return s;
}

static kiln_status ranks(kiln_ctx *ctx, kiln_graph *g, double *out)
{
    kiln_pagerank_options opt;
    kiln_pagerank_options_init(&opt);
    opt.tol = 1e-14;
    opt.max_iter = 10000;
    kiln_pagerank_result res;
    return kiln_pagerank(ctx, g, &opt, out, &res);
}

/* Closed forms with d = 0.85, uniform teleport and dangling rank spread uniformly:
 *   n nodes, no edges: every rank 1/n;
 *   4 nodes, one edge 0 -> 1: nodes 0, 2, 3 have a = 1/(4 + d), node 1 has (1 + d) a. */
static void test_closed_forms(kiln_ctx *ctx)
{
    kiln_graph *g = NULL;
    double r[7];
    CHECK(kiln_graph_from_edges_n(ctx, NULL, NULL, NULL, 0, 7, 0, &g) == KILN_OK, "%s", kiln_last_error(ctx));
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    CHECK(info.nodes == 7 && info.edges == 0 && info.dangling == 7, "nodes %llu edges %llu dangling %llu",
          (unsigned long long)info.nodes, (unsigned long long)info.edges, (unsigned long long)info.dangling);
    CHECK(ranks(ctx, g, r) == KILN_OK, "%s", kiln_last_error(ctx));
    for (int i = 0; i < 7; i++) CHECK(fabs(r[i] - 1.0 / 7) < 1e-15, "rank[%d] = %.17g", i, r[i]);
    kiln_graph_free(g);

    const uint64_t s[1] = {0}, t[1] = {1};
    const double w[1] = {2.5};
    for (int weighted = 0; weighted < 2; weighted++) {
        g = NULL;
        CHECK(kiln_graph_from_edges_n(ctx, s, t, weighted ? w : NULL, 1, 4, 0, &g) == KILN_OK, "%s",
              kiln_last_error(ctx));
        kiln_graph_get_info(g, &info);
        CHECK(info.nodes == 4 && info.dangling == 3, "nodes %llu dangling %llu", (unsigned long long)info.nodes,
              (unsigned long long)info.dangling);
        for (uint64_t i = 0; i < 4; i++) CHECK(kiln_graph_node_id(g, i) == i, "node_id(%llu)", (unsigned long long)i);
        CHECK(ranks(ctx, g, r) == KILN_OK, "%s", kiln_last_error(ctx));
        const double a = 1 / 4.85;
        const double want[4] = {a, 1.85 * a, a, a};
        CHECK(rank_l1(r, want, 4) < 1e-12, "weighted %d: %.17g %.17g %.17g %.17g", weighted, r[0], r[1], r[2], r[3]);
        kiln_graph_free(g);
    }
}

/* Where every id 0..n-1 appears, the graph is the one kiln_graph_from_(weighted_)edges builds. */
static void test_equals_id_mapped_build(kiln_ctx *ctx)
{
    enum { N = 200, M = 1500 };
    static uint64_t s[M + N], t[M + N];
    static double w[M + N], a[N], b[N];
    unsigned long long seed = 42;
    for (int i = 0; i < M; i++) {
        s[i] = test_rand(&seed) % N;
        t[i] = test_rand(&seed) % N;
        w[i] = (double)(test_rand(&seed) % 5) / 2; /* zeros included */
    }
    for (int i = 0; i < N; i++) { /* a ring, so every id is named */
        s[M + i] = (uint64_t)i;
        t[M + i] = (uint64_t)(i + 1) % N;
        w[M + i] = 1;
    }
    for (int weighted = 0; weighted < 2; weighted++) {
        for (unsigned flags = 0; flags <= KILN_GRAPH_UNDIRECTED; flags += KILN_GRAPH_UNDIRECTED) {
            kiln_graph *g1 = NULL, *g2 = NULL;
            kiln_status st1 = kiln_graph_from_edges_n(ctx, s, t, weighted ? w : NULL, M + N, N, flags, &g1);
            kiln_status st2 = weighted ? kiln_graph_from_weighted_edges(ctx, s, t, w, M + N, flags, &g2)
                                       : kiln_graph_from_edges(ctx, s, t, M + N, flags, &g2);
            CHECK(st1 == KILN_OK && st2 == KILN_OK, "%s", kiln_last_error(ctx));
            if (st1 != KILN_OK || st2 != KILN_OK) continue;
            kiln_graph_info i1, i2;
            kiln_graph_get_info(g1, &i1);
            kiln_graph_get_info(g2, &i2);
            CHECK(i1.nodes == i2.nodes && i1.edges == i2.edges && i1.dangling == i2.dangling &&
                      i1.duplicates_removed == i2.duplicates_removed && i1.self_loops == i2.self_loops,
                  "weighted %d flags %u: edges %llu vs %llu", weighted, flags, (unsigned long long)i1.edges,
                  (unsigned long long)i2.edges);
            CHECK(ranks(ctx, g1, a) == KILN_OK && ranks(ctx, g2, b) == KILN_OK, "%s", kiln_last_error(ctx));
            CHECK(rank_l1(a, b, N) == 0, "weighted %d flags %u: L1 %g", weighted, flags, rank_l1(a, b, N));
            kiln_graph_free(g1);
            kiln_graph_free(g2);
        }
    }
}

static void test_refusals(kiln_ctx *ctx)
{
    const uint64_t s[2] = {0, 1}, t[2] = {1, 5};
    const double bad_w[2] = {1, -1};
    kiln_graph *g = (kiln_graph *)&g;
    CHECK(kiln_graph_from_edges_n(ctx, s, t, NULL, 2, 5, 0, &g) == KILN_ERR_INPUT && g == NULL, "id 5 of 5 nodes");
    CHECK(strstr(kiln_last_error(ctx), "edge 1") != NULL, "%s", kiln_last_error(ctx));
    CHECK(kiln_graph_from_edges_n(ctx, s, t, bad_w, 2, 6, 0, &g) == KILN_ERR_INPUT, "negative weight");
    CHECK(strstr(kiln_last_error(ctx), "weight[1]") != NULL, "%s", kiln_last_error(ctx));
    CHECK(kiln_graph_from_edges_n(ctx, s, t, NULL, 2, 0, 0, &g) == KILN_ERR_INPUT, "no nodes");
    CHECK(kiln_graph_from_edges_n(ctx, s, t, NULL, 2, UINT64_C(1) << 33, 0, &g) == KILN_ERR_INPUT, "2^33 nodes");
    CHECK(kiln_graph_from_edges_n(ctx, NULL, t, NULL, 2, 6, 0, &g) == KILN_ERR_INPUT, "missing src");
    CHECK(kiln_graph_from_edges_n(ctx, s, t, NULL, 2, 6, 0x80, &g) == KILN_ERR_INPUT, "bad flags");
    CHECK(kiln_graph_from_edges_n(ctx, s, t, NULL, 2, 6, 0, NULL) == KILN_ERR_INPUT, "no output");
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_ctx_set_device(ctx, "cpu");
    test_closed_forms(ctx);
    test_equals_id_mapped_build(ctx);
    test_refusals(ctx);
    kiln_ctx_free(ctx);
    return check_summary();
}
