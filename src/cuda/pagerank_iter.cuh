/* PageRank on the GPU: the iteration kernel of the grid path, one launch per iteration (the layout,
 * the bins and the ring of partial sums are described at the top of pagerank.cu), for a whole
 * graph (pagerank.cu) and a part of the rows (pagerank_part.cu: Args::row0 its first label, the
 * teleport's dangling mass set by the host in the ring). Its instantiations, a rank type by an
 * offset type by a visiting order by a mode, take nvcc minutes, so each (rank, offset) pair is
 * compiled once, in a file of its own (pagerank_iter_<rank>_<offset>.cu), and the two callers
 * reach the kernels through launch_iteration (pagerank_iter.h), whose launches are compiled
 * beside them. */
#ifndef KILN_CUDA_PAGERANK_ITER_CUH
#define KILN_CUDA_PAGERANK_ITER_CUH

#include <cooperative_groups.h>

#include "pagerank_iter.h"

namespace cg = cooperative_groups;

namespace kiln_pr {

namespace {

/* Loads of the iteration's inputs. Coh: the persistent kernel, whose y vectors are written within
 * the launch. Its y reads are plain cached loads (ld.ca), which the grid barrier's acquire keeps
 * coherent, not the read-only path (ld.global.nc), which may keep a copy from two iterations back
 * (measured on an H100: L2-only loads made ego-Facebook 1.4x slower). Its blocks read the same
 * sources every iteration, so those stay in L1 (ld.global.nc) instead of streaming past it. */
template <bool Coh, typename T> __device__ __forceinline__ T load_y(const T *p) { return Coh ? __ldca(p) : __ldg(p); }
template <bool Coh> __device__ __forceinline__ uint32_t load_src(const uint32_t *p) { return Coh ? __ldg(p) : __ldcs(p); }

/* Sum over edges [beg, end) taken by lanes lane, lane+G, ...; with a whole block on the row eight
 * loads in flight per thread, four with 8+ lanes. */
template <int G, int M, bool Coh, typename T, typename Off>
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
                u[k] = load_src<Coh>(&a.src[j + k * G]);
                w[k] = edge_weight<M>(a, j + k * G);
            }
#pragma unroll
            for (int k = 0; k < 8; k += 2) {
                s0 += term<M>(w[k], load_y<Coh>(&y_in[u[k]]));
                s1 += term<M>(w[k + 1], load_y<Coh>(&y_in[u[k + 1]]));
            }
        }
    }
    if (G >= 8) {
        for (; j + 3 * G < end; j += 4 * G) {
            const uint32_t u0 = load_src<Coh>(&a.src[j]), u1 = load_src<Coh>(&a.src[j + G]), u2 = load_src<Coh>(&a.src[j + 2 * G]),
                           u3 = load_src<Coh>(&a.src[j + 3 * G]);
            const T w0 = edge_weight<M>(a, j), w1 = edge_weight<M>(a, j + G), w2 = edge_weight<M>(a, j + 2 * G),
                    w3 = edge_weight<M>(a, j + 3 * G);
            s0 += term<M>(w0, load_y<Coh>(&y_in[u0])) + term<M>(w2, load_y<Coh>(&y_in[u2]));
            s1 += term<M>(w1, load_y<Coh>(&y_in[u1])) + term<M>(w3, load_y<Coh>(&y_in[u3]));
        }
    }
    for (; j < end; j += G) s0 += term<M>(edge_weight<M>(a, j), load_y<Coh>(&y_in[load_src<Coh>(&a.src[j])]));
    return s0 + s1;
}

/* Rows [first, last), G lanes a row, consecutive groups on consecutive rows: row_sum(p, active,
 * lane, v) returns this lane's part of the sum of row p (0 where !active: p is past last) and sets
 * v to the row's vertex; the lanes' parts are added and lane 0 finishes the row. Its callers
 * capture by name: with [&] nvcc gives res and dang each other's registers (the same SASS else). */
