/* PageRank on the GPU.
 *
 * Layout. Vertices are put in descending order of in-degree (CUB radix sort of the degrees), and
 * by default relabelled in that order: the CSR is rebuilt on the device with the new labels and
 * each row's sources sorted (cub::DeviceSegmentedSort). Rows of similar length then sit together
 * in ranges ("bins"), each processed its own way without an index list: a block per row of 2048+
 * edges, and below that a block takes a run of consecutive rows holding at most 4096 edges,
 * loads their sources with every thread (coalesced, two rounds of eight loads in flight per
 * thread), gathers the ranks into shared memory, and then sums each row from there with 1..32
 * lanes per row by bin. The ranks of the high-degree vertices that most edges point
 * from also share a few cache lines after relabelling, so most gathers hit in L2. With reorder
 * off, rows keep their labels and are visited through the sorted index list, G lanes a row.
 *
 * Iteration (one kernel per iteration): each vertex keeps y = x / out-degree (x for a dangling
 * vertex), so a row sums y over its sources with no division per edge (the contribution trick);
 * the same pass writes the next y, and each block adds its share of the L1 change and of the new
 * dangling mass (float64, fire-and-forget atomics) into one of 32 slots of a ring of three. The
 * next iteration's blocks fold the previous ring entry when they start (all alike, so all take the
 * same decision): it gives the teleport term, and when the L1 change is already below N*tol the
 * kernel marks the state done and returns without writing, as every later launch does. No block
 * waits for another, so the host queues batches of iterations (a CUDA graph of launches whose
 * only argument that differs is the iteration number mod 6) and reads the state only between
 * batches, or never when the count is fixed.
 *
 * NetworkX's whole definition, x' = d (A^T y + D q) + (1 - d) p, comes in through a template mode
 * so the plain run (unweighted, uniform p and q) compiles to the same code as before:
 *  - MODE_WEIGHTED: the setup turns each edge weight into its share of the source's out-weight,
 *    w[j] / W[src[j]] (NetworkX's stochastic_graph), stored in the rank type beside the sources and
 *    moved with them by the relabelling and the row sort (segmented sort of pairs). The out-degree
 *    array then holds 1 for a vertex with out-weight and 0 for a dangling one (W = 0), so y = x
 *    and the row code is unchanged; only the gather multiplies. Normalizing per edge rather than
 *    dividing x by W keeps float32 exact where W is tiny or huge. Cost: 4 more streamed bytes an
 *    edge with float32 ranks (8 with float64) on top of the 4-byte source and the gathered rank;
 *    staged rows put the product in shared memory, so the staging size does not change.
 *  - MODE_TELEPORT: p and/or q as arrays over the visiting order (relabelled with the rows); the
 *    row update is x = d sum + base + cp p[v] + cq q[v], the coefficients taken per launch from D
 *    (q = p folds into cp, a uniform one into base). 4 or 8 more bytes a row per given vector.
 * nstart only changes the initial y (x0 / out-degree) and the initial dangling mass.
 */
#include <cub/cub.cuh>
#include <algorithm>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <type_traits>
#include <vector>

#include "cuda_state.h"
#include "dev_array.cuh"
#include "pagerank_dev.cuh"

using namespace kiln_pr;

namespace {

double now_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sum over edges [beg, end) taken by lanes lane, lane+G, ...; with a whole block on the row eight
 * loads in flight per thread, four with 8+ lanes. */
template <int G, int M, typename T, typename Off>
__device__ __forceinline__ T gather(const Args<T, Off> &a, const T *__restrict__ y_in, Off beg, Off end, int lane)
{
    T s0 = 0, s1 = 0;
    Off j = beg + (Off)lane;
    if (G >= 256) {
        for (; j + 7 * G < end; j += 8 * G) {
            uint32_t u[8];
            T w[8];
#pragma unroll
            for (int k = 0; k < 8; k++) {
                u[k] = __ldcs(&a.src[j + k * G]);
                w[k] = edge_weight<M>(a, j + k * G);
            }
#pragma unroll
            for (int k = 0; k < 8; k += 2) {
                s0 += term<M>(w[k], __ldg(&y_in[u[k]]));
                s1 += term<M>(w[k + 1], __ldg(&y_in[u[k + 1]]));
            }
        }
    }
    if (G >= 8) {
        for (; j + 3 * G < end; j += 4 * G) {
            const uint32_t u0 = __ldcs(&a.src[j]), u1 = __ldcs(&a.src[j + G]), u2 = __ldcs(&a.src[j + 2 * G]),
                           u3 = __ldcs(&a.src[j + 3 * G]);
            const T w0 = edge_weight<M>(a, j), w1 = edge_weight<M>(a, j + G), w2 = edge_weight<M>(a, j + 2 * G),
                    w3 = edge_weight<M>(a, j + 3 * G);
            s0 += term<M>(w0, __ldg(&y_in[u0])) + term<M>(w2, __ldg(&y_in[u2]));
            s1 += term<M>(w1, __ldg(&y_in[u1])) + term<M>(w3, __ldg(&y_in[u3]));
        }
    }
    for (; j < end; j += G) s0 += term<M>(edge_weight<M>(a, j), __ldg(&y_in[__ldcs(&a.src[j])]));
    return s0 + s1;
}

/* Rows [first, last) of the visiting order, G lanes a row, consecutive groups on consecutive rows. */
template <int G, bool Indirect, int M, typename T, typename Off>
__device__ __forceinline__ void rows_lanes(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c,
                                           uint64_t first, uint64_t last, double &res, double &dang)
{
    constexpr int groups = kBlock / G;
    const int lane = threadIdx.x & (G - 1);
    const int group = threadIdx.x / G;
    for (uint64_t p0 = first; p0 < last; p0 += groups) {
        const uint64_t p = p0 + (uint64_t)group;
        const bool active = p < last;
        uint32_t v = 0;
        Off beg = 0, end = 0;
        if (active) {
            v = Indirect ? a.order[p] : (uint32_t)p;
            beg = a.off[v];
            end = a.off[v + 1];
        }
        T sum = gather<G, M>(a, y_in, beg, end, lane);
#pragma unroll
        for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o, G);
        if (active && lane == 0) finish_row<M>(a, v, sum, y_in, y_out, c, res, dang);
    }
}

