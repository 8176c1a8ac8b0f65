/* RPO256 (Rescue Prime Optimized, Miden's hash, as in 0xMiden/crypto release v0.28.1): the
 * permutation over 12 Goldilocks elements and miden-crypto's merge and hash_elements, for host and
 * device.
 *
 * The permutation shares Rp64_256's field, width, MDS matrix and S-boxes (rescue.h) but orders a round
 * differently and has its own constants (rpo_constants.h):
 *   MDS, + ARK1[r], x^7 on every element, MDS, + ARK2[r], x^(1/7) on every element
 * seven times. The state layout is miden-crypto's since its PR #755 (the layout of v0.28.1 and later):
 * rate state[0..8), capacity state[8..12), digest state[0..4). Earlier releases (capacity first,
 * digest state[4..8)) are not implemented. Pure functions. */
#ifndef KILN_PRIM_RPO_H
#define KILN_PRIM_RPO_H

#include "rescue.h"
#include "rpo_constants.h"

#define KILN_RPO_WIDTH 12
#define KILN_RPO_ROUNDS 7
#define KILN_RPO_RATE 8
#define KILN_RPO_DIGEST 4
#define KILN_RPO_CAPACITY 8 /* index of the first capacity element */

KILN_TABLE uint64_t kiln_rpo_ark1_host[KILN_RPO_ROUNDS * KILN_RPO_WIDTH] = {KILN_RPO_ARK1_LIST};
KILN_TABLE uint64_t kiln_rpo_ark2_host[KILN_RPO_ROUNDS * KILN_RPO_WIDTH] = {KILN_RPO_ARK2_LIST};
#if defined(__CUDACC__)
static __device__ __constant__ uint64_t kiln_rpo_ark1_dev[KILN_RPO_ROUNDS * KILN_RPO_WIDTH] = {KILN_RPO_ARK1_LIST};
static __device__ __constant__ uint64_t kiln_rpo_ark2_dev[KILN_RPO_ROUNDS * KILN_RPO_WIDTH] = {KILN_RPO_ARK2_LIST};
#endif

KILN_HD uint64_t kiln_rpo_ark(int which, int i)
{
#if defined(__CUDA_ARCH__)
    return which ? kiln_rpo_ark2_dev[i] : kiln_rpo_ark1_dev[i];
#else
    return which ? kiln_rpo_ark2_host[i] : kiln_rpo_ark1_host[i];
#endif
}

/* One round. kiln_rp64_mds takes any 64-bit values (it reduces the full sum), so the state need not
 * be canonical on entry; every later step sees canonical elements. */
KILN_HD void kiln_rpo_round(uint64_t s[KILN_RPO_WIDTH], int r)
{
    kiln_rp64_mds(s);
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RPO_WIDTH; i++) s[i] = kiln_rp64_pow7(kiln_gl_add(s[i], kiln_rpo_ark(0, r * KILN_RPO_WIDTH + i)));
    kiln_rp64_mds(s);
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RPO_WIDTH; i++)
        s[i] = kiln_rp64_pow_inv7(kiln_gl_add(s[i], kiln_rpo_ark(1, r * KILN_RPO_WIDTH + i)));
}

/* The permutation, in place; outputs are canonical. */
KILN_HD void kiln_rpo_permute(uint64_t s[KILN_RPO_WIDTH])
{
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
    for (int r = 0; r < KILN_RPO_ROUNDS; r++) kiln_rpo_round(s, r);
}

/* miden-crypto's merge: left || right fill the rate, the capacity is zero, the digest is state[0..4). */
KILN_HD void kiln_rpo_merge(const uint64_t left[KILN_RPO_DIGEST], const uint64_t right[KILN_RPO_DIGEST],
                            uint64_t out[KILN_RPO_DIGEST])
{
    uint64_t s[KILN_RPO_WIDTH];
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RPO_DIGEST; i++) {
        s[i] = left[i];
        s[4 + i] = right[i];
        s[8 + i] = 0;
    }
    kiln_rpo_permute(s);
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RPO_DIGEST; i++) out[i] = s[i];
}

/* miden-crypto's hash_elements: capacity[0] = n mod 8, each block of 8 elements overwrites the rate
 * and is permuted; a partial last block is padded with zeros and permuted; no permutation at all for
 * n = 0 (the digest is then zero). Elements are read mod p. */
KILN_HD void kiln_rpo_hash_elements(const uint64_t *e, size_t n, uint64_t out[KILN_RPO_DIGEST])
{
    uint64_t s[KILN_RPO_WIDTH];
    for (int i = 0; i < KILN_RPO_WIDTH; i++) s[i] = 0;
    s[KILN_RPO_CAPACITY] = (uint64_t)(n % KILN_RPO_RATE);
    size_t pos = 0;
    for (size_t k = 0; k < n; k++) {
        s[pos] = e[k];
        if (++pos == KILN_RPO_RATE) {
            kiln_rpo_permute(s);
            pos = 0;
        }
    }
    if (pos) {
        for (size_t i = pos; i < KILN_RPO_RATE; i++) s[i] = 0;
        kiln_rpo_permute(s);
    }
    for (int i = 0; i < KILN_RPO_DIGEST; i++) out[i] = s[i];
}

#endif
