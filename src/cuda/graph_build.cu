/* CSR of in-edges built on the device: each edge becomes a 64-bit key (dst << bits | src), CUB's
 * radix sort orders the keys, cub::DeviceSelect::Unique merges duplicates, a counting pass and
 * cub::DeviceScan::ExclusiveSum give the row offsets. Self loops that are to be dropped become
 * the all-ones key, which sorts last and is cut off. RMAT edges are generated here as well, from
 * the same counter-based definition as the CPU (src/prim/rmat.h). */
#include <cub/cub.cuh>
#include <stdlib.h>
#include <string.h>

#include "cuda_state.h"
#include "dev_array.cuh"

namespace {

constexpr int kThreads = 256;

int key_bits(uint64_t n)
{
    int b = 1;
    while ((UINT64_C(1) << b) < n) b++;
    return b;
}

__device__ __forceinline__ uint64_t pack(uint32_t dst, uint32_t src, int bits)
{
    return ((uint64_t)dst << bits) | (uint64_t)src;
}

/* Adds the warp's count of flagged lanes to *total with one atomic. */
__device__ __forceinline__ void warp_count(bool flag, unsigned long long *total)
{
    unsigned ballot = __ballot_sync(0xffffffffu, flag);
    if ((threadIdx.x & 31) == 0 && ballot) atomicAdd(total, (unsigned long long)__popc(ballot));
}

/* Key (dst, src) of edge e, and (src, dst) at count + e when undirected; a dropped self loop gets
 * the sentinel key, which sorts after every real one and is cut off. Returns whether it is a loop. */
__device__ __forceinline__ bool edge_keys(uint32_t s, uint32_t d, uint64_t e, uint64_t count, int bits, int undirected,
                                          bool drop_loops, uint64_t *__restrict__ keys)
{
    const uint64_t sentinel = (bits == 32) ? ~UINT64_C(0) : ((UINT64_C(1) << (2 * bits)) - 1);
    const bool loop = s == d;
    keys[e] = (loop && drop_loops) ? sentinel : pack(d, s, bits);
    if (undirected) keys[count + e] = (loop && drop_loops) ? sentinel : pack(s, d, bits);
    return loop;
}

/* A grid-stride loop over edges 0..count-1 that counts the self loops keys_of(e) reports; its bound
 * is rounded up to whole warps so every lane reaches the ballot. */
template <typename F>
__device__ __forceinline__ void each_edge(uint64_t count, unsigned long long *loops, F keys_of)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t end = (count + 31) & ~UINT64_C(31);
    for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < end; e += stride) {
        const bool loop = e < count && keys_of(e);
        warp_count(loop, loops);
    }
}

__global__ void keys_from_edges(const uint32_t *__restrict__ src, const uint32_t *__restrict__ dst, uint64_t count,
                                int bits, int undirected, int drop_loops, uint64_t *__restrict__ keys,
                                unsigned long long *loops)
{
    each_edge(count, loops, [&](uint64_t e) {
        return edge_keys(src[e], dst[e], e, count, bits, undirected, drop_loops != 0, keys);
    });
}

__global__ void rmat_perm_keys(kiln_rmat_spec spec, uint64_t n, uint64_t *__restrict__ key, uint32_t *__restrict__ idx)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        key[v] = kiln_rmat_perm_key(&spec, v);
        idx[v] = (uint32_t)v;
    }
}

__global__ void rmat_keys(kiln_rmat_spec spec, const uint32_t *__restrict__ perm, uint64_t count, int bits,
                          int undirected, uint64_t *__restrict__ keys, unsigned long long *loops)
{
    each_edge(count, loops, [&](uint64_t e) {
        uint32_t rs, rd;
        kiln_rmat_edge(&spec, e, &rs, &rd);
        return edge_keys(perm[rs], perm[rd], e, count, bits, undirected, true, keys);
    });
}

/* The edges of rows [v0, v1) among all RMAT edges: edge e (raw ends rs -> rd, labels perm[]) goes
 * to the part as key (d - v0) << sbits | s when its destination d is in the rows and, undirected,
 * as (s - v0) << sbits | d when its source is. Self loops are dropped (counted once an edge,
 * by the caller's choice of `loops`). Without keys, only the cursor counts; with them, each warp
 * takes its places with one atomic. A self loop is rs == rd (perm is a bijection), and a source's
 * label is looked up only when the edge is kept, to spare the random reads of perm. */
