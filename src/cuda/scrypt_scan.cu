/* Litecoin scrypt nonce search with the whole hash on the GPU: PBKDF2 in, ROMix, PBKDF2 out and
 * the early target test run as three kernels back to back on the stream, so a launch copies in a
 * job of ~120 bytes and copies out a few nonces. Three kernels rather than one because the
 * SHA-256 code needs about twice the registers of ROMix; apart, ROMix keeps its occupancy (B and
 * the pad states go through device memory: 192 bytes a nonce beside 256 KiB of scratchpad
 * traffic). Each thread (or quad) hashes one nonce with its own scratchpad; a launch holds a
 * whole number of waves of resident hashes (kiln_launch.items_per_thread = waves per launch).
 * Layouts: see scrypt_dev.cuh. */
#include "cuda_state.h"
#include "scrypt_dev.cuh"

using namespace kiln_scrypt_dev;

namespace {

constexpr uint32_t N = KILN_SCRYPT_LTC_N;

/* PBKDF2 in, one thread per nonce: B (32 words, natural order) and the HMAC pad states. */
__global__ void __launch_bounds__(128) ltc_in(const kiln_scrypt_job job, uint32_t start, uint32_t count,
                                              uint32_t *__restrict__ B, kiln_hmac_sha256_key *__restrict__ K)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    uint32_t nonce_be = __byte_perm(start + i, 0, 0x0123);
    kiln_hmac_sha256_key k;
    uint32_t inner64[8], w[8];
    kiln_scrypt_job_key(&job, nonce_be, &k);
    kiln_scrypt_job_inner64(&job, &k, inner64);
    uint4 *dst = (uint4 *)(B + (size_t)i * 32);
#pragma unroll
    for (uint32_t b = 0; b < 4; b++) {
        kiln_scrypt_job_b_block(&job, &k, inner64, nonce_be, b + 1, w);
        dst[2 * b] = make_uint4(w[0], w[1], w[2], w[3]);
        dst[2 * b + 1] = make_uint4(w[4], w[5], w[6], w[7]);
    }
    K[i] = k;
}

/* PBKDF2 out and the early target test, one thread per nonce. */
__global__ void __launch_bounds__(128) ltc_out(uint32_t start, uint32_t count, uint32_t target_top,
                                               const uint32_t *__restrict__ B, const kiln_hmac_sha256_key *__restrict__ K,
                                               uint32_t *cand, unsigned long long *ncand)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    kiln_hmac_sha256_key k = K[i];
    uint32_t x[32], d[8];
    const uint4 *src = (const uint4 *)(B + (size_t)i * 32);
#pragma unroll
    for (int q = 0; q < 8; q++) {
        uint4 v = src[q];
        x[4 * q] = v.x, x[4 * q + 1] = v.y, x[4 * q + 2] = v.z, x[4 * q + 3] = v.w;
    }
    kiln_scrypt_job_final(&k, x, d);
    if (__byte_perm(d[7], 0, 0x0123) <= target_top) {
        unsigned long long slot = atomicAdd(ncand, 1ull);
        if (slot < KILN_CUDA_CAND_CAP) cand[slot] = start + i;
    }
}

struct shape {
    int tph, tpb;
    uint32_t gap;
};

const void *romix_of(const shape &s)
{
    if (s.tph == 4) return s.gap > 1 ? (const void *)romix_quad_kernel<1, true> : (const void *)romix_quad_kernel<1, false>;
    return s.gap > 1 ? (const void *)romix_single_kernel<true> : (const void *)romix_single_kernel<false>;
}

/* The three kernels of one launch's nonces [start, start + count). */
cudaError_t launch(kiln_gpu *st, const shape &s, const kiln_scrypt_job &job, uint32_t start, uint32_t count,
                   uint4 *V, uint32_t *B, kiln_hmac_sha256_key *K)
{
    uint32_t blocks = (count + 127) / 128;
    ltc_in<<<blocks, 128, 0, st->stream>>>(job, start, count, B, K);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    uint32_t rblocks = (uint32_t)(((uint64_t)count * s.tph + s.tpb - 1) / s.tpb);
    if (s.tph == 4) {
        if (s.gap > 1) romix_quad_kernel<1, true><<<rblocks, s.tpb, 0, st->stream>>>(B, count, N, s.gap, V);
        else romix_quad_kernel<1, false><<<rblocks, s.tpb, 0, st->stream>>>(B, count, N, s.gap, V);
    } else {
        if (s.gap > 1) romix_single_kernel<true><<<rblocks, s.tpb, 0, st->stream>>>(B, count, N, s.gap, V);
        else romix_single_kernel<false><<<rblocks, s.tpb, 0, st->stream>>>(B, count, N, s.gap, V);
    }
    e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    ltc_out<<<blocks, 128, 0, st->stream>>>(start, count, job.target_top, B, K, st->d_cand, st->d_count);
    return cudaGetLastError();
}

} // namespace

