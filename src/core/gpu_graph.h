/* The GPU table of the graph kind (src/graph and PageRank, src/api/graph_api.c, pagerank.c and
 * pagerank_parts.c): a backend that runs PageRank on its devices points its core table's `graph`
 * at one of these (core/gpu.h), and leaves it NULL otherwise. The table sits in core, beside the
 * core table rather than beside src/graph, because the backends that fill it (src/cuda,
 * src/opencl) are below the workloads. Errors as for every GPU operation: into the handle's
 * context, with the status returned. */
#ifndef KILN_CORE_GPU_GRAPH_H
#define KILN_CORE_GPU_GRAPH_H

#include <stdint.h>

#include "../prim/rmat.h"
#include "ctx.h"
#include "gpu_collective.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- graphs and PageRank */

/* A CSR of in-edges built on the device and copied back into malloc'ed host arrays. */
typedef struct kiln_gpu_csr {
    uint64_t n, m;
    uint64_t *offsets; /* n + 1 */
    uint32_t *sources; /* m, ascending within each row */
    uint32_t *outdeg; /* n */
    uint64_t edges_read, self_loops_removed, duplicates_removed;
} kiln_gpu_csr;

typedef struct kiln_gpu_pr_graph {
    uint64_t n, m, dangling;
    const uint64_t *offsets;
    const uint32_t *sources;
    const uint32_t *outdeg;
    /* A weighted graph (else both NULL): the weight of each in-edge, aligned with sources, and each
     * vertex's out-weight sum; a vertex is dangling when it is 0 (outdeg is then not used). */
    const double *weights;
    const double *out_weight;
} kiln_gpu_pr_graph;

/* kiln_pagerank_kernel's values */
enum { KILN_GPU_PR_AUTO = 0, KILN_GPU_PR_GRID = 1, KILN_GPU_PR_PERSISTENT = 4 };

typedef struct kiln_gpu_pr_params {
    double damping, tol;
    int max_iter;
    int use_double; /* float64 ranks instead of float32 */
    int reorder; /* relabel by descending in-degree (else process the rows through an index list) */
    int repeat; /* timed runs of the loop from x0; the median is reported */
    int kernel; /* KILN_GPU_PR_AUTO, _GRID or _PERSISTENT */
    /* n values each, already normalized to sum 1 by the API, or NULL: personalization (teleport;
     * NULL uniform), dangling (where dangling rank goes; NULL: the personalization), nstart (x0;
     * NULL uniform). x' = d (A^T y + D q) + (1 - d) p with D the dangling rank. */
    const double *personalization;
    const double *dangling;
    const double *nstart;
} kiln_gpu_pr_params;

typedef struct kiln_gpu_pr_stats {
    int iterations, converged;
    double residual;
    double loop_ms; /* median over the runs, device events */
    double setup_s;
    int kernel; /* the one that ran: KILN_GPU_PR_GRID or _PERSISTENT */
} kiln_gpu_pr_stats;

/* ---- PageRank over row parts: several devices of a context, or one process of a split (MPI).
 * A part holds rows [v0, v1) of the in-edge CSR and a whole contribution vector y (y = x / outdeg
 * unweighted, x itself for a dangling vertex and for every vertex of a weighted graph, whose
 * edges carry their share of the source's out-weight) in float32 or float64, in two copies:
 * `cur`, read by a pass, and `next`, whose own rows a pass writes. The host completes `next` from
 * the other parts (the parts table's share, its get and put through the host, or the collective
 * table's allgather) and flips. */
typedef struct kiln_gpu_pr_part_spec {
    uint64_t n, v0, v1;
    const uint64_t *offsets; /* the graph's, indexed by vertex: rows v0..v1 are used */
    const uint32_t *sources; /* indexed by the offsets' values, as the graph's own */
    const double *weights; /* aligned with sources, or NULL (unweighted) */
    const uint32_t *outdeg; /* n */
    const double *out_weight; /* n, or NULL: W = outdeg */
    const double *personalization, *dangling; /* n, normalized, or NULL (uniform; dangling: personalization) */
    double damping;
    int use_double;
} kiln_gpu_pr_part_spec;

