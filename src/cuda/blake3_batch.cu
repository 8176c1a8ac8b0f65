/* BLAKE3 on the GPU: one thread per message, src/prim/blake3.h's block-by-block hasher (its
 * chaining-value stack in local memory, the chain and the block in registers), the message words
 * read straight from the batch with aligned 8-byte loads, the last block zero-padded on the fly. */
#include "../prim/blake3.h"
#include "hash_family.cuh"
#include "hash_device.cuh"

namespace
{

using namespace kiln_hashk;

/* The 16 little-endian words of the block at byte b of a message of len bytes at off, zero past
 * its end. */
__device__ __forceinline__ void load_block(const uint64_t *__restrict__ d, uint64_t off, uint64_t len, uint64_t b,
                                           uint32_t m[16])
{
#pragma unroll
    for (int j = 0; j < 8; j++) {
        uint64_t p = b + 8 * j, q = 0;
        if (p + 8 <= len)
            q = kiln_dev::load8(d, off + p);
        else if (p < len)
            q = kiln_dev::low_bytes(kiln_dev::load8(d, off + p), (unsigned)(len - p));
        m[2 * j] = (uint32_t)q;
        m[2 * j + 1] = (uint32_t)(q >> 32);
    }
}

__global__ void __launch_bounds__(TPB) blake3_kernel(const batch_args a)
{
    uint64_t i = (uint64_t)blockIdx.x * TPB + threadIdx.x, off, len;
    if (!message(a, i, &off, &len)) return;
    uint32_t key[8];
    kiln_blake3_iv(key);
    kiln_blake3_blocks h;
    kiln_blake3_blocks_init(&h, key, 0);
    kiln_blake3_output o;
    const uint64_t nblocks = len ? (len + KILN_BLAKE3_BLOCK - 1) / KILN_BLAKE3_BLOCK : 1;
    for (uint64_t b = 0; b < nblocks; b++) {
        uint32_t m[16];
        load_block(a.data, off, len, KILN_BLAKE3_BLOCK * b, m);
        const uint64_t left = len - KILN_BLAKE3_BLOCK * b;
        kiln_blake3_blocks_next(&h, m, left < KILN_BLAKE3_BLOCK ? (uint32_t)left : KILN_BLAKE3_BLOCK, b + 1 == nblocks,
                                &o);
    }
    uint8_t *out = a.out + i * a.outlen;
    for (uint64_t at = 0; at < a.outlen; at += KILN_BLAKE3_BLOCK) {
        uint32_t w[16];
        kiln_blake3_output_root(&o, at / KILN_BLAKE3_BLOCK, w);
        for (unsigned j = 0; j < KILN_BLAKE3_BLOCK && at + j < a.outlen; j++)
            out[at + j] = (uint8_t)(w[j / 4] >> (8 * (j % 4)));
    }
}

/* unkeyed, any output length */
bool check(const kiln_gpu_hash_params *p) { return p->outlen > 0 && p->outlen <= 0xffffffffu; }

cudaError_t launch(const kiln_gpu_hash_params *, const batch_args &a, uint64_t, unsigned blocks, cudaStream_t s)
{
    blake3_kernel<<<blocks, TPB, 0, s>>>(a);
    return cudaGetLastError();
}

} // namespace

const kiln_cuda_hash_family kiln_cuda_hash_blake3 = {check, launch};
