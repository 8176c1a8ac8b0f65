/* Helpers shared by the graph and PageRank tests: temporary files, reference files, a dense
 * power iteration that is independent of kiln's code, random vectors and weighted copies of a
 * graph for the GPU comparisons. */
#ifndef KILN_TEST_GRAPH_UTIL_H
#define KILN_TEST_GRAPH_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kiln.h"

static char test_tmp_dir[64];

/* Path of a file in a per-run temporary directory (created on first use); the last 8 paths
 * returned stay valid. */
static inline const char *tmp_path(const char *name)
{
    static char paths[8][256];
    static int next;
    char *path = paths[next++ % 8];
    if (!test_tmp_dir[0]) {
        snprintf(test_tmp_dir, sizeof test_tmp_dir, "/tmp/kiln-test-XXXXXX");
        if (!mkdtemp(test_tmp_dir)) {
            perror("mkdtemp");
            exit(2);
        }
    }
    snprintf(path, 256, "%s/%s", test_tmp_dir, name);
    return path;
}

static inline const char *write_tmp(const char *name, const void *data, size_t len)
{
    const char *p = tmp_path(name);
    FILE *f = fopen(p, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(p);
        exit(2);
    }
    return p;
}

static inline const char *write_tmp_str(const char *name, const char *text) { return write_tmp(name, text, strlen(text)); }

static inline void tmp_cleanup(void)
{
    if (!test_tmp_dir[0]) return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_tmp_dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", test_tmp_dir);
}

/* The converged column (3rd) of facebook_combined.pagerank.txt, or the 2nd with col = 2;
 * indexed by node id (0..4038). Returns the count read. */
static inline int read_reference(const char *path, int col, double *out, int cap)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        long id;
        double a, b = 0;
        int k = sscanf(line, "%ld %lf %lf", &id, &a, &b);
        if (k < 2 || id < 0 || id >= cap) continue;
        out[id] = (col == 2 || k == 2) ? a : b;
        n++;
    }
    fclose(f);
    return n;
}

/* NetworkX's PageRank by dense power iteration on an explicit edge list (duplicates merged,
 * self loops kept unless drop_loops), written from the definition: x <- d M x + (d * dangling +
 * 1 - d) / n, until the L1 change is below 1e-15. */
static inline void dense_pagerank(int n, const int *src, const int *dst, int count, int drop_loops, double d,
                                  double *x)
{
    char *adj = calloc((size_t)n * n, 1);
    int *outdeg = calloc((size_t)n, sizeof *outdeg);
    double *nx = malloc((size_t)n * sizeof *nx);
    for (int i = 0; i < count; i++) {
        if (drop_loops && src[i] == dst[i]) continue;
        adj[(size_t)src[i] * n + dst[i]] = 1;
    }
    for (int u = 0; u < n; u++)
        for (int v = 0; v < n; v++) outdeg[u] += adj[(size_t)u * n + v];
    for (int v = 0; v < n; v++) x[v] = 1.0 / n;
    for (int it = 0; it < 100000; it++) {
        double dang = 0;
        for (int u = 0; u < n; u++)
            if (!outdeg[u]) dang += x[u];
        for (int v = 0; v < n; v++) {
            double s = 0;
            for (int u = 0; u < n; u++)
                if (adj[(size_t)u * n + v]) s += x[u] / outdeg[u];
            nx[v] = d * s + (d * dang + 1 - d) / n;
        }
        double err = 0;
        for (int v = 0; v < n; v++) {
            err += fabs(nx[v] - x[v]);
            x[v] = nx[v];
        }
        if (err < 1e-15) break;
    }
    free(adj);
    free(outdeg);
    free(nx);
}

static inline double l1(const double *a, const double *b, uint64_t n)
{
    double s = 0;
    for (uint64_t i = 0; i < n; i++) s += fabs(a[i] - b[i]);
    return s;
}

/* n random values, unnormalized (the library normalizes them); with zeros, about a third are 0. */
static inline double *random_vector(uint64_t n, unsigned long long seed, int zeros)
{
    double *v = malloc(n * sizeof *v);
    for (uint64_t i = 0; i < n; i++) {
        unsigned long long r = test_rand(&seed);
        v[i] = zeros && r % 3 == 0 ? 0 : (double)((r >> 8) % 1000 + 1) / 250.0;
    }
    return v;
}

/* g rebuilt with random weights through kiln_graph_from_weighted_edges (flags: directed or
 * undirected): each in-edge u -> v of g in original ids, an eighth of the weights 0, the rest in
 * (0, 4], and every out-edge of one source 0, so that vertex has out-edges but no out-weight
 * (dangling, as NetworkX's stochastic graph makes it). */
static inline kiln_graph *weighted_copy(kiln_ctx *cpu, const kiln_graph *g, unsigned flags, unsigned long long seed)
{
    const uint64_t *off;
    const uint32_t *src, *odeg;
    kiln_graph_csr(g, &off, &src, &odeg);
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    uint64_t *u = malloc(info.edges * sizeof *u), *v = malloc(info.edges * sizeof *v);
    double *w = malloc(info.edges * sizeof *w);
    const uint32_t zero_src = info.edges ? src[info.edges / 2] : 0;
    for (uint64_t t = 0; t < info.nodes; t++) {
        for (uint64_t j = off[t]; j < off[t + 1]; j++) {
            unsigned long long r = test_rand(&seed);
            u[j] = kiln_graph_node_id(g, src[j]);
            v[j] = kiln_graph_node_id(g, t);
            w[j] = (src[j] == zero_src || r % 8 == 0) ? 0 : (double)((r >> 8) % 4000 + 1) / 1000.0;
        }
    }
    kiln_graph *out = NULL;
    kiln_status st = kiln_graph_from_weighted_edges(cpu, u, v, w, info.edges, flags, &out);
    CHECK(st == KILN_OK && out && kiln_graph_edge_weights(out), "weighted copy (flags %u): %s", flags,
          kiln_last_error(cpu));
    free(u);
    free(v);
    free(w);
    return out;
}

#endif