__global__ void rmat_part_keys(kiln_rmat_spec spec, const uint32_t *__restrict__ perm, uint64_t count, uint32_t v0,
                               uint32_t v1, int sbits, int undirected, uint64_t *__restrict__ keys,
                               unsigned long long *cursor, unsigned long long *loops)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t end = (count + 31) & ~UINT64_C(31);
    const unsigned lane = threadIdx.x & 31, below = (1u << lane) - 1u;
    for (uint64_t e = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; e < end; e += stride) {
        bool loop = false, a = false, b = false;
        uint32_t s = 0, d = 0;
        if (e < count) {
            uint32_t rs, rd;
            kiln_rmat_edge(&spec, e, &rs, &rd);
            loop = rs == rd;
            if (!loop) {
                d = perm[rd];
                a = d >= v0 && d < v1;
                if (a || undirected) {
                    s = perm[rs];
                    b = undirected && s >= v0 && s < v1;
                }
            }
        }
        if (loops) warp_count(loop, loops);
        const unsigned ma = __ballot_sync(0xffffffffu, a), mb = __ballot_sync(0xffffffffu, b);
        const unsigned na = __popc(ma), total = na + __popc(mb);
        if (!total) continue;
        unsigned long long base = 0;
        if (lane == 0) base = atomicAdd(cursor, (unsigned long long)total);
        base = __shfl_sync(0xffffffffu, base, 0);
        if (!keys) continue;
        if (a) keys[base + __popc(ma & below)] = ((uint64_t)(d - v0) << sbits) | s;
        if (b) keys[base + na + __popc(mb & below)] = ((uint64_t)(s - v0) << sbits) | d;
    }
}

/* In-degree of each row from the sorted unique keys: lanes holding the same row add once. */
__global__ void count_rows(const uint64_t *__restrict__ keys, uint64_t m, int bits,
                           unsigned long long *__restrict__ indeg)
{
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t end = (m + 31) & ~UINT64_C(31);
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < end; i += stride) {
        bool active = i < m;
        unsigned mask = __ballot_sync(0xffffffffu, active);
        if (!active) continue;
        uint32_t d = (uint32_t)(keys[i] >> bits);
        unsigned peers = __match_any_sync(mask, d);
        if ((int)(threadIdx.x & 31) == __ffs(peers) - 1) atomicAdd(&indeg[d], (unsigned long long)__popc(peers));
    }
}

__global__ void split_sources(const uint64_t *__restrict__ keys, uint64_t m, int bits, uint32_t *__restrict__ sources,
                              unsigned *__restrict__ outdeg)
{
    const uint64_t mask = (UINT64_C(1) << bits) - 1;
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < m; i += stride) {
        uint32_t s = (uint32_t)(keys[i] & mask);
        sources[i] = s;
        atomicAdd(&outdeg[s], 1u);
    }
}

#define LAUNCH_CHECK(what) KILN_CUDA_TRY(cudaGetLastError(), what)

/* The RMAT label permutation (vertices in ascending order of their keys) into perm (n values). */
kiln_status rmat_permutation(kiln_gpu *st, const kiln_rmat_spec *spec, uint64_t n, DevArray<uint32_t> &perm)
{
    cudaStream_t s = st->stream;
    DevArray<uint64_t> h0, h1;
    DevArray<uint32_t> i0, i1;
    KILN_CUDA_TRY(h0.alloc(n), "cudaMalloc (permutation)");
    KILN_CUDA_TRY(h1.alloc(n), "cudaMalloc (permutation)");
    KILN_CUDA_TRY(i0.alloc(n), "cudaMalloc (permutation)");
    KILN_CUDA_TRY(i1.alloc(n), "cudaMalloc (permutation)");
    rmat_perm_keys<<<grid_for(n, kThreads, st->sm_count), kThreads, 0, s>>>(*spec, n, h0.p, i0.p);
    LAUNCH_CHECK("rmat_perm_keys");
    cub::DoubleBuffer<uint64_t> hk(h0.p, h1.p);
    cub::DoubleBuffer<uint32_t> iv(i0.p, i1.p);
    size_t tb = 0;
    KILN_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, tb, hk, iv, (int64_t)n, 0, 64, s), "cub radix sort");
    DevArray<unsigned char> temp;
    KILN_CUDA_TRY(temp.alloc(tb), "cudaMalloc (sort buffer)");
    KILN_CUDA_TRY(cub::DeviceRadixSort::SortPairs(temp.p, tb, hk, iv, (int64_t)n, 0, 64, s), "cub radix sort");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "RMAT permutation");
    DevArray<uint32_t> &keep = iv.Current() == i0.p ? i0 : i1;
    perm.reset();
    perm.n = keep.n;
    perm.p = keep.release();
    return KILN_OK;
}