/* One row for the whole block. */
template <bool Indirect, int M, typename T, typename Off>
__device__ __forceinline__ void row_block(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c, uint64_t p,
                                          double &res, double &dang)
{
    __shared__ T part[kBlock / 32];
    const uint32_t v = Indirect ? a.order[p] : (uint32_t)p;
    T sum = gather<kBlock, M>(a, y_in, a.off[v], a.off[v + 1], threadIdx.x);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        T s = 0;
#pragma unroll
        for (int w = 0; w < kBlock / 32; w++) s += part[w];
        finish_row<M>(a, v, s, y_in, y_out, c, res, dang);
    }
}

/* Rows [first, last) of the relabelled CSR whose edges (at most kStageEdges) are staged: every
 * thread loads sources and gathers ranks (times the weight share in MODE_WEIGHTED, so one value
 * an edge either way) into shared memory, then G lanes sum each row there. */
template <int G, int M, typename T, typename Off>
__device__ __forceinline__ void rows_staged(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c,
                                            uint64_t first, uint64_t last, T *vals, double &res, double &dang)
{
    constexpr int per = kStageEdges / kBlock;
    const Off e0 = a.off[first];
    const int count = (int)(a.off[last] - e0);
#pragma unroll
    for (int b = 0; b < per; b += 8) {
        uint32_t u[8];
        T w[8];
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int i = threadIdx.x + (b + k) * kBlock;
            u[k] = i < count ? __ldcs(&a.src[e0 + (Off)i]) : 0u;
            w[k] = i < count ? edge_weight<M>(a, e0 + (Off)i) : (T)0;
        }
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int i = threadIdx.x + (b + k) * kBlock;
            if (i < count) vals[i] = term<M>(w[k], __ldg(&y_in[u[k]]));
        }
    }
    __syncthreads();
    constexpr int groups = kBlock / G;
    const int lane = threadIdx.x & (G - 1);
    const int group = threadIdx.x / G;
    for (uint64_t p0 = first; p0 < last; p0 += groups) {
        const uint64_t p = p0 + (uint64_t)group;
        const bool active = p < last;
        int b = 0, e = 0;
        if (active) {
            b = (int)(a.off[p] - e0);
            e = (int)(a.off[p + 1] - e0);
        }
        T sum = 0;
        for (int k = b + lane; k < e; k += G) sum += vals[k];
#pragma unroll
        for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o, G);
        if (active && lane == 0) finish_row<M>(a, (uint32_t)p, sum, y_in, y_out, c, res, dang);
    }
}

