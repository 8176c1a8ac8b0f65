/* scrypt's core on the GPU in the two layouts of the scrypt-miner study, shared by the Litecoin
 * search and the batch KDF.
 *
 * One hash per thread (TPH = 1): a thread holds its whole state, 32r words, and runs the
 * Salsa20/8 of src/prim/salsa.h directly.
 *
 * One hash per four threads (TPH = 4): each 64-byte Salsa20 block is spread over the four lanes
 * of a quad, lane t holding column t of the 4x4 word matrix, rotated to start at the diagonal:
 *   (a, b, c, d) = (x[5t], x[4(t+1)+t], x[4(t+2)+t], x[4(t+3)+t])   (row indices mod 4)
 * which is exactly the argument tuple of the column round's quarter-round t. The row round's
 * tuple for row t is (a, d of lane t+1, c of lane t+2, b of lane t+3): three warp shuffles bring
 * it in, and the same three shuffles take it back. A lane only ever stores and loads its own
 * 16-byte piece of each block, so scratchpad rows need no synchronisation, and the four lanes
 * of a quad write one 64-byte run: coalesced 16-byte accesses.
 *
 * Scratchpad rows: with a lookup gap G (a power of two), only rows j = 0, G, 2G, ... are stored;
 * a read of row j loads row j - j % G and reapplies BlockMix j % G times. */
#ifndef KILN_CUDA_SCRYPT_DEV_CUH
#define KILN_CUDA_SCRYPT_DEV_CUH

#include <stdint.h>

#include "../prim/salsa.h"

namespace kiln_scrypt_dev {

__device__ __forceinline__ uint4 operator^(uint4 a, uint4 b) { return make_uint4(a.x ^ b.x, a.y ^ b.y, a.z ^ b.z, a.w ^ b.w); }

/* ---- four threads per hash */

/* B = Salsa20/8(B ^ Bx) on the quad layout; mask holds the quad's lanes. */
__device__ __forceinline__ void salsa_quad(uint4 &B, const uint4 &Bx, unsigned mask, int t)
{
    B = B ^ Bx;
    uint32_t a = B.x, b = B.y, c = B.z, d = B.w;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        KILN_SALSA_QR(a, b, c, d); /* column round */
        uint32_t nb = __shfl_sync(mask, d, t + 1, 4), nc = __shfl_sync(mask, c, t + 2, 4), nd = __shfl_sync(mask, b, t + 3, 4);
        KILN_SALSA_QR(a, nb, nc, nd); /* row round */
        b = __shfl_sync(mask, nd, t + 1, 4);
        c = __shfl_sync(mask, nc, t + 2, 4);
        d = __shfl_sync(mask, nb, t + 3, 4);
    }
    B.x += a, B.y += b, B.z += c, B.w += d;
}

/* scryptBlockMix on 2R quad blocks. */
template <int R>
__device__ __forceinline__ void blockmix_quad(uint4 (&x)[2 * R], unsigned mask, int t)
{
    uint4 y[2 * R];
    uint4 T = x[2 * R - 1];
#pragma unroll
    for (int i = 0; i < 2 * R; i++) {
        salsa_quad(T, x[i], mask, t);
        y[(i >> 1) + (i & 1) * R] = T;
    }
#pragma unroll
    for (int i = 0; i < 2 * R; i++) x[i] = y[i];
}

/* Natural word index held by lane t of a quad in slot k (0..3) of block `block`. */
__device__ __forceinline__ int quad_word(int block, int t, int k) { return 16 * block + 4 * ((t + k) & 3) + t; }

/* ROMix on the quad layout. V: this hash's rows, 2R * 4 uint4 each; gap a power of two, > 1
 * exactly when GAP. Reading lane 0's a of the last block gives Integerify's low word. */
template <int R, bool GAP>
__device__ __forceinline__ void romix_quad(uint4 (&x)[2 * R], uint4 *__restrict__ V, uint32_t N, uint32_t gap,
                                           unsigned mask, int t)
{
    const uint32_t shift = __ffs(gap) - 1;
#pragma unroll 1
    for (uint32_t j = 0; j < N; j++) {
        if (!GAP || (j & (gap - 1)) == 0) {
            uint4 *row = V + (size_t)(j >> shift) * (8 * R) + t;
#pragma unroll
            for (int b = 0; b < 2 * R; b++) row[4 * b] = x[b];
        }
        blockmix_quad<R>(x, mask, t);
    }
#pragma unroll 1
    for (uint32_t i = 0; i < N; i++) {
        uint32_t j = __shfl_sync(mask, x[2 * R - 1].x, 0, 4) & (N - 1);
        const uint4 *row = V + (size_t)(j >> shift) * (8 * R) + t;
        if (!GAP) {
#pragma unroll
            for (int b = 0; b < 2 * R; b++) x[b] = x[b] ^ row[4 * b];
        } else {
            uint4 y[2 * R];
#pragma unroll
            for (int b = 0; b < 2 * R; b++) y[b] = row[4 * b];
#pragma unroll 1
            for (uint32_t k = j & (gap - 1); k > 0; k--) blockmix_quad<R>(y, mask, t);
#pragma unroll
            for (int b = 0; b < 2 * R; b++) x[b] = x[b] ^ y[b];
        }
        blockmix_quad<R>(x, mask, t);
    }
}

