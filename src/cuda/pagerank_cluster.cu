/* PageRank on the GPU for small graphs: all the iterations of a run in a few launches of one
 * thread-block cluster (Hopper, sm_90).
 *
 * Why. Below a few hundred thousand edges an iteration of the whole-chip kernel (pagerank.cu) is a
 * chain of launch and memory latencies, not work: ego-Facebook (4039 vertices, 176k edges) took
 * 9.5 us an iteration at 18.6 Gedges/s, a tenth of the large graphs' rate, although its rank
 * vector is 16 KB. Here a cluster of up to 8 blocks of 1024 threads, one per SM, keeps the whole
 * rank vector (two of them: this iteration's and the next) in every block's shared memory, and
 * each block its own rows' slice of the CSR (offsets, out-degrees, sources, weight shares), loaded
 * once a launch: an iteration then touches global memory only for the teleport vectors. (A first
 * version streamed the slice from L1/L2 every iteration and took 21 us an iteration on
 * ego-Facebook, twice the grid kernel: with one block an SM, every row's chain of dependent
 * loads, offsets then sources then ranks, was exposed.)
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
#include <string.h>

#include "pagerank_dev.cuh"

namespace cg = cooperative_groups;

namespace kiln_pr {

namespace {

constexpr int kCBlock = 1024; /* threads of a cluster block */
constexpr int kCWarps = kCBlock / 32;
constexpr int kMinWorkPerBlock = 4096; /* edges + rows below which a block only adds barrier members */

/* Shared memory of a block, in this order: partial sums [2 slots][res, dang][kClusterMax], warp
 * partials [res, dang][kCWarps], a row's warp partials [kCWarps] (all double); the two rank
 * vectors [2][n] and, weighted, the slice's weight shares [max_edges] (T); the slice's offsets
 * [max_rows + 1], out-degrees [max_rows] and sources [max_edges] (uint32). */
constexpr size_t kHeaderDoubles = 2 * 2 * kClusterMax + 2 * kCWarps + kCWarps;

size_t smem_bytes(uint64_t n, uint32_t max_rows, uint32_t max_edges, size_t tsize, int weighted)
{
    return kHeaderDoubles * sizeof(double) + tsize * (2 * n + (weighted ? max_edges : 0)) +
           4 * ((size_t)max_rows + 1 + max_rows + max_edges);
}

/* A block's slice of the CSR in shared memory; row q of the slice is row r0 + q of the graph. */
template <typename T> struct Slice {
    const uint32_t *off; /* edges of row q: [off[q], off[q + 1]) of src and w */
    const uint32_t *odeg;
    const uint32_t *src;
    const T *w; /* MODE_WEIGHTED only */
    uint32_t r0;
};

template <int M, typename T> __device__ __forceinline__ T slice_weight(const Slice<T> &sl, uint32_t j)
{
    if constexpr ((M & MODE_WEIGHTED) != 0) return sl.w[j];
    else return (T)1;
}

/* Sum of the sources' y over the slice's edges [beg, end), lanes lane, lane + G, ... */
template <int G, int M, typename T>
__device__ __forceinline__ T gather_slice(const Slice<T> &sl, const T *y_in, uint32_t beg, uint32_t end, int lane)
{
    T s0 = 0, s1 = 0;
    uint32_t j = beg + (uint32_t)lane;
    for (; j + 3 * G < end; j += 4 * G) {
        const uint32_t u0 = sl.src[j], u1 = sl.src[j + G], u2 = sl.src[j + 2 * G], u3 = sl.src[j + 3 * G];
        s0 += term<M>(slice_weight<M>(sl, j), y_in[u0]) + term<M>(slice_weight<M>(sl, j + 2 * G), y_in[u2]);
        s1 += term<M>(slice_weight<M>(sl, j + G), y_in[u1]) + term<M>(slice_weight<M>(sl, j + 3 * G), y_in[u3]);
    }
    for (; j < end; j += G) s0 += term<M>(slice_weight<M>(sl, j), y_in[sl.src[j]]);
    return s0 + s1;
}