/* Iteration j (from 1); phase = j mod 6 gives the parity of the rank buffers and the ring entry. */
template <typename T, typename Off, bool Indirect, int M>
__global__ void __launch_bounds__(kBlock, 4) pr_iteration(Args<T, Off> a, unsigned phase)
{
    /* one staging buffer for every bin's instantiation (each would otherwise get its own) */
    __shared__ T stage[Indirect ? 1 : kStageEdges];
    __shared__ double prev[2];
    if (__ldcg(&a.st->done)) return;
    if (threadIdx.x < 32) {
        const Slot *pr = a.ring + ((phase + 2) % 3) * kSlots;
        double r = __ldcg(&pr[threadIdx.x].res), g = __ldcg(&pr[threadIdx.x].dang);
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            r += __shfl_xor_sync(0xffffffffu, r, o);
            g += __shfl_xor_sync(0xffffffffu, g, o);
        }
        if (threadIdx.x == 0) prev[0] = r, prev[1] = g;
    }
    __syncthreads();
    const double dangling = prev[1];
    if (prev[0] < a.threshold) {
        /* iteration j-1 converged: its x stays in place */
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            a.st->res = prev[0];
            a.st->done = 1;
        }
        return;
    }
    if (blockIdx.x == 0 && threadIdx.x < kSlots) {
        /* the entry iteration j+1 adds into was last read by iteration j-1, which has ended */
        Slot *next = a.ring + ((phase + 1) % 3) * kSlots;
        next[threadIdx.x].res = 0;
        next[threadIdx.x].dang = 0;
        if (threadIdx.x == 0) a.st->count += 1;
    }
    const T *y_in = (phase & 1) ? a.y0 : a.y1;
    T *y_out = (phase & 1) ? a.y1 : a.y0;
    const Coef<T> c = make_coef<M>(a, dangling);

    int k = 0;
    while (k + 1 < a.bins.count && blockIdx.x >= a.bins.block_begin[k + 1]) k++;
    const uint64_t rpb = (uint64_t)a.bins.rows_per_block[k];
    const uint64_t first = a.bins.row_begin[k] + (blockIdx.x - a.bins.block_begin[k]) * rpb;
    const uint64_t last = min(first + rpb, a.bins.row_begin[k + 1]);
    double res = 0, dang = 0;
    if (a.bins.kind[k] == KIND_BLOCK) {
        row_block<Indirect, M>(a, y_in, y_out, c, first, res, dang);
    } else if (a.bins.kind[k] == KIND_STAGED) {
        if constexpr (!Indirect) {
            switch (a.bins.lanes_log2[k]) {
            case 5: rows_staged<32, M>(a, y_in, y_out, c, first, last, stage, res, dang); break;
            case 4: rows_staged<16, M>(a, y_in, y_out, c, first, last, stage, res, dang); break;
            case 3: rows_staged<8, M>(a, y_in, y_out, c, first, last, stage, res, dang); break;
            case 2: rows_staged<4, M>(a, y_in, y_out, c, first, last, stage, res, dang); break;
            case 1: rows_staged<2, M>(a, y_in, y_out, c, first, last, stage, res, dang); break;
            default: rows_staged<1, M>(a, y_in, y_out, c, first, last, stage, res, dang); break;
            }
        }
    } else {
        switch (a.bins.lanes_log2[k]) {
        case 5: rows_lanes<32, Indirect, M>(a, y_in, y_out, c, first, last, res, dang); break;
        case 4: rows_lanes<16, Indirect, M>(a, y_in, y_out, c, first, last, res, dang); break;
        case 3: rows_lanes<8, Indirect, M>(a, y_in, y_out, c, first, last, res, dang); break;
        case 2: rows_lanes<4, Indirect, M>(a, y_in, y_out, c, first, last, res, dang); break;
        case 1: rows_lanes<2, Indirect, M>(a, y_in, y_out, c, first, last, res, dang); break;
        default: rows_lanes<1, Indirect, M>(a, y_in, y_out, c, first, last, res, dang); break;
        }
    }

    /* block sums of the two global quantities, in float64 */
    __shared__ double sred[2][kBlock / 32];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        res += __shfl_xor_sync(0xffffffffu, res, o);
        dang += __shfl_xor_sync(0xffffffffu, dang, o);
    }
    if ((threadIdx.x & 31) == 0) {
        sred[0][threadIdx.x >> 5] = res;
        sred[1][threadIdx.x >> 5] = dang;
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    res = 0;
    dang = 0;
#pragma unroll
    for (int w = 0; w < kBlock / 32; w++) {
        res += sred[0][w];
        dang += sred[1][w];
    }
    Slot *slot = a.ring + (phase % 3) * kSlots + blockIdx.x % kSlots;
    if (res != 0) atomicAdd(&slot->res, res);
    if (dang != 0) atomicAdd(&slot->dang, dang);
}

/* ------------------------------------------------------------------ setup kernels */

template <typename Off> __global__ void narrow_offsets(const uint64_t *__restrict__ in, Off *__restrict__ out, uint64_t n1)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n1; i += stride) out[i] = (Off)in[i];
}

template <typename Off>
__global__ void in_degrees(const Off *__restrict__ off, uint64_t n, uint32_t *__restrict__ deg, uint32_t *__restrict__ iota,
                           unsigned long long *__restrict__ classes)
{
    __shared__ unsigned long long cnt[kClasses];
    if (threadIdx.x < kClasses) cnt[threadIdx.x] = 0;
    __syncthreads();
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        const uint64_t dg = (uint64_t)(off[v + 1] - off[v]);
        deg[v] = dg > 0xffffffffull ? 0xffffffffu : (uint32_t)dg;
        iota[v] = (uint32_t)v;
        atomicAdd(&cnt[degree_class(dg)], 1ull);
    }
    __syncthreads();
    if (threadIdx.x < kClasses && cnt[threadIdx.x]) atomicAdd(&classes[threadIdx.x], cnt[threadIdx.x]);
}

/* Relabelled CSR: new row i is old row new2old[i], its sources mapped through old2new; the edge
 * weights (when w is not NULL) move with them. */
template <typename Off, typename W>
__global__ void relabel_rows(const Off *__restrict__ off, const uint32_t *__restrict__ src, const W *__restrict__ w,
                             const uint32_t *__restrict__ new2old, const uint32_t *__restrict__ old2new,
                             const unsigned long long *__restrict__ noff, uint64_t n, uint32_t *__restrict__ nsrc,
                             W *__restrict__ nw)
{
    constexpr int G = 8;
    const uint64_t groups = ((uint64_t)gridDim.x * blockDim.x) / G;
    const int lane = threadIdx.x & (G - 1);
    for (uint64_t i = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / G; i < n; i += groups) {
        const uint32_t v = new2old[i];
        const Off beg = off[v], len = off[v + 1] - beg;
        const unsigned long long to = noff[i];
        for (Off k = (Off)lane; k < len; k += G) {
            nsrc[to + k] = old2new[src[beg + k]];
            if (w) nw[to + k] = w[beg + k];
        }
    }
}

/* Each edge's share of its source's out-weight, in the rank type (0 from a dangling source, whose
 * y is then x itself), and the out-degree array replaced by 1 / 0 (has out-weight / dangling). */
template <typename T>
__global__ void weight_shares(const uint32_t *__restrict__ src, const double *__restrict__ w,
                              const double *__restrict__ out_weight, uint64_t m, uint64_t n, T *__restrict__ share,
                              uint32_t *__restrict__ has_out)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += stride) {
        const double wu = out_weight[src[j]];
        share[j] = wu > 0 ? (T)(w[j] / wu) : (T)0;
    }
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride)
        has_out[v] = out_weight[v] > 0 ? 1u : 0u;
}

