/* The graph handle and the host-side pieces that build it: edge lists as parsed, the id remap,
 * the parallel CSR build, the RMAT generator, the CSR cache and the CPU PageRank. */
#ifndef KILN_GRAPH_GRAPH_H
#define KILN_GRAPH_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "../core/ctx.h"
#include "../prim/rmat.h"

/* Vertex indices are 32-bit; this many vertices at most. */
#define KILN_GRAPH_MAX_NODES UINT64_C(0xFFFFFFFE)

struct kiln_graph {
    uint64_t n, m;
    uint64_t *offsets; /* n + 1: row v of the in-edge CSR is sources[offsets[v] .. offsets[v+1]) */
    uint32_t *sources; /* m, ascending within each row */
    uint32_t *outdeg; /* n */
    uint64_t *ids; /* n original ids, or NULL: id = index + id_base */
    uint64_t id_base;
    /* With KILN_GRAPH_WEIGHTED, else NULL: the weight of each in-edge, aligned with sources
     * (duplicates summed), and each vertex's sum of out-edge weights (0: dangling). */
    double *weights; /* m */
    double *out_weight; /* n */
    kiln_graph_info info;
};

/* Edges as parsed: original 64-bit ids, grown as lines arrive. */
typedef struct kiln_raw_edges {
    uint64_t *src, *dst;
    size_t count, cap;
} kiln_raw_edges;

int kiln_raw_edges_push(kiln_raw_edges *e, uint64_t src, uint64_t dst); /* 0, or -1 out of memory */
/* Makes room for item `count` in two parallel arrays of elem-byte items, doubling *cap; 0, or -1
 * out of memory (both arrays stay valid and owned by the caller). */
int kiln_pair_reserve(void **a, void **b, size_t elem, size_t count, size_t *cap);
/* Appends (s, d) to (e)->src and (e)->dst, of (e)->count items and room *(capp); rc becomes 0, or
 * -1 out of memory. A macro so the 64-bit raw ids and the 32-bit indices share one body. */
#define KILN_PAIR_PUSH(rc, e, capp, s, d)                                                          \
    do {                                                                                           \
        void *a_ = (e)->src, *b_ = (e)->dst;                                                       \
        (rc) = kiln_pair_reserve(&a_, &b_, sizeof *(e)->src, (size_t)(e)->count, (capp));          \
        (e)->src = a_;                                                                             \
        (e)->dst = b_;                                                                             \
        if ((rc) == 0) {                                                                           \
            (e)->src[(e)->count] = (s);                                                            \
            (e)->dst[(e)->count++] = (d);                                                          \
        }                                                                                          \
    } while (0)
void kiln_raw_edges_free(kiln_raw_edges *e);

/* Edges between vertex indices 0..n-1. */
typedef struct kiln_edges {
    uint32_t *src, *dst;
    uint64_t count;
    uint64_t n;
} kiln_edges;

void kiln_edges_free(kiln_edges *e);

/* OpenMP thread count for the context (ctx->threads, else every core). */
int kiln_graph_threads(const kiln_ctx *ctx);

/* Turns original ids into dense indices: the distinct ids, ascending, become 0..n-1. Frees the
 * raw arrays. *ids receives the id of each index, or NULL when the ids are exactly 0..n-1. */
kiln_status kiln_ids_remap(kiln_ctx *ctx, kiln_raw_edges *raw, kiln_edges *out, uint64_t **ids);

/* Builds g's CSR from e on the CPU threads (flags: KILN_GRAPH_UNDIRECTED, DROP_SELF_LOOPS). e is
 * left as it was. Fills g->n, m, offsets, sources, outdeg and the info counters. */
kiln_status kiln_csr_build_cpu(kiln_ctx *ctx, const kiln_edges *e, unsigned flags, kiln_graph *g);

/* Fills the degree-derived info fields (dangling, max degrees, self loops kept) from the CSR. */
void kiln_graph_finish_info(kiln_graph *g, int threads);

/* RMAT edges of spec, permuted, on the CPU threads (out->count = edge_factor << scale). */
kiln_status kiln_rmat_edges_cpu(kiln_ctx *ctx, const kiln_rmat_spec *spec, kiln_edges *out);
/* perm[r] = new label of raw vertex r, n = 2^scale entries. */
kiln_status kiln_rmat_permutation_cpu(kiln_ctx *ctx, const kiln_rmat_spec *spec, uint32_t *perm);

/* Parsers: fill raw (original ids) or, for Matrix Market, e (n known from the header). *line0
 * style messages go to ctx as "path:line: ...". */
typedef struct kiln_reader kiln_reader;
kiln_status kiln_parse_snap(kiln_ctx *ctx, kiln_reader *r, kiln_raw_edges *raw);
kiln_status kiln_parse_mtx(kiln_ctx *ctx, kiln_reader *r, unsigned *flags, kiln_edges *e);

/* Binary CSR cache. The read takes the whole rest of r and refuses anything after the payload. */
int kiln_csr_cache_sniff(const unsigned char *head, size_t len);
kiln_status kiln_csr_cache_write(kiln_ctx *ctx, const kiln_graph *g, const char *path);
kiln_status kiln_csr_cache_read(kiln_ctx *ctx, kiln_reader *r, kiln_graph *g);

/* Turns edges into g's CSR; the API passes its own, which may run on a GPU. */
typedef kiln_status (*kiln_csr_build_fn)(kiln_ctx *ctx, const kiln_edges *e, unsigned flags, kiln_graph *g);

/* Loads a graph input into g (load.c): path, or "-" for standard input, is opened once and read
 * once from the start, its format told from its first bytes when format is KILN_GRAPH_AUTO (gzip
 * is undone first), so a pipe or a FIFO gives the same graph as the file. Text formats are built
 * by `build`; a CSR cache is taken as saved (flags must be 0). */
kiln_status kiln_graph_load_input(kiln_ctx *ctx, const char *path, kiln_graph_format format, unsigned flags,
                                  kiln_csr_build_fn build, kiln_graph *g);

/* Allocates an empty handle; kiln_graph_free releases it and its arrays. */
kiln_graph *kiln_graph_alloc(void);

/* Exclusive prefix sum of a[0..n) in place with `threads` threads; returns the total. */
uint64_t kiln_scan_u64(uint64_t *a, uint64_t n, int threads);

/* CPU PageRank in float64 (pagerank_cpu.c): NetworkX's definition,
 *   x' = d * (A^T y + D * q) + (1 - d) * p,   y[u] = x[u] / W_u,
 * W_u the out-weight sum of u (g->out_weight) or, without weights, its out-degree; D the sum of x
 * over the vertices with W_u = 0 (dangling); stop when sum |x' - x| < n * tol. */
typedef struct kiln_pr_problem {
    double damping, tol;
    int max_iter;
    /* n values each, normalized to sum 1 (the API does it), or NULL: the teleport distribution p
     * (NULL uniform), where dangling rank goes q (NULL: p), the start x0 (NULL uniform). */
    const double *personalization, *dangling, *nstart;
} kiln_pr_problem;
typedef struct kiln_pr_cpu_stats {
    int iterations, converged;
    double residual, seconds;
} kiln_pr_cpu_stats;
kiln_status kiln_pagerank_cpu(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *p, double *ranks,
                              kiln_pr_cpu_stats *stats);
/* One float64 iteration of problem p from x: returns sum |P(x) - x| (the verifier of device
 * results), or a negative value when out of memory. */
double kiln_pagerank_cpu_residual(const kiln_graph *g, const kiln_pr_problem *p, const double *x, int threads);

#endif
