/* The graph builds on every GPU backend of the build (CUDA, OpenCL: gpu_backends.h) against the
 * CPU build, byte for byte (offsets, sources, out-degrees and the counts of edges read, self loops
 * and duplicates removed):
 * - RMAT through kiln_graph_rmat, directed and undirected, built on the device (the graph says
 *   so), on one device and on sets of 2 and 3 logical devices (each a part of the rows);
 * - edge lists through the graph table's csr_from_edges (the library sends only lists of 2^22
 *   edges or more there), random with duplicates, self loops, dangling and isolated vertices (the
 *   first and the last included), one edge, one vertex, under every flag;
 * - PageRank over the device's RMAT graph equals the CPU's over its own;
 * - where the backend caps one buffer (OpenCL), an edge list whose keys pass it is refused with a
 *   one-line message before anything is read.
 * OpenCL on PoCL (2 CPU cores in CI) runs RMAT 8 and 12 and lists of up to 60000 edges; CUDA RMAT
 * 8 and 16 and up to 200000 edges. */
#include "check.h"
#include "core/gpu.h"
#include "gpu_backends.h"
#include "graph/graph.h"
#include "graph_test_util.h"

/* Whether a and b have the same CSR and counts; says where they differ first. */
static int same_csr(const kiln_graph *a, const kiln_graph *b, const char *what)
{
    const uint64_t *oa, *ob;
    const uint32_t *sa, *sb, *da, *db;
    kiln_graph_csr(a, &oa, &sa, &da);
    kiln_graph_csr(b, &ob, &sb, &db);
    kiln_graph_info ia, ib;
    kiln_graph_get_info(a, &ia);
    kiln_graph_get_info(b, &ib);
    int same = ia.nodes == ib.nodes && ia.edges == ib.edges && ia.self_loops_removed == ib.self_loops_removed &&
               ia.duplicates_removed == ib.duplicates_removed && ia.edges_read == ib.edges_read;
    if (!same) {
        printf("%s: nodes %llu/%llu edges %llu/%llu read %llu/%llu loops %llu/%llu dups %llu/%llu\n", what,
               (unsigned long long)ia.nodes, (unsigned long long)ib.nodes, (unsigned long long)ia.edges,
               (unsigned long long)ib.edges, (unsigned long long)ia.edges_read, (unsigned long long)ib.edges_read,
               (unsigned long long)ia.self_loops_removed, (unsigned long long)ib.self_loops_removed,
               (unsigned long long)ia.duplicates_removed, (unsigned long long)ib.duplicates_removed);
        return 0;
    }
    const int off = memcmp(oa, ob, (ia.nodes + 1) * 8) == 0, src = memcmp(sa, sb, ia.edges * 4) == 0,
              deg = memcmp(da, db, ia.nodes * 4) == 0;
    if (!(off && src && deg)) printf("%s: offsets %s, sources %s, out-degrees %s\n", what, off ? "same" : "differ",
                                     src ? "same" : "differ", deg ? "same" : "differ");
    return off && src && deg;
}

/* RMAT on ctx (a device or a set) against the CPU, and PageRank over it on one device. */
static void rmat(const test_gpu *g, kiln_ctx *ctx, const char *dev, kiln_ctx *cpu, int scale, int pagerank)
{
    for (int undirected = 0; undirected < 2; undirected++) {
        const unsigned flags = undirected ? KILN_GRAPH_UNDIRECTED : 0;
        kiln_graph *d = NULL, *c = NULL;
        kiln_status st = kiln_graph_rmat(ctx, scale, 16, 3, flags, &d);
        CHECK(st == KILN_OK, "%s RMAT %d: %s", dev, scale, kiln_last_error(ctx));
        CHECK(kiln_graph_rmat(cpu, scale, 16, 3, flags, &c) == KILN_OK, "CPU RMAT %d", scale);
        if (!d || !c) {
            kiln_graph_free(d);
            kiln_graph_free(c);
            continue;
        }
        kiln_graph_info info;
        kiln_graph_get_info(d, &info);
        char what[96];
        snprintf(what, sizeof what, "%s RMAT %d%s", dev, scale, undirected ? " undirected" : "");
        CHECK(info.built_on_gpu, "%s: built on the device", what);
        CHECK(same_csr(d, c, what), "%s: the device's CSR is the CPU's", what);
        printf("%s: %llu edges (%llu read), built in %.3f s\n", what, (unsigned long long)info.edges,
               (unsigned long long)info.edges_read, info.build_seconds);
        if (pagerank) {
            kiln_pagerank_options opt;
            kiln_pagerank_options_init(&opt);
            opt.tol = 0;
            opt.max_iter = 20;
            opt.precision = KILN_PRECISION_FLOAT64;
            double *xd = malloc(info.nodes * sizeof *xd), *xc = malloc(info.nodes * sizeof *xc);
            kiln_status sd = kiln_pagerank(g->ctx, d, &opt, xd, NULL), sc = kiln_pagerank(cpu, c, &opt, xc, NULL);
            const double l = sd == KILN_OK && sc == KILN_OK ? l1(xd, xc, info.nodes) : 1;
            CHECK(sd == KILN_OK && sc == KILN_OK && l < 1e-12, "%s: PageRank on the device's graph, status %d (%s), "
                  "L1 to the CPU's %.3e", what, sd, kiln_last_error(g->ctx), l);
            free(xd);
            free(xc);
        }
        kiln_graph_free(d);
        kiln_graph_free(c);
    }
}

