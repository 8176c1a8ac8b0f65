/* PageRank's whole NetworkX definition on the CPU (float64) against NetworkX itself: edge weights,
 * personalization, dangling and nstart vectors, directed and undirected, on the hand-made
 * tests/data/pr_small.txt and on SNAP ego-Facebook with seeded random weights and vectors. The
 * expected values are NetworkX's, written by tests/data/tools/pagerank_networkx.py (tol 1e-12;
 * kiln runs with the same tol and stopping rule, so both stop at the same iterate). Also the
 * library's checks of the vectors. */
#include "check.h"
#include "graph_test_util.h"

#define TOL 1e-12
#define MAX_ITER 100000

/* ---- edge lists and vectors as the script reads them */

typedef struct edge_list {
    uint64_t *src, *dst;
    double *w;
    size_t count;
} edge_list;

/* "src dst [weight]" lines, '#' comments; 0 or -1. */
static int read_edges(const char *path, edge_list *e)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t cap = 1024;
    e->src = malloc(cap * sizeof *e->src);
    e->dst = malloc(cap * sizeof *e->dst);
    e->w = malloc(cap * sizeof *e->w);
    e->count = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        unsigned long long u, v;
        double w = 1;
        if (line[0] == '#' || sscanf(line, "%llu %llu %lf", &u, &v, &w) < 2) continue;
        if (e->count == cap) {
            cap *= 2;
            e->src = realloc(e->src, cap * sizeof *e->src);
            e->dst = realloc(e->dst, cap * sizeof *e->dst);
            e->w = realloc(e->w, cap * sizeof *e->w);
        }
        e->src[e->count] = u;
        e->dst[e->count] = v;
        e->w[e->count++] = w;
    }
    fclose(f);
    return 0;
}

static void edges_free(edge_list *e)
{
    free(e->src);
    free(e->dst);
    free(e->w);
}

static uint64_t nodes_of(const kiln_graph *g)
{
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    return info.nodes;
}

/* A "node value" file over g's vertices (unlisted nodes 0), NOT normalized: the library does it. */
static double *read_vector(const kiln_graph *g, const char *path)
{
    uint64_t n = nodes_of(g);
    double *x = calloc(n, sizeof *x);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "open %s", path);
    if (!f) return x;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        unsigned long long id;
        double v;
        uint64_t i;
        if (line[0] == '#' || sscanf(line, "%llu %lf", &id, &v) != 2) continue;
        CHECK(kiln_graph_find_node(g, id, &i) == KILN_OK, "%s: node %llu", path, id);
        if (i < n) x[i] = v;
    }
    fclose(f);
    return x;
}

/* Ranks of g with the given vectors (NULL: default) and damping; KILN_OK expected. */
static double *rank(kiln_ctx *ctx, const kiln_graph *g, double damping, const double *p, const double *q,
                    const double *x0, const char *what)
{
    double *x = malloc(nodes_of(g) * sizeof *x);
    kiln_pagerank_options o;
    kiln_pagerank_options_init(&o);
    o.damping = damping;
    o.tol = TOL;
    o.max_iter = MAX_ITER;
    o.personalization = p;
    o.dangling = q;
    o.nstart = x0;
    kiln_pagerank_result res;
    kiln_status st = kiln_pagerank(ctx, g, &o, x, &res);
    CHECK(st == KILN_OK && res.converged, "%s: status %d: %s", what, st, kiln_last_error(ctx));
    return x;
}

/* ---- the hand-made graph */

/* Column col (1 = first case) of pr_small.networkx.txt over g's vertices; the count of rows read. */
static uint64_t small_expected(const kiln_graph *g, int col, double *out)
{
    FILE *f = fopen(test_data("pr_small.networkx.txt"), "r");
    if (!f) return 0;
    char line[1024];
    uint64_t rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        char *p = line, *end;
        unsigned long long id = strtoull(p, &end, 10);
        double v = 0;
        for (int c = 0; c < col; c++) v = strtod(p = end, &end);
        uint64_t i;
        if (end != p && kiln_graph_find_node(g, id, &i) == KILN_OK) {
            out[i] = v;
            rows++;
        }
    }
    fclose(f);
    return rows;
}

