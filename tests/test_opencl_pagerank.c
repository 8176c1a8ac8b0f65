/* PageRank on the first OpenCL device (PoCL in CI) against external answers and the CPU reference:
 * ego-Facebook within 1e-5 (float32) and 1e-9 (float64) of NetworkX's converged column; hand
 * graphs with dangling nodes and self loops against their closed forms; skewed graphs (RMAT,
 * directed with dangling vertices and undirected, and a star whose hub has 2048+ in-edges, so
 * every kind of work-group runs) after a fixed count, OpenCL == CPU within 1e-5 L1 (float32) and
 * 1e-12 (float64); NetworkX's whole definition (random edge weights, personalization with zeros, a
 * dangling vector, nstart) on RMAT directed and undirected; the stopping rule (tol > 0) giving the
 * CPU's iteration count, also when it falls inside a batch of queued iterations; repeated runs.
 * The same device twice and three times as a set (row parts, the slices shared through the host),
 * with and without the relabelling asked for: the CPU's answer within the same bounds, NetworkX's
 * on ego-Facebook, the CPU's iteration count under the stopping rule.
 * Skipped (77) without an OpenCL device, unless KILN_REQUIRE_OPENCL is set. */
#include "check.h"
#include "graph_test_util.h"
#include "opencl_device.h"

typedef struct pr_vectors {
    const double *personalization, *dangling, *nstart;
} pr_vectors;

/* kiln_pagerank_options.reorder for every run (a set relabels its parts whatever it says) */
static int pr_reorder = 1;

static double *run_pr(kiln_ctx *ctx, const kiln_graph *g, kiln_precision prec, double tol, int iters,
                      const pr_vectors *v, int repeat, kiln_pagerank_result *res, kiln_status *st)
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
    o.reorder = pr_reorder;
    if (v) {
        o.personalization = v->personalization;
        o.dangling = v->dangling;
        o.nstart = v->nstart;
    }
    *st = kiln_pagerank(ctx, g, &o, x, res);
    return x;
}

/* OpenCL (float32 and float64) against the CPU after the same fixed count from the same start. */
static void compare_fixed(kiln_ctx *ocl, kiln_ctx *cpu, const kiln_graph *g, const char *name, const pr_vectors *v,
                          int iters)
{
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    kiln_pagerank_result rc, ro;
    kiln_status sc, so;
    double *xc = run_pr(cpu, g, KILN_PRECISION_AUTO, 0, iters, v, 1, &rc, &sc);
    CHECK(sc == KILN_OK && rc.iterations == iters, "%s: CPU status %d (%s)", name, sc, kiln_last_error(cpu));
    for (int prec = KILN_PRECISION_FLOAT32; prec <= KILN_PRECISION_FLOAT64; prec++) {
        double *xo = run_pr(ocl, g, (kiln_precision)prec, 0, iters, v, 1, &ro, &so);
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
        CHECK(so == KILN_OK && ro.iterations == iters && d < tol && (f64 || maxrel < 1e-3),
              "%s %s: status %d (%s), %d iterations, L1 OpenCL-CPU %.3e, max relative %.2e", name,
              f64 ? "float64" : "float32", so, kiln_last_error(ocl), ro.iterations, d, maxrel);
        if (!f64)
            printf("%s (%llu nodes, %llu edges): float32 L1 OpenCL-CPU %.2e, max rel %.2e, CPU re-check %.2e\n", name,
                   (unsigned long long)info.nodes, (unsigned long long)info.edges, d, maxrel, ro.verify_residual);
        free(xo);
    }
    free(xc);
}

static void test_facebook(kiln_ctx *ocl)
{
    static double conv[4039];
    CHECK(read_reference(test_data("facebook_combined.pagerank.txt"), 3, conv, 4039) == 4039, "reference");
    kiln_graph *g = NULL;
    CHECK(kiln_graph_load(ocl, test_data("facebook_combined.txt"), KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &g) ==
              KILN_OK,
          "load");
    if (!g) return;
    kiln_pagerank_result res;
    kiln_status st;
    double *x = run_pr(ocl, g, KILN_PRECISION_FLOAT32, 1e-11, 300, NULL, 1, &res, &st);
    double d = l1(x, conv, 4039);
    /* float32 may stall above N * tol (its rounding floor): KILN_NOT_FOUND is accepted when close */
    CHECK((st == KILN_OK || st == KILN_NOT_FOUND) && d < 1e-5, "facebook float32: status %d, L1 %.3e (%s)", st, d,
          kiln_last_error(ocl));
    printf("facebook float32: %d iterations, L1 to NetworkX %.3e\n", res.iterations, d);
    free(x);
    x = run_pr(ocl, g, KILN_PRECISION_FLOAT64, 1e-15, 1000, NULL, 1, &res, &st);
    d = l1(x, conv, 4039);
    CHECK(st == KILN_OK && d < 1e-9, "facebook float64: status %d, L1 %.3e (%s)", st, d, kiln_last_error(ocl));
    printf("facebook float64: %d iterations, L1 to NetworkX %.3e\n", res.iterations, d);
    free(x);
    kiln_graph_free(g);
}

