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
    /* A part of a graph split over processes (src/dist/): only rows [part_v0, part_v1) have their
     * in-edges here (m counts those); outdeg, out_weight and ids are the whole graph's. */
    int part;
    uint64_t part_v0, part_v1;
};

/* Edges as parsed: original 64-bit ids, grown as lines arrive; w (room for wcap) holds each
 * edge's weight when the input is read with KILN_GRAPH_WEIGHTED, else NULL. */
typedef struct kiln_raw_edges {
    uint64_t *src, *dst;
    size_t count, cap;
    double *w;
    size_t wcap;
} kiln_raw_edges;

/* What weights add to the peaks src/core/mem_limit.h counts, per arc: the weight as parsed or
 * given (8), the build's scatter copy (8) and the final weights (8); per vertex: out_weight (8)
 * and the out-weight pass's offsets and cursor (16). Counted for every weighted input, an upper
 * bound where a path needs less (RMAT assigns weights after its build). */
#define KILN_GRAPH_WEIGHT_ARC_BYTES 24u
#define KILN_GRAPH_WEIGHT_NODE_BYTES 24u

int kiln_raw_edges_push(kiln_raw_edges *e, uint64_t src, uint64_t dst); /* 0, or -1 out of memory */
/* Grows *w (room for *wcap) to hold cap weights, the room its edge arrays have; 0, or -1 out of
 * memory (*w stays valid and owned by the caller). */
int kiln_weights_reserve(double **w, size_t *wcap, size_t cap);
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

/* Thread count for the context (ctx->threads, else one per CPU of the affinity mask). */
int kiln_graph_threads(const kiln_ctx *ctx);
/* The threads of a PageRank over `work` items (vertices plus edges): kiln_graph_threads, but one
 * for each KILN_WORK_PER_THREAD items at most, so small work runs on one thread. Its iterations
 * run on kiln_par_for (core/par.h), which waits for no thread that has not begun: the bound only
 * spares small graphs the wake-up of the others. Measured on 16 idle cores, an iteration of RMAT
 * 12 (70 K items) took 60 us on one thread and 37 on two, RMAT 14 (280 K) 382 us on one, 129 on
 * four and 83 on eight, RMAT 16 (1.1 M) 1.53 ms on one and 0.31 on eight or sixteen: about 2^15
 * items a thread still pay for its wake-up. */
#define KILN_WORK_PER_THREAD (UINT64_C(1) << 15)
int kiln_graph_threads_for(const kiln_ctx *ctx, uint64_t work);
/* The threads of a graph build's OpenMP passes over `items` edges (or vertices): one for each
 * KILN_BULK_PER_THREAD at most. The end of a parallel region waits for every member of the team,
 * which a busy machine may not run for a scheduler slice or more, and a build is several regions:
 * on 2 cores busy with two loops (and other load) the graph of 176 K arcs built in 29 ms on one
 * thread and in 168 ms on two, and an RMAT graph (generated, then its CSR) of 2^18 edges in
 * 0.36 s on one thread and 0.74 s on two, of 2^19 in 0.90 s and 1.04 s, of 2^20 in 1.9 s and 2.0
 * s, of 2^21 in 3.3 s and 1.5 s. Idle, 16 threads built 88 K edges of a file in 32 ms and one in
 * 8, 2^18 RMAT edges in 19 ms and one in 68, 2^22 in 0.15 s and one in 1.3 s. So a team starts
 * at 2^19 items, where two threads come near one on busy cores; RMAT 18 (2^22 edges) still builds
 * on 16 threads. */
#define KILN_BULK_PER_THREAD (UINT64_C(1) << 18)
int kiln_graph_threads_bulk(const kiln_ctx *ctx, uint64_t items);

/* Turns original ids into dense indices: the distinct ids, ascending, become 0..n-1. Frees the
 * raw arrays (take raw->w first: edge i of out keeps the weight of raw edge i). *ids receives the
 * id of each index, or NULL when the ids are exactly 0..n-1. */
kiln_status kiln_ids_remap(kiln_ctx *ctx, kiln_raw_edges *raw, kiln_edges *out, uint64_t **ids);

/* Builds g's CSR from e on the CPU threads (flags: KILN_GRAPH_UNDIRECTED, DROP_SELF_LOOPS). e is
 * left as it was. Fills g->n, m, offsets, sources, outdeg and the info counters. */
kiln_status kiln_csr_build_cpu(kiln_ctx *ctx, const kiln_edges *e, unsigned flags, kiln_graph *g);
/* The same with w[i] the weight of edge i (NULL: as kiln_csr_build_cpu): also fills g->weights
 * (duplicates summed; undirected, an edge weighs w[i] both ways and a self loop w[i] once) and
 * g->out_weight. */
