/* Edge weights (KILN_GRAPH_WEIGHTED): hand-made SNAP and Matrix Market files loaded and compared
 * with NetworkX's view of the same files (tests/data/weights_expected.txt, written by
 * tests/data/tools/weights_expected.py: summed pair weights and out_degree(weight=)); malformed
 * weights refused with their line; the CSR cache round trip; the weighted-edge API; RMAT weights
 * against the formula kiln.h documents, recomputed here. */
#include <locale.h>

#include "check.h"
#include "graph_test_util.h"
#include "graph/graph.h" /* the out-weights, which the public API does not show */
#include "test_data_files.h"

/* Same value within rounding: the sums may add the same terms in another order. */
static int close_to(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b) || a == b; }

/* The weight of edge (src id -> dst id) in g, or -1 when g has no such edge. */
static double edge_weight(const kiln_graph *g, uint64_t s, uint64_t d)
{
    uint64_t si, di;
    if (kiln_graph_find_node(g, s, &si) != KILN_OK || kiln_graph_find_node(g, d, &di) != KILN_OK) return -1;
    const uint64_t *off;
    const uint32_t *src;
    kiln_graph_csr(g, &off, &src, NULL);
    const double *w = kiln_graph_edge_weights(g);
    for (uint64_t j = off[di]; j < off[di + 1]; j++)
        if (src[j] == si) return w ? w[j] : -2;
    return -1;
}

/* Compares g with the block of weights_expected.txt for one case; f is positioned after its
 * "case" line and is left at the next one. */
static void compare_case(const char *name, const kiln_graph *g, FILE *f)
{
    char line[256];
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    uint64_t edges = 0;
    int bad_edges = 0, bad_out = 0;
    long pos = ftell(f);
    while (fgets(line, sizeof line, f)) {
        unsigned long long a, b;
        double w;
        if (strncmp(line, "case ", 5) == 0) {
            fseek(f, pos, SEEK_SET);
            break;
        }
        pos = ftell(f);
        if (sscanf(line, "nodes %llu", &a) == 1) {
            CHECK(info.nodes == a, "%s: %llu nodes, NetworkX %llu", name, (unsigned long long)info.nodes, a);
        } else if (sscanf(line, "edge %llu %llu %lf", &a, &b, &w) == 3) {
            edges++;
            double got = edge_weight(g, a, b);
            if (!close_to(got, w) && bad_edges++ < 5)
                fprintf(stderr, "%s: edge %llu -> %llu weighs %.17g, NetworkX %.17g\n", name, a, b, got, w);
        } else if (sscanf(line, "out %llu %lf", &a, &w) == 2) {
            uint64_t i;
            double got = kiln_graph_find_node(g, a, &i) == KILN_OK && g->out_weight ? g->out_weight[i] : -1;
            if (!close_to(got, w) && bad_out++ < 5)
                fprintf(stderr, "%s: out-weight of %llu is %.17g, NetworkX %.17g\n", name, a, got, w);
        } else if (sscanf(line, "dangling %llu", &a) == 1) {
            CHECK(info.dangling == a, "%s: %llu dangling, NetworkX %llu", name, (unsigned long long)info.dangling, a);
        }
    }
    CHECK(bad_edges == 0, "%s: %d edge weights differ from NetworkX's", name, bad_edges);
    CHECK(bad_out == 0, "%s: %d out-weights differ from NetworkX's", name, bad_out);
    CHECK(info.edges == edges, "%s: %llu edges, NetworkX %llu", name, (unsigned long long)info.edges,
          (unsigned long long)edges);
}

/* Every case of weights_expected.txt, loaded through kiln_graph_load with its flags. */
static void test_files(kiln_ctx *ctx)
{
    FILE *f = fopen(test_data("weights_expected.txt"), "r");
    CHECK(f != NULL, "weights_expected.txt missing");
    if (!f) return;
    char line[256], name[64], file[64];
    int undirected, drop, cases = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "case %63s %63s %d %d", name, file, &undirected, &drop) != 4) continue;
        unsigned flags = KILN_GRAPH_WEIGHTED | (undirected ? KILN_GRAPH_UNDIRECTED : 0u) |
                         (drop ? KILN_GRAPH_DROP_SELF_LOOPS : 0u);
        kiln_graph *g = NULL;
        kiln_status st = kiln_graph_load(ctx, test_data(file), KILN_GRAPH_AUTO, flags, &g);
        CHECK(st == KILN_OK, "%s: %s", name, kiln_last_error(ctx));
        if (st != KILN_OK) continue;
        CHECK(g->weights != NULL && g->out_weight != NULL, "%s: no weights", name);
        if (g->weights) compare_case(name, g, f);
        cases++;
        kiln_graph_free(g);
    }
    fclose(f);
    CHECK(cases == 9, "%d cases in weights_expected.txt, want 9", cases);
}