/* Keys (row << bits | source) -> sorted, merged -> host CSR of `rows` rows whose sources are
 * below nsrc; the keys' significant bits are [0, sort_bits). The K keys are in buffer `cur` of the
 * pair; with has_sentinel, keys equal to the all-ones value are dropped self loops (never a kept
 * edge, since then every self loop was turned into it). */
kiln_status finish_rows(kiln_gpu *st, uint64_t *bufs[2], int cur, uint64_t K, uint64_t rows, uint64_t nsrc, int bits,
                        int sort_bits, int has_sentinel, kiln_gpu_csr *out)
{
    cudaStream_t s = st->stream;
    const uint64_t n = rows;
    const uint64_t sentinel = (bits == 32) ? ~UINT64_C(0) : ((UINT64_C(1) << (2 * bits)) - 1);
    cub::DoubleBuffer<uint64_t> db(bufs[cur], bufs[cur ^ 1]);
    size_t tb = 0;
    KILN_CUDA_TRY(cub::DeviceRadixSort::SortKeys(nullptr, tb, db, (int64_t)K, 0, sort_bits, s), "cub radix sort");
    size_t tu = 0;
    DevArray<unsigned long long> nsel;
    KILN_CUDA_TRY(nsel.alloc(1), "cudaMalloc");
    KILN_CUDA_TRY(cub::DeviceSelect::Unique(nullptr, tu, bufs[0], bufs[1], nsel.p, (int64_t)K, s), "cub unique");
    DevArray<unsigned char> temp;
    KILN_CUDA_TRY(temp.alloc(tb > tu ? tb : tu), "cudaMalloc (sort buffer)");
    KILN_CUDA_TRY(cub::DeviceRadixSort::SortKeys(temp.p, tb, db, (int64_t)K, 0, sort_bits, s), "cub radix sort");
    uint64_t *sorted = db.Current(), *uniq = db.Alternate();
    KILN_CUDA_TRY(cub::DeviceSelect::Unique(temp.p, tu, sorted, uniq, nsel.p, (int64_t)K, s), "cub unique");
    unsigned long long nu = 0;
    KILN_CUDA_TRY(cudaMemcpyAsync(&nu, nsel.p, sizeof nu, cudaMemcpyDeviceToHost, s), "cudaMemcpy");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "unique");
    uint64_t m = nu;
    if (m > 0) {
        uint64_t last = 0;
        KILN_CUDA_TRY(cudaMemcpy(&last, uniq + (m - 1), sizeof last, cudaMemcpyDeviceToHost), "cudaMemcpy");
        if (has_sentinel && last == sentinel) m--;
    }
    temp.reset();

    DevArray<unsigned long long> indeg, off;
    DevArray<uint32_t> sources;
    DevArray<unsigned> outdeg;
    KILN_CUDA_TRY(indeg.alloc(n + 1), "cudaMalloc (degrees)");
    KILN_CUDA_TRY(off.alloc(n + 1), "cudaMalloc (offsets)");
    KILN_CUDA_TRY(sources.alloc(m), "cudaMalloc (sources)");
    KILN_CUDA_TRY(outdeg.alloc(nsrc), "cudaMalloc (out-degrees)");
    kiln_cuda_note_memory(st);
    KILN_CUDA_TRY(cudaMemsetAsync(indeg.p, 0, (n + 1) * sizeof(unsigned long long), s), "cudaMemset");
    KILN_CUDA_TRY(cudaMemsetAsync(outdeg.p, 0, (nsrc ? nsrc : 1) * sizeof(unsigned), s), "cudaMemset");
    if (m) {
        count_rows<<<grid_for(m, kThreads, st->sm_count), kThreads, 0, s>>>(uniq, m, bits, indeg.p);
        LAUNCH_CHECK("count_rows");
        split_sources<<<grid_for(m, kThreads, st->sm_count), kThreads, 0, s>>>(uniq, m, bits, sources.p, outdeg.p);
        LAUNCH_CHECK("split_sources");
    }
    size_t ts = 0;
    KILN_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, ts, indeg.p, off.p, (int64_t)(n + 1), s), "cub scan");
    KILN_CUDA_TRY(temp.alloc(ts), "cudaMalloc (scan buffer)");
    KILN_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.p, ts, indeg.p, off.p, (int64_t)(n + 1), s), "cub scan");

    out->n = n;
    out->m = m;
    out->offsets = (uint64_t *)malloc((n + 1) * sizeof(uint64_t));
    out->sources = (uint32_t *)malloc((m ? m : 1) * sizeof(uint32_t));
    out->outdeg = (uint32_t *)malloc((nsrc ? nsrc : 1) * sizeof(uint32_t));
    if (!out->offsets || !out->sources || !out->outdeg) {
        free(out->offsets);
        free(out->sources);
        free(out->outdeg);
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "out of host memory for the CSR");
    }
    cudaError_t e1 = cudaMemcpyAsync(out->offsets, off.p, (n + 1) * sizeof(uint64_t), cudaMemcpyDeviceToHost, s);
    cudaError_t e2 = cudaMemcpyAsync(out->sources, sources.p, m * sizeof(uint32_t), cudaMemcpyDeviceToHost, s);
    cudaError_t e3 = cudaMemcpyAsync(out->outdeg, outdeg.p, nsrc * sizeof(uint32_t), cudaMemcpyDeviceToHost, s);
    cudaError_t e4 = cudaStreamSynchronize(s);
    cudaError_t e = e1 != cudaSuccess ? e1 : e2 != cudaSuccess ? e2 : e3 != cudaSuccess ? e3 : e4;
    if (e != cudaSuccess) {
        free(out->offsets);
        free(out->sources);
        free(out->outdeg);
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "CUDA copy of the CSR failed: %s", cudaGetErrorString(e));
    }
    return KILN_OK;
}