kiln_status kiln_csr_build_cpu_weighted(kiln_ctx *ctx, const kiln_edges *e, const double *w, unsigned flags,
                                        kiln_graph *g);

/* Weights (weights.c). A weight as a text format writes it at *pp, up to the next blank:
 * [+-]digits[.digits][(e|E)[+-]digits] (or [+-].digits...), only [+-]digits when integer; read
 * as the nearest double in the C locale, whatever the process's locale (between
 * kiln_c_numeric_enter and _leave), which must be finite and >= 0 (-0 becomes 0). Without check
 * only the form is checked and *out is 1. Advances *pp; on failure returns -1 with *why set. */
typedef struct kiln_c_numeric {
    void *c, *old;
} kiln_c_numeric;
kiln_status kiln_c_numeric_enter(kiln_ctx *ctx, kiln_c_numeric *cn);
void kiln_c_numeric_leave(kiln_c_numeric *cn);
int kiln_parse_weight(const char **pp, const char *end, int integer, int check, double *out, const char **why);
/* Fills g->out_weight from g->weights, g->outdeg and the CSR, each vertex's out-edge weights summed
 * in ascending order of weight, so the sums do not depend on the threads' timing; sets
 * info.dangling to the vertices whose out-weight is 0. KILN_ERR_INPUT when a sum (or a merged
 * edge) is too large for a double. */
kiln_status kiln_graph_out_weights(kiln_ctx *ctx, kiln_graph *g);

/* Fills the degree-derived info fields (dangling, max degrees, self loops kept) from the CSR;
 * with g->out_weight, dangling counts the vertices whose out-weight is 0. */
void kiln_graph_finish_info(kiln_graph *g, int threads);

/* RMAT edges of spec, permuted, on the CPU threads (out->count = edge_factor << scale). */
kiln_status kiln_rmat_edges_cpu(kiln_ctx *ctx, const kiln_rmat_spec *spec, kiln_edges *out);
/* perm[r] = new label of raw vertex r, n = 2^scale entries. */
kiln_status kiln_rmat_permutation_cpu(kiln_ctx *ctx, const kiln_rmat_spec *spec, uint32_t *perm);
/* The weight kiln.h documents for RMAT edge u -> v of `seed` (u < v already ordered by the caller
 * for an undirected graph), in (0, 1]. */
double kiln_rmat_weight(uint64_t seed, uint32_t u, uint32_t v);
/* Gives g, an RMAT graph's CSR built on either device, those weights and its out-weights. */
kiln_status kiln_rmat_weights(kiln_ctx *ctx, uint64_t seed, int undirected, kiln_graph *g);
/* Only the weights of g's CSR edges (g->weights), not the out-weights: a part of a graph split
 * over processes sums those across them. */
kiln_status kiln_rmat_edge_weights(kiln_ctx *ctx, uint64_t seed, int undirected, kiln_graph *g);

/* Parsers: fill raw (original ids) or, for Matrix Market, e (n known from the header), and with
 * KILN_GRAPH_WEIGHTED in flags each edge's weight (raw->w; *w for Matrix Market, else NULL).
 * Messages go to ctx as "path:line: ...". */
typedef struct kiln_reader kiln_reader;
kiln_status kiln_parse_snap(kiln_ctx *ctx, kiln_reader *r, unsigned flags, kiln_raw_edges *raw);
kiln_status kiln_parse_mtx(kiln_ctx *ctx, kiln_reader *r, unsigned *flags, kiln_edges *e, double **w);

/* Binary CSR cache. The read takes the whole rest of r and refuses anything after the payload;
 * weighted (KILN_GRAPH_WEIGHTED, else 0) keeps the saved weights, which must be there. */
int kiln_csr_cache_sniff(const unsigned char *head, size_t len);
kiln_status kiln_csr_cache_write(kiln_ctx *ctx, const kiln_graph *g, const char *path);
/* Writes the cache into f (from kiln_output_open) and finishes it (kiln_output_finish): on
 * success it waits for kiln_output_commit_all; on failure it is removed. */
kiln_status kiln_csr_cache_write_to(kiln_ctx *ctx, const kiln_graph *g, kiln_output_file *f);
kiln_status kiln_csr_cache_read(kiln_ctx *ctx, kiln_reader *r, int weighted, kiln_graph *g);

/* Turns edges (weighted by w, or NULL) into g's CSR; the API passes its own, which may run on a GPU. */
typedef kiln_status (*kiln_csr_build_fn)(kiln_ctx *ctx, const kiln_edges *e, const double *w, unsigned flags,
                                         kiln_graph *g);

/* Loads a graph input into g (load.c): path, or "-" for standard input, is opened once and read
 * once from the start, its format told from its first bytes when format is KILN_GRAPH_AUTO (gzip
 * is undone first), so a pipe or a FIFO gives the same graph as the file. Text formats are built
 * by `build`; a CSR cache is taken as saved (flags must be 0 or KILN_GRAPH_WEIGHTED). */