/* Rows [first, last) of the graph (within the slice), G lanes a row. */
template <int G, int M, typename T, typename Off>
__device__ __forceinline__ void cluster_rows_lanes(const Args<T, Off> &a, const Slice<T> &sl, const T *y_in, T *y_out,
                                                   const Coef<T> &c, uint32_t first, uint32_t last, double &res,
                                                   double &dang)
{
    constexpr int groups = kCBlock / G;
    const int lane = threadIdx.x & (G - 1);
    const uint32_t group = threadIdx.x / G;
    for (uint32_t p0 = first; p0 < last; p0 += groups) {
        const uint32_t p = p0 + group;
        const bool active = p < last;
        uint32_t beg = 0, end = 0;
        if (active) {
            beg = sl.off[p - sl.r0];
            end = sl.off[p - sl.r0 + 1];
        }
        T sum = gather_slice<G, M>(sl, y_in, beg, end, lane);
#pragma unroll
        for (int o = G / 2; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o, G);
        if (active && lane == 0) finish_row_od<M>(a, p, sl.odeg[p - sl.r0], sum, y_in, y_out, c, res, dang);
    }
}

/* Rows [first, last), the whole block on each (rows of 2048+ edges). */
template <int M, typename T, typename Off>
__device__ __forceinline__ void cluster_rows_block(const Args<T, Off> &a, const Slice<T> &sl, const T *y_in, T *y_out,
                                                   const Coef<T> &c, uint32_t first, uint32_t last, double *row_part,
                                                   double &res, double &dang)
{
    for (uint32_t p = first; p < last; p++) {
        T sum = gather_slice<kCBlock, M>(sl, y_in, sl.off[p - sl.r0], sl.off[p - sl.r0 + 1], threadIdx.x);
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
        if ((threadIdx.x & 31) == 0) row_part[threadIdx.x >> 5] = (double)sum;
        __syncthreads();
        if (threadIdx.x == 0) {
            double s = 0;
            for (int w = 0; w < kCWarps; w++) s += row_part[w];
            finish_row_od<M>(a, p, sl.odeg[p - sl.r0], (T)s, y_in, y_out, c, res, dang);
        }
        __syncthreads(); /* row_part is reused by the next row */
    }
}

/* This block's rows [first, last): each degree bin's part its own way. */
template <int M, typename T, typename Off>
__device__ __forceinline__ void cluster_rows(const Args<T, Off> &a, const Slice<T> &sl, const T *y_in, T *y_out,
                                             const Coef<T> &c, uint32_t first, uint32_t last, double *row_part,
                                             double &res, double &dang)
{
    for (int k = 0; k < a.bins.count; k++) {
        const uint32_t b0 = (uint32_t)max((uint64_t)first, a.bins.row_begin[k]);
        const uint32_t b1 = (uint32_t)min((uint64_t)last, a.bins.row_begin[k + 1]);
        if (b0 >= b1) continue;
        if (a.bins.kind[k] == KIND_BLOCK) {
            cluster_rows_block<M>(a, sl, y_in, y_out, c, b0, b1, row_part, res, dang);
            continue;
        }
        with_lanes(a.bins.lanes_log2[k], [&](auto g) {
            cluster_rows_lanes<decltype(g)::value, M>(a, sl, y_in, y_out, c, b0, b1, res, dang);
        });
    }
}

template <typename T, typename Off, int M>
__global__ void __launch_bounds__(kCBlock, 1) pr_cluster(Args<T, Off> a, ClusterPlan plan, uint32_t n, unsigned iters)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ double smem[];
    double *part = smem; /* [slot][0 res, 1 dang][block] */
    double *warp_part = smem + 2 * 2 * kClusterMax; /* [0 res, 1 dang][warp] */
    double *row_part = warp_part + 2 * kCWarps;
    T *ys = (T *)(smem + kHeaderDoubles);
    T *w_s = ys + 2 * (size_t)n;
    uint32_t *off_s = (uint32_t *)(w_s + ((M & MODE_WEIGHTED) ? plan.max_edges : 0));
    uint32_t *od_s = off_s + plan.max_rows + 1;
    uint32_t *src_s = od_s + plan.max_rows;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned me = cluster.block_rank(), nb = cluster.num_blocks();
    const uint32_t r0 = plan.row_split[me], r1 = plan.row_split[me + 1];

    /* the state as the last launch left it (nobody writes it before the last barrier), its y,
     * and this block's slice of the CSR */
    const unsigned count0 = a.st->count, done0 = a.st->done;
    double dangling = a.st->dang;
    const T *y_start = (count0 & 1) ? a.y1 : a.y0;
    for (uint32_t v = threadIdx.x; v < n; v += kCBlock) ys[v] = y_start[v];
    const Off e0 = a.off[r0];
    const uint32_t edges = (uint32_t)(a.off[r1] - e0);
    for (uint32_t q = threadIdx.x; q <= r1 - r0; q += kCBlock) off_s[q] = (uint32_t)(a.off[r0 + q] - e0);
    for (uint32_t q = threadIdx.x; q < r1 - r0; q += kCBlock) od_s[q] = a.odeg[r0 + q];
    for (uint32_t j = threadIdx.x; j < edges; j += kCBlock) {
        src_s[j] = __ldcs(&a.src[e0 + j]);
        if constexpr ((M & MODE_WEIGHTED) != 0) w_s[j] = __ldcs(&a.w[e0 + j]);
    }
    const Slice<T> sl = {off_s, od_s, src_s, w_s, r0};
    /* every block has started (its shared memory exists) and loaded, before anyone stores into it */
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
        cluster_rows<M>(a, sl, y_in, y_out, c, r0, r1, row_part, r, g);
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
    (void)a, (void)plan, (void)n, (void)iters;
    __trap(); /* the host launches it only on sm_90 and later */
