/* Leaves from a matrix's rows on the GPU (the tree table's `rows`): Plonky3's PaddingFreeSponge of
 * each row, one thread a row, through the absorb steps of src/prim/poseidon2*.h the CPU runs too.
 * The rows go to the device in chunks of at most CHUNK_BYTES, each chunk's leaves come back before
 * the next is sent; the buffers live for the call. */
#include "../prim/merkle_merge.h"
#include "cuda_state.h"
#include "dev_array.cuh"

#define CHUNK_BYTES ((size_t)64 << 20)
#define TPB 128

namespace {

/* Leaf i of `rows` rows of `elems` 32-bit elements (BabyBear, KoalaBear: F is the prim's field). */
template <int F>
__global__ void rows31_kernel(const uint32_t *__restrict__ rows, uint64_t count, uint64_t elems, uint4 *out)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t *row = rows + i * elems;
        uint32_t s[16], blk[8], w[8];
#pragma unroll
        for (int j = 0; j < 16; j++) s[j] = 0;
        for (uint64_t e = 0; e < elems; e += 8) {
            const int k = elems - e < 8 ? (int)(elems - e) : 8;
#pragma unroll
            for (int j = 0; j < 8; j++) blk[j] = j < k ? __ldg(row + e + j) : 0;
            kiln_p2_m31_absorb16(s, blk, k, F);
        }
        kiln_p2_m31_squeeze16(s, w, F);
        out[2 * i] = make_uint4(w[0], w[1], w[2], w[3]);
        out[2 * i + 1] = make_uint4(w[4], w[5], w[6], w[7]);
    }
}

/* The same over Goldilocks: 64-bit elements, blocks of 4. */
__global__ void rows_gl_kernel(const uint64_t *__restrict__ rows, uint64_t count, uint64_t elems, uint4 *out)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (uint64_t)gridDim.x * blockDim.x) {
        const uint64_t *row = rows + i * elems;
        uint64_t s[8], blk[4];
#pragma unroll
        for (int j = 0; j < 8; j++) s[j] = 0;
        for (uint64_t e = 0; e < elems; e += 4) {
            const int k = elems - e < 4 ? (int)(elems - e) : 4;
#pragma unroll
            for (int j = 0; j < 4; j++) blk[j] = j < k ? __ldg(row + e + j) : 0;
            kiln_p2_gl_absorb8(s, blk, k);
        }
        out[2 * i] = make_uint4((uint32_t)s[0], (uint32_t)(s[0] >> 32), (uint32_t)s[1], (uint32_t)(s[1] >> 32));
        out[2 * i + 1] = make_uint4((uint32_t)s[2], (uint32_t)(s[2] >> 32), (uint32_t)s[3], (uint32_t)(s[3] >> 32));
    }
}

/* One chunk of `count` rows already on the device. */
void launch(kiln_gpu *st, kiln_merkle_algo algo, const void *rows, uint64_t count, uint64_t elems, uint4 *out)
{
    const unsigned grid = grid_for(count, TPB, st->sm_count);
    if (algo == KILN_MERKLE_POSEIDON2_BABYBEAR16)
        rows31_kernel<KILN_P2_BABYBEAR><<<grid, TPB, 0, st->stream>>>((const uint32_t *)rows, count, elems, out);
    else if (algo == KILN_MERKLE_POSEIDON2_KOALABEAR16)
        rows31_kernel<KILN_P2_KOALABEAR><<<grid, TPB, 0, st->stream>>>((const uint32_t *)rows, count, elems, out);
    else
        rows_gl_kernel<<<grid, TPB, 0, st->stream>>>((const uint64_t *)rows, count, elems, out);
}

} // namespace

kiln_status kiln_cuda_merkle_rows(kiln_gpu *st, kiln_merkle_algo algo, const uint8_t *rows, uint64_t n,
                                  size_t row_elems, uint8_t *leaves)
{
    if (algo != KILN_MERKLE_POSEIDON2_BABYBEAR16 && algo != KILN_MERKLE_POSEIDON2_KOALABEAR16 &&
        algo != KILN_MERKLE_POSEIDON2_GOLDILOCKS8)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "merkle algorithm %d has no GPU leaf hash", (int)algo);
    if (n == 0) return KILN_OK;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    const size_t row_bytes = row_elems * (algo == KILN_MERKLE_POSEIDON2_GOLDILOCKS8 ? 8 : 4);
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
            launch(st, algo, d_rows, count, row_elems, (uint4 *)d_leaves);
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
