/* PageRank over row parts (core/gpu.h, "PageRank parts"): the pass of one part of the rows, for
 * several devices of one context or one process of a split. Unlike the one-device kernels
 * (pagerank.cu) nothing is relabelled, since every part must agree on the vertex order of the
 * vector the parts exchange: a warp sums a row's in-edges, lane 0 finishes the row, and each
 * block adds its L1 change and dangling mass into two float64 sums. */
#include <math.h>
#include <string.h>

#include <new>
#include <vector>

#include "cuda_state.h"
#include "dev_array.cuh"

#define LAUNCH_CHECK(what) KILN_CUDA_TRY(cudaGetLastError(), what)

struct kiln_gpu_pr_part {
    kiln_gpu *st;
    uint64_t n, v0, rows, edges;
    size_t elem; /* 4 or 8 */
    double damping;
    DevArray<uint64_t> off; /* rows + 1, the part's first edge at 0 */
    DevArray<uint32_t> src;
    DevArray<double> w; /* edges, or empty (unweighted) */
    DevArray<double> W; /* rows: out-weight sum or out-degree; 0 dangling */
    DevArray<double> pv, qv; /* rows, or empty (uniform) */
    DevArray<unsigned char> y[2]; /* n elements each */
    int cur;
    DevArray<double> sums; /* L1 change, dangling mass */
    double *h_sums; /* pinned */
    uint32_t peers_tried; /* ordinals whose peer access this part's device has asked for */
};

