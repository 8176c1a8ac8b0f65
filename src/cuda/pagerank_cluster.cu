/* PageRank on the GPU for small graphs: all the iterations of a run in a few launches of one
 * thread-block cluster (Hopper, sm_90).
 *
 * Why. Below a few hundred thousand edges an iteration of the whole-chip kernel (pagerank.cu) is a
 * chain of launch and memory latencies, not work: ego-Facebook (4039 vertices, 176k edges) took
 * 9.5 us an iteration at 18.6 Gedges/s, a tenth of the large graphs' rate, although its rank
 * vector is 16 KB. Here a cluster of up to 8 blocks of 1024 threads, one per SM, keeps the whole
 * rank vector (two of them: this iteration's and the next) in every block's shared memory, so
 * every gather is a shared-memory load; the sources and weights stream from L2, where they stay.
 * Each block owns a contiguous range of rows (balanced by edges + rows) and, once it has written
 * their new values, stores them into the other blocks' shared memory as well (distributed shared
 * memory), with its partial sums of the L1 change and of the dangling mass. One cluster barrier
 * an iteration then makes everything visible: the barrier costs well under a microsecond, where a
 * launch and a global reduction cost several.
 *
 * Order of the double buffers: iteration i reads buffer i % 2 and writes buffer (i + 1) % 2 in
 * every block, and the partial sums into slot i % 2. A block writes into a buffer or slot of
 * another block only after the barrier that ends the iteration in which that block last read it,
 * so one barrier an iteration is enough.
 *
 * The state (count, done, residual, dangling mass) and y live in global memory between launches,
 * y in y0 / y1 by the parity of the count as on the whole-chip path, so the host code around both
 * is the same: a launch runs at most `iters` iterations, which keeps every launch short enough to
 * read the interrupt poll between them. */
#include <cooperative_groups.h>

#include "pagerank_dev.cuh"

namespace cg = cooperative_groups;