template <int G, int M, typename T, typename Off, typename RowSum>
__device__ __forceinline__ void rows_grouped(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c,
                                             uint64_t first, uint64_t last, double &res, double &dang,
                                             RowSum &&row_sum)
{
    constexpr int groups = kBlock / G;
    const int lane = threadIdx.x & (G - 1);
    const int group = threadIdx.x / G;
    for (uint64_t p0 = first; p0 < last; p0 += groups) {
        const uint64_t p = p0 + (uint64_t)group;
        const bool active = p < last;
        uint32_t v = 0;
        T sum = row_sum(p, active, lane, v);
#pragma unroll
        for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o, G);
        if (active && lane == 0) finish_row<M>(a, v, sum, y_in, y_out, c, res, dang);
    }
}

/* Rows [first, last) of the visiting order, gathered from global memory. */
template <int G, bool Indirect, int M, bool Coh, typename T, typename Off>
__device__ __forceinline__ void rows_lanes(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c,
                                           uint64_t first, uint64_t last, double &res, double &dang)
{
    rows_grouped<G, M>(a, y_in, y_out, c, first, last, res, dang,
                       [&a, y_in](uint64_t p, bool active, int lane, uint32_t &v) {
                           Off beg = 0, end = 0;
                           if (active) {
                               v = Indirect ? a.order[p] : (uint32_t)p;
                               beg = a.off[v];
                               end = a.off[v + 1];
                           }
                           return gather<G, M, Coh>(a, y_in, beg, end, lane);
                       });
}

/* One row for the whole block. */
template <bool Indirect, int M, bool Coh, typename T, typename Off>
__device__ __forceinline__ void row_block(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c, uint64_t p,
                                          double &res, double &dang)
{
    __shared__ T part[kBlock / 32];
    const uint32_t v = Indirect ? a.order[p] : (uint32_t)p;
    T sum = gather<kBlock, M, Coh>(a, y_in, a.off[v], a.off[v + 1], threadIdx.x);
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

/* The edges of rows [first, last) of the relabelled CSR (at most kStageEdges) staged: every thread
 * loads sources and gathers ranks (times the weight share in MODE_WEIGHTED, so one value an edge
 * either way) into vals. The caller's barrier publishes them. */
template <int M, bool Coh, typename T, typename Off>
__device__ __forceinline__ void stage_edges(const Args<T, Off> &a, const T *y_in, uint64_t first, uint64_t last, T *vals)
{
    constexpr int per = kStageEdges / kBlock;
    const Off e0 = a.off[first];
    const int count = (int)(a.off[last] - e0);
#pragma unroll
    for (int b = 0; b < per; b += 8) {
        if (b * kBlock >= count) break; /* the block's edges all loaded (the same for every thread) */
        uint32_t u[8];
        T w[8];
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int i = threadIdx.x + (b + k) * kBlock;
            u[k] = i < count ? load_src<Coh>(&a.src[e0 + (Off)i]) : 0u;
            w[k] = i < count ? edge_weight<M>(a, e0 + (Off)i) : (T)0;
        }
#pragma unroll
        for (int k = 0; k < 8; k++) {
            const int i = threadIdx.x + (b + k) * kBlock;
            if (i < count) vals[i] = term<M>(w[k], load_y<Coh>(&y_in[u[k]]));
        }
    }
}

/* Rows [first, last) from their staged edges (stage_edges, published): G lanes sum each row. */
template <int G, int M, typename T, typename Off>
__device__ __forceinline__ void rows_staged(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c,
                                            uint64_t first, uint64_t last, const T *vals, double &res, double &dang)
{
    const Off e0 = a.off[first];
    rows_grouped<G, M>(a, y_in, y_out, c, first, last, res, dang,
                       [&a, e0, vals](uint64_t p, bool active, int lane, uint32_t &v) {
                           int b = 0, e = 0;
                           if (active) {
                               b = (int)(a.off[p] - e0);
                               e = (int)(a.off[p + 1] - e0);
                           }
                           v = (uint32_t)p;
                           T sum = 0;
                           for (int k = b + lane; k < e; k += G) sum += vals[k];
                           return sum;
                       });
}

/* Iteration j (from 1) for this block; phase = j mod 6 gives the parity of the rank buffers and
 * the ring entry. stage: the staging buffer (kStageEdges values, or 1 with Indirect), prev three
 * doubles, both shared. false when the run has ended (the state is done, or iteration j-1
 * converged): every block of the launch decides alike, from the same ring entry. */