/* ---- one thread per hash (r = 1) */

/* B = Salsa20/8(B ^ Bx) on 16 words in registers. */
__device__ __forceinline__ void salsa_xor(uint32_t *B, const uint32_t *Bx)
{
#pragma unroll
    for (int i = 0; i < 16; i++) B[i] ^= Bx[i];
    kiln_salsa20_8(B);
}

__device__ __forceinline__ void blockmix_single(uint32_t (&x)[32])
{
    salsa_xor(x, x + 16);
    salsa_xor(x + 16, x);
}

/* ROMix for r = 1 with the state in registers; V: this hash's rows of 8 uint4. GAP: gap > 1. */
template <bool GAP>
__device__ __forceinline__ void romix_single(uint32_t (&x)[32], uint4 *__restrict__ V, uint32_t N, uint32_t gap)
{
    const uint32_t shift = __ffs(gap) - 1;
#pragma unroll 1
    for (uint32_t j = 0; j < N; j++) {
        if (!GAP || (j & (gap - 1)) == 0) {
            uint4 *row = V + (size_t)(j >> shift) * 8;
#pragma unroll
            for (int q = 0; q < 8; q++) row[q] = make_uint4(x[4 * q], x[4 * q + 1], x[4 * q + 2], x[4 * q + 3]);
        }
        blockmix_single(x);
    }
#pragma unroll 1
    for (uint32_t i = 0; i < N; i++) {
        uint32_t j = x[16] & (N - 1);
        const uint4 *row = V + (size_t)(j >> shift) * 8;
        if (!GAP) {
#pragma unroll
            for (int q = 0; q < 8; q++) {
                uint4 v = row[q];
                x[4 * q] ^= v.x, x[4 * q + 1] ^= v.y, x[4 * q + 2] ^= v.z, x[4 * q + 3] ^= v.w;
            }
        } else {
            uint32_t y[32];
#pragma unroll
            for (int q = 0; q < 8; q++) {
                uint4 v = row[q];
                y[4 * q] = v.x, y[4 * q + 1] = v.y, y[4 * q + 2] = v.z, y[4 * q + 3] = v.w;
            }
    #pragma unroll 1
        for (uint32_t k = j & (gap - 1); k > 0; k--) blockmix_single(y);
#pragma unroll
            for (int w = 0; w < 32; w++) x[w] ^= y[w];
        }
        blockmix_single(x);
    }
}

/* ---- ROMix kernels: lanes of B (32r little-endian words each, natural order) in place. One
 * lane per thread or quad, lane i's scratchpad at V + i * (N / gap) rows. */

template <int R>
__device__ __forceinline__ void load_quads(uint4 (&x)[2 * R], const uint32_t *src, int t)
{
#pragma unroll
    for (int b = 0; b < 2 * R; b++)
        x[b] = make_uint4(src[quad_word(b, t, 0)], src[quad_word(b, t, 1)], src[quad_word(b, t, 2)], src[quad_word(b, t, 3)]);
}

template <int R>
__device__ __forceinline__ void store_quads(const uint4 (&x)[2 * R], uint32_t *dst, int t)
{
#pragma unroll
    for (int b = 0; b < 2 * R; b++) {
        dst[quad_word(b, t, 0)] = x[b].x;
        dst[quad_word(b, t, 1)] = x[b].y;
        dst[quad_word(b, t, 2)] = x[b].z;
        dst[quad_word(b, t, 3)] = x[b].w;
    }
}

} // namespace kiln_scrypt_dev

namespace {

template <int R, bool GAP>
__global__ void __launch_bounds__(256) romix_quad_kernel(uint32_t *__restrict__ B, uint32_t lanes, uint32_t N,
                                                         uint32_t gap, uint4 *__restrict__ V)
{
    using namespace kiln_scrypt_dev;
    const int t = threadIdx.x & 3;
    const unsigned mask = 0xfu << (threadIdx.x & 28);
    uint32_t lane = (blockIdx.x * blockDim.x + threadIdx.x) >> 2;
    if (lane >= lanes) return;
    uint32_t *b = B + (size_t)lane * 32 * R;
    uint4 x[2 * R];
    load_quads<R>(x, b, t);
    romix_quad<R, GAP>(x, V + (size_t)lane * (N / gap) * (8 * R), N, gap, mask, t);
    store_quads<R>(x, b, t);
}

template <bool GAP>
__global__ void __launch_bounds__(256) romix_single_kernel(uint32_t *__restrict__ B, uint32_t lanes, uint32_t N,
                                                           uint32_t gap, uint4 *__restrict__ V)
{
    using namespace kiln_scrypt_dev;
    uint32_t lane = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane >= lanes) return;
    uint4 *b = (uint4 *)(B + (size_t)lane * 32);
    uint32_t x[32];
#pragma unroll
    for (int q = 0; q < 8; q++) {
        uint4 v = b[q];
        x[4 * q] = v.x, x[4 * q + 1] = v.y, x[4 * q + 2] = v.z, x[4 * q + 3] = v.w;
    }
    romix_single<GAP>(x, V + (size_t)lane * (N / gap) * 8, N, gap);
#pragma unroll
    for (int q = 0; q < 8; q++) b[q] = make_uint4(x[4 * q], x[4 * q + 1], x[4 * q + 2], x[4 * q + 3]);
}

} // namespace

#endif
