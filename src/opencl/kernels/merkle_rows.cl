/* Leaves from a matrix's rows (ocl_rows.c): one work-item a row, the row's leaf hash through the
 * absorb steps of src/prim/poseidon2_sponge.h (included, so the CPU's and CUDA's own code). One
 * kernel a sponge (src/core/leaf_sponge.h's ids), its field and width constants, so each is
 * compiled for its permutation alone. rows: count rows of elems elements back to back (32- or
 * 64-bit, little-endian, canonical); out: count 32-byte leaves, each as two 16-byte vectors. */
#include "../../prim/poseidon2_sponge.h"

/* BabyBear or KoalaBear (F), width W: rate W - 8, the digest the first 8 elements */
#define KILN_OCL_ROWS31(name, F, W)                                                                    \
    __kernel void kiln_rows_##name(__global const uint *rows, ulong count, ulong elems, __global uint4 *out) \
    {                                                                                                  \
        const ulong i = get_global_id(0);                                                              \
        if (i >= count) return;                                                                        \
        __global const uint *row = rows + i * elems;                                                   \
        uint s[W], blk[W - 8], w[8];                                                                   \
        for (int j = 0; j < W; j++) s[j] = 0;                                                          \
        for (ulong e = 0; e < elems; e += W - 8) {                                                     \
            const int k = elems - e < (ulong)(W - 8) ? (int)(elems - e) : W - 8;                       \
            for (int j = 0; j < W - 8; j++) blk[j] = j < k ? row[e + j] : 0;                           \
            kiln_p2_m31_absorb(s, blk, k, F, W);                                                       \
        }                                                                                              \
        kiln_p2_m31_squeeze16(s, w, F);                                                                \
        out[2 * i] = (uint4)(w[0], w[1], w[2], w[3]);                                                  \
        out[2 * i + 1] = (uint4)(w[4], w[5], w[6], w[7]);                                              \
    }

/* Goldilocks, sponge ID (width 8: rate 4; width 12: rate 8; miden's hash_elements zero-pads and
 * puts the row's length mod 8 in capacity[0]), the digest the first 4 elements */
#define KILN_OCL_ROWS_GL(name, ID, RATE)                                                               \
    __kernel void kiln_rows_##name(__global const ulong *rows, ulong count, ulong elems, __global uint4 *out) \
    {                                                                                                  \
        const ulong i = get_global_id(0);                                                              \
        if (i >= count) return;                                                                        \
        __global const ulong *row = rows + i * elems;                                                  \
        ulong s[12], blk[RATE];                                                                        \
        kiln_p2_gl_sponge_init(s, ID, elems);                                                          \
        for (ulong e = 0; e < elems; e += RATE) {                                                      \
            const int k = elems - e < (ulong)RATE ? (int)(elems - e) : RATE;                           \
            for (int j = 0; j < RATE; j++) blk[j] = j < k ? row[e + j] : 0;                            \
            kiln_p2_gl_absorb(s, blk, k, ID);                                                          \
        }                                                                                              \
        out[2 * i] = (uint4)((uint)s[0], (uint)(s[0] >> 32), (uint)s[1], (uint)(s[1] >> 32));          \
        out[2 * i + 1] = (uint4)((uint)s[2], (uint)(s[2] >> 32), (uint)s[3], (uint)(s[3] >> 32));      \
    }

KILN_OCL_ROWS31(bb16, KILN_P2_BABYBEAR, 16)
KILN_OCL_ROWS31(kb16, KILN_P2_KOALABEAR, 16)
KILN_OCL_ROWS31(bb24, KILN_P2_BABYBEAR, 24)
KILN_OCL_ROWS31(kb24, KILN_P2_KOALABEAR, 24)
KILN_OCL_ROWS_GL(gl8, KILN_P2S_GL8, 4)
KILN_OCL_ROWS_GL(gl12, KILN_P2S_GL12, 8)
KILN_OCL_ROWS_GL(gl12_miden, KILN_P2S_GL12_MIDEN, 8)
