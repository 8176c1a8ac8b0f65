/* What PageRank does on CUDA alone (its comparisons against NetworkX and the CPU, on every backend,
 * are test_gpu_pagerank's): the device CSR build (CUB sort) equals the CPU CSR edge for edge, RMAT
 * and random edge lists with loops and duplicates under every flag; the kernel choice (the
 * persistent kernel by default where the graph's blocks fit on the chip at once, the grid kernel
 * where they do not; the persistent kernel asked for without the relabelling or on RMAT 20 is an
 * input error naming why); ms per iteration plain / weighted / personalized on RMAT 20 (printed,
 * for issue 12's 1.3x target). KILN_TEST_ONLY=parts or persistent (the compute-sanitizer runs):
 * that way alone on ego-Facebook and RMAT 12, 3 iterations, against the CPU. */
#include "check.h"
#include "core/gpu.h"
#include "graph/graph.h"
#include "graph_test_util.h"
#include "pagerank_ways.h"

static int same_csr(const kiln_graph *a, const kiln_graph *b)
{
    const uint64_t *oa, *ob;
    const uint32_t *sa, *sb, *da, *db;
    kiln_graph_csr(a, &oa, &sa, &da);
    kiln_graph_csr(b, &ob, &sb, &db);
    kiln_graph_info ia, ib;
    kiln_graph_get_info(a, &ia);
    kiln_graph_get_info(b, &ib);
    return ia.nodes == ib.nodes && ia.edges == ib.edges && ia.self_loops_removed == ib.self_loops_removed &&
           ia.duplicates_removed == ib.duplicates_removed && ia.edges_read == ib.edges_read &&
           memcmp(oa, ob, (ia.nodes + 1) * 8) == 0 && memcmp(sa, sb, ia.edges * 4) == 0 &&
           memcmp(da, db, ia.nodes * 4) == 0;
}

static void test_build(kiln_ctx *gpu, kiln_ctx *cpu)
{
    for (int undirected = 0; undirected < 2; undirected++) {
        for (int scale = 8; scale <= 16; scale += 8) {
            unsigned flags = undirected ? KILN_GRAPH_UNDIRECTED : 0;
            kiln_graph *g = NULL, *c = NULL;
            CHECK(kiln_graph_rmat(gpu, scale, 16, 3, flags, &g) == KILN_OK, "gpu rmat: %s", kiln_last_error(gpu));
            CHECK(kiln_graph_rmat(cpu, scale, 16, 3, flags, &c) == KILN_OK, "cpu rmat");
            kiln_graph_info info;
            kiln_graph_get_info(g, &info);
            CHECK(info.built_on_gpu, "rmat built on the GPU");
            CHECK(g && c && same_csr(g, c), "RMAT scale %d undirected %d: GPU CSR differs from the CPU's", scale,
                  undirected);
            kiln_graph_free(g);
            kiln_graph_free(c);
        }
    }
    /* random edge lists with loops and duplicates, every flag combination, through the device
     * builder directly (the API sends only large lists there) */
    kiln_gpu *dev = NULL;
    CHECK(kiln_ctx_gpu(gpu, 0, &dev) == KILN_OK, "open: %s", kiln_last_error(gpu));
    if (!dev) return;
    unsigned long long rng = 99;
    for (int round = 0; round < 16; round++) {
        kiln_edges e;
        e.n = 1 + test_rand(&rng) % (round < 8 ? 50 : 100000);
        e.count = 1 + test_rand(&rng) % 200000;
        e.src = malloc(e.count * 4);
        e.dst = malloc(e.count * 4);
        for (uint64_t i = 0; i < e.count; i++) {
            e.src[i] = (uint32_t)(test_rand(&rng) % e.n);
            e.dst[i] = test_rand(&rng) % 7 == 0 ? e.src[i] : (uint32_t)(test_rand(&rng) % (1 + e.n / 8));
        }
        unsigned flags = (unsigned)round & 3u;
        kiln_graph ref;
        memset(&ref, 0, sizeof ref);
        CHECK(kiln_csr_build_cpu(cpu, &e, flags, &ref) == KILN_OK, "cpu build");
        kiln_gpu_csr c;
        kiln_status s = gpu->gpu->graph->csr_from_edges(dev, e.src, e.dst, e.count, e.n, (flags & KILN_GRAPH_UNDIRECTED) != 0,
                                                 (flags & KILN_GRAPH_DROP_SELF_LOOPS) != 0, &c);
        CHECK(s == KILN_OK, "gpu build: %s", kiln_last_error(gpu));
        if (s == KILN_OK) {
            CHECK(c.m == ref.m && c.self_loops_removed == ref.info.self_loops_removed &&
                      c.duplicates_removed == ref.info.duplicates_removed &&
                      memcmp(c.offsets, ref.offsets, (e.n + 1) * 8) == 0 &&
                      memcmp(c.sources, ref.sources, ref.m * 4) == 0 && memcmp(c.outdeg, ref.outdeg, e.n * 4) == 0,
                  "round %d (flags %u, n %llu, %llu edges): device CSR differs", round, flags, (unsigned long long)e.n,
                  (unsigned long long)e.count);
            free(c.offsets);
            free(c.sources);
            free(c.outdeg);
        }
        free(ref.offsets);
        free(ref.sources);
        free(ref.outdeg);
        kiln_edges_free(&e);
    }
}

