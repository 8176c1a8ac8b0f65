/* Batches of messages on the GPU: one thread per message, the Keccak state in registers (the
 * unrolled permutation of src/prim/keccak.h; kernels in keccak_batch_kernels.cuh). Messages
 * shorter than one block take a kernel with a single permutation and, for the fixed-output
 * functions, the digest size as a constant, so the last round computes only the lanes that are
 * written. SHA-256 and sha256d share the batch plumbing through a kernel of their own. */
#include <stdlib.h>

#include "../prim/sha256.h"
#include "cuda_state.h"
#include "event_timer.cuh"
#include "keccak_batch_kernels.cuh"
#include "../prim/sha512.h"
#include "sha512_batch.h"

namespace {

using namespace kiln_hashk;

__global__ void __launch_bounds__(TPB) sha256_kernel(const batch_args a, int twice)
{
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x, off, len;
    if (!message(a, i, &off, &len)) return;
    uint64_t padded = (len + 8) / 64 * 64 + 64;
    uint32_t h[8];
    kiln_sha256_iv(h);
    for (uint64_t b = 0; b < padded; b += 64) {
        uint32_t w[16];
#pragma unroll
        for (int j = 0; j < 16; j++) w[j] = kiln_dev::sha256_word(a.data, off, len, padded, b + 4 * j);
        kiln_sha256_compress_words(h, w);
    }
    if (twice) {
        uint32_t first[8];
#pragma unroll
        for (int j = 0; j < 8; j++) first[j] = h[j];
        kiln_sha256_of_digest_words(first, h);
    }
    uint8_t *o = a.out + i * 32;
#pragma unroll
    for (int j = 0; j < 8; j++) *(uint32_t *)(o + 4 * j) = __byte_perm(h[j], 0, 0x0123);
}

/* The Keccak rates with a batch kernel, one row each (KILN_KECCAK_BATCH_RATES). */
typedef cudaError_t (*rate_launch)(bool, const batch_args &, unsigned, cudaStream_t);
struct rate_row {
    unsigned rate;
    rate_launch launch;
};
#define KILN_KECCAK_BATCH_ROW(R, D, A) {R, launch_keccak<R, D, A>},
const rate_row kRates[] = {KILN_KECCAK_BATCH_RATES(KILN_KECCAK_BATCH_ROW)};
#undef KILN_KECCAK_BATCH_ROW

rate_launch find_rate(unsigned rate)
{
    for (const rate_row &r : kRates)
        if (r.rate == rate) return r.launch;
    return nullptr;
}

/* Launches the kernel for p on a (device pointers already set). max_len: the longest message. */
cudaError_t launch(const kiln_gpu_hash_params *p, const batch_args &a, uint64_t max_len, cudaStream_t s)
{
    unsigned blocks = (unsigned)((a.n + TPB - 1) / TPB);
    switch (p->family) {
    case KILN_HASH_GPU_SHA256:
        sha256_kernel<<<blocks, TPB, 0, s>>>(a, p->variant == 1);
        return cudaGetLastError();
    case KILN_HASH_GPU_KECCAK: {
        if (!a.offsets && p->rate == 136 && p->outlen == 32 && (a.msg_len == 32 || a.msg_len == 64))
            return launch_keccak_fixed136(a.msg_len, a, blocks, s);
        rate_launch l = find_rate(p->rate);
        return l ? l(max_len < p->rate, a, blocks, s) : cudaErrorInvalidValue;
    }
    case KILN_HASH_GPU_SHA512: return kiln_cuda_sha512_batch_launch(a, p->variant, blocks, s);
    default: return cudaErrorInvalidValue;
    }
}

/* Device buffers of one batch, freed on every path out. */
struct buffers {
    uint64_t *data = nullptr, *offsets = nullptr;
    uint8_t *out = nullptr;
    ~buffers()
    {
        cudaFree(data);
        cudaFree(offsets);
        cudaFree(out);
    }
};

kiln_status check_params(kiln_gpu *st, const kiln_gpu_hash_params *p)
{
    bool ok = p->family == KILN_HASH_GPU_SHA256   ? p->outlen == 32
              : p->family == KILN_HASH_GPU_KECCAK ? find_rate(p->rate) && p->outlen > 0 && p->outlen <= 0xffffffffu
              : p->family == KILN_HASH_GPU_SHA512
                  ? p->variant >= 0 && p->variant <= 2 &&
                        p->outlen == kiln_sha512_digest_len((kiln_sha512_variant)p->variant)
                  : false;
    if (!ok)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "no GPU kernel for hash family %d (rate %u) with %zu output bytes",
                         (int)p->family, p->rate, p->outlen);
    return KILN_OK;
}

/* Fills a device buffer with pseudo-random bytes (splitmix64 of the word index). */
__global__ void fill_random(uint64_t *d, uint64_t words, uint64_t seed)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t z = (i + seed) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        d[i] = z ^ (z >> 31);
    }
}

__global__ void fill_offsets(uint64_t *o, uint64_t n, uint64_t len)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += (uint64_t)gridDim.x * blockDim.x)
        o[i] = i * len;
}

} // namespace