/* out[i] = in[perm[i]] (in[i] without perm), converted to the output type. */
template <typename O>
__global__ void gather_vector(const double *__restrict__ in, const uint32_t *__restrict__ perm, uint64_t n,
                              O *__restrict__ out)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = (O)in[perm ? perm[i] : i];
}

__global__ void invert(const uint32_t *__restrict__ new2old, uint64_t n, uint32_t *__restrict__ old2new)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) old2new[new2old[i]] = (uint32_t)i;
}

__global__ void permute_u32(const uint32_t *__restrict__ in, const uint32_t *__restrict__ new2old, uint64_t n,
                            uint32_t *__restrict__ out)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[new2old[i]];
}

__global__ void widen_degrees(const uint32_t *__restrict__ deg, uint64_t n, unsigned long long *__restrict__ out)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += stride) out[i] = i < n ? deg[i] : 0ull;
}

/* y of the start vector: x0 (by row, NULL uniform) over the out-degree (1 / 0 when weighted). */
template <typename T>
__global__ void init_y(const uint32_t *__restrict__ odeg, const double *__restrict__ x0, uint64_t n, T *__restrict__ y)
{
    const double uniform = 1.0 / (double)n;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t od = odeg[i];
        const double x = x0 ? x0[i] : uniform;
        y[i] = (T)(od ? x / (double)od : x);
    }
}

/* x = y * out-degree, written at the vertex's original position. */
template <typename T>
__global__ void final_x(const T *__restrict__ y, const uint32_t *__restrict__ odeg, const uint32_t *__restrict__ to_orig,
                        uint64_t n, T *__restrict__ x)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t od = odeg[i];
        x[to_orig ? to_orig[i] : i] = od ? y[i] * (T)od : y[i];
    }
}

#define LAUNCH_CHECK(what) KILN_CUDA_TRY(cudaGetLastError(), what)

struct GraphExec {
    cudaGraphExec_t exec = nullptr;
    cudaGraph_t graph = nullptr;
    ~GraphExec()
    {
        if (exec) cudaGraphExecDestroy(exec);
        if (graph) cudaGraphDestroy(graph);
    }
};

/* What the host reads back: the state and the ring of partial sums. */
struct HostView {
    PrState st;
    Slot ring[3 * kSlots];
};

struct PinnedView {
    HostView *p = nullptr;
    ~PinnedView()
    {
        if (p) cudaFreeHost(p);
    }
};

/* An event marking how far the queued iterations have run, so the host can read the interrupt
 * poll between batches without draining the queue. */
struct Mark {
    cudaEvent_t ev = nullptr;
    bool recorded = false;
    ~Mark()
    {
        if (ev) cudaEventDestroy(ev);
    }
};

/* A CUB call made as CUB wants: once for the size of its temporary storage, then with it. */
template <typename F> cudaError_t cub_twice(DevArray<unsigned char> &temp, F &&call)
{
    size_t bytes = 0;
    cudaError_t e = call(nullptr, bytes);
    if (e == cudaSuccess) e = temp.alloc(bytes);
    if (e == cudaSuccess) e = call(temp.p, bytes);
    return e;
}

/* Of a sort's two buffers, the one holding the result goes to dst (freed before), the other is freed. */
template <typename V> void keep_sorted(DevArray<V> &x, DevArray<V> &y, const V *current, DevArray<V> &dst)
{
    DevArray<V> &keep = current == x.p ? x : y;
    DevArray<V> &drop = current == x.p ? y : x;
    const size_t count = keep.n;
    drop.reset();
    dst.reset();
    dst.p = keep.release();
    dst.n = count;
}

/* n host values, by row: out[i] = host[perm[i]] (host[i] without perm) in the type O. */
template <typename O>
kiln_status upload_vector(kiln_gpu *st, const double *host, const uint32_t *perm, uint64_t n, DevArray<O> &out)
{
    cudaStream_t s = st->stream;
    DevArray<double> tmp;
    KILN_CUDA_TRY(out.alloc(n), "cudaMalloc (vector)");
    KILN_CUDA_TRY(tmp.alloc(n), "cudaMalloc (vector)");
    KILN_CUDA_TRY(cudaMemcpyAsync(tmp.p, host, n * 8, cudaMemcpyHostToDevice, s), "cudaMemcpy");
    gather_vector<O><<<grid_for(n, kBlock, st->sm_count), kBlock, 0, s>>>(tmp.p, perm, n, out.p);
    LAUNCH_CHECK("gather_vector");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "gather_vector");
    return KILN_OK;
}

template <typename T, typename Off, int M>
void launch_mode(const Args<T, Off> &a, bool reorder, unsigned grid, cudaStream_t s, unsigned phase)
{
    if (reorder) pr_iteration<T, Off, false, M><<<grid, kBlock, 0, s>>>(a, phase);
    else pr_iteration<T, Off, true, M><<<grid, kBlock, 0, s>>>(a, phase);
}

/* One iteration, the instantiation picked by the relabelling and the mode (MODE_* bits). */
template <typename T, typename Off>
void launch_iteration(const Args<T, Off> &a, int mode, bool reorder, unsigned grid, cudaStream_t s, unsigned phase)
{
    switch (mode) {
    case MODE_PLAIN: launch_mode<T, Off, MODE_PLAIN>(a, reorder, grid, s, phase); break;
    case MODE_WEIGHTED: launch_mode<T, Off, MODE_WEIGHTED>(a, reorder, grid, s, phase); break;
    case MODE_TELEPORT: launch_mode<T, Off, MODE_TELEPORT>(a, reorder, grid, s, phase); break;
    default: launch_mode<T, Off, MODE_WEIGHTED | MODE_TELEPORT>(a, reorder, grid, s, phase); break;
    }
}