kiln_status finish_csr(kiln_gpu *st, uint64_t *bufs[2], int cur, uint64_t K, uint64_t n, int bits,
                       int has_sentinel, kiln_gpu_csr *out)
{
    return finish_rows(st, bufs, cur, K, n, n, bits, 2 * bits, has_sentinel, out);
}

} // namespace

kiln_status kiln_cuda_csr_from_edges(kiln_gpu *st, const uint32_t *src, const uint32_t *dst,
                                                uint64_t count, uint64_t n, int undirected, int drop_loops,
                                                kiln_gpu_csr *out)
{
    memset(out, 0, sizeof *out);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    cudaStream_t s = st->stream;
    const int bits = key_bits(n);
    const uint64_t K = count * (undirected ? 2u : 1u);
    DevArray<uint64_t> k0, k1;
    DevArray<unsigned long long> loops;
    KILN_CUDA_TRY(loops.alloc(1), "cudaMalloc");
    KILN_CUDA_TRY(cudaMemsetAsync(loops.p, 0, sizeof(unsigned long long), s), "cudaMemset");
    {
        DevArray<uint32_t> ds, dd;
        KILN_CUDA_TRY(ds.alloc(count), "cudaMalloc (edges)");
        KILN_CUDA_TRY(dd.alloc(count), "cudaMalloc (edges)");
        KILN_CUDA_TRY(cudaMemcpyAsync(ds.p, src, count * sizeof(uint32_t), cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpyAsync(dd.p, dst, count * sizeof(uint32_t), cudaMemcpyHostToDevice, s), "cudaMemcpy");
        KILN_CUDA_TRY(k0.alloc(K), "cudaMalloc (edge keys)");
        KILN_CUDA_TRY(k1.alloc(K), "cudaMalloc (edge keys)");
        keys_from_edges<<<grid_for(count, kThreads, st->sm_count), kThreads, 0, s>>>(ds.p, dd.p, count, bits, undirected,
                                                                                     drop_loops, k0.p, loops.p);
        LAUNCH_CHECK("keys_from_edges");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "keys_from_edges");
    }
    unsigned long long nloops = 0;
    KILN_CUDA_TRY(cudaMemcpy(&nloops, loops.p, sizeof nloops, cudaMemcpyDeviceToHost), "cudaMemcpy");
    uint64_t *bufs[2] = {k0.p, k1.p};
    kiln_status r = finish_csr(st, bufs, 0, K, n, bits, drop_loops, out);
    if (r != KILN_OK) return r;
    out->edges_read = K;
    out->self_loops_removed = drop_loops ? nloops * (undirected ? 2u : 1u) : 0;
    out->duplicates_removed = K - out->self_loops_removed - out->m;
    return KILN_OK;
}

