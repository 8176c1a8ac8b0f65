/* SHA-1 on the GPU: one thread per message, the state and the 16-word schedule window in
 * registers (kiln_sha1_compress_words of src/prim/sha1.h). SHA-1 pads as SHA-256 does, so the
 * message words come from SHA-256's reader (hash_device.cuh), the padding made up on the fly. */
#include "../prim/sha1.h"
#include "hash_device.cuh"
#include "hash_family.cuh"

namespace {

using namespace kiln_hashk;

__global__ void __launch_bounds__(TPB) sha1_kernel(const batch_args a)
{
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x, off, len;
    if (!message(a, i, &off, &len)) return;
    uint64_t padded = (len + 8) / 64 * 64 + 64;
    uint32_t h[5];
    kiln_sha1_iv(h);
    for (uint64_t b = 0; b < padded; b += 64) {
        uint32_t w[16];
#pragma unroll
        for (int j = 0; j < 16; j++) w[j] = kiln_dev::sha256_word(a.data, off, len, padded, b + 4 * j);
        kiln_sha1_compress_words(h, w);
    }
    uint32_t *o = (uint32_t *)(a.out + i * KILN_SHA1_DIGEST);
#pragma unroll
    for (int j = 0; j < 5; j++) o[j] = __byte_perm(h[j], 0, 0x0123);
}

bool check(const kiln_gpu_hash_params *p) { return p->outlen == KILN_SHA1_DIGEST; }

cudaError_t launch(const kiln_gpu_hash_params *, const batch_args &a, uint64_t, unsigned blocks, cudaStream_t s)
{
    sha1_kernel<<<blocks, TPB, 0, s>>>(a);
    return cudaGetLastError();
}

} // namespace

const kiln_cuda_hash_family kiln_cuda_hash_sha1 = {check, launch};