static void check_small(kiln_ctx *ctx, const kiln_graph *g, int col, const char *name, double damping, int p, int q,
                        int x0)
{
    if (!g) return;
    uint64_t n = nodes_of(g);
    double *want = calloc(n, sizeof *want);
    CHECK(small_expected(g, col, want) == n && n == 9, "%s: %llu expected rows", name, (unsigned long long)n);
    double *pv = p ? read_vector(g, test_data("pr_small.personalization.txt")) : NULL;
    double *qv = q ? read_vector(g, test_data("pr_small.dangling.txt")) : NULL;
    double *xv = x0 ? read_vector(g, test_data("pr_small.nstart.txt")) : NULL;
    double *x = rank(ctx, g, damping, pv, qv, xv, name);
    double d = l1(x, want, n);
    CHECK(d < 1e-9, "pr_small %s: L1 to NetworkX %.3e", name, d);
    printf("pr_small %-14s L1 to NetworkX %.3e\n", name, d);
    free(x);
    free(pv);
    free(qv);
    free(xv);
    free(want);
}

static void test_small(kiln_ctx *ctx)
{
    edge_list e;
    CHECK(read_edges(test_data("pr_small.txt"), &e) == 0 && e.count == 17, "pr_small.txt");
    kiln_graph *plain = NULL, *weighted = NULL, *undirected = NULL, *loaded = NULL;
    CHECK(kiln_graph_from_edges(ctx, e.src, e.dst, e.count, 0, &plain) == KILN_OK, "unweighted: %s",
          kiln_last_error(ctx));
    CHECK(kiln_graph_from_weighted_edges(ctx, e.src, e.dst, e.w, e.count, 0, &weighted) == KILN_OK, "weighted: %s",
          kiln_last_error(ctx));
    CHECK(kiln_graph_from_weighted_edges(ctx, e.src, e.dst, e.w, e.count, KILN_GRAPH_UNDIRECTED, &undirected) ==
              KILN_OK,
          "weighted undirected: %s", kiln_last_error(ctx));
    CHECK(kiln_graph_load(ctx, test_data("pr_small.txt"), KILN_GRAPH_AUTO, KILN_GRAPH_WEIGHTED, &loaded) == KILN_OK,
          "load weighted: %s", kiln_last_error(ctx));
    /* columns of pr_small.networkx.txt: plain weighted weighted_pdn pd_a06 undirected_wp nstart */
    check_small(ctx, plain, 1, "plain", 0.85, 0, 0, 0);
    check_small(ctx, weighted, 2, "weighted", 0.85, 0, 0, 0);
    check_small(ctx, loaded, 2, "weighted(file)", 0.85, 0, 0, 0);
    check_small(ctx, weighted, 3, "weighted_pdn", 0.85, 1, 1, 1);
    check_small(ctx, loaded, 3, "weighted_pdn(file)", 0.85, 1, 1, 1);
    check_small(ctx, plain, 4, "pd_a06", 0.6, 1, 1, 0);
    check_small(ctx, undirected, 5, "undirected_wp", 0.85, 1, 0, 0);
    check_small(ctx, plain, 6, "nstart", 0.85, 0, 0, 1);
    kiln_graph_free(plain);
    kiln_graph_free(weighted);
    kiln_graph_free(undirected);
    kiln_graph_free(loaded);
    edges_free(&e);
}

/* ---- ego-Facebook with the script's splitmix64 weights and vectors */

static uint64_t splitmix64(uint64_t x)
{
    uint64_t z = x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double fb_weight(uint64_t i) { return (double)((splitmix64(0x5EED0000ull + i) >> 11) + 1) * 0x1p-53; }

/* The script's FB_VECTORS: personalization, dangling, nstart. */
static const uint64_t fb_seed[3] = {0x9E510000ull, 0xDA460000ull, 0x57A40000ull}, fb_zero_every[3] = {4, 3, 5};

static double *fb_vector(const kiln_graph *g, int which)
{
    uint64_t n = nodes_of(g);
    double *x = malloc(n * sizeof *x);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t z = splitmix64(fb_seed[which] + kiln_graph_node_id(g, i));
        x[i] = z % fb_zero_every[which] == 0 ? 0.0 : (double)(z >> 11) * 0x1p-53;
    }
    return x;
}

