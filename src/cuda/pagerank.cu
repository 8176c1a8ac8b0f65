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
 */
#include <cub/cub.cuh>
#include <algorithm>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>

#include "cuda_state.h"
#include "dev_array.cuh"

namespace {

double now_s()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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
    double res; /* with done: the L1 change of the last iteration */
};

enum { KIND_BLOCK = 0, KIND_LANES = 1, KIND_STAGED = 2 };

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
    const uint32_t *__restrict__ odeg;
    const uint32_t *__restrict__ order; /* visiting position -> row; NULL when rows are relabelled */
    T *y0, *y1;
    PrState *st;
    Slot *ring; /* 3 x kSlots: iteration j adds into entry j % 3 */
    Bins bins;
    double damping, inv_n, threshold;
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

/* New x of row v from the sum of its sources' y; accumulates the L1 change and dangling mass. */
template <typename T, typename Off>
__device__ __forceinline__ void finish_row(const Args<T, Off> &a, uint32_t v, T sum, const T *y_in, T *y_out, T d,
                                           T base, double &res, double &dang)
{
    const uint32_t od = a.odeg[v];
    const T yo = y_in[v];
    const T x = d * sum + base;
    const T old = od ? yo * (T)od : yo;
    res += fabs((double)x - (double)old);
    if (od) {
        y_out[v] = x / (T)od;
    } else {
        y_out[v] = x;
        dang += (double)x;
    }
}

/* Sum of y over sources[beg, end) taken by lanes lane, lane+G, ...; with a whole block on the
 * row eight loads in flight per thread, four with 8+ lanes. */
template <int G, typename T, typename Off>
__device__ __forceinline__ T gather(const Args<T, Off> &a, const T *__restrict__ y_in, Off beg, Off end, int lane)
{
    T s0 = 0, s1 = 0;
    Off j = beg + (Off)lane;
    if (G >= 256) {
        for (; j + 7 * G < end; j += 8 * G) {
            uint32_t u[8];
#pragma unroll
            for (int k = 0; k < 8; k++) u[k] = __ldcs(&a.src[j + k * G]);
#pragma unroll
            for (int k = 0; k < 8; k += 2) {
                s0 += __ldg(&y_in[u[k]]);
                s1 += __ldg(&y_in[u[k + 1]]);
            }
        }
    }
    if (G >= 8) {
        for (; j + 3 * G < end; j += 4 * G) {
            const uint32_t u0 = __ldcs(&a.src[j]), u1 = __ldcs(&a.src[j + G]), u2 = __ldcs(&a.src[j + 2 * G]),
                           u3 = __ldcs(&a.src[j + 3 * G]);
            s0 += __ldg(&y_in[u0]) + __ldg(&y_in[u2]);
            s1 += __ldg(&y_in[u1]) + __ldg(&y_in[u3]);
        }
    }
    for (; j < end; j += G) s0 += __ldg(&y_in[__ldcs(&a.src[j])]);
    return s0 + s1;
}

/* Rows [first, last) of the visiting order, G lanes a row, consecutive groups on consecutive rows. */
template <int G, bool Indirect, typename T, typename Off>
__device__ __forceinline__ void rows_lanes(const Args<T, Off> &a, const T *y_in, T *y_out, T d, T base, uint64_t first,
                                           uint64_t last, double &res, double &dang)
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
        T sum = gather<G>(a, y_in, beg, end, lane);
#pragma unroll
        for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o, G);
        if (active && lane == 0) finish_row(a, v, sum, y_in, y_out, d, base, res, dang);
    }
}

/* One row for the whole block. */
template <bool Indirect, typename T, typename Off>
__device__ __forceinline__ void row_block(const Args<T, Off> &a, const T *y_in, T *y_out, T d, T base, uint64_t p,
                                          double &res, double &dang)
{
    __shared__ T part[kBlock / 32];
    const uint32_t v = Indirect ? a.order[p] : (uint32_t)p;
    T sum = gather<kBlock>(a, y_in, a.off[v], a.off[v + 1], threadIdx.x);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
    if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        T s = 0;
#pragma unroll
        for (int w = 0; w < kBlock / 32; w++) s += part[w];
        finish_row(a, v, s, y_in, y_out, d, base, res, dang);
    }
}

/* Rows [first, last) of the relabelled CSR whose edges (at most kStageEdges) are staged: every
 * thread loads sources and gathers ranks into shared memory, then G lanes sum each row there. */
