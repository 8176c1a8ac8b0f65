/* Keccak-f[1600] on batches of states in the Keccak study's three layouts:
 *   THREAD    one thread per state, the specification's loops and table lookups (the study's
 *             implementation I): index arithmetic, the state in local memory;
 *   UNROLLED  one thread per state, straight-line rounds with the state in registers
 *             (implementation II, here the permutation all other kernels use);
 *   LANE      25 threads per state, one lane each, exchanging lanes through shared memory
 *             between the steps (implementation III, Hoffmann's layout).
 * States are 25 consecutive lanes, back to back, permuted in place. */
#include <stdlib.h>

#include "cuda_state.h"
#include "event_timer.cuh"
#include "../prim/keccak.h"

namespace {

constexpr int TPB = 128;
constexpr int LANE_STATES = 32; /* states per block in the LANE layout: 800 threads = 25 full warps */

__global__ void __launch_bounds__(TPB) perm_thread_kernel(uint64_t *st, uint64_t n, int iters)
{
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x;
    if (i >= n) return;
    uint64_t *p = st + i * 25, s[25];
    for (int k = 0; k < 25; k++) s[k] = p[k];
    for (int r = 0; r < iters; r++) kiln_keccak_f1600_looped(s);
    for (int k = 0; k < 25; k++) p[k] = s[k];
}

/* A thread's 25 lanes are 200 bytes apart from its neighbour's, so the block stages its states
 * through shared memory: global memory is read and written in consecutive words (coalesced), and
 * the per-thread reads from shared memory (stride 25 words) hit 16 distinct bank pairs. */
__global__ void __launch_bounds__(TPB) perm_unrolled_kernel(uint64_t *st, uint64_t n, int iters)
{
    __shared__ uint64_t buf[TPB * 25];
    const uint64_t first = (uint64_t)blockIdx.x * TPB;
    const unsigned count = n - first < TPB ? (unsigned)(n - first) : TPB, t = threadIdx.x;
    uint64_t *g = st + first * 25;
    for (unsigned k = t; k < count * 25; k += TPB) buf[k] = g[k];
    __syncthreads();
    if (t < count) {
        uint64_t s[25];
#pragma unroll
        for (int k = 0; k < 25; k++) s[k] = buf[t * 25 + k];
        for (int r = 0; r < iters; r++) kiln_keccak_f1600(s);
#pragma unroll
        for (int k = 0; k < 25; k++) buf[t * 25 + k] = s[k];
    }
    __syncthreads();
    for (unsigned k = t; k < count * 25; k += TPB) g[k] = buf[k];
}

__global__ void __launch_bounds__(LANE_STATES * 25) perm_lane_kernel(uint64_t *st, uint64_t n, int iters)
{
    __shared__ uint64_t A[LANE_STATES * 25], B[LANE_STATES * 25], C[LANE_STATES * 5];
    const unsigned t = threadIdx.x, lane = t % 25;
    const uint64_t g = (uint64_t)blockIdx.x * LANE_STATES * 25 + t;
    const bool active = g < n * 25;
    const kiln_keccak_lane_at at = kiln_keccak_lane_where(t);
    uint64_t a = active ? st[g] : 0;
    for (int it = 0; it < iters; it++) {
        for (int r = 0; r < KILN_KECCAK_ROUNDS; r++) {
            A[t] = a;
            __syncthreads();
            if (lane < 5) C[at.col + lane] = A[t] ^ A[t + 5] ^ A[t + 10] ^ A[t + 15] ^ A[t + 20];
            __syncthreads();
            uint64_t d = C[at.cm] ^ kiln_rotl64(C[at.cp], 1);
            B[at.dst] = kiln_rotl64(a ^ d, at.rho);
            __syncthreads();
            a = kiln_keccak_chi(B[t], B[at.x1], B[at.x2]);
            if (lane == 0) a ^= kiln_keccak_rc(r);
        }
    }
    if (active) st[g] = a;
}

cudaError_t launch(kiln_keccak_layout layout, uint64_t *d, uint64_t n, int iters, cudaStream_t s)
{
    switch (layout) {
    case KILN_KECCAK_LAYOUT_THREAD:
        perm_thread_kernel<<<(unsigned)((n + TPB - 1) / TPB), TPB, 0, s>>>(d, n, iters);
        break;
    case KILN_KECCAK_LAYOUT_UNROLLED:
        perm_unrolled_kernel<<<(unsigned)((n + TPB - 1) / TPB), TPB, 0, s>>>(d, n, iters);
        break;
    case KILN_KECCAK_LAYOUT_LANE:
        perm_lane_kernel<<<(unsigned)((n + LANE_STATES - 1) / LANE_STATES), LANE_STATES * 25, 0, s>>>(d, n, iters);
        break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

__global__ void fill_states(uint64_t *d, uint64_t words)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t z = (i + 1) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        d[i] = z ^ (z >> 31);
    }
}

struct dbuf {
    uint64_t *p = nullptr;
    ~dbuf() { cudaFree(p); }
};

kiln_status copy_samples(kiln_gpu *st, uint64_t *dst, const uint64_t *d, size_t n, size_t nsample)
{
    for (size_t k = 0; k < nsample; k++)
        KILN_CUDA_TRY(cudaMemcpy(dst + 25 * k, d + 25 * (k * (n / nsample)), 200, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return KILN_OK;
}

} // namespace

kiln_status kiln_cuda_keccak_f1600_batch(kiln_gpu *st, kiln_keccak_layout layout, uint64_t *states, size_t n,
                                                    float *gpu_ms)
{
    *gpu_ms = 0;
    if (n == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    dbuf b;
    KILN_CUDA_TRY(cudaMalloc(&b.p, n * 200), "cudaMalloc (states)");
    KILN_CUDA_TRY(cudaMemcpyAsync(b.p, states, n * 200, cudaMemcpyHostToDevice, st->stream), "cudaMemcpyAsync");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(launch(layout, b.p, n, 1, st->stream), "Keccak-f[1600] kernel launch");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaMemcpyAsync(states, b.p, n * 200, cudaMemcpyDeviceToHost, st->stream), "cudaMemcpyAsync");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "Keccak-f[1600] kernel");
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}

kiln_status kiln_cuda_keccak_bench(kiln_gpu *st, kiln_keccak_layout layout, size_t n, int iters, int reps,
                                              float *median_ms, uint64_t *sample_before, uint64_t *sample_after,
                                              size_t nsample)
{
    *median_ms = 0;
    if (n == 0 || iters < 1 || reps < 1 || reps > 1000 || nsample > n) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "bad benchmark size");
    }
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    dbuf b;
    KILN_CUDA_TRY(cudaMalloc(&b.p, n * 200), "cudaMalloc (states)");
    fill_states<<<1024, 256, 0, st->stream>>>(b.p, (uint64_t)n * 25);
    KILN_CUDA_TRY(cudaGetLastError(), "fill kernel launch");
    KILN_CUDA_TRY(launch(layout, b.p, n, iters, st->stream), "Keccak-f[1600] kernel launch"); /* warm-up */
    /* The states before the last timed launch are sampled so the caller can check that launch. */
    kiln_status s = kiln_cuda_time_median(
        st, reps, "Keccak-f[1600] benchmark", median_ms, [&] { return launch(layout, b.p, n, iters, st->stream); },
        [&](int r) {
            if (r != reps - 1) return cudaSuccess;
            cudaError_t e = cudaStreamSynchronize(st->stream);
            if (e == cudaSuccess && copy_samples(st, sample_before, b.p, n, nsample) != KILN_OK) e = cudaErrorUnknown;
            return e;
        });
    if (s != KILN_OK) return s;
    return copy_samples(st, sample_after, b.p, n, nsample);
}
