/* SHA-512 and its truncations on the GPU: one thread per message, the state and a 16-word
 * schedule window in registers (kiln_sha512_compress_words of src/prim/sha512.h, 64-bit
 * arithmetic as pairs of 32-bit operations), message words read straight from the batch with the
 * padding made up on the fly, as sha256_kernel does in keccak_batch.cu. The variant is a template
 * parameter so the IV and the digest size are constants. */
#include "../prim/sha512.h"
#include "hash_device.cuh"
#include "hash_family.cuh"

namespace {

using namespace kiln_hashk;

__device__ __forceinline__ uint64_t bswap64(uint64_t v)
{
    return ((uint64_t)__byte_perm((uint32_t)v, 0, 0x0123) << 32) | __byte_perm((uint32_t)(v >> 32), 0, 0x0123);
}

/* Big-endian 64-bit word of the SHA-512-padded message at byte position p (a multiple of 8) of a
 * message of len bytes at off, whose padded length is padded: message bytes, the 0x80 marker,
 * zeros, then the 128-bit bit count in the last two words. */
__device__ __forceinline__ uint64_t sha512_word(const uint64_t *__restrict__ d, uint64_t off, uint64_t len,
                                                uint64_t padded, uint64_t p)
{
    if (p + 8 <= len) return bswap64(kiln_dev::load8(d, off + p));
    if (p >= padded - 16) return p == padded - 16 ? len >> 61 : len << 3;
    if (p > len) return 0;
    /* the word holding the end of the message and the marker */
    unsigned have = (unsigned)(len - p);
    uint64_t v = have ? kiln_dev::low_bytes(kiln_dev::load8(d, off + p), have) : 0;
    return bswap64(v | (0x80ull << (8 * have)));
}

template <int VARIANT>
__global__ void __launch_bounds__(TPB) sha512_kernel(const batch_args a)
{
    constexpr unsigned DIGEST = VARIANT == KILN_SHA512_VARIANT_512 ? 64 : VARIANT == KILN_SHA512_VARIANT_384 ? 48 : 32;
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x, off, len;
    if (!message(a, i, &off, &len)) return;
    uint64_t padded = (len + 16) / 128 * 128 + 128;
    uint64_t h[8];
    kiln_sha512_iv((kiln_sha512_variant)VARIANT, h);
    for (uint64_t b = 0; b < padded; b += 128) {
        uint64_t w[16];
#pragma unroll
        for (int j = 0; j < 16; j++) w[j] = sha512_word(a.data, off, len, padded, b + 8 * j);
        kiln_sha512_compress_words(h, w);
    }
    uint64_t *o = (uint64_t *)(a.out + i * DIGEST);
#pragma unroll
    for (unsigned j = 0; j < DIGEST / 8; j++) o[j] = bswap64(h[j]);
}

bool check(const kiln_gpu_hash_params *p)
{
    return p->variant >= 0 && p->variant <= 2 && p->outlen == kiln_sha512_digest_len((kiln_sha512_variant)p->variant);
}

cudaError_t launch(const kiln_gpu_hash_params *p, const batch_args &a, uint64_t, unsigned blocks, cudaStream_t s)
{
    switch (p->variant) {
    case KILN_SHA512_VARIANT_512: sha512_kernel<KILN_SHA512_VARIANT_512><<<blocks, TPB, 0, s>>>(a); break;
    case KILN_SHA512_VARIANT_384: sha512_kernel<KILN_SHA512_VARIANT_384><<<blocks, TPB, 0, s>>>(a); break;
    case KILN_SHA512_VARIANT_512_256: sha512_kernel<KILN_SHA512_VARIANT_512_256><<<blocks, TPB, 0, s>>>(a); break;
    default: return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

} // namespace

const kiln_cuda_hash_family kiln_cuda_hash_sha512 = {check, launch};