namespace kiln_pr {

namespace {

constexpr int kCBlock = 1024; /* threads of a cluster block */
constexpr int kCWarps = kCBlock / 32;
constexpr int kClusterMax = 8; /* the portable cluster size */
/* Past this many edges the whole chip is faster than 8 SMs (see docs/PAGERANK.md). */
constexpr uint64_t kClusterMaxEdges = UINT64_C(1) << 21;

/* Shared memory of a block: partial sums [2 slots][res, dang][kClusterMax], warp partials
 * [res, dang][kCWarps], a row's warp partials [kCWarps], then the two rank vectors. */
constexpr size_t kHeaderDoubles = 2 * 2 * kClusterMax + 2 * kCWarps + kCWarps;

template <typename T> __device__ __forceinline__ T *rank_buffers(double *smem) { return (T *)(smem + kHeaderDoubles); }

/* Edge j's weight share, kept in cache (the cluster re-reads it every iteration). */
template <int M, typename T, typename Off> __device__ __forceinline__ T edge_weight_cached(const Args<T, Off> &a, Off j)
{
    if constexpr ((M & MODE_WEIGHTED) != 0) return __ldg(&a.w[j]);
    else return (T)1;
}

/* Sum of the sources' y over edges [beg, end), lanes lane, lane + G, ...; y in shared memory. */
template <int G, int M, typename T, typename Off>
__device__ __forceinline__ T gather_shared(const Args<T, Off> &a, const T *y_in, Off beg, Off end, int lane)
{
    T s0 = 0, s1 = 0;
    Off j = beg + (Off)lane;
    for (; j + 3 * G < end; j += 4 * G) {
        const uint32_t u0 = __ldg(&a.src[j]), u1 = __ldg(&a.src[j + G]), u2 = __ldg(&a.src[j + 2 * G]),
                       u3 = __ldg(&a.src[j + 3 * G]);
        const T w0 = edge_weight_cached<M>(a, j), w1 = edge_weight_cached<M>(a, j + G),
                w2 = edge_weight_cached<M>(a, j + 2 * G), w3 = edge_weight_cached<M>(a, j + 3 * G);
        s0 += term<M>(w0, y_in[u0]) + term<M>(w2, y_in[u2]);
        s1 += term<M>(w1, y_in[u1]) + term<M>(w3, y_in[u3]);
    }
    for (; j < end; j += G) s0 += term<M>(edge_weight_cached<M>(a, j), y_in[__ldg(&a.src[j])]);
    return s0 + s1;
}

/* Rows [first, last), G lanes a row. */
template <int G, int M, typename T, typename Off>
__device__ __forceinline__ void cluster_rows_lanes(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c,
                                                   uint32_t first, uint32_t last, double &res, double &dang)
{
    constexpr int groups = kCBlock / G;
    const int lane = threadIdx.x & (G - 1);
    const uint32_t group = threadIdx.x / G;
    for (uint32_t p0 = first; p0 < last; p0 += groups) {
        const uint32_t p = p0 + group;
        const bool active = p < last;
        Off beg = 0, end = 0;
        if (active) {
            beg = a.off[p];
            end = a.off[p + 1];
        }
        T sum = gather_shared<G, M>(a, y_in, beg, end, lane);
#pragma unroll
        for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o, G);
        if (active && lane == 0) finish_row<M>(a, p, sum, y_in, y_out, c, res, dang);
    }
}

/* Rows [first, last), the whole block on each (rows of 2048+ edges). */
template <int M, typename T, typename Off>
__device__ __forceinline__ void cluster_rows_block(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c,
                                                   uint32_t first, uint32_t last, double *row_part, double &res,
                                                   double &dang)
{
    for (uint32_t p = first; p < last; p++) {
        T sum = gather_shared<kCBlock, M>(a, y_in, a.off[p], a.off[p + 1], threadIdx.x);
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
        if ((threadIdx.x & 31) == 0) row_part[threadIdx.x >> 5] = (double)sum;
        __syncthreads();
        if (threadIdx.x == 0) {
            double s = 0;
            for (int w = 0; w < kCWarps; w++) s += row_part[w];
            finish_row<M>(a, p, (T)s, y_in, y_out, c, res, dang);
        }
        __syncthreads(); /* row_part is reused by the next row */
    }
}

/* This block's rows [first, last): each degree bin's part its own way. */
template <int M, typename T, typename Off>
__device__ __forceinline__ void cluster_rows(const Args<T, Off> &a, const T *y_in, T *y_out, const Coef<T> &c,
                                             uint32_t first, uint32_t last, double *row_part, double &res, double &dang)
{
    for (int k = 0; k < a.bins.count; k++) {
        const uint32_t b0 = (uint32_t)max((uint64_t)first, a.bins.row_begin[k]);
        const uint32_t b1 = (uint32_t)min((uint64_t)last, a.bins.row_begin[k + 1]);
        if (b0 >= b1) continue;
        if (a.bins.kind[k] == KIND_BLOCK) {
            cluster_rows_block<M>(a, y_in, y_out, c, b0, b1, row_part, res, dang);
            continue;
        }
        switch (a.bins.lanes_log2[k]) {
        case 5: cluster_rows_lanes<32, M>(a, y_in, y_out, c, b0, b1, res, dang); break;
        case 4: cluster_rows_lanes<16, M>(a, y_in, y_out, c, b0, b1, res, dang); break;
        case 3: cluster_rows_lanes<8, M>(a, y_in, y_out, c, b0, b1, res, dang); break;
        case 2: cluster_rows_lanes<4, M>(a, y_in, y_out, c, b0, b1, res, dang); break;
        case 1: cluster_rows_lanes<2, M>(a, y_in, y_out, c, b0, b1, res, dang); break;
        default: cluster_rows_lanes<1, M>(a, y_in, y_out, c, b0, b1, res, dang); break;
        }
    }
}

struct Split {
    uint32_t row[kClusterMax + 1];
};

template <typename T, typename Off, int M>
__global__ void __launch_bounds__(kCBlock, 1) pr_cluster(Args<T, Off> a, Split split, uint32_t n, unsigned iters)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ double smem[];
    double *part = smem; /* [slot][0 res, 1 dang][block] */
    double *warp_part = smem + 2 * 2 * kClusterMax; /* [0 res, 1 dang][warp] */
    double *row_part = warp_part + 2 * kCWarps;
    T *ys = rank_buffers<T>(smem);
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned me = cluster.block_rank(), nb = cluster.num_blocks();
    const uint32_t r0 = split.row[me], r1 = split.row[me + 1];

    /* the state as the last launch left it; nobody writes it before the last barrier */
    const unsigned count0 = a.st->count, done0 = a.st->done;
    double dangling = a.st->dang;
    const T *y_start = (count0 & 1) ? a.y1 : a.y0;
    for (uint32_t v = threadIdx.x; v < n; v += kCBlock) ys[v] = y_start[v];
    /* every block has started (its shared memory exists) before anyone stores into it */
    cluster.sync();
    if (done0) return;

