/* BLAKE2b and BLAKE2s on the GPU: one thread per message, the chaining value and the 16 message
 * words in registers (kiln_blake2b/2s_compress of src/prim/blake2.h, SIGMA folded into the
 * unrolled rounds), message words read straight from the batch. BLAKE2 reads little-endian words,
 * as the batch is laid out, so a word is one load8 (its low half for BLAKE2s) with no byte swap;
 * the padding is zeros, the last block flagged and counted to the message's end. The variant is a
 * template parameter so the word size, the block and the digest are constants. */
#include "../prim/blake2.h"
#include "hash_family.cuh"
#include "hash_device.cuh"

namespace {

using namespace kiln_hashk;

/* The little-endian word of W bytes (8 or 4) at byte p of a zero-padded message of len bytes at
 * off. The batch is padded by 16 readable bytes, so load8 may read past a short tail. */
template <int W>
__device__ __forceinline__ uint64_t blake2_word(const uint64_t *__restrict__ d, uint64_t off, uint64_t len, uint64_t p)
{
    if (p >= len) return 0;
    uint64_t v = kiln_dev::load8(d, off + p);
    return p + W <= len ? v : kiln_dev::low_bytes(v, (unsigned)(len - p));
}

template <int VARIANT>
__global__ void __launch_bounds__(TPB) blake2_kernel(const batch_args a)
{
    constexpr bool B = VARIANT == KILN_BLAKE2_VARIANT_B;
    constexpr unsigned BLOCK = B ? KILN_BLAKE2B_BLOCK : KILN_BLAKE2S_BLOCK, W = B ? 8 : 4;
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x, off, len;
    if (!message(a, i, &off, &len)) return;
    const uint64_t nblocks = len ? (len + BLOCK - 1) / BLOCK : 1; /* the empty message: one zero block */
    if constexpr (B) {
        uint64_t h[8];
        kiln_blake2b_init_default(h, KILN_BLAKE2B_OUT);
        for (uint64_t b = 0; b < nblocks; b++) {
            const bool last = b + 1 == nblocks;
            uint64_t m[16];
#pragma unroll
            for (int j = 0; j < 16; j++) m[j] = blake2_word<W>(a.data, off, len, b * BLOCK + W * j);
            kiln_blake2b_compress(h, m, last ? len : (b + 1) * BLOCK, 0, last ? ~0ull : 0, 0);
        }
        uint64_t *o = (uint64_t *)(a.out + i * KILN_BLAKE2B_OUT);
#pragma unroll
        for (int j = 0; j < 8; j++) o[j] = h[j];
    } else {
        uint32_t h[8];
        kiln_blake2s_init_default(h, KILN_BLAKE2S_OUT);
        for (uint64_t b = 0; b < nblocks; b++) {
            const bool last = b + 1 == nblocks;
            const uint64_t t = last ? len : (b + 1) * BLOCK;
            uint32_t m[16];
#pragma unroll
            for (int j = 0; j < 16; j++) m[j] = (uint32_t)blake2_word<W>(a.data, off, len, b * BLOCK + W * j);
            kiln_blake2s_compress(h, m, (uint32_t)t, (uint32_t)(t >> 32), last ? 0xffffffffu : 0, 0);
        }
        uint32_t *o = (uint32_t *)(a.out + i * KILN_BLAKE2S_OUT);
#pragma unroll
        for (int j = 0; j < 8; j++) o[j] = h[j];
    }
}

/* unkeyed, the default digest length only */
bool check(const kiln_gpu_hash_params *p)
{
    return (p->variant == KILN_BLAKE2_VARIANT_B && p->outlen == KILN_BLAKE2B_OUT) ||
           (p->variant == KILN_BLAKE2_VARIANT_S && p->outlen == KILN_BLAKE2S_OUT);
}

cudaError_t launch(const kiln_gpu_hash_params *p, const batch_args &a, uint64_t, unsigned blocks, cudaStream_t s)
{
    switch (p->variant) {
    case KILN_BLAKE2_VARIANT_B: blake2_kernel<KILN_BLAKE2_VARIANT_B><<<blocks, TPB, 0, s>>>(a); break;
    case KILN_BLAKE2_VARIANT_S: blake2_kernel<KILN_BLAKE2_VARIANT_S><<<blocks, TPB, 0, s>>>(a); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

} // namespace

const kiln_cuda_hash_family kiln_cuda_hash_blake2 = {check, launch};