/* Compares x with the case's lines of facebook_vectors.networkx.txt. */
static void check_facebook(const kiln_graph *g, const double *x, const char *name)
{
    FILE *f = fopen(test_data("facebook_vectors.networkx.txt"), "r");
    CHECK(f != NULL, "facebook_vectors.networkx.txt");
    if (!f) return;
    char line[256], c[64], key[64];
    double v, top_l1 = 0, sum = -1, checksum = -1;
    int top = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%63s %63s %lf", c, key, &v) != 3 || strcmp(c, name) != 0) continue;
        if (strcmp(key, "sum") == 0) {
            sum = v;
        } else if (strcmp(key, "checksum") == 0) {
            checksum = v;
        } else {
            uint64_t i;
            CHECK(kiln_graph_find_node(g, strtoull(key, NULL, 10), &i) == KILN_OK, "%s: node %s", name, key);
            top_l1 += fabs(x[i] - v);
            top++;
        }
    }
    fclose(f);
    double s = 0, cs = 0;
    uint64_t n = nodes_of(g);
    for (uint64_t i = 0; i < n; i++) {
        s += x[i];
        cs += x[i] * (double)((kiln_graph_node_id(g, i) % 100) + 1) / 100;
    }
    CHECK(top == 100 && top_l1 < 1e-9, "facebook %s: L1 over NetworkX's top %d %.3e", name, top, top_l1);
    CHECK(fabs(s - sum) < 1e-9 && fabs(cs - checksum) < 1e-9, "facebook %s: sum %.17g vs %.17g, checksum %.3e off",
          name, s, sum, cs - checksum);
    printf("facebook %-10s L1 over the top 100 %.3e, checksum off by %.3e\n", name, top_l1, cs - checksum);
}

