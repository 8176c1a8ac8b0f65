/* Leaves from a matrix's rows on the GPU (the tree table's `rows`): the leaf hash of each row (a
 * Poseidon2 sponge, src/core/leaf_sponge.h), one thread a row, through the absorb steps of
 * src/prim/poseidon2_sponge.h the CPU runs too. The rows go to the device in chunks of at most
 * CHUNK_BYTES, each chunk's leaves come back before the next is sent; the buffers live for the call. */
#include "../core/leaf_sponge.h"
#include "../prim/merkle_merge.h"
#include "cuda_state.h"
#include "dev_array.cuh"

#define CHUNK_BYTES ((size_t)64 << 20)
#define TPB 128

namespace {

/* Leaf i of `count` rows of `elems` 32-bit elements: PaddingFreeSponge over field F (BabyBear,
 * KoalaBear) at width W (16: rate 8; 24: rate 16), the digest the first 8 elements. */
template <int F, int W>
__global__ void rows31_kernel(const uint32_t *__restrict__ rows, uint64_t count, uint64_t elems, uint4 *out)
{
    constexpr int kRate = W - 8;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t *row = rows + i * elems;
        uint32_t s[W], blk[kRate], w[8];
#pragma unroll
        for (int j = 0; j < W; j++) s[j] = 0;
        for (uint64_t e = 0; e < elems; e += kRate) {
            const int k = elems - e < (uint64_t)kRate ? (int)(elems - e) : kRate;
#pragma unroll
            for (int j = 0; j < kRate; j++) blk[j] = j < k ? __ldg(row + e + j) : 0;
            kiln_p2_m31_absorb(s, blk, k, F, W);
        }
        kiln_p2_m31_squeeze16(s, w, F);
        out[2 * i] = make_uint4(w[0], w[1], w[2], w[3]);
        out[2 * i + 1] = make_uint4(w[4], w[5], w[6], w[7]);
    }
}

/* The same over Goldilocks for sponge ID (KILN_P2S_GL8, _GL12, _GL12_MIDEN): 64-bit elements. */
template <int ID>
__global__ void rows_gl_kernel(const uint64_t *__restrict__ rows, uint64_t count, uint64_t elems, uint4 *out)
{
    constexpr int kWidth = ID == KILN_P2S_GL8 ? 8 : 12, kRate = kWidth - 4;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t *row = rows + i * elems;
        uint64_t s[12], blk[kRate];
        kiln_p2_gl_sponge_init(s, ID, elems);
        for (uint64_t e = 0; e < elems; e += kRate) {
            const int k = elems - e < (uint64_t)kRate ? (int)(elems - e) : kRate;
#pragma unroll
            for (int j = 0; j < kRate; j++) blk[j] = j < k ? __ldg(row + e + j) : 0;
            kiln_p2_gl_absorb(s, blk, k, ID);
        }
        out[2 * i] = make_uint4((uint32_t)s[0], (uint32_t)(s[0] >> 32), (uint32_t)s[1], (uint32_t)(s[1] >> 32));
        out[2 * i + 1] = make_uint4((uint32_t)s[2], (uint32_t)(s[2] >> 32), (uint32_t)s[3], (uint32_t)(s[3] >> 32));
    }
}

/* One chunk of `count` rows already on the device. */
void launch(kiln_gpu *st, int sponge, const void *rows, uint64_t count, uint64_t elems, uint4 *out)
{
    const unsigned grid = grid_for(count, TPB, st->sm_count);
    const uint32_t *r32 = (const uint32_t *)rows;
    const uint64_t *r64 = (const uint64_t *)rows;
    switch (sponge) {
    case KILN_P2S_BB16: rows31_kernel<KILN_P2_BABYBEAR, 16><<<grid, TPB, 0, st->stream>>>(r32, count, elems, out); break;
    case KILN_P2S_KB16: rows31_kernel<KILN_P2_KOALABEAR, 16><<<grid, TPB, 0, st->stream>>>(r32, count, elems, out); break;
    case KILN_P2S_BB24: rows31_kernel<KILN_P2_BABYBEAR, 24><<<grid, TPB, 0, st->stream>>>(r32, count, elems, out); break;
    case KILN_P2S_KB24: rows31_kernel<KILN_P2_KOALABEAR, 24><<<grid, TPB, 0, st->stream>>>(r32, count, elems, out); break;
    case KILN_P2S_GL8: rows_gl_kernel<KILN_P2S_GL8><<<grid, TPB, 0, st->stream>>>(r64, count, elems, out); break;
    case KILN_P2S_GL12: rows_gl_kernel<KILN_P2S_GL12><<<grid, TPB, 0, st->stream>>>(r64, count, elems, out); break;
    default: rows_gl_kernel<KILN_P2S_GL12_MIDEN><<<grid, TPB, 0, st->stream>>>(r64, count, elems, out); break;
    }
}

} // namespace

kiln_status kiln_cuda_merkle_rows(kiln_gpu *st, kiln_merkle_algo algo, kiln_merkle_leaf_hash leaf, const uint8_t *rows,
                                  uint64_t n, size_t row_elems, uint8_t *leaves)
{
    const int sponge = kiln_leaf_sponge(algo, leaf);
    if (sponge < 0) return kiln_fail(st->ctx, KILN_ERR_INPUT, "merkle algorithm %d has no GPU leaf hash %d", (int)algo, (int)leaf);
    if (n == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    const size_t row_bytes = row_elems * kiln_leaf_sponge_elem_size(sponge);
    uint64_t per = row_bytes ? CHUNK_BYTES / row_bytes : n;
    if (per == 0) per = 1; /* a row over CHUNK_BYTES goes alone */
    if (per > n) per = n;
    void *d_rows = NULL, *d_leaves = NULL;
    cudaError_t e = cudaMalloc(&d_leaves, (size_t)per * 32);
    if (e == cudaSuccess && row_bytes) e = cudaMalloc(&d_rows, (size_t)per * row_bytes);
    for (uint64_t first = 0; e == cudaSuccess && first < n; first += per) {
        if (first && kiln_ctx_interrupt_requested(st->ctx)) break;
        const uint64_t count = n - first < per ? n - first : per;
        if (row_bytes)
            e = cudaMemcpyAsync(d_rows, rows + first * row_bytes, (size_t)(count * row_bytes), cudaMemcpyHostToDevice,
                                st->stream);
        if (e == cudaSuccess) {
            launch(st, sponge, d_rows, count, row_elems, (uint4 *)d_leaves);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(leaves + 32 * first, d_leaves, (size_t)count * 32, cudaMemcpyDeviceToHost, st->stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(st->stream);
    }
    if (d_rows) cudaFree(d_rows);
    if (d_leaves) cudaFree(d_leaves);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "CUDA leaves from rows failed: %s", cudaGetErrorString(e));
    }
    if (kiln_ctx_interrupt_requested(st->ctx)) return kiln_interrupted(st->ctx);
    return KILN_OK;
}
