/* The RMAT generator and the CPU CSR build: the same graph as the cuSPARSE anchor script
 * (shared/anchors/pagerank_cupy.py, numpy route) edge for edge at scale 10 and by SHA-256 of the
 * CSR arrays at scales 12 and 16; the CSR build against a plain sort of the edge pairs. */
#include "check.h"
#include "graph/graph.h"
#include "graph_test_util.h"

static void test_thresholds(void)
{
    kiln_rmat_spec s;
    kiln_rmat_spec_init(&s, 10, 16, 1);
    /* int(p * float(1 << 53)) in Python for 0.57, 0.57 + 0.19, 0.57 + 0.19 + 0.19 */
    CHECK(s.ta == 5134103575202365ull && s.tab == 6845471433603154ull && s.tabc == 8556839292003942ull,
          "thresholds %llu %llu %llu", (unsigned long long)s.ta, (unsigned long long)s.tab, (unsigned long long)s.tabc);
}

static void test_scale10(kiln_ctx *ctx)
{
    FILE *f = fopen(test_data("rmat_s10_seed1.edges.txt"), "r");
    CHECK(f != NULL, "reference edges");
    if (!f) return;
    static uint32_t rs[20000], rd[20000];
    uint64_t m = 0, loops = 0, dups = 0;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            char *p = strstr(line, "self_loops_removed=");
            if (p) sscanf(p, "self_loops_removed=%llu duplicates_removed=%llu", (unsigned long long *)&loops,
                          (unsigned long long *)&dups);
            continue;
        }
        unsigned a, b;
        if (sscanf(line, "%u %u", &a, &b) == 2 && m < 20000) rs[m] = a, rd[m] = b, m++;
    }
    fclose(f);
    kiln_graph *g = NULL;
    CHECK(kiln_graph_rmat(ctx, 10, 16, 1, 0, &g) == KILN_OK, "rmat 10: %s", kiln_last_error(ctx));
    if (!g) return;
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    CHECK(info.edges == m && info.self_loops_removed == loops && info.duplicates_removed == dups &&
              info.edges_read == 16384 && info.nodes == 1024,
          "rmat 10: %llu edges (want %llu), %llu loops (want %llu), %llu duplicates (want %llu)",
          (unsigned long long)info.edges, (unsigned long long)m, (unsigned long long)info.self_loops_removed,
          (unsigned long long)loops, (unsigned long long)info.duplicates_removed, (unsigned long long)dups);
    const uint64_t *off;
    const uint32_t *src, *od;
    kiln_graph_csr(g, &off, &src, &od);
    uint64_t k = 0, bad = 0;
    for (uint32_t v = 0; v < 1024; v++)
        for (uint64_t j = off[v]; j < off[v + 1]; j++, k++)
            if (k >= m || src[j] != rs[k] || v != rd[k]) bad++;
    CHECK(bad == 0 && k == m, "rmat 10: %llu edges differ from the anchor's", (unsigned long long)bad);
    uint32_t out0 = 0;
    for (uint64_t i = 0; i < m; i++) out0 += rs[i] == 0;
    CHECK(od[0] == out0, "out-degree of vertex 0: %u, want %u", od[0], out0);
    kiln_graph_free(g);
}

static void hex(const uint8_t d[32], char out[65]) { kiln_hex_encode(d, 32, 0, out); }

static void test_digests(kiln_ctx *ctx)
{
    FILE *f = fopen(test_data("rmat_digests.txt"), "r");
    CHECK(f != NULL, "digests");
    if (!f) return;
    char line[512];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        int scale;
        unsigned long long gen, loops, dups, nnz;
        char hd[65], hs[65];
        if (sscanf(line, "%d %llu %llu %llu %llu %64s %64s", &scale, &gen, &loops, &dups, &nnz, hd, hs) != 7) continue;
        rows++;
        kiln_graph *g = NULL;
        CHECK(kiln_graph_rmat(ctx, scale, 16, 1, 0, &g) == KILN_OK, "rmat %d", scale);
        if (!g) continue;
        kiln_graph_info info;
        kiln_graph_get_info(g, &info);
        CHECK(info.edges_read == gen && info.self_loops_removed == loops && info.duplicates_removed == dups &&
                  info.edges == nnz,
              "rmat %d counts", scale);
        const uint64_t *off;
        const uint32_t *src;
        kiln_graph_csr(g, &off, &src, NULL);
        kiln_sha256_stream sd, ss;
        kiln_sha256_init(&sd);
        kiln_sha256_init(&ss);
        for (uint32_t v = 0; v < (uint32_t)info.nodes; v++)
            for (uint64_t j = off[v]; j < off[v + 1]; j++) {
                uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
                uint8_t c[4] = {(uint8_t)src[j], (uint8_t)(src[j] >> 8), (uint8_t)(src[j] >> 16), (uint8_t)(src[j] >> 24)};
                kiln_sha256_update(&sd, b, 4);
                kiln_sha256_update(&ss, c, 4);
            }
        uint8_t dd[32], ds[32];
        char xd[65], xs[65];
        kiln_sha256_final(&sd, dd);
        kiln_sha256_final(&ss, ds);
        hex(dd, xd);
        hex(ds, xs);
        CHECK(strcmp(xd, hd) == 0 && strcmp(xs, hs) == 0, "rmat %d: CSR digests differ from the anchor's", scale);
        kiln_graph_free(g);
    }
    CHECK(rows == 2, "digest rows: %d", rows);
}