/* PageRank over row parts (above), one graph pass at a time. open uploads the part's rows and
 * gives their visiting order (order[r]: the part's row at its position r, 0-based within the
 * part); relabel takes the graph's new label of every vertex (old2new, n values: each part's rows
 * keep its range) and lays the rows out in those labels, after which every vector is in the new
 * labels; put/get copy rows [first, first + count) of `cur` from/to the host (elements of 4 or 8
 * bytes as use_double says); launch starts a pass (cur -> own rows of next) with the last dangling
 * mass on the part's stream, sums waits for it and gives its rows' L1 change and new dangling mass;
 * share copies src's own rows of next into dst's next (a peer copy, or a device copy on one GPU),
 * both passes finished; flip makes next current. All of them, in a table. */
typedef struct kiln_gpu_pr_part_ops {
    kiln_status (*open)(kiln_gpu *g, const kiln_gpu_pr_part_spec *spec, uint32_t *order, kiln_gpu_pr_part **out);
    kiln_status (*relabel)(kiln_gpu_pr_part *p, const kiln_gpu_pr_part_spec *spec, const uint32_t *old2new);
    kiln_status (*put)(kiln_gpu_pr_part *p, const void *y, uint64_t first, uint64_t count);
    kiln_status (*get)(kiln_gpu_pr_part *p, void *y, uint64_t first, uint64_t count);
    kiln_status (*launch)(kiln_gpu_pr_part *p, double dangling);
    kiln_status (*sums)(kiln_gpu_pr_part *p, double *res, double *dangling);
    kiln_status (*share)(kiln_gpu_pr_part *dst, const kiln_gpu_pr_part *src);
    void (*flip)(kiln_gpu_pr_part *p);
    /* whether share goes through host memory (each device its own context) rather than device to
     * device: what a run reports as its exchange */
    int share_via_host;
    /* seconds the shares into p took on its stream since the last call (device events) */
    double (*share_seconds)(kiln_gpu_pr_part *p);
    void (*close)(kiln_gpu_pr_part *p);
} kiln_gpu_pr_part_ops;

/* Declares a backend's row-part operations with the table's signatures, named prefix_pr_part_open
 * .. prefix_pr_part_close (KILN_GPU_PR_PART_DECLARE(kiln_cuda): kiln_cuda_pr_part_open, ..), so
 * that every backend's ten declarations are these. */
#define KILN_GPU_PR_PART_DECLARE(prefix)                                                                           \
    kiln_status prefix##_pr_part_open(kiln_gpu *g, const kiln_gpu_pr_part_spec *spec, uint32_t *order,            \
                                      kiln_gpu_pr_part **out);                                                     \
    kiln_status prefix##_pr_part_relabel(kiln_gpu_pr_part *p, const kiln_gpu_pr_part_spec *spec,                  \
                                         const uint32_t *old2new);                                                 \
    kiln_status prefix##_pr_part_put(kiln_gpu_pr_part *p, const void *y, uint64_t first, uint64_t count);         \
    kiln_status prefix##_pr_part_get(kiln_gpu_pr_part *p, void *y, uint64_t first, uint64_t count);               \
    kiln_status prefix##_pr_part_launch(kiln_gpu_pr_part *p, double dangling);                                    \
    kiln_status prefix##_pr_part_sums(kiln_gpu_pr_part *p, double *res, double *dangling);                        \
    kiln_status prefix##_pr_part_share(kiln_gpu_pr_part *dst, const kiln_gpu_pr_part *src);                       \
    void prefix##_pr_part_flip(kiln_gpu_pr_part *p);                                                              \
    double prefix##_pr_part_share_seconds(kiln_gpu_pr_part *p);                                                   \
    void prefix##_pr_part_close(kiln_gpu_pr_part *p)

/* ---- PageRank on vectors in device memory (docs/DEVICE_MEMORY.md): a plan is a whole graph laid
 * out once on one device (its rows relabelled and uploaded, its rank buffers and state allocated),
 * run any number of times on the caller's stream with the vectors and ranks in device memory. */
typedef struct kiln_gpu_pr_plan kiln_gpu_pr_plan;

/* A vector of a device run that is not a distribution, as kiln_pagerank's check finds it: the
 * first such vector (0 personalization, 1 dangling, 2 nstart; -1: none), and either its first bad
 * value (index, value) or, with zero_sum, its sum 0. */