kiln_status kiln_cuda_rmat_csr(kiln_gpu *st, const kiln_rmat_spec *spec, int undirected,
                                          kiln_gpu_csr *out)
{
    memset(out, 0, sizeof *out);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    cudaStream_t s = st->stream;
    const uint64_t n = UINT64_C(1) << spec->scale;
    const uint64_t count = (uint64_t)spec->edge_factor << spec->scale;
    const uint64_t K = count * (undirected ? 2u : 1u);
    const int bits = key_bits(n);
    DevArray<uint64_t> k0, k1;
    DevArray<unsigned long long> loops;
    KILN_CUDA_TRY(loops.alloc(1), "cudaMalloc");
    KILN_CUDA_TRY(cudaMemsetAsync(loops.p, 0, sizeof(unsigned long long), s), "cudaMemset");
    {
        DevArray<uint32_t> perm;
        kiln_status ps = rmat_permutation(st, spec, n, perm);
        if (ps != KILN_OK) return ps;
        KILN_CUDA_TRY(k0.alloc(K), "cudaMalloc (edge keys)");
        rmat_keys<<<grid_for(count, kThreads, st->sm_count), kThreads, 0, s>>>(*spec, perm.p, count, bits, undirected,
                                                                               k0.p, loops.p);
        LAUNCH_CHECK("rmat_keys");
        KILN_CUDA_TRY(cudaStreamSynchronize(s), "rmat_keys");
    }
    KILN_CUDA_TRY(k1.alloc(K), "cudaMalloc (edge keys)");
    unsigned long long nloops = 0;
    KILN_CUDA_TRY(cudaMemcpy(&nloops, loops.p, sizeof nloops, cudaMemcpyDeviceToHost), "cudaMemcpy");
    uint64_t *bufs[2] = {k0.p, k1.p};
    kiln_status r = finish_csr(st, bufs, 0, K, n, bits, 1, out);
    if (r != KILN_OK) return r;
    out->edges_read = K;
    out->self_loops_removed = nloops * (undirected ? 2u : 1u);
    out->duplicates_removed = K - out->self_loops_removed - out->m;
    return KILN_OK;
}

/* Bytes the build of a part with K kept keys, `rows` rows and n vertices needs at its fullest:
 * both key buffers, the sort's and unique's temporary storage (a small fraction of the keys),
 * the CSR's arrays on the device (the keys still held) and the permutation. */
static uint64_t part_build_bytes(uint64_t K, uint64_t rows, uint64_t n)
{
    return 16 * K + K / 16 + 4 * K + 16 * (rows + 1) + 8 * n + (UINT64_C(64) << 20);
}

static double gib(uint64_t b) { return (double)b / (double)(UINT64_C(1) << 30); }