static void test_permutation(kiln_ctx *ctx)
{
    kiln_rmat_spec s;
    kiln_rmat_spec_init(&s, 14, 16, 99);
    uint32_t n = 1u << 14;
    uint32_t *perm = malloc(n * sizeof *perm);
    CHECK(kiln_rmat_permutation_cpu(ctx, &s, perm) == KILN_OK, "permutation");
    char *seen = calloc(n, 1);
    int ok = 1;
    for (uint32_t i = 0; i < n; i++) {
        ok &= perm[i] < n && !seen[perm[i]];
        if (perm[i] < n) seen[perm[i]] = 1;
        if (i) ok &= kiln_rmat_perm_key(&s, perm[i - 1]) < kiln_rmat_perm_key(&s, perm[i]);
    }
    CHECK(ok, "perm lists every vertex once, in ascending key order");
    free(seen);
    free(perm);
}

static int cmp_pair(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* kiln_csr_build_cpu against qsort of (dst, src) pairs, for every flag combination. */
static void test_build(kiln_ctx *ctx)
{
    unsigned long long rng = 4242;
    for (int round = 0; round < 24; round++) {
        kiln_edges e;
        e.n = 1 + test_rand(&rng) % 300;
        e.count = test_rand(&rng) % 3000;
        e.src = malloc((e.count + 1) * 4);
        e.dst = malloc((e.count + 1) * 4);
        for (uint64_t i = 0; i < e.count; i++) {
            /* skewed, with many duplicates and loops */
            e.src[i] = (uint32_t)(test_rand(&rng) % (test_rand(&rng) % 2 && e.n > 7 ? 7 : e.n));
            e.dst[i] = test_rand(&rng) % 5 == 0 ? e.src[i] : (uint32_t)(test_rand(&rng) % e.n);
        }
        unsigned flags = (unsigned)round & 3u;
        uint64_t *pairs = malloc((2 * e.count + 1) * 8), np = 0, loops = 0;
        for (uint64_t i = 0; i < e.count; i++) {
            if (e.src[i] == e.dst[i]) loops += (flags & KILN_GRAPH_UNDIRECTED) ? 2 : 1;
            if (e.src[i] == e.dst[i] && (flags & KILN_GRAPH_DROP_SELF_LOOPS)) continue;
            pairs[np++] = (uint64_t)e.dst[i] << 32 | e.src[i];
            if (flags & KILN_GRAPH_UNDIRECTED) pairs[np++] = (uint64_t)e.src[i] << 32 | e.dst[i];
        }
        qsort(pairs, np, 8, cmp_pair);
        uint64_t m = 0;
        for (uint64_t i = 0; i < np; i++)
            if (m == 0 || pairs[i] != pairs[m - 1]) pairs[m++] = pairs[i];
        kiln_ctx_set_threads(ctx, 1 + round % 4);
        kiln_graph g;
        memset(&g, 0, sizeof g);
        CHECK(kiln_csr_build_cpu(ctx, &e, flags, &g) == KILN_OK, "build");
        int ok = g.m == m && g.offsets[0] == 0 && g.offsets[e.n] == m;
        for (uint64_t v = 0; ok && v < e.n; v++)
            for (uint64_t j = g.offsets[v]; j < g.offsets[v + 1]; j++)
                ok &= pairs[j] == ((uint64_t)v << 32 | g.sources[j]);
        uint32_t *od = calloc(e.n, 4);
        for (uint64_t i = 0; i < m; i++) od[(uint32_t)pairs[i]]++;
        ok = ok && memcmp(od, g.outdeg, e.n * 4) == 0;
        uint64_t removed = (flags & KILN_GRAPH_DROP_SELF_LOOPS) ? loops : 0;
        ok = ok && g.info.self_loops_removed == removed &&
             g.info.duplicates_removed == e.count * ((flags & KILN_GRAPH_UNDIRECTED) ? 2 : 1) - removed - m;
        CHECK(ok, "round %d (flags %u, n %llu, %llu edges): CSR differs from the sorted pairs", round, flags,
              (unsigned long long)e.n, (unsigned long long)e.count);
        free(od);
        free(pairs);
        free(g.offsets);
        free(g.sources);
        free(g.outdeg);
        kiln_edges_free(&e);
    }
    kiln_ctx_set_threads(ctx, 0);
}

static void test_args(kiln_ctx *ctx)
{
    kiln_graph *g = NULL;
    CHECK(kiln_graph_rmat(ctx, 0, 16, 1, 0, &g) == KILN_ERR_INPUT, "scale 0");
    CHECK(kiln_graph_rmat(ctx, 31, 16, 1, 0, &g) == KILN_ERR_INPUT, "scale 31");
    CHECK(kiln_graph_rmat(ctx, 10, 0, 1, 0, &g) == KILN_ERR_INPUT, "edge factor 0");
    CHECK(kiln_graph_rmat(ctx, 8, 16, 1, KILN_GRAPH_UNDIRECTED, &g) == KILN_OK, "undirected");
    if (g) {
        const uint64_t *off;
        const uint32_t *src;
        kiln_graph_csr(g, &off, &src, NULL);
        /* symmetric: u in row v  <=>  v in row u (rows are sorted) */
        int sym = 1;
        for (uint32_t v = 0; v < 256; v++)
            for (uint64_t j = off[v]; j < off[v + 1]; j++) {
                uint32_t u = src[j];
                uint64_t lo = off[u], hi = off[u + 1];
                int found = 0;
                for (uint64_t k = lo; k < hi; k++) found |= src[k] == v;
                sym &= found && u != v;
            }
        CHECK(sym, "undirected RMAT is symmetric without loops");
        kiln_graph_free(g);
    }
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_ctx_set_device(ctx, "cpu");
    test_thresholds();
    test_scale10(ctx);
    test_digests(ctx);
    test_permutation(ctx);
    test_build(ctx);
    test_args(ctx);
    kiln_ctx_free(ctx);
    return check_summary();
}