kiln_status kiln_cuda_hash_batch(kiln_gpu *st, const kiln_gpu_hash_params *p, const uint8_t *data,
                                            const uint64_t *offsets, size_t msg_len, size_t n, uint8_t *out,
                                            float *gpu_ms)
{
    *gpu_ms = 0;
    kiln_status s = check_params(st, p);
    if (s != KILN_OK) return s;
    if (n == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    uint64_t base = offsets ? offsets[0] : 0;
    uint64_t data_len = offsets ? offsets[n] - base : (uint64_t)msg_len * n, max_len = msg_len;
    if (offsets) {
        max_len = 0;
        for (size_t i = 0; i < n; i++)
            if (offsets[i + 1] - offsets[i] > max_len) max_len = offsets[i + 1] - offsets[i];
    }
    buffers b;
    size_t padded = (size_t)(data_len + 16 + 7) / 8 * 8;
    KILN_CUDA_TRY(cudaMalloc(&b.data, padded), "cudaMalloc (messages)");
    KILN_CUDA_TRY(cudaMemsetAsync(b.data, 0, padded, st->stream), "cudaMemsetAsync");
    if (data_len)
        KILN_CUDA_TRY(cudaMemcpyAsync(b.data, data, data_len, cudaMemcpyHostToDevice, st->stream), "cudaMemcpyAsync");
    if (offsets) {
        KILN_CUDA_TRY(cudaMalloc(&b.offsets, (n + 1) * sizeof(uint64_t)), "cudaMalloc (offsets)");
        KILN_CUDA_TRY(cudaMemcpyAsync(b.offsets, offsets, (n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice, st->stream),
                      "cudaMemcpyAsync");
    }
    KILN_CUDA_TRY(cudaMalloc(&b.out, n * p->outlen), "cudaMalloc (digests)");
    batch_args a = {b.data, b.offsets, base, msg_len, n, p->domain, (unsigned)p->outlen, b.out};
    KILN_CUDA_TRY(cudaEventRecord(st->ev_start, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(launch(p, a, max_len, st->stream), "hash batch kernel launch");
    KILN_CUDA_TRY(cudaEventRecord(st->ev_stop, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaMemcpyAsync(out, b.out, n * p->outlen, cudaMemcpyDeviceToHost, st->stream), "cudaMemcpyAsync");
    KILN_CUDA_TRY(cudaStreamSynchronize(st->stream), "hash batch kernel");
    KILN_CUDA_TRY(cudaEventElapsedTime(gpu_ms, st->ev_start, st->ev_stop), "cudaEventElapsedTime");
    return KILN_OK;
}

kiln_status kiln_cuda_hash_bench(kiln_gpu *st, const kiln_gpu_hash_params *p, size_t msg_len,
                                            size_t n, int with_offsets, int reps, float *median_ms,
                                            uint8_t *sample_msgs, uint8_t *sample_out, size_t nsample)
{
    *median_ms = 0;
    kiln_status s = check_params(st, p);
    if (s != KILN_OK) return s;
    if (n == 0 || reps < 1 || reps > 1000 || nsample > n) return kiln_fail(st->ctx, KILN_ERR_INPUT, "bad benchmark size");
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    buffers b;
    uint64_t data_len = (uint64_t)msg_len * n, words = (data_len + 16 + 7) / 8;
    KILN_CUDA_TRY(cudaMalloc(&b.data, words * 8), "cudaMalloc (messages)");
    KILN_CUDA_TRY(cudaMalloc(&b.out, n * p->outlen), "cudaMalloc (digests)");
    fill_random<<<1024, 256, 0, st->stream>>>(b.data, words, 0x6b696c6eull);
    KILN_CUDA_TRY(cudaGetLastError(), "fill kernel launch");
    if (with_offsets) {
        KILN_CUDA_TRY(cudaMalloc(&b.offsets, (n + 1) * sizeof(uint64_t)), "cudaMalloc (offsets)");
        fill_offsets<<<1024, 256, 0, st->stream>>>(b.offsets, n, msg_len);
        KILN_CUDA_TRY(cudaGetLastError(), "fill kernel launch");
    }
    batch_args a = {b.data, b.offsets, 0, msg_len, n, p->domain, (unsigned)p->outlen, b.out};
    KILN_CUDA_TRY(launch(p, a, msg_len, st->stream), "hash kernel launch"); /* warm-up */
    s = kiln_cuda_time_median(
        st, reps, "hash benchmark", median_ms, [&] { return launch(p, a, msg_len, st->stream); },
        [](int) { return cudaSuccess; });
    if (s != KILN_OK) return s;
    for (size_t k = 0; k < nsample; k++) {
        size_t i = k * (n / nsample);
        KILN_CUDA_TRY(cudaMemcpy(sample_msgs + k * msg_len, (const uint8_t *)b.data + i * msg_len, msg_len,
                                 cudaMemcpyDeviceToHost),
                      "cudaMemcpy");
        KILN_CUDA_TRY(cudaMemcpy(sample_out + k * p->outlen, b.out + i * p->outlen, p->outlen, cudaMemcpyDeviceToHost),
                      "cudaMemcpy");
    }
    return KILN_OK;
}