/* Without the flag nothing is weighted, and a Matrix Market file's values are ignored. */
static void test_unweighted(kiln_ctx *ctx)
{
    kiln_graph *g = NULL;
    CHECK(kiln_graph_load(ctx, test_data("weights_general.mtx"), KILN_GRAPH_AUTO, 0, &g) == KILN_OK, "%s",
          kiln_last_error(ctx));
    if (g) {
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        CHECK(kiln_graph_edge_weights(g) == NULL && g->out_weight == NULL, "unweighted load has weights");
        /* 5 -> 4 and 4 -> 1 (weight 0) are edges: only vertices without out-edges dangle, none here */
        CHECK(info.dangling == 0, "unweighted dangling %llu", (unsigned long long)info.dangling);
        kiln_graph_free(g);
    }
    const char *p = write_tmp_str("neg.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -4.5\n");
    g = NULL;
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &g) == KILN_OK, "negative value, unweighted: %s",
          kiln_last_error(ctx));
    kiln_graph_free(g);
    /* a weighted Matrix Market file with no entries is a weighted graph of isolated (dangling)
     * vertices, as NetworkX's from_scipy_sparse_array of an all-zero matrix: weights present, all
     * out-weights 0 (found by fuzzing: the weights were NULL) */
    p = write_tmp_str("empty.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 0\n");
    g = NULL;
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, KILN_GRAPH_WEIGHTED, &g) == KILN_OK, "weighted, no entries: %s",
          kiln_last_error(ctx));
    if (g) {
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        CHECK(kiln_graph_edge_weights(g) != NULL && g->out_weight != NULL && info.nodes == 3 && info.edges == 0 &&
                  info.dangling == 3,
              "weighted, no entries: weights %p, out-weights %p, %llu nodes, %llu dangling",
              (const void *)kiln_graph_edge_weights(g), (const void *)g->out_weight, (unsigned long long)info.nodes,
              (unsigned long long)info.dangling);
        kiln_graph_free(g);
    }
}

typedef struct bad_case {
    const char *name, *text, *where;
} bad_case;

static const bad_case bad[] = {
    {"negative", "0 1 1\n1 2 -1\n", ":2:"},
    {"negative exponent form", "0 1 -2.5e-3\n", ":1:"},
    {"nan", "0 1\n0 2 nan\n", ":2:"},
    {"NaN sign", "0 1 -NaN\n", ":1:"},
    {"inf", "0 1 1\n\n2 3 inf\n", ":3:"},
    {"infinity", "0 1 Infinity\n", ":1:"},
    {"overflow", "# big\n0 1 1e400\n", ":2:"},
    {"garbage", "0 1 abc\n", ":1:"},
    {"hex", "0 1 0x10\n", ":1:"},
    {"two points", "0 1 1.5.2\n", ":1:"},
    {"bare exponent", "0 1 1e\n", ":1:"},
    {"bare point", "0 1 .\n", ":1:"},
    {"comma decimal", "0 1 0,5\n", ":1:"},
    {"fourth column", "0 1 0.5 7\n", ":1:"},
    {"sum overflow", "0 1 1e308\n0 1 1e308\n", "largest double"},
    {"out-weight overflow", "0 1 1.5e308\n0 2 1.5e308\n", "largest double"},
    {"mtx negative", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n2 3 -0.5\n", ":4:"},
    {"mtx nan", "%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 1\n2 1 nan\n", ":4:"},
    {"mtx integer negative", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 -3\n", ":3:"},
    {"mtx integer float", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 3.5\n", ":3:"},
    {"mtx overflow", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 2e308\n", ":3:"},
    {"mtx complex", "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", ":1:"},
};

static void test_bad(kiln_ctx *ctx)
{
    char name[64];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const bad_case *c = &bad[i];
        snprintf(name, sizeof name, "badw%zu.txt", i);
        const char *p = write_tmp_str(name, c->text);
        kiln_graph *g = NULL;
        kiln_status st = kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, KILN_GRAPH_WEIGHTED, &g);
        CHECK(st == KILN_ERR_INPUT && g == NULL, "%s: status %d, want KILN_ERR_INPUT", c->name, st);
        CHECK(strstr(kiln_last_error(ctx), c->where) != NULL, "%s: message '%s' does not name '%s'", c->name,
              kiln_last_error(ctx), c->where);
        kiln_graph_free(g);
    }
    /* the third column is read only when weights are asked for */
    const char *p = write_tmp_str("third.txt", "0 1 0.5\n");
    kiln_graph *g = NULL;
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &g) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), ":1:"),
          "third column without the flag: %s", kiln_last_error(ctx));
    kiln_graph_free(g);
}