template <int G, typename T, typename Off>
__device__ __forceinline__ void rows_staged(const Args<T, Off> &a, const T *y_in, T *y_out, T d, T base,
                                            uint64_t first, uint64_t last, T *vals, double &res, double &dang)
{
    constexpr int per = kStageEdges / kBlock;
    const Off e0 = a.off[first];
    const int count = (int)(a.off[last] - e0);
#pragma unroll
    for (int b = 0; b < per; b += 8) {
        uint32_t u[8];
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int i = threadIdx.x + (b + k) * kBlock;
            u[k] = i < count ? __ldcs(&a.src[e0 + (Off)i]) : 0u;
        }
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int i = threadIdx.x + (b + k) * kBlock;
            if (i < count) vals[i] = __ldg(&y_in[u[k]]);
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
        if (active && lane == 0) finish_row(a, (uint32_t)p, sum, y_in, y_out, d, base, res, dang);
    }
}

/* Iteration j (from 1); phase = j mod 6 gives the parity of the rank buffers and the ring entry. */
template <typename T, typename Off, bool Indirect>
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
    const T d = (T)a.damping;
    const T base = (T)(((1.0 - a.damping) + a.damping * dangling) * a.inv_n);

    int k = 0;
    while (k + 1 < a.bins.count && blockIdx.x >= a.bins.block_begin[k + 1]) k++;
    const uint64_t rpb = (uint64_t)a.bins.rows_per_block[k];
    const uint64_t first = a.bins.row_begin[k] + (blockIdx.x - a.bins.block_begin[k]) * rpb;
    const uint64_t last = min(first + rpb, a.bins.row_begin[k + 1]);
    double res = 0, dang = 0;
    if (a.bins.kind[k] == KIND_BLOCK) {
        row_block<Indirect>(a, y_in, y_out, d, base, first, res, dang);
    } else if (a.bins.kind[k] == KIND_STAGED) {
        if constexpr (!Indirect) {
            switch (a.bins.lanes_log2[k]) {
            case 5: rows_staged<32>(a, y_in, y_out, d, base, first, last, stage, res, dang); break;
            case 4: rows_staged<16>(a, y_in, y_out, d, base, first, last, stage, res, dang); break;
            case 3: rows_staged<8>(a, y_in, y_out, d, base, first, last, stage, res, dang); break;
            case 2: rows_staged<4>(a, y_in, y_out, d, base, first, last, stage, res, dang); break;
            case 1: rows_staged<2>(a, y_in, y_out, d, base, first, last, stage, res, dang); break;
            default: rows_staged<1>(a, y_in, y_out, d, base, first, last, stage, res, dang); break;
            }
        }
    } else {
        switch (a.bins.lanes_log2[k]) {
        case 5: rows_lanes<32, Indirect>(a, y_in, y_out, d, base, first, last, res, dang); break;
        case 4: rows_lanes<16, Indirect>(a, y_in, y_out, d, base, first, last, res, dang); break;
        case 3: rows_lanes<8, Indirect>(a, y_in, y_out, d, base, first, last, res, dang); break;
        case 2: rows_lanes<4, Indirect>(a, y_in, y_out, d, base, first, last, res, dang); break;
        case 1: rows_lanes<2, Indirect>(a, y_in, y_out, d, base, first, last, res, dang); break;
        default: rows_lanes<1, Indirect>(a, y_in, y_out, d, base, first, last, res, dang); break;
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

/* Relabelled CSR: new row i is old row new2old[i], its sources mapped through old2new. */
template <typename Off>
__global__ void relabel_rows(const Off *__restrict__ off, const uint32_t *__restrict__ src,
                             const uint32_t *__restrict__ new2old, const uint32_t *__restrict__ old2new,
                             const unsigned long long *__restrict__ noff, uint64_t n, uint32_t *__restrict__ nsrc)
{
    constexpr int G = 8;
    const uint64_t groups = ((uint64_t)gridDim.x * blockDim.x) / G;
    const int lane = threadIdx.x & (G - 1);
    for (uint64_t i = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / G; i < n; i += groups) {
        const uint32_t v = new2old[i];
        const Off beg = off[v], len = off[v + 1] - beg;
        const unsigned long long to = noff[i];
        for (Off k = (Off)lane; k < len; k += G) nsrc[to + k] = old2new[src[beg + k]];
    }
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

template <typename T> __global__ void init_y(const uint32_t *__restrict__ odeg, uint64_t n, T *__restrict__ y)
{
    const double x0 = 1.0 / (double)n;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t od = odeg[i];
        y[i] = (T)(od ? x0 / (double)od : x0);
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
    KILN_CUDA_TRY(cudaMemcpyAsync(odeg.p, g->outdeg, n * 4, cudaMemcpyHostToDevice, s), "cudaMemcpy");

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
            KILN_CUDA_TRY(nsrc.alloc(m), "cudaMalloc (relabelled sources)");
            relabel_rows<Off><<<grid_for(n * 8, kBlock, sms), kBlock, 0, s>>>(off.p, src.p, order.p, old2new.p,
                                                                            noff64.p, n, nsrc.p);
            LAUNCH_CHECK("relabel_rows");
            permute_u32<<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(odeg.p, order.p, n, nodeg.p);
            LAUNCH_CHECK("permute_u32");
            KILN_CUDA_TRY(cudaStreamSynchronize(s), "relabel");
            src.reset();
            off.reset();
            old2new.reset();
            noff64.reset();
            KILN_CUDA_TRY(nsrc_alt.alloc(m), "cudaMalloc (relabelled sources)");
            cub::DoubleBuffer<uint32_t> keys(nsrc.p, nsrc_alt.p);
            size_t tss = 0;
            KILN_CUDA_TRY(cub::DeviceSegmentedSort::SortKeys(nullptr, tss, keys, (int64_t)m, (int64_t)n, noff.p,
                                                             noff.p + 1, s),
                          "cub segmented sort");
            KILN_CUDA_TRY(temp.alloc(tss), "cudaMalloc (sort buffer)");
            KILN_CUDA_TRY(cub::DeviceSegmentedSort::SortKeys(temp.p, tss, keys, (int64_t)m, (int64_t)n, noff.p,
                                                             noff.p + 1, s),
                          "cub segmented sort");
            KILN_CUDA_TRY(cudaStreamSynchronize(s), "segmented sort");
            temp.reset();
            if (keys.Current() == nsrc.p) {
                nsrc_alt.reset();
                src.p = nsrc.release();
            } else {
                nsrc.reset();
                src.p = nsrc_alt.release();
            }
            src.n = m;
            off.p = noff.release();
            off.n = n + 1;
            odeg.reset();
            odeg.p = nodeg.release();
            odeg.n = n;
        }
    }
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "setup");

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
    a.y0 = y0.p;
    a.y1 = y1.p;
    a.st = dst.p;
    a.ring = ring.p;
    a.bins = bins;
    a.damping = prm->damping;
    a.inv_n = 1.0 / (double)n;
    a.threshold = (double)n * prm->tol;

    auto launch = [&](cudaStream_t ss, unsigned j) {
        if (prm->reorder) pr_iteration<T, Off, false><<<grid, kBlock, 0, ss>>>(a, j % 6);
        else pr_iteration<T, Off, true><<<grid, kBlock, 0, ss>>>(a, j % 6);
    };
    /* a batch of iterations as one CUDA graph (small graphs are otherwise launch-bound); a
     * multiple of 6 so that every batch starts at phase 1 */
    const int batch = m <= (UINT64_C(1) << 24) ? 36 : 6;
    GraphExec ge;
    KILN_CUDA_TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    for (int i = 0; i < batch; i++) launch(s, (unsigned)i + 1);
    KILN_CUDA_TRY(cudaStreamEndCapture(s, &ge.graph), "cudaStreamEndCapture");
    KILN_CUDA_TRY(cudaGraphInstantiate(&ge.exec, ge.graph, 0), "cudaGraphInstantiate");
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
        init_y<T><<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(odeg.p, n, y0.p);
        LAUNCH_CHECK("init_y");
        /* "iteration 0": not converged, dangling mass of x0 */
        memset(h, 0, sizeof *h);
        h->ring[0].res = HUGE_VAL;
        h->ring[0].dang = (double)g->dangling / (double)n;
        KILN_CUDA_TRY(cudaMemcpyAsync(dst.p, &h->st, sizeof(PrState), cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpyAsync(ring.p, h->ring, sizeof h->ring, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "init");
        KILN_CUDA_TRY(cudaEventRecord(st->ev_start, s), "cudaEventRecord");
        /* with tol == 0 the count is fixed: the state is read once at the end, and the host only
         * waits for the batch before the one just queued (the queue never drains) to read the
         * interrupt poll between batches */
        const bool check = prm->tol > 0;
        int queued = 0;
        for (;;) {
            const int left = prm->max_iter - queued;
            if (left <= 0) break;
            if (left >= batch) {
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
                if (h->st.done || ring_res(h->st.count) < threshold) break;
            } else if (mark.recorded) {
                KILN_CUDA_TRY(cudaEventSynchronize(mark.ev), "PageRank iterations");
            }
            if (kiln_ctx_interrupt_requested(st->ctx)) {
                KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank iterations");
                return kiln_interrupted(st->ctx);
            }
            if (!check) {
                KILN_CUDA_TRY(cudaEventRecord(mark.ev, s), "cudaEventRecord");
                mark.recorded = true;
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
    stats->residual = h->st.done ? h->st.res : ring_res(iters);
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
    if (g->n == 0 || g->n > 0xfffffffeull || p->max_iter < 1) {
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
