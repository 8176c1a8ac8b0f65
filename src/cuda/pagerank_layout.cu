/* PageRank on the GPU: the layout of rows (pagerank_layout.h), compiled once for pagerank.cu and
 * pagerank_part.cu: each would otherwise compile its own copy of the CUB sorts and scans. */
#include <cub/cub.cuh>

#include "pagerank_layout.h"

#define LAUNCH_CHECK(what) KILN_CUDA_TRY(cudaGetLastError(), what)

namespace kiln_pr {

namespace {

/* out[i] = in[i] - base, narrowed to the offset type. */
template <typename Off>
__global__ void narrow_offsets(const uint64_t *__restrict__ in, uint64_t base, Off *__restrict__ out, uint64_t n1)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n1; i += stride) out[i] = (Off)(in[i] - base);
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
        atomicAdd(&cnt[kiln_pr_degree_class(dg)], 1ull);
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
 * y is then x itself), and for the rows (the graph's row0 ..) 1 / 0 for has out-weight / dangling
 * in place of the out-degree. */
template <typename T>
__global__ void weight_shares(const uint32_t *__restrict__ src, const double *__restrict__ w,
                              const double *__restrict__ out_weight, uint64_t m, uint64_t row0, uint64_t rows,
                              T *__restrict__ share, uint32_t *__restrict__ has_out)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < m; j += stride) {
        const double wu = out_weight[src[j]];
        share[j] = wu > 0 ? (T)(w[j] / wu) : (T)0;
    }
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < rows; v += stride)
        has_out[v] = out_weight[row0 + v] > 0 ? 1u : 0u;
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

} // namespace

template <typename T, typename Off> kiln_status layout_load(kiln_gpu *st, const LayoutInput &in, Layout<T, Off> &L)
{
    cudaStream_t s = st->stream;
    const int sms = st->sm_count;
    const uint64_t rows = in.rows, e0 = in.offsets[in.row0], m = in.offsets[in.row0 + rows] - e0;
    L.rows = rows;
    L.edges = m;
    KILN_CUDA_TRY(L.off.alloc(rows + 1), "cudaMalloc (offsets)");
    KILN_CUDA_TRY(L.src.alloc(m), "cudaMalloc (sources)");
    KILN_CUDA_TRY(L.odeg.alloc(rows), "cudaMalloc (out-degrees)");
    {
        DevArray<uint64_t> off64;
        KILN_CUDA_TRY(off64.alloc(rows + 1), "cudaMalloc (offsets)");
        KILN_CUDA_TRY(cudaMemcpyAsync(off64.p, in.offsets + in.row0, (rows + 1) * 8, cudaMemcpyHostToDevice, s),
                      "cudaMemcpy");
        narrow_offsets<Off><<<grid_for(rows + 1, kBlock, sms), kBlock, 0, s>>>(off64.p, e0, L.off.p, rows + 1);
        LAUNCH_CHECK("narrow_offsets");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "narrow_offsets");
    }
    KILN_CUDA_TRY(cudaMemcpyAsync(L.src.p, in.sources + e0, m * 4, cudaMemcpyHostToDevice, s), "cudaMemcpy");
    if (in.weights) {
        DevArray<double> w64, ow64;
        KILN_CUDA_TRY(L.wsh.alloc(m), "cudaMalloc (edge weights)");
        KILN_CUDA_TRY(w64.alloc(m), "cudaMalloc (edge weights)");
        KILN_CUDA_TRY(ow64.alloc(in.n), "cudaMalloc (out-weights)");
        KILN_CUDA_TRY(cudaMemcpyAsync(w64.p, in.weights + e0, m * 8, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpyAsync(ow64.p, in.out_weight, in.n * 8, cudaMemcpyHostToDevice, s), "cudaMemcpy");
        weight_shares<T><<<grid_for(m > rows ? m : rows, kBlock, sms), kBlock, 0, s>>>(
            L.src.p, w64.p, ow64.p, m, in.row0, rows, L.wsh.p, L.odeg.p);
        LAUNCH_CHECK("weight_shares");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "weight_shares");
    } else {
        KILN_CUDA_TRY(cudaMemcpyAsync(L.odeg.p, in.outdeg + in.row0, rows * 4, cudaMemcpyHostToDevice, s), "cudaMemcpy");
    }

    /* visiting order: descending in-degree (stable, so ties keep label order) */
    DevArray<unsigned long long> classes;
    KILN_CUDA_TRY(classes.alloc(kClasses), "cudaMalloc");
    KILN_CUDA_TRY(cudaMemsetAsync(classes.p, 0, kClasses * sizeof(unsigned long long), s), "cudaMemset");
    DevArray<uint32_t> deg, iota;
    KILN_CUDA_TRY(deg.alloc(rows), "cudaMalloc");
    KILN_CUDA_TRY(L.deg_sorted.alloc(rows), "cudaMalloc");
    KILN_CUDA_TRY(iota.alloc(rows), "cudaMalloc");
    KILN_CUDA_TRY(L.order.alloc(rows), "cudaMalloc");
    in_degrees<Off><<<grid_for(rows, kBlock, sms), kBlock, 0, s>>>(L.off.p, rows, deg.p, iota.p, classes.p);
    LAUNCH_CHECK("in_degrees");
    DevArray<unsigned char> temp;
    KILN_CUDA_TRY(cub_twice(temp,
                            [&](void *t, size_t &b) {
                                return cub::DeviceRadixSort::SortPairsDescending(t, b, deg.p, L.deg_sorted.p, iota.p,
                                                                                 L.order.p, (int64_t)rows, 0, 32, s);
                            }),
                  "cub radix sort");
    KILN_CUDA_TRY(cudaMemcpyAsync(L.cls, classes.p, sizeof L.cls, cudaMemcpyDeviceToHost, s), "cudaMemcpy");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "PageRank layout");
    return KILN_OK;
}

