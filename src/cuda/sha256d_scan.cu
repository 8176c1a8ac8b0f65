/* sha256d nonce search on the GPU: the per-nonce work is src/core/sha256d_nonce.h's (shared with
 * the OpenCL backend and checked on the host), the job folded once per launch on the host and
 * passed by value; here the kernel and its launch.
 *
 * Build-time knobs (docs/perf-sha256d.md has the measurements behind the defaults):
 *   KILN_SHA256D_ADDS (sha256d_nonce.h) 1: two-input additions of variables on the multiply pipe.
 *   KILN_SHA256D_ILP: nonces interleaved per thread (1 or 2).
 *   KILN_SHA256D_MAXNREG: register cap per thread (0: only __launch_bounds__(1024)). At 32 every
 *     SM holds 64 warps instead of 40 and the thread's nonce and offset go to local memory; that
 *     was 0.5% slower (the ALU pipe is already 94% busy). */
#include "cuda_state.h"
#include "../core/sha256d_nonce.h"

#if defined(__CUDA_ARCH__)
#define KILN_UNROLL _Pragma("unroll")
#else
#define KILN_UNROLL
#endif

namespace {

#ifndef KILN_SHA256D_ILP
#define KILN_SHA256D_ILP 1
#endif
#ifndef KILN_SHA256D_MAXNREG
#define KILN_SHA256D_MAXNREG 0
#endif

/* Each thread tries NPT nonces, G of them interleaved at a time for instruction-level
 * parallelism. Block b covers offsets [b*NPT*blockDim, (b+1)*NPT*blockDim) of the launch. */
#if KILN_SHA256D_MAXNREG
#define KILN_SHA256D_BOUNDS __maxnreg__(KILN_SHA256D_MAXNREG)
#else
#define KILN_SHA256D_BOUNDS __launch_bounds__(1024)
#endif

template <int NPT, int G>
__global__ void KILN_SHA256D_BOUNDS sha256d_scan_kernel(const __grid_constant__ kiln_sha256d_folded c,
                                                            uint32_t start, uint64_t count, uint32_t *cand,
                                                            unsigned long long *ncand)
{
    const uint64_t base = (uint64_t)blockIdx.x * blockDim.x * NPT + threadIdx.x;
#pragma unroll 1
    for (int i = 0; i < NPT; i += G) {
        uint32_t top[G];
KILN_UNROLL
        for (int j = 0; j < G; j++) top[j] = kiln_sha256d_top(&c, start + (uint32_t)(base + (uint64_t)(i + j) * blockDim.x));
KILN_UNROLL
        for (int j = 0; j < G; j++) {
            if (top[j] <= c.target7) {
                const uint64_t off = base + (uint64_t)(i + j) * blockDim.x;
                if (off < count) {
                    const unsigned long long slot = atomicAdd(ncand, 1ull);
                    if (slot < KILN_CUDA_CAND_CAP) cand[slot] = start + (uint32_t)off;
                }
            }
        }
    }
}

constexpr int kInterleave = KILN_SHA256D_ILP;

template <int NPT>
cudaError_t launch(kiln_gpu *st, const kiln_sha256d_folded &c, uint32_t start, uint64_t count, int tpb)
{
    constexpr int G = NPT < kInterleave ? NPT : kInterleave;
    const uint64_t per_block = (uint64_t)tpb * NPT;
    const uint64_t blocks = (count + per_block - 1) / per_block;
    sha256d_scan_kernel<NPT, G><<<(unsigned)blocks, tpb, 0, st->stream>>>(c, start, count, st->d_cand, st->d_count);
    return cudaGetLastError();
}

} // namespace

kiln_status kiln_cuda_sha256d_scan(kiln_gpu *st, const kiln_sha256d_job *job, uint32_t start, uint64_t count,
                                   kiln_launch launch_shape, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                   float *gpu_ms)
{
    int tpb = launch_shape.threads_per_block, ipt = launch_shape.items_per_thread;
    *ncand = 0;
    *gpu_ms = 0;
    if (tpb <= 0) tpb = 512;
    if (ipt <= 0) ipt = 1;
    if (tpb < 32 || tpb > 1024 || tpb % 32 != 0) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "threads per block %d not a multiple of 32 in 32..1024", tpb);
    }
    if (count > (UINT64_C(1) << 32) - start) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "launch range runs past nonce 2^32 - 1");
    }
    if (count == 0) return KILN_OK;
    kiln_sha256d_folded c;
    kiln_sha256d_fold(&c, job);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");

    KILN_CUDA_TRY(cudaMemsetAsync(st->d_count, 0, sizeof(unsigned long long), st->stream), "cudaMemsetAsync");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
    cudaError_t e;
    switch (ipt) {
    case 1: e = launch<1>(st, c, start, count, tpb); break;
    case 2: e = launch<2>(st, c, start, count, tpb); break;
    case 4: e = launch<4>(st, c, start, count, tpb); break;
    case 8: e = launch<8>(st, c, start, count, tpb); break;
    case 16: e = launch<16>(st, c, start, count, tpb); break;
    default: return kiln_fail(st->ctx, KILN_ERR_INPUT, "nonces per thread %d not one of 1, 2, 4, 8, 16", ipt);
    }
    KILN_CUDA_TRY(e, "sha256d kernel launch");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaMemcpyAsync(st->h_count, st->d_count, sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                  st->stream),
                  "cudaMemcpyAsync");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "sha256d kernel");
    const unsigned long long n = *st->h_count;
    unsigned long long copy = n < KILN_CUDA_CAND_CAP ? n : KILN_CUDA_CAND_CAP;
    if (copy > cap) copy = cap;
    if (copy) {
        KILN_CUDA_TRY(cudaMemcpyAsync(st->h_cand, st->d_cand, copy * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                                      st->stream),
                      "cudaMemcpyAsync");
        KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "cudaStreamSynchronize");
        for (unsigned long long i = 0; i < copy; i++) cand[i] = st->h_cand[i];
    }
    /* a device buffer that overflowed is reported as more candidates than the caller can hold,
     * so the dispatcher splits the range */
    *ncand = n > KILN_CUDA_CAND_CAP && n <= cap ? (uint64_t)cap + 1 : n;
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}
