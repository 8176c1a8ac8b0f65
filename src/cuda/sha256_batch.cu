/* SHA-256, sha256d and SHA-224 of a batch of messages on the GPU: one thread per message, the
 * state in registers (kiln_sha256_compress_words of src/prim/sha256.h), message words read
 * straight from the batch with the padding made up on the fly (kiln_dev::sha256_word), launched
 * by the hash batch plumbing (keccak_batch.cu) through kiln_cuda_hash_sha256. */
#include "../prim/sha256.h"
#include "hash_device.cuh"
#include "hash_family.cuh"

namespace {

using namespace kiln_hashk;

/* SHA-256 (VARIANT 0), sha256d (1) and SHA-224 (2: its IV, 28 bytes out), the variant a template
 * parameter so the IV and the digest size are constants. */
template <int VARIANT>
__global__ void __launch_bounds__(TPB) sha256_kernel(const batch_args a)
{
    constexpr unsigned WORDS = VARIANT == 2 ? 7 : 8;
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x, off, len;
    if (!message(a, i, &off, &len)) return;
    uint64_t padded = (len + 8) / 64 * 64 + 64;
    uint32_t h[8];
    if (VARIANT == 2) kiln_sha224_iv(h);
    else kiln_sha256_iv(h);
    for (uint64_t b = 0; b < padded; b += 64) {
        uint32_t w[16];
#pragma unroll
        for (int j = 0; j < 16; j++) w[j] = kiln_dev::sha256_word(a.data, off, len, padded, b + 4 * j);
        kiln_sha256_compress_words(h, w);
    }
    if (VARIANT == 1) {
        uint32_t first[8];
#pragma unroll
        for (int j = 0; j < 8; j++) first[j] = h[j];
        kiln_sha256_of_digest_words(first, h);
    }
    uint8_t *o = a.out + i * 4 * WORDS;
#pragma unroll
    for (unsigned j = 0; j < WORDS; j++) *(uint32_t *)(o + 4 * j) = __byte_perm(h[j], 0, 0x0123);
}

bool check(const kiln_gpu_hash_params *p)
{
    return p->variant >= 0 && p->variant <= 2 && p->outlen == (p->variant == 2 ? 28u : 32u);
}

cudaError_t launch(const kiln_gpu_hash_params *p, const batch_args &a, uint64_t, unsigned blocks, cudaStream_t s)
{
    if (p->variant == 2) sha256_kernel<2><<<blocks, TPB, 0, s>>>(a);
    else if (p->variant == 1) sha256_kernel<1><<<blocks, TPB, 0, s>>>(a);
    else sha256_kernel<0><<<blocks, TPB, 0, s>>>(a);
    return cudaGetLastError();
}

} // namespace

const kiln_cuda_hash_family kiln_cuda_hash_sha256 = {check, launch};