static void test_facebook(kiln_ctx *ctx)
{
    edge_list e;
    CHECK(read_edges(test_data("facebook_combined.txt"), &e) == 0 && e.count == 88234, "facebook_combined.txt");
    for (size_t i = 0; i < e.count; i++) e.w[i] = fb_weight(i);
    kiln_graph *g[4] = {NULL, NULL, NULL, NULL}; /* directed weighted, undirected weighted, directed, undirected */
    for (int k = 0; k < 4; k++) {
        unsigned flags = (k & 1) ? KILN_GRAPH_UNDIRECTED : 0;
        kiln_status st = k < 2 ? kiln_graph_from_weighted_edges(ctx, e.src, e.dst, e.w, e.count, flags, &g[k])
                               : kiln_graph_from_edges(ctx, e.src, e.dst, e.count, flags, &g[k]);
        CHECK(st == KILN_OK, "facebook graph %d: %s", k, kiln_last_error(ctx));
    }
    static const struct {
        const char *name;
        int graph, p, q, x0;
    } cases[] = {
        {"dir_w_p", 0, 1, 0, 0}, {"dir_w_pdn", 0, 1, 1, 1}, {"und_w_pdn", 1, 1, 1, 1},
        {"dir_pdn", 2, 1, 1, 1}, {"und_p", 3, 1, 0, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const kiln_graph *gr = g[cases[c].graph];
        if (!gr) continue;
        double *p = cases[c].p ? fb_vector(gr, 0) : NULL, *q = cases[c].q ? fb_vector(gr, 1) : NULL,
               *x0 = cases[c].x0 ? fb_vector(gr, 2) : NULL;
        double *x = rank(ctx, gr, 0.85, p, q, x0, cases[c].name);
        check_facebook(gr, x, cases[c].name);
        free(x);
        free(p);
        free(q);
        free(x0);
    }
    for (int k = 0; k < 4; k++) kiln_graph_free(g[k]);
    edges_free(&e);
}

/* ---- the library's checks of the vectors */

static void test_vector_checks(kiln_ctx *ctx)
{
    kiln_graph *g = NULL;
    uint64_t src[] = {10, 11, 12}, dst[] = {11, 12, 10};
    CHECK(kiln_graph_from_edges(ctx, src, dst, 3, 0, &g) == KILN_OK, "cycle");
    if (!g) return;
    double x[3], v[3];
    kiln_pagerank_options o;
    kiln_pagerank_options_init(&o);
    const char *names[3] = {"personalization", "dangling", "nstart"};
    for (int which = 0; which < 3; which++) {
        kiln_pagerank_options_init(&o);
        const double **slot = which == 0 ? &o.personalization : which == 1 ? &o.dangling : &o.nstart;
        *slot = v;
        v[0] = v[1] = v[2] = 0;
        CHECK(kiln_pagerank(ctx, g, &o, x, NULL) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), names[which]) &&
                  strstr(kiln_last_error(ctx), "sums to 0"),
              "all-zero %s: %s", names[which], kiln_last_error(ctx));
        v[1] = -1;
        v[2] = 2;
        CHECK(kiln_pagerank(ctx, g, &o, x, NULL) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "node 11"),
              "negative %s: %s", names[which], kiln_last_error(ctx));
        v[1] = NAN;
        CHECK(kiln_pagerank(ctx, g, &o, x, NULL) == KILN_ERR_INPUT, "NaN %s", names[which]);
        v[1] = INFINITY;
        CHECK(kiln_pagerank(ctx, g, &o, x, NULL) == KILN_ERR_INPUT, "infinite %s", names[which]);
    }
    /* scale does not matter (normalized, the caller's array untouched), even past the largest double */
    kiln_pagerank_options_init(&o);
    o.tol = 1e-14;
    o.max_iter = 1000;
    double a[3] = {0.5, 1, 1}, b[3] = {0.85e308, 1.7e308, 1.7e308}, xa[3], xb[3]; /* b sums past DBL_MAX */
    o.personalization = a;
    CHECK(kiln_pagerank(ctx, g, &o, xa, NULL) == KILN_OK && a[0] == 0.5 && a[1] == 1, "personalization 0.5 1 1");
    o.personalization = b;
    CHECK(kiln_pagerank(ctx, g, &o, xb, NULL) == KILN_OK, "huge personalization: %s", kiln_last_error(ctx));
    CHECK(l1(xa, xb, 3) < 1e-15, "huge personalization L1 %.3e", l1(xa, xb, 3));
    /* out-weight sums PageRank cannot divide by (subnormal, or past the largest double) are refused */
    uint64_t s2[] = {10, 10, 11}, d2[] = {11, 12, 10};
    double huge[] = {1e308, 1e308, 1}, tiny[] = {1e-320, 0, 1};
    for (int k = 0; k < 2; k++) {
        kiln_graph *h = NULL;
        kiln_status st = kiln_graph_from_weighted_edges(ctx, s2, d2, k ? tiny : huge, 3, 0, &h);
        if (st == KILN_OK) {
            double xh[3];
            kiln_pagerank_options_init(&o);
            CHECK(kiln_pagerank(ctx, h, &o, xh, NULL) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "node 10"),
                  "%s out-weight: %s", k ? "subnormal" : "infinite", kiln_last_error(ctx));
        }
        kiln_graph_free(h);
    }
    /* not converging keeps KILN_NOT_FOUND with the iterate in ranks */
    kiln_pagerank_options_init(&o);
    o.tol = 1e-15;
    o.max_iter = 2;
    o.nstart = (double[3]){1, 0, 0};
    kiln_pagerank_result res;
    for (int i = 0; i < 3; i++) x[i] = -1;
    CHECK(kiln_pagerank(ctx, g, &o, x, &res) == KILN_NOT_FOUND && res.iterations == 2 && x[0] >= 0 &&
              fabs(x[0] + x[1] + x[2] - 1) < 1e-15,
          "not converged: %s", kiln_last_error(ctx));
    kiln_graph_free(g);
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_ctx_set_device(ctx, "cpu");
    test_vector_checks(ctx);
    test_small(ctx);
    test_facebook(ctx);
    kiln_ctx_free(ctx);
    tmp_cleanup();
    return check_summary();
}