/* A program's locale with a decimal comma does not change what "0.5" means (when the host has one). */
static void test_locale(kiln_ctx *ctx)
{
    static const char *names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    const char *set = NULL;
    for (size_t i = 0; i < 4 && !set; i++) set = setlocale(LC_NUMERIC, names[i]);
    if (!set) return;
    const char *p = write_tmp_str("locale.txt", "0 1 0.5\n");
    kiln_graph *g = NULL;
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, KILN_GRAPH_WEIGHTED, &g) == KILN_OK && edge_weight(g, 0, 1) == 0.5,
          "0.5 under LC_NUMERIC=%s: %s", set, kiln_last_error(ctx));
    kiln_graph_free(g);
    setlocale(LC_NUMERIC, "C");
}

/* Two graphs with the same CSR, weights and out-weights, bit for bit. */
static int same_graph(const kiln_graph *a, const kiln_graph *b)
{
    if (a->n != b->n || a->m != b->m || !a->weights || !b->weights || !a->out_weight || !b->out_weight) return 0;
    return memcmp(a->offsets, b->offsets, (a->n + 1) * 8) == 0 && memcmp(a->sources, b->sources, a->m * 4) == 0 &&
           memcmp(a->weights, b->weights, a->m * 8) == 0 && memcmp(a->out_weight, b->out_weight, a->n * 8) == 0 &&
           a->info.dangling == b->info.dangling;
}

/* The cache's checksum as its format defines it (csr_cache.c): over the whole file's 64-bit words,
 * each mixed with its index, the checksum word (bytes 72-79) counted as 0. */
static uint64_t cache_sum(const unsigned char *p, size_t len)
{
    uint64_t h = 0;
    for (size_t i = 0; i * 8 < len; i++) {
        uint64_t w = 0;
        if (i != 9) memcpy(&w, p + 8 * i, len - 8 * i < 8 ? len - 8 * i : 8);
        h += kiln_splitmix64(w + (uint64_t)i * 0x9E3779B97F4A7C15ull);
    }
    return h;
}