kiln_status kiln_cuda_rmat_part_csr(kiln_gpu *st, const kiln_rmat_spec *spec, int undirected, uint64_t v0, uint64_t v1,
                                    kiln_gpu_csr *out)
{
    memset(out, 0, sizeof *out);
    const uint64_t n = UINT64_C(1) << spec->scale;
    if (v0 > v1 || v1 > n)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "RMAT part rows [%llu, %llu) outside the graph's %llu",
                         (unsigned long long)v0, (unsigned long long)v1, (unsigned long long)n);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    cudaStream_t s = st->stream;
    const uint64_t count = (uint64_t)spec->edge_factor << spec->scale, rows = v1 - v0;
    const int sbits = key_bits(n), rbits = key_bits(rows ? rows : 1);
    size_t free_b = 0, total_b = 0;
    KILN_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    {
        /* before anything is allocated: the part's expected share of the keys (vertex labels are
         * a random permutation, so a range of rows draws its share of the edges), with 2% over */
        const double share = (double)rows / (double)n * (double)count * (undirected ? 2.0 : 1.0) * 1.02;
        const uint64_t need = part_build_bytes((uint64_t)share, rows, n) + 24 * n;
        if (need > free_b)
            return kiln_fail(st->ctx, KILN_ERR_INPUT,
                             "RMAT scale %d rows [%llu, %llu) need about %.1f GiB to build on this GPU, which has %.1f GiB "
                             "free: use more GPUs or processes",
                             spec->scale, (unsigned long long)v0, (unsigned long long)v1, gib(need), gib(free_b));
    }
    DevArray<uint32_t> perm;
    kiln_status ps = rmat_permutation(st, spec, n, perm);
    if (ps != KILN_OK) return ps;
    DevArray<unsigned long long> cnt;
    KILN_CUDA_TRY(cnt.alloc(3), "cudaMalloc");
    KILN_CUDA_TRY(cudaMemsetAsync(cnt.p, 0, 3 * sizeof(unsigned long long), s), "cudaMemset");
    const unsigned grid = grid_for(count, kThreads, st->sm_count);
    /* the first pass counts the part's keys (and the graph's self loops), the second writes them */
    rmat_part_keys<<<grid, kThreads, 0, s>>>(*spec, perm.p, count, (uint32_t)v0, (uint32_t)v1, sbits, undirected,
                                             nullptr, cnt.p, cnt.p + 2);
    LAUNCH_CHECK("rmat_part_keys (count)");
    unsigned long long counts[3];
    KILN_CUDA_TRY(cudaMemcpyAsync(counts, cnt.p, sizeof counts, cudaMemcpyDeviceToHost, s), "cudaMemcpy");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "rmat_part_keys (count)");
    const uint64_t K = counts[0], nloops = counts[2];
    KILN_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    const uint64_t need = part_build_bytes(K, rows, n) - 4 * n; /* the permutation is held already */
    if (need > free_b)
        return kiln_fail(st->ctx, KILN_ERR_INPUT,
                         "RMAT scale %d rows [%llu, %llu): %llu edges need %.1f GiB to build on this GPU, which has "
                         "%.1f GiB free: use more GPUs or processes",
                         spec->scale, (unsigned long long)v0, (unsigned long long)v1, (unsigned long long)K, gib(need),
                         gib(free_b));
    DevArray<uint64_t> k0, k1;
    KILN_CUDA_TRY(k0.alloc(K), "cudaMalloc (edge keys)");
    rmat_part_keys<<<grid, kThreads, 0, s>>>(*spec, perm.p, count, (uint32_t)v0, (uint32_t)v1, sbits, undirected, k0.p,
                                             cnt.p + 1, nullptr);
    LAUNCH_CHECK("rmat_part_keys");
    KILN_CUDA_TRY(cudaStreamSynchronize(s), "rmat_part_keys");
    perm.reset();
    KILN_CUDA_TRY(k1.alloc(K), "cudaMalloc (edge keys)");
    kiln_cuda_note_memory(st);
    uint64_t *bufs[2] = {k0.p, k1.p};
    kiln_status r = finish_rows(st, bufs, 0, K, rows, n, sbits, sbits + rbits, 0, out);
    if (r != KILN_OK) return r;
    out->n = n;
    out->edges_read = count * (undirected ? 2u : 1u);
    out->self_loops_removed = nloops * (undirected ? 2u : 1u);
    out->duplicates_removed = K - out->m;
    return KILN_OK;
}