template <typename T, typename Off, bool Indirect, int M, bool Coh>
__device__ __forceinline__ bool iteration_step(const Args<T, Off> &a, unsigned phase, T *stage, double *prev)
{
    const T *y_in = (phase & 1) ? a.y0 : a.y1;
    T *y_out = (phase & 1) ? a.y1 : a.y0;
    int k = 0;
    while (k + 1 < a.bins.count && blockIdx.x >= a.bins.block_begin[k + 1]) k++;
    const uint64_t rpb = (uint64_t)a.bins.rows_per_block[k];
    const uint64_t first = a.bins.row_begin[k] + (blockIdx.x - a.bins.block_begin[k]) * rpb;
    const uint64_t last = min(first + rpb, a.bins.row_begin[k + 1]);
    const bool staged = !Indirect && a.bins.kind[k] == KIND_STAGED;

    /* the state's done flag and the ring entry in one round trip (a load of each before any is
     * used), read by one warp and shared, so the block returns as one; a staged bin's gathers,
     * which need neither, go out beside them (their reads are harmless if the run has ended), so
     * the iteration's first two round trips overlap: on a small graph they are its time */
    double ring_res = 0, ring_dang = 0;
    unsigned done = 0;
    if (threadIdx.x < 32) {
        const Slot *pr = a.ring + ((phase + 2) % 3) * kSlots;
        if (threadIdx.x == 0) done = __ldcg(&a.st->done);
        ring_res = __ldcg(&pr[threadIdx.x].res);
        ring_dang = __ldcg(&pr[threadIdx.x].dang);
    }
    if constexpr (!Indirect) {
        if (staged) stage_edges<M, Coh>(a, y_in, first, last, stage);
    }
    if (threadIdx.x < 32) {
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            ring_res += __shfl_xor_sync(0xffffffffu, ring_res, o);
            ring_dang += __shfl_xor_sync(0xffffffffu, ring_dang, o);
        }
        if (threadIdx.x == 0) prev[0] = ring_res, prev[1] = ring_dang, prev[2] = done;
    }
    __syncthreads();
    if (prev[2] != 0) return false;
    const double dangling = prev[1];
    if (prev[0] < a.threshold) {
        /* iteration j-1 converged: its x stays in place */
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            a.st->res = prev[0];
            a.st->done = 1;
        }
        return false;
    }
    if (blockIdx.x == 0 && threadIdx.x < kSlots) {
        /* the entry iteration j+1 adds into was last read by iteration j-1, which has ended */
        Slot *next = a.ring + ((phase + 1) % 3) * kSlots;
        next[threadIdx.x].res = 0;
        next[threadIdx.x].dang = 0;
        if (threadIdx.x == 0) a.st->count += 1;
    }
    const Coef<T> c = make_coef<M>(a, dangling);

    double res = 0, dang = 0;
    if (a.bins.kind[k] == KIND_BLOCK) {
        row_block<Indirect, M, Coh>(a, y_in, y_out, c, first, res, dang);
    } else if (staged) {
        if constexpr (!Indirect) {
            with_lanes(a.bins.lanes_log2[k], [&](auto g) {
                rows_staged<decltype(g)::value, M>(a, y_in, y_out, c, first, last, stage, res, dang);
            });
        }
    } else if (a.bins.kind[k] != KIND_STAGED) {
        with_lanes(a.bins.lanes_log2[k], [&](auto g) {
            rows_lanes<decltype(g)::value, Indirect, M, Coh>(a, y_in, y_out, c, first, last, res, dang);
        });
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
    if (threadIdx.x == 0) {
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
    return true;
}

/* One iteration a launch: no block waits for another. */
template <typename T, typename Off, bool Indirect, int M>
__global__ void __launch_bounds__(kBlock, 4) pr_iteration(Args<T, Off> a, unsigned phase)
{
    /* one staging buffer for every bin's instantiation (each would otherwise get its own) */
    __shared__ T stage[Indirect ? 1 : kStageEdges];
    __shared__ double prev[3];
    iteration_step<T, Off, Indirect, M, false>(a, phase, stage, prev);
}

/* Iterations first_j .. first_j + k - 1 in one cooperative launch, every block resident, a grid
 * barrier after each (whose fences make an iteration's y and ring sums visible to the next): the
 * launch and the ring fold's wait are paid once for k iterations, which is what a small graph's
 * iteration costs (docs/PAGERANK.md). The relabelled layout only. */
template <typename T, typename Off, int M>
__global__ void __launch_bounds__(kBlock, 4) pr_persistent(Args<T, Off> a, unsigned first_j, unsigned k)
{
    __shared__ T stage[kStageEdges];
    __shared__ double prev[3];
    cg::grid_group grid = cg::this_grid();
    for (unsigned i = 0; i < k; i++) {
        if (!iteration_step<T, Off, false, M, true>(a, (first_j + i) % 6, stage, prev)) break;
        grid.sync();
    }
}

template <typename T, typename Off, bool Indirect, int M>
void launch_mode(const Args<T, Off> &a, unsigned grid, cudaStream_t s, unsigned phase)
{
    pr_iteration<T, Off, Indirect, M><<<grid, kBlock, 0, s>>>(a, phase);
}

template <typename T, typename Off, int M> const void *persistent_kernel() { return (const void *)pr_persistent<T, Off, M>; }

template <typename T, typename Off> const void *persistent_for(int mode)
{
    switch (mode) {
    case MODE_PLAIN: return persistent_kernel<T, Off, MODE_PLAIN>();
    case MODE_WEIGHTED: return persistent_kernel<T, Off, MODE_WEIGHTED>();
    case MODE_TELEPORT: return persistent_kernel<T, Off, MODE_TELEPORT>();
    default: return persistent_kernel<T, Off, MODE_WEIGHTED | MODE_TELEPORT>();
    }
}

} // namespace