/* Random edge lists through the table, against kiln_csr_build_cpu. Round r: n and the edges
 * drawn, destinations in the lower eighth (most rows empty, the last ones among them), sources
 * above vertex 0 (it has no out-edges), a seventh of the edges self loops, duplicates by the
 * birthday rule on the small graphs; rounds 0 and 1 one edge and one vertex. */
static void edge_lists(const test_gpu *g, kiln_ctx *cpu, uint64_t max_edges)
{
    kiln_gpu *dev = NULL;
    CHECK(kiln_ctx_gpu(g->ctx, 0, &dev) == KILN_OK, "open: %s", kiln_last_error(g->ctx));
    if (!dev) return;
    const kiln_gpu_graph_ops *ops = g->ctx->gpu->graph;
    CHECK(ops && ops->csr_from_edges, "%s has a device build of edge lists", g->name);
    if (!ops || !ops->csr_from_edges) return;
    unsigned long long rng = 99;
    for (int round = 0; round < 16; round++) {
        kiln_edges e;
        e.n = round == 0 ? 2 : round == 1 ? 1 : 2 + test_rand(&rng) % (round < 8 ? 50 : 100000);
        e.count = round < 2 ? 1 : 1 + test_rand(&rng) % max_edges;
        e.src = malloc(e.count * 4);
        e.dst = malloc(e.count * 4);
        for (uint64_t i = 0; i < e.count; i++) {
            e.src[i] = e.n == 1 ? 0 : 1 + (uint32_t)(test_rand(&rng) % (e.n - 1));
            e.dst[i] = test_rand(&rng) % 7 == 0 ? e.src[i] : (uint32_t)(test_rand(&rng) % (1 + e.n / 8));
        }
        const unsigned flags = (unsigned)round & 3u;
        kiln_graph ref;
        memset(&ref, 0, sizeof ref);
        CHECK(kiln_csr_build_cpu(cpu, &e, flags, &ref) == KILN_OK, "CPU build");
        kiln_gpu_csr c;
        kiln_status s = ops->csr_from_edges(dev, e.src, e.dst, e.count, e.n, (flags & KILN_GRAPH_UNDIRECTED) != 0,
                                            (flags & KILN_GRAPH_DROP_SELF_LOOPS) != 0, &c);
        CHECK(s == KILN_OK, "%s edge list round %d: %s", g->name, round, kiln_last_error(g->ctx));
        if (s == KILN_OK) {
            CHECK(c.n == e.n && c.m == ref.m && c.edges_read == ref.info.edges_read &&
                      c.self_loops_removed == ref.info.self_loops_removed &&
                      c.duplicates_removed == ref.info.duplicates_removed &&
                      memcmp(c.offsets, ref.offsets, (e.n + 1) * 8) == 0 &&
                      memcmp(c.sources, ref.sources, ref.m * 4) == 0 && memcmp(c.outdeg, ref.outdeg, e.n * 4) == 0,
                  "%s round %d (flags %u, n %llu, %llu edges): device CSR (%llu edges) differs from the CPU's (%llu)",
                  g->name, round, flags, (unsigned long long)e.n, (unsigned long long)e.count,
                  (unsigned long long)c.m, (unsigned long long)ref.m);
            free(c.offsets);
            free(c.sources);
            free(c.outdeg);
        }
        free(ref.offsets);
        free(ref.sources);
        free(ref.outdeg);
        kiln_edges_free(&e);
    }
    /* keys past the largest buffer: refused before the (absent) edges are read */
    const uint64_t cap = ops->max_buffer ? ops->max_buffer(dev) : 0;
    if (cap) {
        kiln_gpu_csr c;
        const uint64_t count = cap / 8 + 1;
        kiln_status s = ops->csr_from_edges(dev, NULL, NULL, count, 1000, 0, 0, &c);
        const char *msg = kiln_last_error(g->ctx);
        CHECK(s == KILN_ERR_INPUT && strstr(msg, "largest allocation") && !strchr(msg, '\n'),
              "%s: %llu edges against a largest buffer of %llu bytes: status %d (%s)", g->name,
              (unsigned long long)count, (unsigned long long)cap, s, msg);
    }
    uint64_t free_b = 0, total_b = 0;
    if (g->ctx->gpu->mem_info) {
        CHECK(g->ctx->gpu->mem_info(dev, &free_b, &total_b) == KILN_OK && free_b <= total_b && total_b > 0,
              "%s mem_info: %llu free of %llu", g->name, (unsigned long long)free_b, (unsigned long long)total_b);
    }
}

static void run(const test_gpu *g, kiln_ctx *cpu)
{
    const int ocl = g->backend == KILN_BACKEND_OPENCL;
    rmat(g, g->ctx, g->device, cpu, 8, 1);
    rmat(g, g->ctx, g->device, cpu, ocl || test_quick() ? 12 : 16, 1);
    for (int k = 2; k <= 3; k++) {
        char set[64];
        test_gpu_set(g, k, set, sizeof set);
        kiln_ctx *ctx = kiln_ctx_new();
        CHECK(ctx && kiln_ctx_set_device(ctx, set) == KILN_OK, "%s: %s", set, ctx ? kiln_last_error(ctx) : "no memory");
        if (ctx) rmat(g, ctx, set, cpu, 12, 0);
        kiln_ctx_free(ctx);
    }
    edge_lists(g, cpu, ocl ? 60000 : 200000);
}

int main(void)
{
    int rc = test_gpu_each(run);
    tmp_cleanup();
    return rc;
}