typedef struct kiln_gpu_pr_bad {
    int vector;
    int zero_sum;
    uint64_t index;
    double value;
} kiln_gpu_pr_bad;

typedef struct kiln_gpu_graph_ops {
    /* ---- required of a table: PageRank over an in-edge CSR, ranks[n] in the graph's vertex
     * order. */
    kiln_status (*pagerank)(kiln_gpu *g, const kiln_gpu_pr_graph *graph, const kiln_gpu_pr_params *p, double *ranks,
                            kiln_gpu_pr_stats *stats);

    /* ---- optional, NULL where the backend has not got it: the library then does without (the
     * CPU builds the graph; the several-device PageRank and a split's parts are refused).
     * The graph builds. Edges (vertex indices below n) -> in-edge CSR, the same arrays as the CPU
     * build; RMAT generated on the device. rmat_part_csr: rows [v0, v1) of the RMAT graph's in-edge
     * CSR, built on this device alone: every edge is drawn here and those whose destination
     * (undirected: either end) is in the rows are kept, so the device never holds more than its
     * rows' edges. out->n is the graph's n; offsets has v1 - v0 + 1 values from 0, sources the
     * part's m; outdeg (n values) counts the part's edges by source (the parts' add up to the
     * graph's); edges_read and self_loops_removed are the whole graph's, duplicates_removed the
     * part's. KILN_ERR_INPUT, before the large allocations, when the part's build needs more memory
     * than the device has free. */
    kiln_status (*csr_from_edges)(kiln_gpu *g, const uint32_t *src, const uint32_t *dst, uint64_t count, uint64_t n,
                                  int undirected, int drop_loops, kiln_gpu_csr *out);
    kiln_status (*rmat_csr)(kiln_gpu *g, const kiln_rmat_spec *spec, int undirected, kiln_gpu_csr *out);
    kiln_status (*rmat_part_csr)(kiln_gpu *g, const kiln_rmat_spec *spec, int undirected, uint64_t v0, uint64_t v1,
                                 kiln_gpu_csr *out);
    /* The most device memory the device was seen using at the fullest points of the graph builds
     * and the PageRank parts' setup (the runtime's own context and anything else on that device
     * included). */
    uint64_t (*mem_peak)(kiln_gpu *g);
    /* PageRank in row parts (several devices of a context, or one process of a split). */
    const kiln_gpu_pr_part_ops *parts;
    /* The largest one buffer the device allocates, where its driver caps a buffer below its memory
     * (OpenCL's CL_DEVICE_MAX_MEM_ALLOC_SIZE); NULL: no cap but the free memory. The library builds
     * on the host a graph whose edge keys (8 bytes each) would not fit one. */
    uint64_t (*max_buffer)(kiln_gpu *g);
    /* PageRank on vectors in device memory (NULL where the backend has not got it). plan_new lays
     * the graph out (p: use_double, reorder; the rest is per run). plan_run: p's damping, tol,
     * max_iter and kernel, its vectors device pointers (n doubles each in the graph's vertex
     * order, not normalized: the device normalizes them as the API does on the host, or NULL),
     * the ranks into ranks (n doubles, device) on `stream`. wait 0: everything is enqueued and
     * nothing read (a bad vector gives NaN ranks); wait 1: the run reads its vector checks (bad
     * filled, KILN_ERR_INPUT with no message when one fails) and its convergence state, as
     * kiln_pagerank's loop does, fills stats and returns with the stream done. */
    kiln_status (*pr_plan_new)(kiln_gpu *g, const kiln_gpu_pr_graph *graph, const kiln_gpu_pr_params *p,
                               kiln_gpu_pr_plan **out);
    kiln_status (*pr_plan_run)(kiln_gpu_pr_plan *plan, const kiln_gpu_pr_params *p, double *ranks, void *stream,
                               int wait, kiln_gpu_pr_stats *stats, kiln_gpu_pr_bad *bad);
    void (*pr_plan_free)(kiln_gpu_pr_plan *plan);
} kiln_gpu_graph_ops;

#ifdef __cplusplus
}
#endif

#endif