template <typename T, typename Off>
kiln_status run_pagerank(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *prm, double *ranks,
                         kiln_gpu_pr_stats *stats)
{
    cudaStream_t s = st->stream;
    const uint64_t n = g->n, m = g->m;
    const int sms = st->sm_count;
    const double t_setup = now_s();

    /* upload */
    DevArray<Off> off;
    DevArray<uint32_t> src, odeg;
    KILN_CUDA_TRY(off.alloc(n + 1), "cudaMalloc (offsets)");
    KILN_CUDA_TRY(src.alloc(m), "cudaMalloc (sources)");
    KILN_CUDA_TRY(odeg.alloc(n), "cudaMalloc (out-degrees)");
    {
        DevArray<uint64_t> off64;
        KILN_CUDA_TRY(off64.alloc(n + 1), "cudaMalloc (offsets)");
        KILN_CUDA_TRY(cudaMemcpyAsync(off64.p, g->offsets, (n + 1) * 8, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        narrow_offsets<Off><<<grid_for(n + 1, kBlock, sms), kBlock, 0, s>>>(off64.p, off.p, n + 1);
        LAUNCH_CHECK("narrow_offsets");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "narrow_offsets");
    }
    KILN_CUDA_TRY(cudaMemcpyAsync(src.p, g->sources, m * 4, cudaMemcpyHostToDevice, s), "cudaMemcpy");
    const bool weighted = g->weights != nullptr;
    const int mode = (weighted ? MODE_WEIGHTED : 0) | (prm->personalization || prm->dangling ? MODE_TELEPORT : 0);
    DevArray<T> wsh; /* weighted: each edge's share of its source's out-weight, aligned with src */
    if (weighted) {
        DevArray<double> w64, ow64;
        KILN_CUDA_TRY(wsh.alloc(m), "cudaMalloc (edge weights)");
        KILN_CUDA_TRY(w64.alloc(m), "cudaMalloc (edge weights)");
        KILN_CUDA_TRY(ow64.alloc(n), "cudaMalloc (out-weights)");
        KILN_CUDA_TRY(cudaMemcpyAsync(w64.p, g->weights, m * 8, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpyAsync(ow64.p, g->out_weight, n * 8, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        weight_shares<T><<<grid_for(m > n ? m : n, kBlock, sms), kBlock, 0, s>>>(src.p, w64.p, ow64.p, m, n, wsh.p,
                                                                                 odeg.p);
        LAUNCH_CHECK("weight_shares");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "weight_shares");
    } else {
        KILN_CUDA_TRY(cudaMemcpyAsync(odeg.p, g->outdeg, n * 4, cudaMemcpyHostToDevice, s), "cudaMemcpy");
    }

    /* visiting order: descending in-degree (stable, so ties keep label order) */
    DevArray<uint32_t> order; /* new2old */
    DevArray<unsigned long long> classes;
    unsigned long long cls[kClasses];
    KILN_CUDA_TRY(classes.alloc(kClasses), "cudaMalloc");
    KILN_CUDA_TRY(cudaMemsetAsync(classes.p, 0, kClasses * sizeof(unsigned long long), s), "cudaMemset");
    {
        DevArray<uint32_t> deg, deg_sorted, iota;
        KILN_CUDA_TRY(deg.alloc(n), "cudaMalloc");
        KILN_CUDA_TRY(deg_sorted.alloc(n), "cudaMalloc");
        KILN_CUDA_TRY(iota.alloc(n), "cudaMalloc");
        KILN_CUDA_TRY(order.alloc(n), "cudaMalloc");
        in_degrees<Off><<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(off.p, n, deg.p, iota.p, classes.p);
        LAUNCH_CHECK("in_degrees");
        size_t tb = 0;
        KILN_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(nullptr, tb, deg.p, deg_sorted.p, iota.p, order.p,
                                                                 (int64_t)n, 0, 32, s),
                      "cub radix sort");
        DevArray<unsigned char> temp;
        KILN_CUDA_TRY(temp.alloc(tb), "cudaMalloc (sort buffer)");
        KILN_CUDA_TRY(cub::DeviceRadixSort::SortPairsDescending(temp.p, tb, deg.p, deg_sorted.p, iota.p, order.p,
                                                                 (int64_t)n, 0, 32, s),
                      "cub radix sort");
        KILN_CUDA_TRY(cudaMemcpyAsync(cls, classes.p, sizeof cls, cudaMemcpyDeviceToHost, s), "cudaMemcpy");

        if (prm->reorder) {
            DevArray<uint32_t> old2new, nodeg;
            DevArray<unsigned long long> noff64;
            DevArray<Off> noff;
            KILN_CUDA_TRY(old2new.alloc(n), "cudaMalloc");
            KILN_CUDA_TRY(nodeg.alloc(n), "cudaMalloc");
            KILN_CUDA_TRY(noff64.alloc(n + 1), "cudaMalloc");
            KILN_CUDA_TRY(noff.alloc(n + 1), "cudaMalloc");
            invert<<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(order.p, n, old2new.p);
            LAUNCH_CHECK("invert");
            widen_degrees<<<grid_for(n + 1, kBlock, sms), kBlock, 0, s>>>(deg_sorted.p, n, noff64.p);
            LAUNCH_CHECK("widen_degrees");
            deg.reset();
            deg_sorted.reset();
            iota.reset();
            size_t ts = 0;
            KILN_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, ts, noff64.p, noff64.p, (int64_t)(n + 1), s), "cub scan");
            KILN_CUDA_TRY(temp.alloc(ts), "cudaMalloc (scan buffer)");
            KILN_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.p, ts, noff64.p, noff64.p, (int64_t)(n + 1), s), "cub scan");
            narrow_offsets<Off><<<grid_for(n + 1, kBlock, sms), kBlock, 0, s>>>((const uint64_t *)noff64.p, noff.p, n + 1);
            LAUNCH_CHECK("narrow_offsets");
            DevArray<uint32_t> nsrc, nsrc_alt;
            DevArray<T> nw, nw_alt;
            KILN_CUDA_TRY(nsrc.alloc(m), "cudaMalloc (relabelled sources)");
            if (weighted) KILN_CUDA_TRY(nw.alloc(m), "cudaMalloc (relabelled weights)");
            relabel_rows<Off, T><<<grid_for(n * 8, kBlock, sms), kBlock, 0, s>>>(off.p, src.p, wsh.p, order.p,
                                                                               old2new.p, noff64.p, n, nsrc.p, nw.p);
            LAUNCH_CHECK("relabel_rows");
            permute_u32<<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(odeg.p, order.p, n, nodeg.p);
            LAUNCH_CHECK("permute_u32");
            KILN_CUDA_TRY(cudaStreamSynchronize(s), "relabel");
            src.reset();
            wsh.reset();
            off.reset();
            old2new.reset();
            noff64.reset();
            KILN_CUDA_TRY(nsrc_alt.alloc(m), "cudaMalloc (relabelled sources)");
            cub::DoubleBuffer<uint32_t> keys(nsrc.p, nsrc_alt.p);
            if (weighted) {
                /* the keys are distinct within a row (duplicates were merged), so the weights
                 * follow their sources whatever the sort's stability */
                KILN_CUDA_TRY(nw_alt.alloc(m), "cudaMalloc (relabelled weights)");
                cub::DoubleBuffer<T> vals(nw.p, nw_alt.p);
                KILN_CUDA_TRY(cub_twice(temp,
                                        [&](void *t, size_t &b) {
                                            return cub::DeviceSegmentedSort::SortPairs(
                                                t, b, keys, vals, (int64_t)m, (int64_t)n, noff.p, noff.p + 1, s);
                                        }),
                              "cub segmented sort");
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "segmented sort");
                keep_sorted(nw, nw_alt, vals.Current(), wsh);
            } else {
                KILN_CUDA_TRY(cub_twice(temp,
                                        [&](void *t, size_t &b) {
                                            return cub::DeviceSegmentedSort::SortKeys(t, b, keys, (int64_t)m, (int64_t)n,
                                                                                      noff.p, noff.p + 1, s);
                                        }),
                              "cub segmented sort");
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "segmented sort");
            }
            temp.reset();
            keep_sorted(nsrc, nsrc_alt, keys.Current(), src);
            off.p = noff.release();
            off.n = n + 1;
            odeg.reset();
            odeg.p = nodeg.release();
            odeg.n = n;
        }
    }
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "setup");

    /* the teleport vectors by row (relabelled like the rows), x0 for the start */
    DevArray<T> tp, tq;
    DevArray<double> x0;
    {
        const uint32_t *perm = prm->reorder ? order.p : nullptr;
        kiln_status vs = KILN_OK;
        if (prm->personalization) vs = upload_vector(st, prm->personalization, perm, n, tp);
        if (vs == KILN_OK && prm->dangling) vs = upload_vector(st, prm->dangling, perm, n, tq);
        if (vs == KILN_OK && prm->nstart) vs = upload_vector(st, prm->nstart, perm, n, x0);
        if (vs != KILN_OK) return vs;
    }
    /* the dangling mass of x0 ("iteration 0" of the ring) */
    double dangling0 = (double)g->dangling / (double)n;
    if (weighted || prm->nstart) {
        dangling0 = 0;
        for (uint64_t v = 0; v < n; v++) {
            const bool dangles = weighted ? !(g->out_weight[v] > 0) : g->outdeg[v] == 0;
            if (dangles) dangling0 += prm->nstart ? prm->nstart[v] : 1.0 / (double)n;
        }
    }

    /* bins: the classes are contiguous in the visiting order */
    Bins bins;
    memset(&bins, 0, sizeof bins);
    {
        uint64_t row = 0, block = 0;
        for (int c = 0; c < kClasses; c++) {
            if (cls[c] == 0) continue;
            const int k = bins.count++;
            int kind, l2, rpb;
            if (c == 0) {
                kind = KIND_BLOCK, l2 = 8, rpb = 1;
            } else if (prm->reorder == 0) {
                /* G lanes a row, each group taking 2 (G >= 16) or 4 rows */
                kind = KIND_LANES;
                l2 = class_lanes_log2(c);
                rpb = (kBlock >> l2) * (l2 >= 4 ? 2 : 4);
            } else {
                /* as many consecutive rows as fit kStageEdges, at most kStageRowsMax */
                kind = KIND_STAGED;
                l2 = class_lanes_log2(c);
                rpb = kStageEdges / class_max_degree(c);
                if (rpb > kStageRowsMax) rpb = kStageRowsMax;
            }
            bins.kind[k] = kind;
            bins.lanes_log2[k] = l2;
            bins.rows_per_block[k] = rpb;
            bins.row_begin[k] = row;
            bins.block_begin[k] = block;
            row += cls[c];
            block += (cls[c] + (uint64_t)rpb - 1) / (uint64_t)rpb;
        }
        bins.row_begin[bins.count] = row;
        bins.block_begin[bins.count] = block;
        if (row != n || block == 0 || block > 0x7fffffffull) {
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "PageRank setup: %llu rows in the degree classes for %llu vertices",
                     (unsigned long long)row, (unsigned long long)n);
        }
    }
    const unsigned grid = (unsigned)bins.block_begin[bins.count];

    /* the kernel: the grid one unless the cluster one (pagerank_cluster.cu) is asked for; it
     * measured slower on every graph tried (docs/PAGERANK.md), so auto does not pick it */
    ClusterPlan cplan;
    memset(&cplan, 0, sizeof cplan);
    const char *why = "it needs the relabelled layout (no --no-reorder)";
    if constexpr (std::is_same<Off, uint32_t>::value) {
        if (prm->kernel == KILN_GPU_PR_CLUSTER && prm->reorder) {
            if (m > kClusterMaxEdges) {
                why = "the graph has more edges than it takes (2^20)";
            } else {
                std::vector<Off> hoff(n + 1);
                KILN_CUDA_TRY(cudaMemcpyAsync(hoff.data(), off.p, (n + 1) * sizeof(Off), cudaMemcpyDeviceToHost, s),
                              "cudaMemcpy");
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "cudaMemcpy");
                cplan = cluster_plan(st, hoff.data(), n, prm->use_double, weighted, &why);
            }
        }
    } else {
        why = "the graph has more edges than it takes (2^20)";
    }
    if (prm->kernel == KILN_GPU_PR_CLUSTER && cplan.blocks == 0)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank: the cluster kernel cannot run this graph: %s", why);
    const bool use_cluster = cplan.blocks > 0;
    stats->kernel = use_cluster ? KILN_GPU_PR_CLUSTER : KILN_GPU_PR_GRID;
    /* iterations a cluster launch, so one launch stays near a millisecond or two and the
     * interrupt poll is read between them */
    int per_launch = 0;
    if (use_cluster) {
        const uint64_t k = (UINT64_C(1) << 27) / (m + n + (UINT64_C(1) << 14));
        per_launch = k < 16 ? 16 : k > 4096 ? 4096 : (int)k;
    }

    DevArray<T> y0, y1, x;
    DevArray<PrState> dst;
    DevArray<Slot> ring;
    KILN_CUDA_TRY(y0.alloc(n), "cudaMalloc (ranks)");
    KILN_CUDA_TRY(y1.alloc(n), "cudaMalloc (ranks)");
    KILN_CUDA_TRY(dst.alloc(1), "cudaMalloc");
    KILN_CUDA_TRY(ring.alloc(3 * kSlots), "cudaMalloc");
    PinnedView hv;
    KILN_CUDA_TRY(cudaMallocHost(&hv.p, sizeof(HostView)), "cudaMallocHost");
    HostView *h = hv.p;

    Args<T, Off> a;
    a.off = off.p;
    a.src = src.p;
    a.odeg = odeg.p;
    a.order = prm->reorder ? nullptr : order.p;
    a.w = wsh.p;
    a.tp = tp.p;
    a.tq = tq.p;
    a.y0 = y0.p;
    a.y1 = y1.p;
    a.st = dst.p;
    a.ring = ring.p;
    a.bins = bins;
    a.damping = prm->damping;
    a.inv_n = 1.0 / (double)n;
    a.threshold = (double)n * prm->tol;

    auto launch = [&](cudaStream_t ss, unsigned j) { launch_iteration(a, mode, prm->reorder != 0, grid, ss, j % 6); };
    auto launch_cluster = [&](int k) -> cudaError_t {
        if constexpr (std::is_same<Off, uint32_t>::value)
            return cluster_launch(a, mode, cplan, (uint32_t)n, (unsigned)k, s);
        else
            return cudaErrorNotSupported; /* never chosen: see cplan */
    };
    /* a batch of iterations as one CUDA graph (small graphs are otherwise launch-bound); a
     * multiple of 6 so that every batch starts at phase 1 */
    const int batch = m <= (UINT64_C(1) << 24) ? 36 : 6;
    GraphExec ge;
    if (!use_cluster) {
        KILN_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
        for (int i = 0; i < batch; i++) launch(s, (unsigned)i + 1);
        KILN_CUDA_TRY(cudaStreamEndCapture(s, &ge.graph), "cudaStreamEndCapture");
        KILN_CUDA_TRY(cudaGraphInstantiate(&ge.exec, ge.graph, 0), "cudaGraphInstantiate");
    }
    stats->setup_s = now_s() - t_setup;

    const double threshold = (double)n * prm->tol;
    /* L1 change of iteration j from the host copy of the ring */
    auto ring_res = [&](unsigned j) {
        double r = 0;
        for (int i = 0; i < kSlots; i++) r += h->ring[(j % 3) * kSlots + i].res;
        return r;
    };
    auto fetch = [&]() -> cudaError_t {
        cudaError_t e = cudaMemcpyAsync(&h->st, dst.p, sizeof(PrState), cudaMemcpyDeviceToHost, s);
        if (e == cudaSuccess) e = cudaMemcpyAsync(h->ring, ring.p, sizeof h->ring, cudaMemcpyDeviceToHost, s);
        return e;
    };
    const int runs = prm->repeat > 1 ? prm->repeat : 1;
    std::vector<float> times;
    Mark mark;
    KILN_CUDA_TRY(cudaEventCreateWithFlags(&mark.ev, cudaEventDisableTiming), "cudaEventCreate");
    for (int run = 0; run < runs; run++) {
        init_y<T><<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(odeg.p, x0.p, n, y0.p);
        LAUNCH_CHECK("init_y");
        /* "iteration 0": not converged, dangling mass of x0 */
        memset(h, 0, sizeof *h);
        h->ring[0].res = HUGE_VAL;
        h->ring[0].dang = dangling0;
        h->st.res = HUGE_VAL;
        h->st.dang = dangling0; /* the cluster path carries it in the state instead of the ring */
        KILN_CUDA_TRY(cudaMemcpyAsync(dst.p, &h->st, sizeof(PrState), cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpyAsync(ring.p, h->ring, sizeof h->ring, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "init");
        KILN_CUDA_TRY(cudaEventRecord(st->ev_start, s), "cudaEventRecord");
        /* with tol == 0 the count is fixed: the state is read once at the end, and the host only
         * waits for the batch before the one just queued (the queue never drains) to read the
         * interrupt poll between batches */
        const bool check = prm->tol > 0;
        int queued = 0;
        int marked = 0; /* iterations queued when `mark` was recorded (tol == 0) */
        for (;;) {
            const int left = prm->max_iter - queued;
            if (left <= 0) break;
            if (use_cluster) {
                const int k = left < per_launch ? left : per_launch;
                KILN_CUDA_TRY(launch_cluster(k), "PageRank cluster launch");
                queued += k;
            } else if (left >= batch) {
                KILN_CUDA_TRY(cudaGraphLaunch(ge.exec, s), "cudaGraphLaunch");
                queued += batch;
            } else {
                for (int i = 0; i < left; i++) launch(s, (unsigned)(queued + i + 1));
                LAUNCH_CHECK("pr_iteration");
                queued += left;
            }
            if (check) {
                KILN_CUDA_TRY(fetch(), "cudaMemcpy");
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
                if (h->st.done || (!use_cluster && ring_res(h->st.count) < threshold)) break;
            } else if (mark.recorded) {
                KILN_CUDA_TRY(cudaEventSynchronize(mark.ev), "PageRank iterations");
            }
            /* with tol == 0 the state is read only at the end: no residual (NaN) to report */
            if (check)
                kiln_ctx_report_residual(st->ctx, "pagerank", "iterations", (uint64_t)h->st.count,
                                         (uint64_t)prm->max_iter,
                                         use_cluster ? h->st.res : ring_res(h->st.count));
            else
                kiln_ctx_report(st->ctx, "pagerank", "iterations", (uint64_t)marked, (uint64_t)prm->max_iter);
            if (kiln_ctx_interrupt_requested(st->ctx)) {
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
                return kiln_interrupted(st->ctx);
            }
            if (!check) {
                KILN_CUDA_TRY(cudaEventRecord(mark.ev, s), "cudaEventRecord");
                mark.recorded = true;
                marked = queued;
            }
        }
        KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, s), "cudaEventRecord");
        KILN_CUDA_TRY(fetch(), "cudaMemcpy");
        KILN_CUDA_TRY(cudaEventSynchronize(st->ev_stop), "PageRank iterations");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
        float ms = 0;
        KILN_CUDA_TRY(cudaEventElapsedTime(&ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
        times.push_back(ms);
        if (!h->st.done && h->st.count != (unsigned)queued) {
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "PageRank: the device carried out %u iterations of %d launched", h->st.count, queued);
        }
    }
    std::sort(times.begin(), times.end());
    const size_t nt = times.size();
    stats->loop_ms = nt % 2 ? times[nt / 2] : 0.5 * ((double)times[nt / 2 - 1] + (double)times[nt / 2]);
    const unsigned iters = h->st.count;
    stats->iterations = (int)iters;
    stats->residual = h->st.done || use_cluster ? h->st.res : ring_res(iters);
    stats->converged = stats->residual < threshold;

    /* x in the original vertex order */
    KILN_CUDA_TRY(x.alloc(n), "cudaMalloc");
    const T *y_final = (iters & 1) ? y1.p : y0.p;
    final_x<T><<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(y_final, odeg.p, prm->reorder ? order.p : nullptr, n, x.p);
    LAUNCH_CHECK("final_x");
    std::vector<T> hx(n);
    KILN_CUDA_TRY(cudaMemcpyAsync(hx.data(), x.p, n * sizeof(T), cudaMemcpyDeviceToHost, s), "cudaMemcpy");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "final_x");
    for (uint64_t i = 0; i < n; i++) ranks[i] = (double)hx[i];
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_pagerank(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *p,
                                          double *ranks, kiln_gpu_pr_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    if (g->n == 0 || g->n > 0xfffffffeull || p->max_iter < 1 || (g->weights == nullptr) != (g->out_weight == nullptr)) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank: bad graph or parameters");
    }
    const bool wide = g->m > 0xffffffffull;
    if (p->use_double) {
        return wide ? run_pagerank<double, unsigned long long>(st, g, p, ranks, stats)
                    : run_pagerank<double, uint32_t>(st, g, p, ranks, stats);
    }
    return wide ? run_pagerank<float, unsigned long long>(st, g, p, ranks, stats)
                : run_pagerank<float, uint32_t>(st, g, p, ranks, stats);
}