    unsigned cur = 0, it = 0;
    double res = HUGE_VAL;
    bool done = false;
    while (it < iters) {
        const T *y_in = ys + (size_t)cur * n;
        T *y_out = ys + (size_t)(cur ^ 1) * n;
        const Coef<T> c = make_coef<M>(a, dangling);
        double r = 0, g = 0;
        cluster_rows<M>(a, y_in, y_out, c, r0, r1, row_part, r, g);
        __syncthreads(); /* this block's new values are all in y_out */
        for (unsigned k = 1; k < nb; k++) {
            T *remote = cluster.map_shared_rank(y_out, (me + k) % nb);
            for (uint32_t v = r0 + threadIdx.x; v < r1; v += kCBlock) remote[v] = y_out[v];
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            r += __shfl_xor_sync(0xffffffffu, r, o);
            g += __shfl_xor_sync(0xffffffffu, g, o);
        }
        if ((threadIdx.x & 31) == 0) {
            warp_part[threadIdx.x >> 5] = r;
            warp_part[kCWarps + (threadIdx.x >> 5)] = g;
        }
        __syncthreads();
        const unsigned slot = it & 1;
        if (threadIdx.x < nb) {
            double br = 0, bg = 0;
            for (int w = 0; w < kCWarps; w++) {
                br += warp_part[w];
                bg += warp_part[kCWarps + w];
            }
            double *remote = cluster.map_shared_rank(part, threadIdx.x);
            remote[(slot * 2 + 0) * kClusterMax + me] = br;
            remote[(slot * 2 + 1) * kClusterMax + me] = bg;
        }
        cluster.sync();
        /* every block sums the same partials in the same order, so all take the same decision */
        res = 0;
        dangling = 0;
        for (unsigned b = 0; b < nb; b++) {
            res += part[(slot * 2 + 0) * kClusterMax + b];
            dangling += part[(slot * 2 + 1) * kClusterMax + b];
        }
        cur ^= 1;
        it++;
        if (res < a.threshold) {
            done = true;
            break;
        }
    }
    const unsigned count = count0 + it;
    T *y_end = (count & 1) ? a.y1 : a.y0;
    const T *y_now = ys + (size_t)cur * n;
    for (uint32_t v = r0 + threadIdx.x; v < r1; v += kCBlock) y_end[v] = y_now[v];
    if (me == 0 && threadIdx.x == 0) {
        a.st->count = count;
        a.st->done = done ? 1u : 0u;
        a.st->res = res;
        a.st->dang = dangling;
    }
#else
    (void)a, (void)split, (void)n, (void)iters;
    __trap(); /* the host launches it only on sm_90 and later */
#endif
}

template <typename T, typename Off, int M>
cudaError_t launch_mode(const Args<T, Off> &a, const ClusterPlan &plan, const Split &split, uint32_t n, unsigned iters,
                        cudaStream_t s)
{
    auto kernel = pr_cluster<T, Off, M>;
    cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)plan.smem);
    if (e != cudaSuccess) return e;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)plan.blocks);
    cfg.blockDim = dim3(kCBlock);
    cfg.dynamicSmemBytes = plan.smem;
    cfg.stream = s;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)plan.blocks;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    e = cudaLaunchKernelEx(&cfg, kernel, a, split, n, iters);
    return e != cudaSuccess ? e : cudaGetLastError();
}

} // namespace

ClusterPlan cluster_plan(kiln_gpu *st, uint64_t n, uint64_t m, int use_double, const char **why)
{
    ClusterPlan plan = {0, 0};
    int major = 0, optin = 0, cluster_ok = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, st->ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, st->ordinal) != cudaSuccess ||
        cudaDeviceGetAttribute(&cluster_ok, cudaDevAttrClusterLaunch, st->ordinal) != cudaSuccess) {
        cudaGetLastError();
        *why = "the device's attributes could not be read";
        return plan;
    }
    if (major < 9 || !cluster_ok) {
        *why = "it needs thread-block clusters (compute capability 9.0 or later)";
        return plan;
    }
    const size_t bytes = kHeaderDoubles * sizeof(double) + 2 * (size_t)n * (use_double ? 8 : 4);
    if (bytes > (size_t)optin) {
        *why = "the two rank vectors do not fit in a block's shared memory";
        return plan;
    }
    if (m > kClusterMaxEdges) {
        *why = "the graph has more edges than it takes (2^21)";
        return plan;
    }
    plan.smem = bytes;
    plan.blocks = st->sm_count < kClusterMax ? st->sm_count : kClusterMax;
    /* fewer blocks than SMs' worth of work would only add barrier members */
    const uint64_t work = m + n;
    while (plan.blocks > 1 && work / (uint64_t)plan.blocks < 4096) plan.blocks /= 2;
    return plan;
}

template <typename T, typename Off>
cudaError_t cluster_launch(const Args<T, Off> &a, int mode, const ClusterPlan &plan, const uint32_t *row_split,
                           uint32_t n, unsigned iters, cudaStream_t s)
{
    Split split;
    for (int b = 0; b <= plan.blocks; b++) split.row[b] = row_split[b];
    switch (mode) {
    case MODE_PLAIN: return launch_mode<T, Off, MODE_PLAIN>(a, plan, split, n, iters, s);
    case MODE_WEIGHTED: return launch_mode<T, Off, MODE_WEIGHTED>(a, plan, split, n, iters, s);
    case MODE_TELEPORT: return launch_mode<T, Off, MODE_TELEPORT>(a, plan, split, n, iters, s);
    default: return launch_mode<T, Off, MODE_WEIGHTED | MODE_TELEPORT>(a, plan, split, n, iters, s);
    }
}

template cudaError_t cluster_launch<float, uint32_t>(const Args<float, uint32_t> &, int, const ClusterPlan &,
                                                     const uint32_t *, uint32_t, unsigned, cudaStream_t);
template cudaError_t cluster_launch<double, uint32_t>(const Args<double, uint32_t> &, int, const ClusterPlan &,
                                                      const uint32_t *, uint32_t, unsigned, cudaStream_t);
/* (no 64-bit offsets: the cluster path takes at most 2^21 edges) */

} // namespace kiln_pr
