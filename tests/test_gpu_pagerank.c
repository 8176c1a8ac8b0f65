/* PageRank on every GPU backend of the build (CUDA, OpenCL: gpu_backends.h) against external
 * answers and the CPU reference, through every way the backend runs it (pagerank_ways.h: the
 * vertex order kept or relabelled, each kernel asked for, the device as a set of 2 and 3 logical
 * devices holding row parts, with and without the relabelling asked for):
 * - ego-Facebook within 1e-5 (float32) and 1e-9 (float64) of NetworkX's converged column; under
 *   the stopping rule (float64, tol 1e-8) the CPU's iteration count and ranks within 1e-12; 1000
 *   fixed iterations (timed, printed);
 * - hand graphs with dangling nodes and self loops against their closed forms;
 * - skewed graphs after a fixed count, device == CPU within 1e-5 L1 and a relative bound (float32)
 *   and 1e-12 (float64): RMAT directed (with dangling vertices) and undirected, and a star whose hub
 *   has 2048+ in-edges (every kind of group runs);
 * - NetworkX's whole definition (random edge weights, personalization with zeros, a dangling
 *   vector, nstart), directed and undirected, within 1e-5 (float32) and 1e-9 (float64) L1 of the
 *   CPU; converged under the stopping rule at three tolerances: the CPU's iteration count, also
 *   where it falls inside a batch of queued iterations; not converging within max_iter:
 *   KILN_NOT_FOUND with the count reached;
 * - repeated runs from x0 give the ranks of one run.
 * CUDA runs RMAT 14 to 18 and the definition on ego-Facebook and RMAT 16 (RMAT 14 under
 * KILN_TEST_SMALL); OpenCL (PoCL on a CPU in CI) RMAT 10 to 14 and the definition on RMAT 12. The
 * kernel choice and the timings are test_cuda_pagerank_kernels', the device CSR builds test_gpu_graph_build's. */
#include "check.h"
#include "gpu_backends.h"
#include "graph_test_util.h"
#include "pagerank_ways.h"

/* ego-Facebook, undirected: NetworkX's converged column (tests/data) */
static double fb_conv[4039];

