/* MD5 on the GPU: one thread per message, the state in registers (kiln_md5_compress_words of
 * src/prim/md5.h, its 64 steps with immediate constants), little-endian message words read
 * straight from the batch with the padding (0x80, zeros, the bit count low word first) made up on
 * the fly. */
#include "../prim/md5.h"
#include "hash_device.cuh"
#include "hash_family.cuh"

namespace {

using namespace kiln_hashk;

/* Little-endian 32-bit word of the MD5-padded message at byte position p (a multiple of 4) of a
 * message of len bytes at off, whose padded length is padded. */
__device__ __forceinline__ uint32_t md5_word(const uint64_t *__restrict__ d, uint64_t off, uint64_t len, uint64_t padded,
                                             uint64_t p)
{
    if (p + 4 <= len) return (uint32_t)kiln_dev::load8(d, off + p);
    if (p >= padded - 8) {
        uint64_t bits = len * 8;
        return p == padded - 8 ? (uint32_t)bits : (uint32_t)(bits >> 32);
    }
    if (p > len) return 0;
    /* the word holding the end of the message and the 0x80 marker */
    unsigned have = (unsigned)(len - p);
    uint32_t v = have ? (uint32_t)kiln_dev::low_bytes(kiln_dev::load8(d, off + p), have) : 0;
    return v | 0x80u << (8 * have);
}

__global__ void __launch_bounds__(TPB) md5_kernel(const batch_args a)
{
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x, off, len;
    if (!message(a, i, &off, &len)) return;
    uint64_t padded = (len + 8) / 64 * 64 + 64;
    uint32_t h[4];
    kiln_md5_iv(h);
    for (uint64_t b = 0; b < padded; b += 64) {
        uint32_t x[16];
#pragma unroll
        for (int j = 0; j < 16; j++) x[j] = md5_word(a.data, off, len, padded, b + 4 * j);
        kiln_md5_compress_words(h, x);
    }
    uint32_t *o = (uint32_t *)(a.out + i * KILN_MD5_DIGEST);
#pragma unroll
    for (int j = 0; j < 4; j++) o[j] = h[j];
}

bool check(const kiln_gpu_hash_params *p) { return p->outlen == KILN_MD5_DIGEST; }

cudaError_t launch(const kiln_gpu_hash_params *, const batch_args &a, uint64_t, unsigned blocks, cudaStream_t s)
{
    md5_kernel<<<blocks, TPB, 0, s>>>(a);
    return cudaGetLastError();
}

} // namespace

const kiln_cuda_hash_family kiln_cuda_hash_md5 = {check, launch};
