/* PageRank on the GPU: what the two iteration paths share (pagerank.cu, the whole-chip kernel
 * launched once per iteration, and its host side; pagerank_cluster.cu, the small-graph kernel that
 * runs many iterations in one launch). The layout, the modes and the contribution trick are
 * described at the top of pagerank.cu. */
#ifndef KILN_CUDA_PAGERANK_DEV_CUH
#define KILN_CUDA_PAGERANK_DEV_CUH

#include <math.h>
#include <stdint.h>

#include "cuda_state.h"

namespace kiln_pr {

constexpr int kBlock = 256;
constexpr int kSlots = 32;
/* in-degree classes: [2048, inf) a block per row; then [1024, 2048), [512, 1024), ..., [2, 4),
 * [0, 2), each staged (with reorder) or G lanes a row (without) */
constexpr int kClasses = 12;
constexpr int kBlockRowMin = 2048;
constexpr int kStageEdges = 4096; /* edges a block stages in shared memory */
constexpr int kStageRowsMax = 2048; /* rows a staged block finishes (8 a thread) */

struct alignas(128) Slot {
    double res, dang;
};

struct PrState {
    unsigned count; /* iterations carried out */
    unsigned done; /* set by the first launch that finds the previous iteration converged */
    double res; /* with done (and always on the cluster path): the L1 change of the last iteration */
    double dang; /* cluster path: the dangling mass of the last iteration, carried between launches */
};

enum { KIND_BLOCK = 0, KIND_LANES = 1, KIND_STAGED = 2 };

/* What a kernel instantiation computes beyond the plain definition (bit set). */
enum { MODE_PLAIN = 0, MODE_WEIGHTED = 1, MODE_TELEPORT = 2 };

struct Bins {
    int count;
    uint64_t row_begin[kClasses + 1]; /* bin k = rows [row_begin[k], row_begin[k+1]) in visiting order */
    uint64_t block_begin[kClasses + 1]; /* its first block; block_begin[count] = grid size */
    int kind[kClasses]; /* KIND_* */
    int lanes_log2[kClasses]; /* lanes per row for KIND_LANES and KIND_STAGED */
    int rows_per_block[kClasses];
};

template <typename T, typename Off> struct Args {
    const Off *__restrict__ off;
    const uint32_t *__restrict__ src;
    const uint32_t *__restrict__ odeg; /* MODE_WEIGHTED: 1, or 0 for a dangling vertex */
    const uint32_t *__restrict__ order; /* visiting position -> row; NULL when rows are relabelled */
    T *y0, *y1;
    PrState *st;
    Slot *ring; /* 3 x kSlots: iteration j adds into entry j % 3 */
    Bins bins;
    double damping, inv_n, threshold;
    const T *__restrict__ w; /* MODE_WEIGHTED: w[j] / W[src[j]], aligned with src */
    const T *__restrict__ tp; /* MODE_TELEPORT: personalization by row, or NULL (uniform) */
    const T *__restrict__ tq; /* MODE_TELEPORT: dangling vector by row, or NULL (q = p) */
    /* the label of row 0 in the rank vectors: 0 for a whole graph, the first row of a part of the
     * rows (pagerank_part.cu), whose sources still index the whole vector */
    uint64_t row0;
};

/* Per launch: x = d * sum + base (+ cp * tp[v] + cq * tq[v] in MODE_TELEPORT). */
template <typename T> struct Coef {
    T d, base, cp, cq;
};

__host__ __device__ inline int degree_class(uint64_t deg)
{
    if (deg >= (uint64_t)kBlockRowMin) return 0;
    int c = 11;
    for (uint64_t d = deg; d >= 2; d >>= 1) c--;
    return c; /* 1024..2047 -> 1, 512..1023 -> 2, ..., 2..3 -> 10, 0..1 -> 11 */
}

/* Largest in-degree of class c >= 1, and its lanes per row (log2). */
__host__ __device__ inline int class_max_degree(int c) { return (1 << (12 - c)) - 1; }
__host__ __device__ inline int class_lanes_log2(int c) { return c <= 6 ? 5 : 11 - c; }

/* New x of row v, whose out-degree is od (1 or 0 in MODE_WEIGHTED), from the sum of its sources'
 * y; accumulates the L1 change and dangling mass. */
template <int M, typename T, typename Off>
__device__ __forceinline__ void finish_row_od(const Args<T, Off> &a, uint32_t v, uint32_t od, T sum, const T *y_in,
                                              T *y_out, const Coef<T> &c, double &res, double &dang)
{
    const T yo = y_in[a.row0 + v];
    T x = c.d * sum + c.base;
    if constexpr ((M & MODE_TELEPORT) != 0) {
        if (a.tp) x += c.cp * __ldg(&a.tp[v]);
        if (a.tq) x += c.cq * __ldg(&a.tq[v]);
    }
    /* weighted: od is 1 or 0 and y = x (the weights are already shares of W) */
    const T old = (od && !(M & MODE_WEIGHTED)) ? yo * (T)od : yo;
    res += fabs((double)x - (double)old);
    if (od) {
        y_out[a.row0 + v] = (M & MODE_WEIGHTED) ? x : x / (T)od;
    } else {
        y_out[a.row0 + v] = x;
        dang += (double)x;
    }
}

template <int M, typename T, typename Off>
__device__ __forceinline__ void finish_row(const Args<T, Off> &a, uint32_t v, T sum, const T *y_in, T *y_out,
                                           const Coef<T> &c, double &res, double &dang)
{
    finish_row_od<M>(a, v, a.odeg[v], sum, y_in, y_out, c, res, dang);
}

/* Edge j's weight share in MODE_WEIGHTED (streamed like the sources), else 1 and no load. */
template <int M, typename T, typename Off> __device__ __forceinline__ T edge_weight(const Args<T, Off> &a, Off j)
{
    if constexpr ((M & MODE_WEIGHTED) != 0) return __ldcs(&a.w[j]);
    else return (T)1;
}

/* What edge j adds to its row: the gathered y, times the weight share in MODE_WEIGHTED. */
template <int M, typename T> __device__ __forceinline__ T term(T w, T y)
{
    if constexpr ((M & MODE_WEIGHTED) != 0) return w * y;
    else return y;
}

/* The teleport and dangling terms of an iteration whose previous one left `dangling` rank on
 * dangling vertices: x = d * sum + base (+ cp * tp[v] + cq * tq[v] in MODE_TELEPORT). */
template <int M, typename T, typename Off> __device__ __forceinline__ Coef<T> make_coef(const Args<T, Off> &a, double dangling)
{
    Coef<T> c;
    c.d = (T)a.damping;
    if constexpr ((M & MODE_TELEPORT) != 0) {
        /* (1 - d) p + d D q, each vector either given or uniform (then a constant); q = p
         * when no dangling vector was given */
        double base = 0, cp = 0, cq = 0;
        const double dd = a.damping * dangling;
        if (a.tp) cp = 1.0 - a.damping;
        else base = (1.0 - a.damping) * a.inv_n;
        if (a.tq) cq = dd;
        else if (a.tp) cp += dd;
        else base += dd * a.inv_n;
        c.base = (T)base;
        c.cp = (T)cp;
        c.cq = (T)cq;
    } else {
        c.base = (T)(((1.0 - a.damping) + a.damping * dangling) * a.inv_n);
        c.cp = c.cq = 0;
    }
    return c;
}

/* G lanes a row as a type, so a lambda can take it as a template argument (decltype(g)::value). */
template <int G> struct Lanes {
    static constexpr int value = G;
};

/* Runs rows(Lanes<G>{}) with G = 2^lanes_log2 lanes a row, 1 to 32: a degree bin's lane count,
 * known at run time, as the row loops' compile-time G. */
template <typename F> __device__ __forceinline__ void with_lanes(int lanes_log2, F &&rows)
{
    switch (lanes_log2) {
    case 5: rows(Lanes<32>{}); break;
    case 4: rows(Lanes<16>{}); break;
    case 3: rows(Lanes<8>{}); break;
    case 2: rows(Lanes<4>{}); break;
    case 1: rows(Lanes<2>{}); break;
    default: rows(Lanes<1>{}); break;
    }
}

/* ---- the cluster path (pagerank_cluster.cu) */

constexpr int kClusterMax = 8; /* blocks of a cluster: the portable cluster size */

/* How the cluster kernel runs a graph: its blocks, each block's rows (balanced by edges + rows),
 * and the shared memory of a block (the two rank vectors and its own rows' slice of the CSR). */
struct ClusterPlan {
    int blocks; /* 0: the cluster kernel cannot run the graph */
    uint32_t row_split[kClusterMax + 1]; /* block b owns rows [row_split[b], row_split[b + 1]) */
    uint32_t max_rows, max_edges; /* the largest slice, which sizes the shared arrays */
    size_t smem;
};

/* Graphs past this many edges are not looked at (their offsets are not even copied back). */
constexpr uint64_t kClusterMaxEdges = UINT64_C(1) << 20;

/* The plan for the relabelled graph with host offsets off[n + 1], or blocks = 0 with the reason
 * in *why. */
template <typename Off>
ClusterPlan cluster_plan(kiln_gpu *st, const Off *off, uint64_t n, int use_double, int weighted, const char **why);

/* Runs up to `iters` more iterations from the state in a.st (count, done, dang, and y in a.y0 /
 * a.y1 by the parity of count), stopping early when one converges; leaves the new state and y
 * the same way. */
template <typename T, typename Off>
cudaError_t cluster_launch(const Args<T, Off> &a, int mode, const ClusterPlan &plan, uint32_t n, unsigned iters,
                           cudaStream_t s);

} // namespace kiln_pr

#endif