/* The kernel each graph runs on by default, and the one asked for where it cannot run: an input
 * error naming why. Graphs: 0 ego-Facebook (undirected), 1 RMAT 16, 2 RMAT 20. */
static const struct {
    int graph, reorder, iters;
    kiln_pagerank_kernel kernel, ran;
    kiln_precision prec;
    const char *error, *why, *what; /* error: the message's words when refused (ran unused), else NULL */
} kernel_cases[] = {
    {0, 1, 20, KILN_PR_KERNEL_AUTO, KILN_PR_KERNEL_PERSISTENT, KILN_PRECISION_AUTO, NULL, NULL, "default kernel"},
    {0, 1, 20, KILN_PR_KERNEL_GRID, KILN_PR_KERNEL_GRID, KILN_PRECISION_AUTO, NULL, NULL, "grid asked"},
    {0, 0, 20, KILN_PR_KERNEL_PERSISTENT, 0, KILN_PRECISION_AUTO, "persistent kernel cannot run", "relabelled",
     "persistent without reorder"},
    {1, 1, 20, KILN_PR_KERNEL_AUTO, KILN_PR_KERNEL_PERSISTENT, KILN_PRECISION_FLOAT64, NULL, NULL, "auto on RMAT 16"},
    {2, 1, 3, KILN_PR_KERNEL_AUTO, KILN_PR_KERNEL_GRID, KILN_PRECISION_FLOAT64, NULL, NULL, "auto on RMAT 20"},
    {2, 1, 3, KILN_PR_KERNEL_PERSISTENT, 0, KILN_PRECISION_FLOAT64, "do not all fit", "do not all fit", "persistent on RMAT 20"},
};