namespace {

constexpr int kThreads = 256;

template <typename T>
__global__ void __launch_bounds__(kThreads) part_pass(const uint64_t *__restrict__ off, const uint32_t *__restrict__ src,
                                                      const double *__restrict__ w, const double *__restrict__ W,
                                                      const double *__restrict__ pv, const double *__restrict__ qv,
                                                      const T *__restrict__ y_in, T *__restrict__ y_out, uint64_t v0,
                                                      uint64_t rows, double damping, double dmass, double uniform,
                                                      double *sums)
{
    const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
    const uint64_t warps = (uint64_t)gridDim.x * (kThreads / 32);
    double res = 0, dang = 0;
    for (uint64_t r = (uint64_t)blockIdx.x * (kThreads / 32) + wib; r < rows; r += warps) {
        const uint64_t b = off[r], e = off[r + 1];
        double s = 0;
        if (w) {
            for (uint64_t j = b + lane; j < e; j += 32) s += w[j] * (double)y_in[src[j]];
        } else {
            for (uint64_t j = b + lane; j < e; j += 32) s += (double)y_in[src[j]];
        }
        for (int k = 16; k > 0; k >>= 1) s += __shfl_xor_sync(0xffffffffu, s, k);
        if (lane == 0) {
            const double x = damping * s + dmass * (qv ? qv[r] : uniform) + (1.0 - damping) * (pv ? pv[r] : uniform);
            const double Wv = W[r];
            const uint64_t v = v0 + r;
            const double old = Wv > 0 ? (double)y_in[v] * Wv : (double)y_in[v];
            res += fabs(x - old);
            if (Wv > 0) {
                y_out[v] = (T)(x / Wv);
            } else {
                y_out[v] = (T)x;
                dang += x;
            }
        }
    }
    __shared__ double block_res[kThreads / 32], block_dang[kThreads / 32];
    if (lane == 0) {
        block_res[wib] = res;
        block_dang[wib] = dang;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        double r = 0, d = 0;
        for (int i = 0; i < kThreads / 32; i++) {
            r += block_res[i];
            d += block_dang[i];
        }
        if (r != 0) atomicAdd(&sums[0], r);
        if (d != 0) atomicAdd(&sums[1], d);
    }
}

/* count doubles from host rows [v0, v0 + count) of v (NULL: leaves a empty) */
cudaError_t upload_rows(DevArray<double> &a, const double *v, uint64_t v0, uint64_t count)
{
    if (!v) return cudaSuccess;
    cudaError_t e = a.alloc(count);
    if (e == cudaSuccess) e = cudaMemcpy(a.p, v + v0, count * sizeof(double), cudaMemcpyHostToDevice);
    return e;
}

kiln_status open_part(kiln_gpu *st, const kiln_gpu_pr_part_spec *s, kiln_gpu_pr_part *p)
{
    const uint64_t rows = s->v1 - s->v0, e0 = s->offsets[s->v0], edges = s->offsets[s->v1] - e0;
    p->st = st;
    p->n = s->n;
    p->v0 = s->v0;
    p->rows = rows;
    p->edges = edges;
    p->elem = s->use_double ? 8 : 4;
    p->damping = s->damping;
    std::vector<uint64_t> off(rows + 1);
    std::vector<double> W(rows);
    for (uint64_t r = 0; r <= rows; r++) off[r] = s->offsets[s->v0 + r] - e0;
    for (uint64_t r = 0; r < rows; r++)
        W[r] = s->out_weight ? s->out_weight[s->v0 + r] : (double)s->outdeg[s->v0 + r];
    KILN_CUDA_TRY(p->off.alloc(rows + 1), "cudaMalloc (part offsets)");
    KILN_CUDA_TRY(cudaMemcpy(p->off.p, off.data(), (rows + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice),
                  "cudaMemcpy (part offsets)");
    KILN_CUDA_TRY(p->src.alloc(edges), "cudaMalloc (part sources)");
    KILN_CUDA_TRY(cudaMemcpy(p->src.p, s->sources + e0, edges * sizeof(uint32_t), cudaMemcpyHostToDevice),
                  "cudaMemcpy (part sources)");
    KILN_CUDA_TRY(upload_rows(p->w, s->weights, e0, edges), "upload (part weights)");
    KILN_CUDA_TRY(upload_rows(p->W, W.data(), 0, rows), "upload (part out-weights)");
    const double *q = s->dangling ? s->dangling : s->personalization;
    KILN_CUDA_TRY(upload_rows(p->pv, s->personalization, s->v0, rows), "upload (personalization)");
    KILN_CUDA_TRY(upload_rows(p->qv, q, s->v0, rows), "upload (dangling vector)");
    for (int i = 0; i < 2; i++) {
        KILN_CUDA_TRY(p->y[i].alloc(s->n * p->elem), "cudaMalloc (rank vector)");
        /* rows of other parts not yet shared must still be numbers (compute-sanitizer, and a
         * failure that left them unwritten shows up as zeros, not garbage) */
        KILN_CUDA_TRY(cudaMemset(p->y[i].p, 0, s->n * p->elem), "cudaMemset (rank vector)");
    }
    KILN_CUDA_TRY(p->sums.alloc(2), "cudaMalloc (sums)");
    KILN_CUDA_TRY(cudaMallocHost(reinterpret_cast<void **>(&p->h_sums), 2 * sizeof(double)), "cudaMallocHost (sums)");
    /* the copies and memsets above ran on the legacy stream, which the part's non-blocking stream
     * does not wait for */
    KILN_CUDA_TRY(cudaDeviceSynchronize(), "cudaDeviceSynchronize (PageRank part)");
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_pr_part_open(kiln_gpu *st, const kiln_gpu_pr_part_spec *spec, kiln_gpu_pr_part **out)
{
    *out = nullptr;
    if (spec->v1 < spec->v0 || spec->v1 > spec->n)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank part rows [%llu, %llu) outside the graph's %llu",
                         (unsigned long long)spec->v0, (unsigned long long)spec->v1, (unsigned long long)spec->n);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    kiln_gpu_pr_part *p = new (std::nothrow) kiln_gpu_pr_part();
    if (!p) return kiln_fail(st->ctx, KILN_ERR_DEVICE, "out of memory");
    kiln_status s = open_part(st, spec, p);
    if (s != KILN_OK) {
        kiln_cuda_pr_part_close(p);
        return s;
    }
    *out = p;
    return KILN_OK;
}

kiln_status kiln_cuda_pr_part_put(kiln_gpu_pr_part *p, const void *y, uint64_t first, uint64_t count)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    /* on the part's stream and waited for: a cudaMemcpy from pageable memory may return before its
     * DMA lands, and the part's non-blocking stream would not wait for it */
    KILN_CUDA_TRY(cudaMemcpyAsync(p->y[p->cur].p + first * p->elem, static_cast<const unsigned char *>(y) + first * p->elem,
                                  count * p->elem, cudaMemcpyHostToDevice, st->stream),
                  "cudaMemcpyAsync (rank vector to the device)");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "cudaStreamSynchronize (rank vector to the device)");
    return KILN_OK;
}