static void hand(const pr_way *w)
{
    const double a = 0.5 / 1.425;
    struct {
        const char *text;
        int n;
        double want[3];
    } cases[] = {
        {"0 1\n", 2, {a, 1 - a}}, /* 1 dangles */
        {"0 0\n0 1\n1 0\n", 2, {1 - a, a}}, /* a self loop */
        {"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n", 3, {1 / 3.85, 1.85 / 3.85, 1 / 3.85}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_graph *g = NULL;
        kiln_graph_load(w->ctx, write_tmp_str("h.txt", cases[i].text), KILN_GRAPH_AUTO, 0, &g);
        CHECK(g != NULL, "hand case %zu loads", i);
        if (!g) continue;
        for (int prec = KILN_PRECISION_FLOAT32; prec <= KILN_PRECISION_FLOAT64; prec++) {
            kiln_pagerank_result res;
            kiln_status st;
            double *x = pr_run(NULL, w, g, (kiln_precision)prec, 1e-14, 1000, NULL, 1, &res, &st);
            const double d = l1(x, cases[i].want, (uint64_t)cases[i].n);
            const double tol = prec == KILN_PRECISION_FLOAT64 ? 1e-12 : 1e-6;
            CHECK((st == KILN_OK || (st == KILN_NOT_FOUND && prec == KILN_PRECISION_FLOAT32)) && d < tol,
                  "%s hand case %zu precision %d: status %d (%s), L1 %.3e", w->name, i, prec, st,
                  kiln_last_error(w->ctx), d);
            free(x);
        }
        kiln_graph_free(g);
    }
}

/* Device (float32 and float64) against the CPU after the same fixed count from the same start;
 * float32 also within maxrel of each CPU rank. */
static void compare_fixed(const pr_way *w, kiln_ctx *cpu, const kiln_graph *g, const char *name, const pr_vectors *v,
                          int iters, double maxrel_bound)
{
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    kiln_pagerank_result rc, ro;
    kiln_status sc, so;
    double *xc = pr_run(cpu, NULL, g, KILN_PRECISION_AUTO, 0, iters, v, 1, &rc, &sc);
    CHECK(sc == KILN_OK && rc.iterations == iters, "%s: CPU status %d (%s)", name, sc, kiln_last_error(cpu));
    for (int prec = KILN_PRECISION_FLOAT32; prec <= KILN_PRECISION_FLOAT64; prec++) {
        double *xo = pr_run(NULL, w, g, (kiln_precision)prec, 0, iters, v, 1, &ro, &so);
        const double d = l1(xc, xo, info.nodes);
        double maxrel = 0;
        for (uint64_t i = 0; i < info.nodes; i++) {
            const double r = xc[i] > 0 ? fabs(xo[i] - xc[i]) / xc[i] : fabs(xo[i]);
            if (r > maxrel) maxrel = r;
        }
        const int f64 = prec == KILN_PRECISION_FLOAT64;
        /* the float64 bound is looser with vectors and weights: they are normalized and divided
         * in another order than the CPU's */
        const double tol = f64 ? (v || kiln_graph_edge_weights(g) ? 1e-9 : 1e-12) : 1e-5;
        CHECK(so == KILN_OK && ro.iterations == iters && d < tol && (f64 || maxrel < maxrel_bound),
              "%s %s %s: status %d (%s), %d iterations, L1 device-CPU %.3e, max relative %.2e", name, w->name,
              f64 ? "float64" : "float32", so, kiln_last_error(w->ctx), ro.iterations, d, maxrel);
        if (!f64)
            printf("%s %s (%llu nodes, %llu edges): float32 L1 device-CPU %.2e, max rel %.2e, CPU re-check %.2e\n", name,
                   w->name, (unsigned long long)info.nodes, (unsigned long long)info.edges, d, maxrel,
                   ro.verify_residual);
        free(xo);
    }
    free(xc);
}

/* Under the stopping rule (float64): the CPU's iteration count and ranks within l1max. */
static void converged(const pr_way *w, kiln_ctx *cpu, const kiln_graph *g, const char *name, const pr_vectors *v,
                      double tol, double l1max)
{
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    kiln_pagerank_result rc, ro;
    kiln_status sc, so;
    double *xc = pr_run(cpu, NULL, g, KILN_PRECISION_AUTO, tol, 1000, v, 1, &rc, &sc);
    double *xo = pr_run(NULL, w, g, KILN_PRECISION_FLOAT64, tol, 1000, v, 1, &ro, &so);
    const double d = l1(xc, xo, info.nodes);
    CHECK(sc == KILN_OK && so == KILN_OK && rc.iterations == ro.iterations && ro.converged && d < l1max,
          "%s %s tol %g: CPU %d iterations (status %d), device %d (status %d: %s), L1 %.3e", name, w->name, tol,
          rc.iterations, sc, ro.iterations, so, kiln_last_error(w->ctx), d);
    free(xc);
    free(xo);
}

static void facebook(const pr_way *w, kiln_ctx *cpu)
{
    kiln_graph *g = NULL;
    CHECK(kiln_graph_load(w->ctx, test_data("facebook_combined.txt"), KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &g) ==
              KILN_OK,
          "load: %s", kiln_last_error(w->ctx));
    if (!g) return;
    kiln_pagerank_result res;
    kiln_status st;
    double *x = pr_run(NULL, w, g, KILN_PRECISION_FLOAT32, 1e-11, 300, NULL, 1, &res, &st);
    double d = l1(x, fb_conv, 4039);
    /* N * tol = 4e-8 leaves the result ~2e-7 from the fixed point; float32 may stall above it
     * (its rounding floor), so KILN_NOT_FOUND is accepted as long as the ranks are close */
    CHECK((st == KILN_OK || st == KILN_NOT_FOUND) && d < 1e-5, "facebook float32 %s: status %d, L1 %.3e (%s)", w->name,
          st, d, kiln_last_error(w->ctx));
    printf("facebook float32 %s: %d iterations, L1 to NetworkX %.3e, CPU re-check %.2e\n", w->name, res.iterations, d,
           res.verify_residual);
    free(x);
    x = pr_run(NULL, w, g, KILN_PRECISION_FLOAT64, 1e-15, 1000, NULL, 1, &res, &st);
    d = l1(x, fb_conv, 4039);
    CHECK(st == KILN_OK && d < 1e-9, "facebook float64 %s: status %d, L1 %.3e (%s)", w->name, st, d,
          kiln_last_error(w->ctx));
    printf("facebook float64 %s: %d iterations, L1 to NetworkX %.3e\n", w->name, res.iterations, d);
    free(x);
    converged(w, cpu, g, "facebook", NULL, 1e-8, 1e-12);
    /* 1000 fixed iterations, timed */
    x = pr_run(NULL, w, g, KILN_PRECISION_FLOAT32, 0, 1000, NULL, 1, &res, &st);
    CHECK(st == KILN_OK && res.iterations == 1000 && l1(x, fb_conv, 4039) < 1e-5, "1000 iterations %s: status %d",
          w->name, st);
    printf("facebook 1000 iterations float32 %s: %.3f ms\n", w->name, res.seconds * 1e3);
    free(x);
    kiln_graph_free(g);
}

/* A star: every other vertex points at vertex 0 (one row of 2999 in-edges, a group of its own),
 * 0 points at 1, and a few chains make rows of every small class; vertices past 2999 have no
 * out-edges. */
static kiln_graph *star(kiln_ctx *cpu)
{
    const uint64_t n = 3000, cap = 4 * n;
    uint64_t *u = malloc(cap * sizeof *u), *v = malloc(cap * sizeof *v), m = 0;
    for (uint64_t i = 1; i < n; i++) u[m] = i, v[m++] = 0;
    u[m] = 0, v[m++] = 1;
    for (uint64_t i = 2; i < 2000; i++) u[m] = i, v[m++] = 1 + i % 97; /* rows of ~20 in-edges */
    for (uint64_t i = 2; i < 1000; i++) u[m] = i, v[m++] = n + i % 5; /* 5 rows of ~200, their heads dangle */
    kiln_graph *g = NULL;
    CHECK(kiln_graph_from_edges(cpu, u, v, m, 0, &g) == KILN_OK && g, "star: %s", kiln_last_error(cpu));
    free(u);
    free(v);
    if (g) {
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        CHECK(info.max_in_degree >= 2048, "the star has a row of 2048+ in-edges (%llu)",
              (unsigned long long)info.max_in_degree);
    }
    return g;
}

/* The star and RMAT graphs of the given scales (seed 1), directed and, when asked, undirected. */
static void skewed(const pr_way *w, kiln_ctx *cpu, const int *scales, int nscales, int undirected_too, double maxrel)
{
    kiln_graph *s = star(cpu);
    if (s) compare_fixed(w, cpu, s, "star", NULL, 30, 1e-3);
    kiln_graph_free(s);
    for (int undirected = 0; undirected <= undirected_too; undirected++) {
        for (int i = 0; i < nscales; i++) {
            kiln_graph *g = NULL;
            CHECK(kiln_graph_rmat(cpu, scales[i], 16, 1, undirected ? KILN_GRAPH_UNDIRECTED : 0, &g) == KILN_OK, "rmat");
            if (!g) continue;
            kiln_graph_info info;
            kiln_graph_get_info(g, &info);
            CHECK(undirected || info.dangling > 0, "RMAT %d directed has dangling vertices (%llu)", scales[i],
                  (unsigned long long)info.dangling);
            char name[64];
            snprintf(name, sizeof name, "RMAT %d %s", scales[i], undirected ? "undirected" : "directed");
            compare_fixed(w, cpu, g, name, NULL, 30, maxrel);
            kiln_graph_free(g);
        }
    }
}

/* One graph and its weighted copy through every kind of vector: personalization with zeros
 * (dangling rank follows it), personalization and a dangling vector, a dangling vector alone
 * (uniform teleport), nstart alone, weights alone and weights with all three; then converged with
 * all three at three tolerances, and not converging within max_iter. */
static void definition_on(const pr_way *w, kiln_ctx *cpu, const kiln_graph *g, const kiln_graph *gw, const char *name,
                          unsigned long long seed)
{
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    double *p = random_vector(info.nodes, seed, 1), *q = random_vector(info.nodes, seed + 1, 1),
           *x0 = random_vector(info.nodes, seed + 2, 0);
    const pr_vectors cases[] = {{p, NULL, NULL}, {p, q, NULL}, {NULL, q, NULL}, {NULL, NULL, x0}};
    const char *what[] = {"personalization", "personalization+dangling", "dangling", "nstart"};
    char label[160];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(label, sizeof label, "%s %s", name, what[i]);
        compare_fixed(w, cpu, g, label, &cases[i], 40, 1e-3);
    }
    free(p);
    free(q);
    free(x0);
    if (!gw) return;
    kiln_graph_get_info(gw, &info);
    p = random_vector(info.nodes, seed + 3, 1);
    q = random_vector(info.nodes, seed + 4, 1);
    x0 = random_vector(info.nodes, seed + 5, 0);
    const pr_vectors all = {p, q, x0};
    snprintf(label, sizeof label, "%s weighted", name);
    compare_fixed(w, cpu, gw, label, NULL, 40, 1e-3);
    snprintf(label, sizeof label, "%s weighted+personalization+dangling+nstart", name);
    compare_fixed(w, cpu, gw, label, &all, 40, 1e-3);
    /* from the device's own test, whichever place in a batch of queued iterations it falls */
    static const double tols[] = {1e-10, 1e-6, 1e-3};
    for (size_t t = 0; t < sizeof tols / sizeof tols[0]; t++) converged(w, cpu, gw, label, &all, tols[t], 1e-9);
    kiln_pagerank_result ro;
    kiln_status so;
    double *xo = pr_run(NULL, w, gw, KILN_PRECISION_FLOAT64, 1e-14, 5, &all, 1, &ro, &so);
    CHECK(so == KILN_NOT_FOUND && ro.iterations == 5 && !ro.converged, "%s %s max_iter 5: status %d, %d iterations",
          label, w->name, so, ro.iterations);
    free(xo);
    free(p);
    free(q);
    free(x0);
}