static void test_hand(kiln_ctx *ocl)
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
        kiln_graph_load(ocl, write_tmp_str("h.txt", cases[i].text), KILN_GRAPH_AUTO, 0, &g);
        CHECK(g != NULL, "hand case %zu loads", i);
        if (!g) continue;
        for (int prec = KILN_PRECISION_FLOAT32; prec <= KILN_PRECISION_FLOAT64; prec++) {
            kiln_pagerank_result res;
            kiln_status st;
            double *x = run_pr(ocl, g, (kiln_precision)prec, 1e-14, 1000, NULL, 1, &res, &st);
            const double d = l1(x, cases[i].want, (uint64_t)cases[i].n);
            const double tol = prec == KILN_PRECISION_FLOAT64 ? 1e-12 : 1e-6;
            CHECK((st == KILN_OK || (st == KILN_NOT_FOUND && prec == KILN_PRECISION_FLOAT32)) && d < tol,
                  "hand case %zu precision %d: status %d (%s), L1 %.3e", i, prec, st, kiln_last_error(ocl), d);
            free(x);
        }
        kiln_graph_free(g);
    }
}

/* A star: every other vertex points at vertex 0 (one row of 2999 in-edges, a work-group of its
 * own), 0 points at 1, and a few chains make rows of every small class; vertices past 2999 have
 * no out-edges. */
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
    return g;
}

static void test_skewed(kiln_ctx *ocl, kiln_ctx *cpu)
{
    kiln_graph *s = star(cpu);
    if (s) {
        kiln_graph_info info;
        kiln_graph_get_info(s, &info);
        CHECK(info.max_in_degree >= 2048, "the star has a row of 2048+ in-edges (%llu)",
              (unsigned long long)info.max_in_degree);
        compare_fixed(ocl, cpu, s, "star", NULL, 30);
    }
    kiln_graph_free(s);
    for (int undirected = 0; undirected < 2; undirected++) {
        for (int scale = 10; scale <= 14; scale += 4) {
            kiln_graph *g = NULL;
            CHECK(kiln_graph_rmat(cpu, scale, 16, 1, undirected ? KILN_GRAPH_UNDIRECTED : 0, &g) == KILN_OK, "rmat");
            if (!g) continue;
            kiln_graph_info info;
            kiln_graph_get_info(g, &info);
            CHECK(undirected || info.dangling > 0, "RMAT %d directed has dangling vertices (%llu)", scale,
                  (unsigned long long)info.dangling);
            char name[64];
            snprintf(name, sizeof name, "RMAT %d %s", scale, undirected ? "undirected" : "directed");
            compare_fixed(ocl, cpu, g, name, NULL, 30);
            kiln_graph_free(g);
        }
    }
}