kiln_status kiln_cuda_pr_part_get(kiln_gpu_pr_part *p, void *y, uint64_t first, uint64_t count)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    /* after the pass and the shares into this vector, which are on the same stream */
    KILN_CUDA_TRY(cudaMemcpyAsync(static_cast<unsigned char *>(y) + first * p->elem, p->y[p->cur].p + first * p->elem,
                                  count * p->elem, cudaMemcpyDeviceToHost, st->stream),
                  "cudaMemcpyAsync (rank vector from the device)");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "cudaStreamSynchronize (rank vector from the device)");
    return KILN_OK;
}

kiln_status kiln_cuda_pr_part_launch(kiln_gpu_pr_part *p, double dangling)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    KILN_CUDA_TRY(cudaMemsetAsync(p->sums.p, 0, 2 * sizeof(double), st->stream), "cudaMemsetAsync (sums)");
    if (p->rows) {
        const unsigned blocks = grid_for(p->rows * 32ull, kThreads, st->sm_count);
        const double uniform = 1.0 / (double)p->n, dmass = p->damping * dangling;
        const double *w = p->w.n ? p->w.p : nullptr, *pv = p->pv.n ? p->pv.p : nullptr, *qv = p->qv.n ? p->qv.p : nullptr;
        if (p->elem == 8)
            part_pass<double><<<blocks, kThreads, 0, st->stream>>>(
                p->off.p, p->src.p, w, p->W.p, pv, qv, reinterpret_cast<const double *>(p->y[p->cur].p),
                reinterpret_cast<double *>(p->y[1 - p->cur].p), p->v0, p->rows, p->damping, dmass, uniform, p->sums.p);
        else
            part_pass<float><<<blocks, kThreads, 0, st->stream>>>(
                p->off.p, p->src.p, w, p->W.p, pv, qv, reinterpret_cast<const float *>(p->y[p->cur].p),
                reinterpret_cast<float *>(p->y[1 - p->cur].p), p->v0, p->rows, p->damping, dmass, uniform, p->sums.p);
        LAUNCH_CHECK("part_pass");
    }
    KILN_CUDA_TRY(cudaMemcpyAsync(p->h_sums, p->sums.p, 2 * sizeof(double), cudaMemcpyDeviceToHost, st->stream),
                  "cudaMemcpyAsync (sums)");
    return KILN_OK;
}

kiln_status kiln_cuda_pr_part_sums(kiln_gpu_pr_part *p, double *res, double *dangling)
{
    kiln_gpu *st = p->st;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "PageRank part pass");
    *res = p->h_sums[0];
    *dangling = p->h_sums[1];
    return KILN_OK;
}

kiln_status kiln_cuda_pr_part_share(kiln_gpu_pr_part *dst, const kiln_gpu_pr_part *src)
{
    kiln_gpu *st = dst->st;
    const int to = st->ordinal, from = src->st->ordinal;
    KILN_CUDA_TRY(cudaSetDevice(to), "cudaSetDevice");
    if (to != from && from < 32 && !(dst->peers_tried & (1u << from))) {
        /* direct peer copies over NVLink/PCIe where the pair allows it; else the runtime stages
         * the copy through the host */
        dst->peers_tried |= 1u << from;
        int can = 0;
        KILN_CUDA_TRY(cudaDeviceCanAccessPeer(&can, to, from), "cudaDeviceCanAccessPeer");
        if (can) {
            cudaError_t e = cudaDeviceEnablePeerAccess(from, 0);
            if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
            else KILN_CUDA_TRY(e, "cudaDeviceEnablePeerAccess");
        }
    }
    if (!src->rows) return KILN_OK;
    const size_t at = src->v0 * src->elem, bytes = src->rows * src->elem;
    KILN_CUDA_TRY(cudaMemcpyPeerAsync(dst->y[1 - dst->cur].p + at, to, src->y[1 - src->cur].p + at, from, bytes, st->stream),
                  "cudaMemcpyPeerAsync (rank vector slice)");
    return KILN_OK;
}

void kiln_cuda_pr_part_flip(kiln_gpu_pr_part *p) { p->cur = 1 - p->cur; }

void kiln_cuda_pr_part_close(kiln_gpu_pr_part *p)
{
    if (!p) return;
    cudaSetDevice(p->st->ordinal);
    cudaStreamSynchronize(p->st->stream);
    if (p->h_sums) cudaFreeHost(p->h_sums);
    delete p; /* the device arrays free themselves on this device */
}
