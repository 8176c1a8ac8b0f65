/* Batches of messages on the GPU: one thread per message, the Keccak state in registers (the
 * unrolled permutation of src/prim/keccak.h; kernels in keccak_batch_kernels.cuh). Messages
 * shorter than one block take a kernel with a single permutation and, for the fixed-output
 * functions, the digest size as a constant, so the last round computes only the lanes that are
 * written. SHA-256 and sha256d share the batch plumbing through a kernel of their own. */
#include <stdlib.h>

#include "../prim/sha256.h"
#include "cuda_state.h"
#include "keccak_batch_kernels.cuh"

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

/* Launches the kernel for p on a (device pointers already set). max_len: the longest message. */
cudaError_t launch(const kiln_cuda_hash_params *p, const batch_args &a, uint64_t max_len, cudaStream_t s)
{
    unsigned blocks = (unsigned)((a.n + TPB - 1) / TPB);
    bool sh = max_len < p->rate;
    if (!a.offsets && p->rate == 136 && p->outlen == 32 && (a.msg_len == 32 || a.msg_len == 64))
        return launch_keccak_fixed136(a.msg_len, a, blocks, s);
    switch (p->rate) {
    case 0: sha256_kernel<<<blocks, TPB, 0, s>>>(a, p->sha256d); return cudaGetLastError();
    case 144: return launch_keccak<144, 28, false>(sh, a, blocks, s);
    case 136: return launch_keccak<136, 32, true>(sh, a, blocks, s);
    case 104: return launch_keccak<104, 48, false>(sh, a, blocks, s);
    case 72: return launch_keccak<72, 64, false>(sh, a, blocks, s);
    case 168: return launch_keccak<168, 0, true>(sh, a, blocks, s);
    }
    return cudaErrorInvalidValue;
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

bool params_ok(const kiln_cuda_hash_params *p, char *err, size_t errlen)
{
    bool ok = p->rate == 0 ? p->outlen == 32
                           : (p->rate == 72 || p->rate == 104 || p->rate == 136 || p->rate == 144 || p->rate == 168) &&
                                 p->outlen > 0 && p->outlen <= 0xffffffffu;
    if (!ok) snprintf(err, errlen, "no GPU kernel for rate %u with %zu output bytes", p->rate, p->outlen);
    return ok;
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

int cmp_float(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

} // namespace

extern "C" kiln_status kiln_cuda_hash_batch(kiln_cuda_state *st, const kiln_cuda_hash_params *p, const uint8_t *data,
                                            const uint64_t *offsets, size_t msg_len, size_t n, uint8_t *out,
                                            float *gpu_ms, char *err, size_t errlen)
{
    *gpu_ms = 0;
    if (!params_ok(p, err, errlen)) return KILN_ERR_INPUT;
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

extern "C" kiln_status kiln_cuda_hash_bench(kiln_cuda_state *st, const kiln_cuda_hash_params *p, size_t msg_len,
                                            size_t n, int with_offsets, int reps, float *median_ms,
                                            uint8_t *sample_msgs, uint8_t *sample_out, size_t nsample, char *err,
                                            size_t errlen)
{
    *median_ms = 0;
    if (!params_ok(p, err, errlen)) return KILN_ERR_INPUT;
    if (n == 0 || reps < 1 || reps > 1000 || nsample > n) {
        snprintf(err, errlen, "bad benchmark size");
        return KILN_ERR_INPUT;
    }
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
    float *ms = (float *)calloc((size_t)reps, sizeof(float));
    if (!ms) {
        snprintf(err, errlen, "out of host memory");
        return KILN_ERR_DEVICE;
    }
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < reps && e == cudaSuccess; r++) {
        e = cudaEventRecord(st->ev_start, st->stream);
        if (e == cudaSuccess) e = launch(p, a, msg_len, st->stream);
        if (e == cudaSuccess) e = cudaEventRecord(st->ev_stop, st->stream);
        if (e == cudaSuccess) e = cudaEventSynchronize(st->ev_stop);
        if (e == cudaSuccess) e = cudaEventElapsedTime(&ms[r], st->ev_start, st->ev_stop);
    }
    if (e == cudaSuccess) {
        qsort(ms, (size_t)reps, sizeof(float), cmp_float);
        *median_ms = reps % 2 ? ms[reps / 2] : (ms[reps / 2 - 1] + ms[reps / 2]) / 2;
    }
    free(ms);
    KILN_CUDA_TRY(e, "hash benchmark");
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