kiln_status kiln_graph_load_input(kiln_ctx *ctx, const char *path, kiln_graph_format format, unsigned flags,
                                  kiln_csr_build_fn build, kiln_graph *g);

/* Allocates an empty handle; kiln_graph_free releases it and its arrays. */
kiln_graph *kiln_graph_alloc(void);
/* Frees g's arrays and sets them NULL, keeping the handle (a load that failed half way). */
void kiln_graph_release(kiln_graph *g);
/* g takes a built CSR: n vertices, m in-edges, its arrays (g frees them from now on). */
void kiln_graph_take_csr(kiln_graph *g, uint64_t n, uint64_t m, uint64_t *offsets, uint32_t *sources, uint32_t *outdeg);

/* Exclusive prefix sum of a[0..n) in place with `threads` threads; returns the total. */
uint64_t kiln_scan_u64(uint64_t *a, uint64_t n, int threads);

/* CPU PageRank in float64 (pagerank_cpu.c): NetworkX's definition,
 *   x' = d * (A^T y + D * q) + (1 - d) * p,   y[u] = x[u] / W_u,
 * W_u the out-weight sum of u (g->out_weight) or, without weights, its out-degree; D the sum of x
 * over the vertices with W_u = 0 (dangling); stop when sum |x' - x| < n * tol.
 * The problem is the caller's kiln_pagerank_options, checked by the API, with its vectors
 * replaced by normalized copies: n values each summing to 1, or NULL: the teleport distribution p
 * (NULL uniform), where dangling rank goes q (NULL: p), the start x0 (NULL uniform). One carrier
 * of the parameters, so a new one is added in kiln.h only. */
typedef kiln_pagerank_options kiln_pr_problem;
typedef struct kiln_pr_cpu_stats {
    int iterations, converged;
    double residual, seconds;
    double exchange_seconds; /* of seconds: sharing slices between parts (processes or devices) */
    int exchange; /* kiln_pr_exchange */
    int parts; /* GPU parts: their edges and memory peaks, as kiln_pagerank_result has them */
    uint64_t part_edges[KILN_PR_MAX_PARTS], part_peak_bytes[KILN_PR_MAX_PARTS];
} kiln_pr_cpu_stats;
/* single: y stored in float32 (sums stay float64). */
kiln_status kiln_pagerank_cpu(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *p, int single,
                              double *ranks, kiln_pr_cpu_stats *stats);
/* PageRank split over parts (processes under MPI, src/dist/): this part computes rows [v0, v1) of
 * each pass into its full-length y, then exchange completes y from the other parts (elem bytes a
 * value: 8 float64, 4 float32; y NULL: no values, only the stop agreement) and replaces sums[0]
 * (L1 change) and sums[1] (dangling mass) by their totals over the parts; *stop in says this part
 * asks to stop, out whether any does. 0, or -1 when the exchange failed. Every part needs the
 * global outdeg / out_weight and the problem's vectors; its CSR only its own rows. */
typedef struct kiln_pr_split {
    uint64_t v0, v1;
    int (*exchange)(void *arg, void *y, size_t elem, double sums[2], int *stop);
    void *arg;
    /* For GPU parts exchanging through NCCL: the parts (processes) and this one's number, every
     * part's first row (bounds[nparts] = n), and bcast, which sends bytes from part 0 to all
     * (0, or -1 when it failed); and allgather, which gives every part the count uint64 values
     * of each, in part order (all[nparts * count]; 0 or -1). NULL bcast: no NCCL. */
    int nparts, rank;
    const uint64_t *bounds;
    int (*bcast)(void *arg, void *buf, size_t bytes);
    int (*allgather)(void *arg, const uint64_t *mine, uint64_t *all, int count);
} kiln_pr_split;
/* kiln_pagerank_cpu over a split (NULL: the whole graph, as kiln_pagerank_cpu). */
kiln_status kiln_pagerank_cpu_split(kiln_ctx *ctx, const kiln_graph *g, const kiln_pr_problem *p, int single,
                                    const kiln_pr_split *split, double *ranks, kiln_pr_cpu_stats *stats);
/* One float64 iteration of problem p from x: returns sum |P(x) - x| (the verifier of device
 * results), or a negative value when out of memory. */
double kiln_pagerank_cpu_residual(const kiln_graph *g, const kiln_pr_problem *p, const double *x, int threads);
/* The same over rows [v0, v1) only (a part of a split: its share of the sum). */
double kiln_pagerank_cpu_residual_rows(const kiln_graph *g, const kiln_pr_problem *p, const double *x, uint64_t v0,
                                       uint64_t v1, int threads);

#endif