/* The definition on a graph loaded from a file (facebook) or an RMAT of `scale` (seed 5),
 * directed and undirected. */
static void definition(const pr_way *w, kiln_ctx *cpu, int scale, unsigned long long seed)
{
    for (int undirected = 0; undirected < 2; undirected++) {
        const unsigned flags = undirected ? KILN_GRAPH_UNDIRECTED : 0;
        kiln_graph *g = NULL;
        char name[64];
        if (scale) {
            CHECK(kiln_graph_rmat(cpu, scale, 16, 5, flags, &g) == KILN_OK, "rmat");
            snprintf(name, sizeof name, "RMAT %d %s", scale, undirected ? "undirected" : "directed");
        } else { /* ego-Facebook as listed: each edge once, so directed it has many dangling vertices */
            CHECK(kiln_graph_load(cpu, test_data("facebook_combined.txt"), KILN_GRAPH_AUTO, flags, &g) == KILN_OK, "load");
            snprintf(name, sizeof name, "facebook %s", undirected ? "undirected" : "directed");
        }
        if (!g) continue;
        kiln_graph *gw = weighted_copy(cpu, g, flags, 21 + (unsigned long long)undirected);
        definition_on(w, cpu, g, gw, name, seed + 100 * (unsigned long long)undirected);
        kiln_graph_free(gw);
        kiln_graph_free(g);
    }
}