kiln_status kiln_cuda_scrypt_scan(kiln_gpu *st, const kiln_scrypt_job *job, uint32_t start,
                                             uint64_t count, const kiln_gpu_scrypt_cfg *cfg, uint32_t *cand,
                                             uint32_t cap, uint64_t *ncand, float *gpu_ms)
{
    *ncand = 0;
    *gpu_ms = 0;
    shape s;
    s.tph = cfg->threads_per_hash ? cfg->threads_per_hash : 4;
    s.tpb = cfg->threads_per_block ? cfg->threads_per_block : (s.tph == 4 ? 128 : 64);
    s.gap = cfg->lookup_gap ? (uint32_t)cfg->lookup_gap : 1;
    int waves = cfg->hashes_per_thread ? cfg->hashes_per_thread : 4; /* H200: 4 waves ran 5% faster than 1 */
    if ((s.tph != 1 && s.tph != 4) || s.gap > 16 || (s.gap & (s.gap - 1)) || s.tpb < 32 || s.tpb > 256 || s.tpb % 32) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "scrypt launch: threads per hash %d (1 or 4), lookup gap %u (1..16, a power of two), "
                 "threads per block %d (32..256, multiple of 32)", s.tph, s.gap, s.tpb);
    }
    if (count == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");

    /* a launch hashes `waves` waves of resident slots, each hash with its own N / gap rows of
     * 128 bytes; a range takes as many launches as it needs */
    int per_sm = 0;
    KILN_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, romix_of(s), s.tpb, 0),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    if (per_sm < 1) per_sm = 1;
    uint64_t per_launch = (uint64_t)per_sm * st->sm_count * (s.tpb / s.tph) * waves;
    /* scratch: the scratchpads, then B (128 bytes) and the pad states (64 bytes) per nonce; a GPU
     * with less memory than that many waves need gets fewer hashes per launch */
    const uint64_t per_hash = (N / s.gap) * 128 + 128 + sizeof(kiln_hmac_sha256_key);
    size_t free_b = 0, total_b = 0;
    KILN_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b), "cudaMemGetInfo");
    double budget = ((double)free_b + (double)st->scratch_bytes) * 0.8;
    if ((double)per_launch * per_hash > budget) per_launch = (uint64_t)(budget / per_hash);
    if (per_launch > count) per_launch = count;
    if (per_launch == 0) {
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "no device memory for a scrypt scratchpad (%zu bytes free)", free_b);
    }
    uint64_t v_bytes = per_launch * (N / s.gap) * 128;
    void *scratch = NULL;
    kiln_status ks = kiln_cuda_scratch(st, v_bytes + per_launch * (128 + sizeof(kiln_hmac_sha256_key)), &scratch);
    if (ks != KILN_OK) return ks;
    uint4 *V = (uint4 *)scratch;
    uint32_t *B = (uint32_t *)((char *)scratch + v_bytes);
    kiln_hmac_sha256_key *K = (kiln_hmac_sha256_key *)(B + per_launch * 32);

    KILN_CUDA_TRY(cudaMemsetAsync(st->d_count, 0, sizeof(unsigned long long), st->stream), "cudaMemsetAsync");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
    for (uint64_t done = 0; done < count;) {
        uint64_t n = count - done < per_launch ? count - done : per_launch;
        KILN_CUDA_TRY(launch(st, s, *job, start + (uint32_t)done, (uint32_t)n, V, B, K), "scrypt kernel launch");
        done += n;
    }
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaMemcpyAsync(st->h_count, st->d_count, sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                  st->stream),
                  "cudaMemcpyAsync");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "scrypt kernel");
    unsigned long long c = *st->h_count;
    unsigned long long copy = c < KILN_CUDA_CAND_CAP ? c : KILN_CUDA_CAND_CAP;
    if (copy > cap) copy = cap;
    if (copy) KILN_CUDA_TRY(cudaMemcpy(cand, st->d_cand, copy * sizeof(uint32_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    *ncand = c > KILN_CUDA_CAND_CAP && c <= cap ? (uint64_t)cap + 1 : c;
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}
