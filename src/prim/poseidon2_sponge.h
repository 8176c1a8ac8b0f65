/* The leaf sponges of kiln_merkle_leaves_from_rows_with beyond the width-16/8 ones of poseidon2.h
 * and poseidon2_goldilocks.h, and miden-crypto's width-12 merge, for host and device (the CPU,
 * src/cuda/merkle_rows.cu and src/opencl/kernels/merkle_rows.cl run these same steps).
 *
 * A "sponge id" names a leaf hash with its field and width, so that one loop per element size
 * serves them all: KILN_P2S_* below. Each absorb step takes a block of k (1..rate) canonical
 * elements; rows are cut into blocks of `rate`, the last one shorter when rate does not divide the
 * row. */
#ifndef KILN_PRIM_POSEIDON2_SPONGE_H
#define KILN_PRIM_POSEIDON2_SPONGE_H

#include "poseidon2.h"
#include "poseidon2_goldilocks.h"

/* 32-bit fields: PaddingFreeSponge<Perm16, 16, 8, 8> and <Perm24, 24, 16, 8> */
#define KILN_P2S_BB16 0
#define KILN_P2S_KB16 1
#define KILN_P2S_BB24 2
#define KILN_P2S_KB24 3
/* Goldilocks: PaddingFreeSponge<Perm8, 8, 4, 4>, <Perm12, 12, 8, 4>, and miden-crypto's
 * Poseidon2::hash_elements over the width-12 permutation */
#define KILN_P2S_GL8 4
#define KILN_P2S_GL12 5
#define KILN_P2S_GL12_MIDEN 6

KILN_HD_INLINE int kiln_p2s_goldilocks(int id) { return id >= KILN_P2S_GL8; }
KILN_HD_INLINE int kiln_p2s_field(int id) { return id == KILN_P2S_BB16 || id == KILN_P2S_BB24 ? KILN_P2_BABYBEAR : KILN_P2_KOALABEAR; }
KILN_HD_INLINE int kiln_p2s_width(int id)
{
    return id == KILN_P2S_BB24 || id == KILN_P2S_KB24 ? 24 : id == KILN_P2S_GL8 ? 8 : id >= KILN_P2S_GL12 ? 12 : 16;
}
/* Elements a block: the width less the capacity (8 over the 31-bit fields, 4 over Goldilocks). */
KILN_HD_INLINE int kiln_p2s_rate(int id) { return kiln_p2s_width(id) - (kiln_p2s_goldilocks(id) ? 4 : 8); }

/* PaddingFreeSponge over BabyBear or KoalaBear at width w (16: rate 8; 24: rate 16) on a state in
 * Montgomery form that starts at zero: the block's k elements overwrite the first k of the state,
 * then the permutation. The digest is kiln_p2_m31_squeeze16 of the state (its first 8 elements). */
KILN_HD_INLINE void kiln_p2_m31_absorb(uint32_t *s, const uint32_t *blk, int k, int f, int w)
{
    const int rate = w - 8;
    KILN_P2_UNROLL
    for (int j = 0; j < 16; j++)
        if (j < rate && j < k) s[j] = f == KILN_P2_BABYBEAR ? kiln_bb_to_monty(blk[j]) : kiln_kb_to_monty(blk[j]);
    kiln_p2_m31_permute_monty(s, f, w);
}

/* miden-crypto's sponge state before the first block of an n-element input: zero, but capacity[0]
 * (element 8) = n mod 8. Plonky3's sponges start at zero (n is not absorbed). */
KILN_HD_INLINE void kiln_p2_gl_sponge_init(uint64_t *s, int id, uint64_t n)
{
    for (int j = 0; j < 12; j++) s[j] = 0;
    if (id == KILN_P2S_GL12_MIDEN) s[8] = n % 8;
}

/* One block over Goldilocks: width 8 (rate 4) or 12 (rate 8). Plonky3's sponges overwrite only the
 * block's k places; miden's (id KILN_P2S_GL12_MIDEN) zero-pads a short block to the rate. Either way
 * the permutation follows, and the digest is the state's first 4 elements. */
KILN_HD_INLINE void kiln_p2_gl_absorb(uint64_t *s, const uint64_t *blk, int k, int id)
{
    const int w = id == KILN_P2S_GL8 ? 8 : 12, rate = w - 4, pad = id == KILN_P2S_GL12_MIDEN;
    KILN_P2GL_UNROLL
    for (int j = 0; j < 8; j++)
        if (j < rate && (j < k || pad)) s[j] = j < k ? blk[j] : 0;
    kiln_p2_gl_permute(s, w);
}

/* miden-crypto's Poseidon2::merge (= Plonky3's TruncatedPermutation<Perm12, 2, 4, 12>): the state is
 * left's 4 elements, right's 4, then 4 zeros; the parent is the first 4 after the permutation. */
KILN_HD_INLINE void kiln_p2_gl_compress12(const uint64_t l[4], const uint64_t r[4], uint64_t out[4])
{
    uint64_t s[12];
    KILN_P2GL_UNROLL
    for (int i = 0; i < 4; i++) {
        s[i] = l[i];
        s[4 + i] = r[i];
        s[8 + i] = 0;
    }
    kiln_p2_gl_permute(s, 12);
    KILN_P2GL_UNROLL
    for (int i = 0; i < 4; i++) out[i] = s[i];
}

#endif