/* Runs repeated from x0 give the ranks of one run (to rounding: the groups' sums may meet in
 * float64 atomics, whose order varies). */
static void repeat(const pr_way *w, kiln_ctx *cpu)
{
    kiln_graph *g = NULL;
    CHECK(kiln_graph_rmat(cpu, 11, 16, 2, 0, &g) == KILN_OK, "rmat");
    if (!g) return;
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    kiln_pagerank_result r1, r3;
    kiln_status s1, s3;
    double *x1 = pr_run(NULL, w, g, KILN_PRECISION_FLOAT32, 0, 40, NULL, 1, &r1, &s1);
    double *x3 = pr_run(NULL, w, g, KILN_PRECISION_FLOAT32, 0, 40, NULL, 3, &r3, &s3);
    CHECK(s1 == KILN_OK && s3 == KILN_OK && r1.iterations == 40 && r3.iterations == 40 && l1(x1, x3, info.nodes) < 1e-6,
          "%s repeat 3: status %d/%d, %d/%d iterations, L1 %.3e", w->name, s1, s3, r1.iterations, r3.iterations,
          l1(x1, x3, info.nodes));
    free(x1);
    free(x3);
    kiln_graph_free(g);
}

/* A set's own cases (the device 2 and 3 times, the relabelling asked for and not): parts without
 * rows among them (the hand graphs), the star, RMAT 12 plain, with every vector, and weighted with
 * every vector, converged over the parts' summed change; ego-Facebook converged. */
static void set_cases(const pr_way *w, kiln_ctx *cpu)
{
    kiln_graph *s = star(cpu);
    if (s) compare_fixed(w, cpu, s, "star", NULL, 30, 1e-3);
    kiln_graph_free(s);
    for (int undirected = 0; undirected < 2; undirected++) {
        const unsigned flags = undirected ? KILN_GRAPH_UNDIRECTED : 0;
        kiln_graph *g = NULL;
        CHECK(kiln_graph_rmat(cpu, 12, 16, 5, flags, &g) == KILN_OK, "rmat");
        if (!g) continue;
        kiln_graph *gw = weighted_copy(cpu, g, flags, 21 + (unsigned long long)undirected);
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        char name[96];
        const char *how = undirected ? "undirected" : "directed";
        snprintf(name, sizeof name, "RMAT 12 %s", how);
        compare_fixed(w, cpu, g, name, NULL, 30, 1e-3);
        double *p = random_vector(info.nodes, 300, 1), *q = random_vector(info.nodes, 301, 1),
               *x0 = random_vector(info.nodes, 302, 0);
        const pr_vectors vecs = {p, q, x0};
        snprintf(name, sizeof name, "RMAT 12 %s all vectors", how);
        compare_fixed(w, cpu, g, name, &vecs, 40, 1e-3);
        if (gw) {
            kiln_graph_get_info(gw, &info);
            double *wp = random_vector(info.nodes, 303, 1), *wq = random_vector(info.nodes, 304, 1),
                   *wx = random_vector(info.nodes, 305, 0);
            const pr_vectors all = {wp, wq, wx};
            snprintf(name, sizeof name, "RMAT 12 %s weighted+all vectors", how);
            compare_fixed(w, cpu, gw, name, &all, 40, 1e-3);
            converged(w, cpu, gw, name, &all, 1e-9, 1e-9);
            free(wp);
            free(wq);
            free(wx);
        }
        free(p);
        free(q);
        free(x0);
        kiln_graph_free(gw);
        kiln_graph_free(g);
    }
}