static void test_kernel_choice(kiln_ctx *gpu)
{
    kiln_graph *graphs[3] = {NULL, NULL, NULL};
    CHECK(kiln_graph_load(gpu, test_data("facebook_combined.txt"), KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED,
                          &graphs[0]) == KILN_OK,
          "load");
    CHECK(kiln_graph_rmat(gpu, 16, 16, 1, 0, &graphs[1]) == KILN_OK, "rmat 16");
    CHECK(kiln_graph_rmat(gpu, 20, 16, 1, 0, &graphs[2]) == KILN_OK, "rmat 20");
    for (size_t i = 0; i < sizeof kernel_cases / sizeof *kernel_cases; i++) {
        const kiln_graph *g = graphs[kernel_cases[i].graph];
        if (!g) continue;
        const pr_way w = {.name = kernel_cases[i].what, .reorder = kernel_cases[i].reorder,
                          .kernel = kernel_cases[i].kernel, .exact = 1, .set = 1, .ctx = gpu};
        kiln_pagerank_result res;
        kiln_status st;
        free(pr_run(NULL, &w, g, kernel_cases[i].prec, 0, kernel_cases[i].iters, NULL, 1, &res, &st));
        const char *e = kiln_last_error(gpu);
        if (kernel_cases[i].error)
            CHECK(st == KILN_ERR_INPUT && strstr(e, kernel_cases[i].error) && strstr(e, kernel_cases[i].why),
                  "%s: %d (%s)", w.name, st, e);
        else
            CHECK(st == KILN_OK && res.kernel == kernel_cases[i].ran, "%s: status %d (%s), kernel %d", w.name, st, e,
                  res.kernel);
    }
    for (int i = 0; i < 3; i++) kiln_graph_free(graphs[i]);
}

/* ms per iteration on RMAT 20: plain, weighted, personalized, and weighted with every vector
 * (issue 12's target: weighted and personalized within 1.3x of plain). Printed, not checked:
 * timings vary with the machine. */
static void bench_definition(kiln_ctx *gpu, kiln_ctx *cpu)
{
    kiln_graph *g = NULL;
    CHECK(kiln_graph_rmat(gpu, 20, 16, 1, 0, &g) == KILN_OK, "rmat 20: %s", kiln_last_error(gpu));
    if (!g) return;
    kiln_graph *gw = weighted_copy(cpu, g, 0, 31);
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    double *p = random_vector(info.nodes, 32, 1), *q = random_vector(info.nodes, 33, 1);
    const pr_vectors pers = {p, NULL, NULL}, all = {p, q, NULL};
    const pr_way w = {.name = "default", .reorder = 1, .kernel = KILN_PR_KERNEL_AUTO, .set = 1, .ctx = gpu};
    const struct {
        const char *name;
        const kiln_graph *g;
        const pr_vectors *v;
    } runs[] = {{"plain", g, NULL}, {"weighted", gw, NULL}, {"personalized", g, &pers}, {"weighted+personalized+dangling", gw, &all}};
    for (int prec = KILN_PRECISION_FLOAT32; prec <= KILN_PRECISION_FLOAT64; prec++) {
        double plain = 0;
        for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
            if (!runs[i].g) continue;
            kiln_graph_info gi;
            kiln_graph_get_info(runs[i].g, &gi);
            kiln_pagerank_result res;
            kiln_status st;
            free(pr_run(NULL, &w, runs[i].g, (kiln_precision)prec, 0, 100, runs[i].v, 5, &res, &st));
            CHECK(st == KILN_OK, "bench %s: %s", runs[i].name, kiln_last_error(gpu));
            const double ms = res.seconds_per_iteration * 1e3;
            if (i == 0) plain = ms;
            printf("RMAT 20 (%llu edges) %s %s: %.4f ms/iteration (%.2fx plain)\n", (unsigned long long)gi.edges,
                   prec == KILN_PRECISION_FLOAT64 ? "float64" : "float32", runs[i].name, ms, plain > 0 ? ms / plain : 0.0);
        }
    }
    free(p);
    free(q);
    kiln_graph_free(gw);
    kiln_graph_free(g);
}

/* KILN_TEST_ONLY: way w alone on ego-Facebook (directed, undirected, and weighted with every
 * vector) and RMAT 12, both precisions, 3 iterations (racecheck is slow), against the CPU. */