static void test_cache(kiln_ctx *ctx)
{
    kiln_graph *g = NULL, *h = NULL, *u = NULL;
    CHECK(kiln_graph_load(ctx, test_data("weights_small.txt"), KILN_GRAPH_SNAP, KILN_GRAPH_WEIGHTED | KILN_GRAPH_UNDIRECTED,
                          &g) == KILN_OK,
          "%s", kiln_last_error(ctx));
    if (!g) return;
    const char *p = tmp_path("w.kcsr");
    CHECK(kiln_graph_save_csr(ctx, g, p) == KILN_OK, "save: %s", kiln_last_error(ctx));
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, KILN_GRAPH_WEIGHTED, &h) == KILN_OK, "reload: %s",
          kiln_last_error(ctx));
    CHECK(h && same_graph(g, h), "weighted cache round trip differs");
    CHECK(h && h->ids && memcmp(h->ids, g->ids, g->n * 8) == 0, "ids differ after the round trip");
    /* without the flag the same cache is an unweighted graph */
    CHECK(kiln_graph_load(ctx, p, KILN_GRAPH_AUTO, 0, &u) == KILN_OK && u && !u->weights && !u->out_weight,
          "unweighted reload: %s", kiln_last_error(ctx));
    kiln_graph_info info;
    kiln_graph_get_info(u, &info);
    CHECK(info.dangling == 0, "unweighted reload counts %llu dangling", (unsigned long long)info.dangling);
    kiln_graph_free(h);
    h = NULL;

    /* an unweighted cache asked for weights */
    const char *q = tmp_path("u.kcsr");
    CHECK(kiln_graph_save_csr(ctx, u, q) == KILN_OK, "save unweighted: %s", kiln_last_error(ctx));
    CHECK(kiln_graph_load(ctx, q, KILN_GRAPH_AUTO, KILN_GRAPH_WEIGHTED, &h) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(ctx), "without edge weights"),
          "weights from an unweighted cache: %s", kiln_last_error(ctx));
    kiln_graph_free(u);

    size_t len = 0;
    unsigned char *bytes = slurp(p, &len);
    CHECK(bytes && len == 128 + (g->n + 1) * 8 + ((g->m * 4 + 7) & ~(size_t)7) + g->n * 8 + g->m * 8,
          "weighted cache is %zu bytes", len);
    if (bytes) {
        /* a version 1 cache (no weights) asks to be rebuilt */
        unsigned char *old = malloc(len);
        memcpy(old, bytes, len);
        old[8] = 1;
        const char *o = write_tmp("v1.kcsr", old, len);
        CHECK(kiln_graph_load(ctx, o, KILN_GRAPH_AUTO, 0, &h) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "rebuild it"),
              "version 1 cache: %s", kiln_last_error(ctx));
        /* a changed weight breaks the checksum; a negative one with the checksum made good is refused too */
        memcpy(old, bytes, len);
        double neg = -1;
        memcpy(old + len - 8, &neg, 8);
        o = write_tmp("neg.kcsr", old, len);
        CHECK(kiln_graph_load(ctx, o, KILN_GRAPH_AUTO, KILN_GRAPH_WEIGHTED, &h) == KILN_ERR_INPUT &&
                  strstr(kiln_last_error(ctx), "checksum"),
              "changed weight: %s", kiln_last_error(ctx));
        uint64_t sum = cache_sum(old, len);
        memcpy(old + 72, &sum, 8);
        o = write_tmp("neg2.kcsr", old, len);
        CHECK(kiln_graph_load(ctx, o, KILN_GRAPH_AUTO, KILN_GRAPH_WEIGHTED, &h) == KILN_ERR_INPUT &&
                  strstr(kiln_last_error(ctx), "malformed"),
              "negative weight with a good checksum: %s", kiln_last_error(ctx));
        free(old);
        free(bytes);
    }
    kiln_graph_free(g);
}

/* kiln_graph_from_weighted_edges on the SNAP file's edges gives the graph the file gives. */
static void test_api(kiln_ctx *ctx)
{
    static const uint64_t s[] = {10, 10, 20, 10, 30, 30, 30, 20, 40, 50, 50, 60, 10, 40, 70, 70, 80, 90, 20, 10};
    static const uint64_t d[] = {20, 20, 10, 30, 30, 10, 20, 40, 50, 10, 10, 10, 60, 40, 20, 30, 10, 90, 10, 20};
    static const double w[] = {0.5, 0.25, 2, 1, 1.5, 1e-3, 25, 0, -0.0, 0.125, 3, .5, 7, 4, 0, 0, 1e-300, 0, 0.1, 1};
    const size_t count = sizeof s / sizeof s[0];
    kiln_graph *a = NULL, *b = NULL;
    CHECK(kiln_graph_from_weighted_edges(ctx, s, d, w, count, 0, &a) == KILN_OK, "%s", kiln_last_error(ctx));
    CHECK(kiln_graph_load(ctx, test_data("weights_small.txt"), KILN_GRAPH_SNAP, KILN_GRAPH_WEIGHTED, &b) == KILN_OK,
          "%s", kiln_last_error(ctx));
    CHECK(a && b && same_graph(a, b), "from_weighted_edges differs from the file");
    kiln_graph_free(a);
    kiln_graph_free(b);

    /* kiln_graph_from_edges with the flag weighs every edge 1, duplicates 2 */
    static const uint64_t s2[] = {5, 5, 6}, d2[] = {6, 6, 5};
    a = NULL;
    CHECK(kiln_graph_from_edges(ctx, s2, d2, 3, KILN_GRAPH_WEIGHTED, &a) == KILN_OK, "%s", kiln_last_error(ctx));
    CHECK(a && edge_weight(a, 5, 6) == 2 && edge_weight(a, 6, 5) == 1 && a->out_weight[0] == 2, "weights of 1");
    kiln_graph_free(a);

    const double nanw[] = {1, NAN, 1}, negw[] = {1, 1, -0.5}, infw[] = {INFINITY, 1, 1};
    const double *bad_w[] = {nanw, negw, infw};
    const char *where[] = {"weight[1]", "weight[2]", "weight[0]"};
    for (int i = 0; i < 3; i++) {
        a = NULL;
        CHECK(kiln_graph_from_weighted_edges(ctx, s2, d2, bad_w[i], 3, 0, &a) == KILN_ERR_INPUT && !a &&
                  strstr(kiln_last_error(ctx), where[i]),
              "bad weights %d: %s", i, kiln_last_error(ctx));
    }
    CHECK(kiln_graph_from_weighted_edges(ctx, s2, d2, NULL, 3, 0, &a) == KILN_ERR_INPUT, "missing weights");
    CHECK(kiln_graph_load(ctx, test_data("weights_small.txt"), KILN_GRAPH_SNAP, 8u, &a) == KILN_ERR_INPUT,
          "unknown flag accepted");
}