static void run_way(const test_gpu *g, pr_way *w, kiln_ctx *cpu, int small)
{
    pr_way_open(w, g);
    printf("-- %s, %s\n", g->device, w->name);
    hand(w);
    if (g->backend == KILN_BACKEND_CUDA) {
        static const int scales[] = {14, 16, 18};
        skewed(w, cpu, scales, small ? 1 : 3, 0, 1e-4);
        definition(w, cpu, 0, 100); /* ego-Facebook */
        definition(w, cpu, small ? 14 : 16, 300); /* a few rows of 2048+ in-edges (a block each) */
    } else {
        static const int scales[] = {10, 14};
        skewed(w, cpu, scales, 2, 1, 1e-3);
        definition(w, cpu, 12, 300);
    }
    repeat(w, cpu);
    facebook(w, cpu);
    pr_way_close(w, g);
}

static void run(const test_gpu *g, kiln_ctx *cpu)
{
    const int small = test_quick();
    /* CUDA: the vertex order kept (grid kernel over an index list), relabelled with the grid kernel
     * (a launch an iteration), with the persistent kernel where it fits (else the default), and
     * three logical devices of GPU 0 (rows split, slices exchanged every pass). OpenCL: the
     * default; its sets below. */
    pr_way cuda_ways[] = {{.name = "no-reorder", .reorder = 0, .kernel = KILN_PR_KERNEL_AUTO, .set = 1},
                          {.name = "grid", .reorder = 1, .kernel = KILN_PR_KERNEL_GRID, .set = 1},
                          {.name = "persistent", .reorder = 1, .kernel = KILN_PR_KERNEL_PERSISTENT, .set = 1},
                          {.name = "parts of 3", .reorder = 1, .kernel = KILN_PR_KERNEL_AUTO, .set = 3}};
    pr_way ocl_ways[] = {{.name = "default", .reorder = 1, .kernel = KILN_PR_KERNEL_AUTO, .set = 1}};
    const int cuda = g->backend == KILN_BACKEND_CUDA;
    if (!cuda) { /* PageRank on device memory is CUDA's (test_cuda_device_memory): refused in one line */
        kiln_graph *tiny = NULL;
        kiln_pagerank_plan *plan = NULL;
        CHECK(kiln_graph_rmat(cpu, 4, 4, 1, 0, &tiny) == KILN_OK, "RMAT 4: %s", kiln_last_error(cpu));
        CHECK(kiln_pagerank_plan_new(g->ctx, tiny, NULL, &plan) == KILN_ERR_DEVICE && !plan &&
                  strstr(kiln_last_error(g->ctx), "vectors in device memory"),
              "%s: a device-memory plan: %s", g->device, kiln_last_error(g->ctx));
        kiln_graph_free(tiny);
    }
    pr_way *ways = cuda ? cuda_ways : ocl_ways;
    const int nways = cuda ? 4 : 1;
    for (int i = 0; i < nways; i++) run_way(g, &ways[i], cpu, small);
    for (int k = 2; k <= 3; k++) {
        for (int reorder = 0; reorder < 2; reorder++) {
            char name[48];
            snprintf(name, sizeof name, "set of %d, reorder %d", k, reorder);
            pr_way w = {.name = name, .reorder = reorder, .kernel = KILN_PR_KERNEL_AUTO, .set = k};
            pr_way_open(&w, g);
            printf("-- %s, %s\n", g->device, name);
            if (reorder) hand(&w);
            set_cases(&w, cpu);
            if (reorder) facebook(&w, cpu);
            pr_way_close(&w, g);
        }
    }
}

int main(void)
{
    CHECK(read_reference(test_data("facebook_combined.pagerank.txt"), 3, fb_conv, 4039) == 4039, "reference");
    const int rc = test_gpu_each(run);
    tmp_cleanup();
    return rc;
}