static void test_only(const pr_way *w, kiln_ctx *cpu, kiln_pagerank_kernel want)
{
    kiln_graph *fd = NULL, *fu = NULL, *rm = NULL;
    CHECK(kiln_graph_load(cpu, test_data("facebook_combined.txt"), KILN_GRAPH_AUTO, 0, &fd) == KILN_OK, "load");
    CHECK(kiln_graph_load(cpu, test_data("facebook_combined.txt"), KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &fu) == KILN_OK,
          "load");
    CHECK(kiln_graph_rmat(cpu, 12, 16, 3, 0, &rm) == KILN_OK, "rmat");
    if (!fd || !fu || !rm) return;
    kiln_graph *wu = weighted_copy(cpu, fu, KILN_GRAPH_UNDIRECTED, 12);
    double *p = random_vector(4039, 7, 1), *q = random_vector(4039, 8, 1), *x0 = random_vector(4039, 9, 0);
    const pr_vectors all = {p, q, x0};
    const struct {
        const kiln_graph *g;
        const pr_vectors *v;
        const char *name;
    } runs[] = {{fd, NULL, "facebook"}, {fu, NULL, "facebook undirected"}, {wu, &all, "facebook weighted, every vector"}, {rm, NULL, "RMAT 12"}};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        if (!runs[i].g) continue;
        kiln_graph_info info;
        kiln_graph_get_info(runs[i].g, &info);
        kiln_pagerank_result rc, rg;
        kiln_status sc, sg;
        double *xc = pr_run(cpu, NULL, runs[i].g, KILN_PRECISION_AUTO, 0, 3, runs[i].v, 1, &rc, &sc);
        for (int prec = KILN_PRECISION_FLOAT32; prec <= KILN_PRECISION_FLOAT64; prec++) {
            double *xg = pr_run(NULL, w, runs[i].g, (kiln_precision)prec, 0, 3, runs[i].v, 1, &rg, &sg);
            const double d = l1(xc, xg, info.nodes);
            const double tol = prec == KILN_PRECISION_FLOAT32 ? 1e-5 : w->set > 1 ? 1e-12 : 1e-9;
            CHECK(sc == KILN_OK && sg == KILN_OK && rg.kernel == want && rg.iterations == 3 && d < tol,
                  "%s %s precision %d: status %d (%s), kernel %d, L1 %.3e", w->name, runs[i].name, prec, sg,
                  kiln_last_error(w->ctx), rg.kernel, d);
            free(xg);
        }
        free(xc);
    }
    free(p);
    free(q);
    free(x0);
    kiln_graph_free(wu);
    kiln_graph_free(fd);
    kiln_graph_free(fu);
    kiln_graph_free(rm);
}

int main(void)
{
    if (kiln_cuda_device_count() == 0) {
        printf("no CUDA GPU: skipped\n");
        return TEST_SKIP;
    }
    test_gpu g = {KILN_BACKEND_CUDA, "cuda", "cuda:0", kiln_ctx_new()};
    kiln_ctx *cpu = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(g.ctx, g.device) == KILN_OK, "cuda: %s", kiln_last_error(g.ctx));
    const char *only = getenv("KILN_TEST_ONLY");
    if (only && strcmp(only, "parts") == 0) {
        pr_way w = {.name = "parts of 3", .reorder = 1, .kernel = KILN_PR_KERNEL_AUTO, .set = 3};
        pr_way_open(&w, &g);
        test_only(&w, cpu, KILN_PR_KERNEL_PARTS);
        pr_way_close(&w, &g);
    } else if (only && strcmp(only, "persistent") == 0) {
        pr_way w = {.name = "persistent", .reorder = 1, .kernel = KILN_PR_KERNEL_PERSISTENT, .set = 1, .ctx = g.ctx};
        test_only(&w, cpu, KILN_PR_KERNEL_PERSISTENT);
    } else {
        test_build(g.ctx, cpu);
        test_kernel_choice(g.ctx);
        if (!test_quick()) bench_definition(g.ctx, cpu);
    }
    kiln_ctx_free(g.ctx);
    kiln_ctx_free(cpu);
    return check_summary();
}