/* NetworkX's whole definition on RMAT 12, directed and undirected. */
static void test_definition(kiln_ctx *ocl, kiln_ctx *cpu)
{
    for (int undirected = 0; undirected < 2; undirected++) {
        const unsigned flags = undirected ? KILN_GRAPH_UNDIRECTED : 0;
        kiln_graph *g = NULL;
        CHECK(kiln_graph_rmat(cpu, 12, 16, 5, flags, &g) == KILN_OK, "rmat");
        if (!g) continue;
        kiln_graph *gw = weighted_copy(cpu, g, flags, 21 + (unsigned long long)undirected);
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        double *p = random_vector(info.nodes, 300, 1), *q = random_vector(info.nodes, 301, 1),
               *x0 = random_vector(info.nodes, 302, 0);
        const pr_vectors cases[] = {{p, NULL, NULL}, {p, q, NULL}, {NULL, q, NULL}, {NULL, NULL, x0}};
        const char *what[] = {"personalization", "personalization+dangling", "dangling", "nstart"};
        char name[128];
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            snprintf(name, sizeof name, "RMAT 12 %s %s", undirected ? "undirected" : "directed", what[i]);
            compare_fixed(ocl, cpu, g, name, &cases[i], 40);
        }
        if (gw) {
            kiln_graph_info wi;
            kiln_graph_get_info(gw, &wi);
            double *wp = random_vector(wi.nodes, 303, 1), *wq = random_vector(wi.nodes, 304, 1),
                   *wx = random_vector(wi.nodes, 305, 0);
            const pr_vectors all = {wp, wq, wx};
            snprintf(name, sizeof name, "RMAT 12 %s weighted", undirected ? "undirected" : "directed");
            compare_fixed(ocl, cpu, gw, name, NULL, 40);
            snprintf(name, sizeof name, "RMAT 12 %s weighted+all vectors", undirected ? "undirected" : "directed");
            compare_fixed(ocl, cpu, gw, name, &all, 40);
            /* converged under the stopping rule: the CPU's iteration count (float64), from the
             * device's own test, whichever place in a batch it falls */
            kiln_pagerank_result rc, ro;
            kiln_status sc, so;
            for (int t = 0; t < 3; t++) {
                const double tol = t == 0 ? 1e-10 : t == 1 ? 1e-6 : 1e-3;
                double *xc = run_pr(cpu, gw, KILN_PRECISION_AUTO, tol, 1000, &all, 1, &rc, &sc);
                double *xo = run_pr(ocl, gw, KILN_PRECISION_FLOAT64, tol, 1000, &all, 1, &ro, &so);
                const double d = l1(xc, xo, wi.nodes);
                CHECK(sc == KILN_OK && so == KILN_OK && rc.iterations == ro.iterations && ro.converged && d < 1e-9,
                      "%s tol %g: CPU %d iterations (status %d), OpenCL %d (status %d: %s), L1 %.3e", name, tol,
                      rc.iterations, sc, ro.iterations, so, kiln_last_error(ocl), d);
                free(xc);
                free(xo);
            }
            /* not converging within max_iter: KILN_NOT_FOUND with the count reached */
            double *xo = run_pr(ocl, gw, KILN_PRECISION_FLOAT64, 1e-14, 5, &all, 1, &ro, &so);
            CHECK(so == KILN_NOT_FOUND && ro.iterations == 5 && !ro.converged, "max_iter 5: status %d, %d iterations",
                  so, ro.iterations);
            free(xo);
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

/* Runs repeated from x0 give the ranks of one run (to rounding: on NVIDIA the work-groups' sums
 * meet in float64 atomics, whose order varies). */
static void test_repeat(kiln_ctx *ocl, kiln_ctx *cpu)
{
    kiln_graph *g = NULL;
    CHECK(kiln_graph_rmat(cpu, 11, 16, 2, 0, &g) == KILN_OK, "rmat");
    if (!g) return;
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    kiln_pagerank_result r1, r3;
    kiln_status s1, s3;
    double *x1 = run_pr(ocl, g, KILN_PRECISION_FLOAT32, 0, 40, NULL, 1, &r1, &s1);
    double *x3 = run_pr(ocl, g, KILN_PRECISION_FLOAT32, 0, 40, NULL, 3, &r3, &s3);
    CHECK(s1 == KILN_OK && s3 == KILN_OK && r1.iterations == 40 && r3.iterations == 40 && l1(x1, x3, info.nodes) < 1e-6,
          "repeat 3: status %d/%d, %d/%d iterations, L1 %.3e", s1, s3, r1.iterations, r3.iterations,
          l1(x1, x3, info.nodes));
    free(x1);
    free(x3);
    kiln_graph_free(g);
}

/* The device as a set of k logical devices ("opencl:0,0"): row parts, one a logical device. */
static void test_sets(kiln_ctx *cpu, int k)
{
    const char *dev = test_opencl_device(), *colon = strchr(dev, ':');
    const char *ord = colon ? colon + 1 : "0";
    char set[64];
    snprintf(set, sizeof set, "opencl:%s", ord);
    for (int i = 1; i < k; i++) snprintf(set + strlen(set), sizeof set - strlen(set), ",%s", ord);
    kiln_ctx *ocl = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ocl, set) == KILN_OK, "%s: %s", set, kiln_last_error(ocl));
    char name[160];
    test_hand(ocl); /* graphs of 2 and 3 vertices: parts without rows among them */
    for (int reorder = 0; reorder < 2; reorder++) {
        pr_reorder = reorder;
        kiln_graph *s = star(cpu);
        if (s) {
            snprintf(name, sizeof name, "%s star reorder %d", set, reorder);
            compare_fixed(ocl, cpu, s, name, NULL, 30);
        }
        kiln_graph_free(s);
        for (int undirected = 0; undirected < 2; undirected++) {
            const unsigned flags = undirected ? KILN_GRAPH_UNDIRECTED : 0;
            kiln_graph *g = NULL;
            CHECK(kiln_graph_rmat(cpu, 12, 16, 5, flags, &g) == KILN_OK, "rmat");
            if (!g) continue;
            kiln_graph *gw = weighted_copy(cpu, g, flags, 21 + (unsigned long long)undirected);
            kiln_graph_info info;
            kiln_graph_get_info(g, &info);
            const char *how = undirected ? "undirected" : "directed";
            snprintf(name, sizeof name, "%s RMAT 12 %s reorder %d", set, how, reorder);
            compare_fixed(ocl, cpu, g, name, NULL, 30);
            double *p = random_vector(info.nodes, 300, 1), *q = random_vector(info.nodes, 301, 1),
                   *x0 = random_vector(info.nodes, 302, 0);
            const pr_vectors vecs = {p, q, x0};
            snprintf(name, sizeof name, "%s RMAT 12 %s all vectors reorder %d", set, how, reorder);
            compare_fixed(ocl, cpu, g, name, &vecs, 40);
            if (gw) {
                kiln_graph_info wi;
                kiln_graph_get_info(gw, &wi);
                double *wp = random_vector(wi.nodes, 303, 1), *wq = random_vector(wi.nodes, 304, 1),
                       *wx = random_vector(wi.nodes, 305, 0);
                const pr_vectors all = {wp, wq, wx};
                snprintf(name, sizeof name, "%s RMAT 12 %s weighted+all vectors reorder %d", set, how, reorder);
                compare_fixed(ocl, cpu, gw, name, &all, 40);
                /* the stopping rule over the parts' summed change: the CPU's count */
                kiln_pagerank_result rc, ro;
                kiln_status sc, so;
                double *xc = run_pr(cpu, gw, KILN_PRECISION_AUTO, 1e-9, 1000, &all, 1, &rc, &sc);
                double *xo = run_pr(ocl, gw, KILN_PRECISION_FLOAT64, 1e-9, 1000, &all, 1, &ro, &so);
                const double d = l1(xc, xo, wi.nodes);
                CHECK(sc == KILN_OK && so == KILN_OK && rc.iterations == ro.iterations && ro.converged && d < 1e-9 &&
                          ro.kernel == KILN_PR_KERNEL_PARTS && ro.parts == k,
                      "%s tol 1e-9: CPU %d iterations (status %d), OpenCL %d (status %d: %s), L1 %.3e, kernel %d, "
                      "%d parts",
                      name, rc.iterations, sc, ro.iterations, so, kiln_last_error(ocl), d, (int)ro.kernel, ro.parts);
                free(xc);
                free(xo);
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
    pr_reorder = 1;
    /* ego-Facebook converged, against NetworkX's column */
    static double conv[4039];
    CHECK(read_reference(test_data("facebook_combined.pagerank.txt"), 3, conv, 4039) == 4039, "reference");
    kiln_graph *g = NULL;
    CHECK(kiln_graph_load(cpu, test_data("facebook_combined.txt"), KILN_GRAPH_AUTO, KILN_GRAPH_UNDIRECTED, &g) ==
              KILN_OK,
          "load");
    if (g) {
        kiln_pagerank_result res;
        kiln_status st;
        double *x = run_pr(ocl, g, KILN_PRECISION_FLOAT64, 1e-15, 1000, NULL, 1, &res, &st);
        double d = l1(x, conv, 4039);
        CHECK(st == KILN_OK && d < 1e-9, "%s facebook float64: status %d, L1 %.3e (%s)", set, st, d,
              kiln_last_error(ocl));
        printf("%s facebook float64: %d iterations, L1 to NetworkX %.3e\n", set, res.iterations, d);
        free(x);
        x = run_pr(ocl, g, KILN_PRECISION_FLOAT32, 1e-11, 300, NULL, 1, &res, &st);
        d = l1(x, conv, 4039);
        CHECK((st == KILN_OK || st == KILN_NOT_FOUND) && d < 1e-5, "%s facebook float32: status %d, L1 %.3e (%s)", set,
              st, d, kiln_last_error(ocl));
        free(x);
    }
    kiln_graph_free(g);
    kiln_ctx_free(ocl);
}

int main(void)
{
    int missing = test_opencl_missing();
    if (missing) return missing;
    kiln_ctx *ocl = kiln_ctx_new(), *cpu = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ocl, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(),
          kiln_last_error(ocl));
    test_hand(ocl);
    test_skewed(ocl, cpu);
    test_definition(ocl, cpu);
    test_repeat(ocl, cpu);
    test_facebook(ocl);
    test_sets(cpu, 2);
    test_sets(cpu, 3);
    kiln_ctx_free(ocl);
    kiln_ctx_free(cpu);
    tmp_cleanup();
    return check_summary();
}
