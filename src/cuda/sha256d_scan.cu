/* sha256d nonce search on the GPU (baseline; tuned kernel to follow). Each thread tries
 * IPT nonces; the per-job state (midstate, rounds 0..2, constant schedule words) arrives as a
 * kernel parameter, and the second hash stops after round 60, when digest word 7 is known. */
#include "cuda_state.h"

namespace {

__device__ __forceinline__ uint32_t digest_word7(const kiln_sha256d_job &job, uint32_t nonce)
{
    uint32_t w[64];
    w[0] = job.tail[0];
    w[1] = job.tail[1];
    w[2] = job.tail[2];
    w[3] = __byte_perm(nonce, 0, 0x0123);
    w[4] = 0x80000000u;
#pragma unroll
    for (int t = 5; t < 15; t++) w[t] = 0;
    w[15] = 640u;
    w[16] = job.w16;
    w[17] = job.w17;
#pragma unroll
    for (int t = 18; t < 64; t++) w[t] = kiln_sha256_expand(w[t - 2], w[t - 7], w[t - 15], w[t - 16]);
    uint32_t s[8];
#pragma unroll
    for (int i = 0; i < 8; i++) s[i] = job.state3[i];
#pragma unroll
    for (int t = 3; t < 64; t++) {
        uint32_t t1 = s[7] + kiln_sha256_bsig1(s[4]) + kiln_sha256_ch(s[4], s[5], s[6]) + kiln_sha256_kt(t) + w[t];
        uint32_t t2 = kiln_sha256_bsig0(s[0]) + kiln_sha256_maj(s[0], s[1], s[2]);
        s[7] = s[6], s[6] = s[5], s[5] = s[4], s[4] = s[3] + t1;
        s[3] = s[2], s[2] = s[1], s[1] = s[0], s[0] = t1 + t2;
    }
#pragma unroll
    for (int i = 0; i < 8; i++) w[i] = job.midstate[i] + s[i];
    w[8] = 0x80000000u;
#pragma unroll
    for (int t = 9; t < 15; t++) w[t] = 0;
    w[15] = 256u;
#pragma unroll
    for (int t = 16; t < 61; t++) w[t] = kiln_sha256_expand(w[t - 2], w[t - 7], w[t - 15], w[t - 16]);
    kiln_sha256_iv(s);
#pragma unroll
    for (int t = 0; t < 60; t++) {
        uint32_t t1 = s[7] + kiln_sha256_bsig1(s[4]) + kiln_sha256_ch(s[4], s[5], s[6]) + kiln_sha256_kt(t) + w[t];
        uint32_t t2 = kiln_sha256_bsig0(s[0]) + kiln_sha256_maj(s[0], s[1], s[2]);
        s[7] = s[6], s[6] = s[5], s[5] = s[4], s[4] = s[3] + t1;
        s[3] = s[2], s[2] = s[1], s[1] = s[0], s[0] = t1 + t2;
    }
    return s[3] + s[7] + kiln_sha256_bsig1(s[4]) + kiln_sha256_ch(s[4], s[5], s[6]) + kiln_sha256_kt(60) + w[60] +
           KILN_SHA256_IV7;
}

template <int IPT>
__global__ void sha256d_scan_kernel(const kiln_sha256d_job job, uint32_t start, uint64_t count, uint32_t *cand,
                                    unsigned long long *ncand)
{
    uint64_t base = ((uint64_t)blockIdx.x * blockDim.x * IPT) + threadIdx.x;
#pragma unroll
    for (int i = 0; i < IPT; i++) {
        uint64_t off = base + (uint64_t)i * blockDim.x;
        if (off >= count) return;
        uint32_t nonce = start + (uint32_t)off;
        if (__byte_perm(digest_word7(job, nonce), 0, 0x0123) <= job.target[7]) {
            unsigned long long slot = atomicAdd(ncand, 1ull);
            if (slot < KILN_CUDA_CAND_CAP) cand[slot] = nonce;
        }
    }
}

template <int IPT>
cudaError_t launch(kiln_cuda_state *st, const kiln_sha256d_job &job, uint32_t start, uint64_t count, int tpb)
{
    uint64_t per_block = (uint64_t)tpb * IPT;
    uint64_t blocks = (count + per_block - 1) / per_block;
    sha256d_scan_kernel<IPT><<<(unsigned)blocks, tpb, 0, st->stream>>>(job, start, count, st->d_cand, st->d_count);
    return cudaGetLastError();
}

} // namespace

extern "C" kiln_status kiln_cuda_sha256d_scan(kiln_cuda_state *st, const kiln_sha256d_job *job, uint32_t start,
                                              uint64_t count, int tpb, int ipt, uint32_t *cand, uint32_t cap,
                                              uint64_t *ncand, float *gpu_ms, char *err, size_t errlen)
{
    *ncand = 0;
    if (tpb <= 0) tpb = 256;
    if (ipt <= 0) ipt = 1;
    if (count == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    KILN_CUDA_TRY(cudaMemsetAsync(st->d_count, 0, sizeof(unsigned long long), st->stream), "cudaMemsetAsync");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
    cudaError_t e;
    switch (ipt) {
    case 1: e = launch<1>(st, *job, start, count, tpb); break;
    case 2: e = launch<2>(st, *job, start, count, tpb); break;
    case 4: e = launch<4>(st, *job, start, count, tpb); break;
    case 8: e = launch<8>(st, *job, start, count, tpb); break;
    case 16: e = launch<16>(st, *job, start, count, tpb); break;
    default: snprintf(err, errlen, "items per thread %d not one of 1, 2, 4, 8, 16", ipt); return KILN_ERR_INPUT;
    }
    KILN_CUDA_TRY(e, "sha256d kernel launch");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaMemcpyAsync(st->h_count, st->d_count, sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                  st->stream),
                  "cudaMemcpyAsync");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "sha256d kernel");
    unsigned long long n = *st->h_count;
    unsigned long long copy = n < KILN_CUDA_CAND_CAP ? n : KILN_CUDA_CAND_CAP;
    if (copy > cap) copy = cap;
    if (copy) {
        KILN_CUDA_TRY(cudaMemcpy(cand, st->d_cand, copy * sizeof(uint32_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    }
    /* report overflow of the device buffer as more candidates than the caller can hold */
    *ncand = n > KILN_CUDA_CAND_CAP && n <= cap ? (uint64_t)cap + 1 : n;
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}
