/* PageRank on the GPU: what the iteration kernel (pagerank_iter.cuh) and its two hosts share
 * (pagerank.cu, a whole graph; pagerank_part.cu, a part of the rows). The layout, the modes and
 * the contribution trick are described at the top of pagerank.cu; the degree classes and bins
 * are src/prim/pagerank_layout.h's, which the OpenCL backend uses too, and the teleport and
 * dangling coefficients src/prim/pagerank.h's, which the CPU and OpenCL use too. */
#ifndef KILN_CUDA_PAGERANK_DEV_CUH
#define KILN_CUDA_PAGERANK_DEV_CUH

#include <math.h>
#include <stdint.h>

#include "cuda_state.h"
#include "../prim/pagerank.h"
#include "../prim/pagerank_layout.h"

namespace kiln_pr {

constexpr int kBlock = 256;
constexpr int kSlots = 32;
constexpr int kClasses = KILN_PR_CLASSES;
constexpr int kStageEdges = KILN_PR_STAGE_EDGES; /* edges a block stages in shared memory */

struct alignas(128) Slot {
    double res, dang;
};

struct PrState {
    unsigned count; /* iterations carried out */
    unsigned done; /* set by the first launch that finds the previous iteration converged */
    double res; /* with done: the L1 change of the last iteration */
};

enum { KIND_BLOCK = KILN_PR_KIND_BLOCK, KIND_LANES = KILN_PR_KIND_LANES, KIND_STAGED = KILN_PR_KIND_STAGED };

/* What a kernel instantiation computes beyond the plain definition (bit set). */
enum { MODE_PLAIN = 0, MODE_WEIGHTED = 1, MODE_TELEPORT = 2 };

typedef kiln_pr_bins Bins;

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
    const bool teleport = (M & MODE_TELEPORT) != 0;
    const kiln_pr_coef k = kiln_pr_coefficients(a.damping, dangling, teleport && a.tp, teleport && a.tq);
    Coef<T> c;
    c.d = (T)k.d;
    c.base = (T)(k.uniform * a.inv_n);
    c.cp = (T)k.cp;
    c.cq = (T)k.cq;
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

} // namespace kiln_pr

#endif