#endif
}

template <typename T, typename Off, int M>
cudaError_t launch_mode(const Args<T, Off> &a, const ClusterPlan &plan, uint32_t n, unsigned iters, cudaStream_t s)
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
    e = cudaLaunchKernelEx(&cfg, kernel, a, plan, n, iters);
    return e != cudaSuccess ? e : cudaGetLastError();
}

} // namespace

template <typename Off>
ClusterPlan cluster_plan(kiln_gpu *st, const Off *off, uint64_t n, int use_double, int weighted, const char **why)
{
    ClusterPlan plan;
    memset(&plan, 0, sizeof plan);
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
    const uint64_t m = (uint64_t)off[n];
    if (m > kClusterMaxEdges) {
        *why = "the graph has more edges than it takes (2^20)";
        return plan;
    }
    int blocks = st->sm_count < kClusterMax ? st->sm_count : kClusterMax;
    while (blocks > 1 && (m + n) / (uint64_t)blocks < kMinWorkPerBlock) blocks /= 2;
    /* each block's rows, balanced by edges + rows */
    uint64_t p = 0;
    plan.row_split[0] = 0;
    for (int b = 1; b < blocks; b++) {
        const uint64_t target = (m + n) * (uint64_t)b / (uint64_t)blocks;
        while (p < n && (uint64_t)off[p] + p < target) p++;
        plan.row_split[b] = (uint32_t)p;
    }
    plan.row_split[blocks] = (uint32_t)n;
    for (int b = 0; b < blocks; b++) {
        const uint32_t rows = plan.row_split[b + 1] - plan.row_split[b];
        const uint32_t edges = (uint32_t)(off[plan.row_split[b + 1]] - off[plan.row_split[b]]);
        if (rows > plan.max_rows) plan.max_rows = rows;
        if (edges > plan.max_edges) plan.max_edges = edges;
    }
    plan.smem = smem_bytes(n, plan.max_rows, plan.max_edges, use_double ? 8 : 4, weighted);
    if (plan.smem > (size_t)optin) {
        *why = "the two rank vectors and a block's slice of the graph do not fit in its shared memory";
        plan.smem = 0;
        return plan;
    }
    plan.blocks = blocks;
    return plan;
}

template <typename T, typename Off>
cudaError_t cluster_launch(const Args<T, Off> &a, int mode, const ClusterPlan &plan, uint32_t n, unsigned iters,
                           cudaStream_t s)
{
    switch (mode) {
    case MODE_PLAIN: return launch_mode<T, Off, MODE_PLAIN>(a, plan, n, iters, s);
    case MODE_WEIGHTED: return launch_mode<T, Off, MODE_WEIGHTED>(a, plan, n, iters, s);
    case MODE_TELEPORT: return launch_mode<T, Off, MODE_TELEPORT>(a, plan, n, iters, s);
    default: return launch_mode<T, Off, MODE_WEIGHTED | MODE_TELEPORT>(a, plan, n, iters, s);
    }
}

/* (32-bit offsets only: the cluster path takes at most 2^20 edges) */
template ClusterPlan cluster_plan<uint32_t>(kiln_gpu *, const uint32_t *, uint64_t, int, int, const char **);
template cudaError_t cluster_launch<float, uint32_t>(const Args<float, uint32_t> &, int, const ClusterPlan &, uint32_t,
                                                     unsigned, cudaStream_t);
template cudaError_t cluster_launch<double, uint32_t>(const Args<double, uint32_t> &, int, const ClusterPlan &, uint32_t,
                                                      unsigned, cudaStream_t);

} // namespace kiln_pr