template <typename T, typename Off> cudaError_t persistent_blocks_per_sm(int mode, int *blocks)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, persistent_for<T, Off>(mode), kBlock, 0);
}

template <typename T, typename Off>
cudaError_t launch_persistent(const Args<T, Off> &a, int mode, unsigned grid, cudaStream_t s, unsigned first_j, unsigned k)
{
    Args<T, Off> arg = a;
    void *params[] = {&arg, &first_j, &k};
    return cudaLaunchCooperativeKernel(persistent_for<T, Off>(mode), dim3(grid), dim3(kBlock), params, 0, s);
}

template <bool Indirect, typename T, typename Off>
void launch_iteration(const Args<T, Off> &a, int mode, unsigned grid, cudaStream_t s, unsigned phase)
{
    switch (mode) {
    case MODE_PLAIN: launch_mode<T, Off, Indirect, MODE_PLAIN>(a, grid, s, phase); break;
    case MODE_WEIGHTED: launch_mode<T, Off, Indirect, MODE_WEIGHTED>(a, grid, s, phase); break;
    case MODE_TELEPORT: launch_mode<T, Off, Indirect, MODE_TELEPORT>(a, grid, s, phase); break;
    default: launch_mode<T, Off, Indirect, MODE_WEIGHTED | MODE_TELEPORT>(a, grid, s, phase); break;
    }
}

} // namespace kiln_pr

/* The launches of both visiting orders for one rank type and one offset type. */
#define KILN_PR_ITERATION_FOR(T, Off)                                                                        \
    template void kiln_pr::launch_iteration<false, T, Off>(const kiln_pr::Args<T, Off> &, int, unsigned,     \
                                                           cudaStream_t, unsigned);                          \
    template void kiln_pr::launch_iteration<true, T, Off>(const kiln_pr::Args<T, Off> &, int, unsigned,      \
                                                          cudaStream_t, unsigned);

/* The persistent launch, for the offset type of graphs small enough for it (uint32_t). */
#define KILN_PR_PERSISTENT_FOR(T)                                                                             \
    template cudaError_t kiln_pr::persistent_blocks_per_sm<T, uint32_t>(int, int *);                          \
    template cudaError_t kiln_pr::launch_persistent<T, uint32_t>(const kiln_pr::Args<T, uint32_t> &, int,     \
                                                                 unsigned, cudaStream_t, unsigned, unsigned);

#endif