template <typename T, typename Off>
kiln_status layout_relabel(kiln_gpu *st, Layout<T, Off> &L, const uint32_t *old2new)
{
    cudaStream_t s = st->stream;
    const int sms = st->sm_count;
    const uint64_t n = L.rows, m = L.edges;
    const bool weighted = L.wsh.p != nullptr;
    DevArray<uint32_t> nodeg;
    DevArray<unsigned long long> noff64;
    DevArray<Off> noff;
    DevArray<unsigned char> temp;
    KILN_CUDA_TRY(nodeg.alloc(n), "cudaMalloc");
    KILN_CUDA_TRY(noff64.alloc(n + 1), "cudaMalloc");
    widen_degrees<<<grid_for(n + 1, kBlock, sms), kBlock, 0, s>>>(L.deg_sorted.p, n, noff64.p);
    LAUNCH_CHECK("widen_degrees");
    KILN_CUDA_TRY(cub_twice(temp,
                            [&](void *t, size_t &b) {
                                return cub::DeviceScan::ExclusiveSum(t, b, noff64.p, noff64.p, (int64_t)(n + 1), s);
                            }),
                  "cub scan");
    DevArray<uint32_t> nsrc, nsrc_alt;
    DevArray<T> nw, nw_alt;
    KILN_CUDA_TRY(nsrc.alloc(m), "cudaMalloc (relabelled sources)");
    if (weighted) KILN_CUDA_TRY(nw.alloc(m), "cudaMalloc (relabelled weights)");
    relabel_rows<Off, T><<<grid_for(n * 8, kBlock, sms), kBlock, 0, s>>>(L.off.p, L.src.p, L.wsh.p, L.order.p, old2new,
                                                                       noff64.p, n, nsrc.p, nw.p);
    LAUNCH_CHECK("relabel_rows");
    permute_u32<<<grid_for(n, kBlock, sms), kBlock, 0, s>>>(L.odeg.p, L.order.p, n, nodeg.p);
    LAUNCH_CHECK("permute_u32");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "relabel");
    L.src.reset();
    L.wsh.reset();
    L.off.reset();
    L.deg_sorted.reset();
    KILN_CUDA_TRY(nsrc_alt.alloc(m), "cudaMalloc (relabelled sources)");
    /* the segments are given by the 64-bit offsets whatever Off is: each CUB segmented sort
     * instantiation costs nvcc about half a minute, so one offset type, not two */
    const unsigned long long *seg = noff64.p;
    cub::DoubleBuffer<uint32_t> keys(nsrc.p, nsrc_alt.p);
    if (weighted) {
        /* the keys are distinct within a row (duplicates were merged), so the weights follow
         * their sources whatever the sort's stability */
        KILN_CUDA_TRY(nw_alt.alloc(m), "cudaMalloc (relabelled weights)");
        cub::DoubleBuffer<T> vals(nw.p, nw_alt.p);
        KILN_CUDA_TRY(cub_twice(temp,
                                [&](void *t, size_t &b) {
                                    return cub::DeviceSegmentedSort::SortPairs(t, b, keys, vals, (int64_t)m, (int64_t)n,
                                                                               seg, seg + 1, s);
                                }),
                      "cub segmented sort");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "segmented sort");
        keep_sorted(nw, nw_alt, vals.Current(), L.wsh);
    } else {
        KILN_CUDA_TRY(cub_twice(temp,
                                [&](void *t, size_t &b) {
                                    return cub::DeviceSegmentedSort::SortKeys(t, b, keys, (int64_t)m, (int64_t)n, seg,
                                                                              seg + 1, s);
                                }),
                      "cub segmented sort");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "segmented sort");
    }
    temp.reset();
    keep_sorted(nsrc, nsrc_alt, keys.Current(), L.src);
    KILN_CUDA_TRY(noff.alloc(n + 1), "cudaMalloc");
    narrow_offsets<Off><<<grid_for(n + 1, kBlock, sms), kBlock, 0, s>>>((const uint64_t *)noff64.p, 0, noff.p, n + 1);
    LAUNCH_CHECK("narrow_offsets");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "narrow_offsets");
    noff64.reset();
    L.off.p = noff.release();
    L.off.n = n + 1;
    L.odeg.reset();
    L.odeg.p = nodeg.release();
    L.odeg.n = n;
    return KILN_OK;
}

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

#define KILN_PR_LAYOUT_FOR(T, Off)                                                                           \
    template kiln_status layout_load<T, Off>(kiln_gpu *, const LayoutInput &, Layout<T, Off> &);             \
    template kiln_status layout_relabel<T, Off>(kiln_gpu *, Layout<T, Off> &, const uint32_t *);
KILN_PR_LAYOUT_FOR(float, uint32_t)
KILN_PR_LAYOUT_FOR(float, unsigned long long)
KILN_PR_LAYOUT_FOR(double, uint32_t)
KILN_PR_LAYOUT_FOR(double, unsigned long long)
template kiln_status upload_vector<float>(kiln_gpu *, const double *, const uint32_t *, uint64_t, DevArray<float> &);
template kiln_status upload_vector<double>(kiln_gpu *, const double *, const uint32_t *, uint64_t, DevArray<double> &);

} // namespace kiln_pr