/* kiln.h's RMAT weight, written out here from its words. */
static double documented_weight(uint64_t seed, uint64_t u, uint64_t v)
{
    unsigned long long s = 2 * seed + 3;
    unsigned long long base = test_rand(&s); /* test_rand(&x) = splitmix64(x) */
    s = base + (u << 32 | v);
    return (double)((test_rand(&s) >> 11) + 1) / 9007199254740992.0;
}

static void test_rmat(kiln_ctx *ctx)
{
    for (int undirected = 0; undirected < 2; undirected++) {
        unsigned flags = KILN_GRAPH_WEIGHTED | (undirected ? KILN_GRAPH_UNDIRECTED : 0u);
        kiln_graph *a = NULL, *b = NULL, *plain = NULL;
        CHECK(kiln_graph_rmat(ctx, 9, 8, 77, flags, &a) == KILN_OK, "%s", kiln_last_error(ctx));
        kiln_ctx_set_threads(ctx, 1);
        CHECK(kiln_graph_rmat(ctx, 9, 8, 77, flags, &b) == KILN_OK, "%s", kiln_last_error(ctx));
        kiln_ctx_set_threads(ctx, 0);
        CHECK(kiln_graph_rmat(ctx, 9, 8, 77, flags & ~KILN_GRAPH_WEIGHTED, &plain) == KILN_OK, "%s",
              kiln_last_error(ctx));
        if (!a || !b || !plain) continue;
        CHECK(same_graph(a, b), "undirected %d: same seed, different weighted graphs", undirected);
        CHECK(a->m == plain->m && memcmp(a->sources, plain->sources, a->m * 4) == 0,
              "undirected %d: weights changed the structure", undirected);
        int bad = 0, asym = 0;
        double *sum = calloc(a->n, sizeof *sum);
        for (uint64_t v = 0; v < a->n; v++)
            for (uint64_t j = a->offsets[v]; j < a->offsets[v + 1]; j++) {
                uint64_t u = a->sources[j];
                double w = a->weights[j];
                uint64_t lo = undirected && u > v ? v : u, hi = undirected && u > v ? u : v;
                bad += !(w > 0 && w <= 1) || w != documented_weight(77, kiln_graph_node_id(a, lo), kiln_graph_node_id(a, hi));
                if (undirected) asym += edge_weight(a, v, u) != w;
                sum[u] += w;
            }
        uint64_t off_sum = 0;
        for (uint64_t u = 0; u < a->n; u++) off_sum += !close_to(a->out_weight[u], sum[u]);
        CHECK(bad == 0, "undirected %d: %d weights differ from the documented formula", undirected, bad);
        CHECK(asym == 0, "undirected %d: %d edges weigh differently both ways", undirected, asym);
        CHECK(off_sum == 0, "undirected %d: %llu out-weights are not their edges' sums", undirected,
              (unsigned long long)off_sum);
        free(sum);
        kiln_graph *c = NULL;
        CHECK(kiln_graph_rmat(ctx, 9, 8, 78, flags, &c) == KILN_OK && c->m > 0 &&
                  (c->m != a->m || memcmp(c->weights, a->weights, a->m * 8) != 0),
              "another seed gives the same weights");
        kiln_graph_free(c);
        kiln_graph_free(a);
        kiln_graph_free(b);
        kiln_graph_free(plain);
    }
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_ctx_set_device(ctx, "cpu");
    test_files(ctx);
    test_unweighted(ctx);
    test_bad(ctx);
    test_locale(ctx);
    test_cache(ctx);
    test_api(ctx);
    test_rmat(ctx);
    kiln_ctx_free(ctx);
    tmp_cleanup();
    return check_summary();
}
