/* Rescue Prime Rp64_256 (as in Winterfell): the permutation over 12 Goldilocks elements and the
 * hashing conventions built on it, for host and device.
 *
 * State: 12 elements; capacity state[0..4), rate state[4..12), digest state[4..8). A round is
 *   x^7 on every element, MDS, + ARK1[r], x^(1/7) on every element, MDS, + ARK2[r]
 * seven times. x^(1/7) = x^10540996611094048183 (7 * that = 1 mod p - 1) is an addition chain of
 * 63 squarings and 9 multiplications. The MDS matrix is circulant with entries below 27, so a row
 * times the state is summed over the 32-bit halves of the elements in 64-bit accumulators and
 * reduced once. Pure functions; constants in rescue_constants.h. */
#ifndef KILN_PRIM_RESCUE_H
#define KILN_PRIM_RESCUE_H

#include "goldilocks.h"
#include "rescue_constants.h"

#define KILN_RP64_WIDTH 12
#define KILN_RP64_ROUNDS 7
#define KILN_RP64_RATE 8
#define KILN_RP64_DIGEST 4

KILN_TABLE uint64_t kiln_rp64_ark1_host[KILN_RP64_ROUNDS * KILN_RP64_WIDTH] = {KILN_RP64_ARK1_LIST};
KILN_TABLE uint64_t kiln_rp64_ark2_host[KILN_RP64_ROUNDS * KILN_RP64_WIDTH] = {KILN_RP64_ARK2_LIST};
#if defined(__CUDACC__)
static __device__ __constant__ uint64_t kiln_rp64_ark1_dev[KILN_RP64_ROUNDS * KILN_RP64_WIDTH] = {KILN_RP64_ARK1_LIST};
static __device__ __constant__ uint64_t kiln_rp64_ark2_dev[KILN_RP64_ROUNDS * KILN_RP64_WIDTH] = {KILN_RP64_ARK2_LIST};
#endif

#if defined(__CUDA_ARCH__) || defined(KILN_OPENCL_C)
#define KILN_RP64_UNROLL _Pragma("unroll")
#else
#define KILN_RP64_UNROLL
#endif

KILN_HD uint64_t kiln_rp64_ark(int which, int i)
{
#if defined(__CUDA_ARCH__)
    return which ? kiln_rp64_ark2_dev[i] : kiln_rp64_ark1_dev[i];
#else
    return which ? kiln_rp64_ark2_host[i] : kiln_rp64_ark1_host[i];
#endif
}

/* First row of the circulant MDS matrix, as a switch so that unrolled device code gets immediates. */
KILN_HD uint32_t kiln_rp64_mds_row(int d)
{
    switch (d) {
    case 0: return 7;
    case 1: return 23;
    case 2: return 8;
    case 3: return 26;
    case 4: return 13;
    case 5: return 10;
    case 6: return 9;
    case 7: return 7;
    case 8: return 6;
    case 9: return 22;
    case 10: return 21;
    default: return 8;
    }
}

/* lo + hi * 2^64 mod p for hi < 2^32 (a value below 2^96). */
KILN_HD uint64_t kiln_gl_reduce96(uint64_t lo, uint64_t hi)
{
    uint64_t t = hi * KILN_GL_EPS;
    uint64_t r = lo + t;
    if (r < t) r += KILN_GL_EPS;
    return kiln_gl_canon(r);
}

KILN_HD void kiln_rp64_mds(uint64_t s[KILN_RP64_WIDTH])
{
    uint64_t out[KILN_RP64_WIDTH];
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RP64_WIDTH; i++) {
        uint64_t lo = 0, hi = 0; /* sums of coefficient * low / high halves, each below 2^41 */
        KILN_RP64_UNROLL
        for (int j = 0; j < KILN_RP64_WIDTH; j++) {
            uint64_t c = kiln_rp64_mds_row((j - i + KILN_RP64_WIDTH) % KILN_RP64_WIDTH);
            lo += c * (uint32_t)s[j];
            hi += c * (uint32_t)(s[j] >> 32);
        }
        uint64_t sum_lo = lo + (hi << 32);
        uint64_t sum_hi = (hi >> 32) + (sum_lo < lo);
        out[i] = kiln_gl_reduce96(sum_lo, sum_hi);
    }
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RP64_WIDTH; i++) s[i] = out[i];
}

KILN_HD uint64_t kiln_rp64_pow7(uint64_t x)
{
    uint64_t x2 = kiln_gl_square(x);
    uint64_t x4 = kiln_gl_square(x2);
    uint64_t x3 = kiln_gl_mul(x2, x);
    return kiln_gl_mul(x3, x4);
}

/* x^10540996611094048183; in binary the exponent is
 *   1001001001001001001001001001000 110110110110110110110110110110111
 * built from t6 = x^(100 repeated ten times): x^e = ((t7^2 * t6)^4) * x^4 * x^2 * x with
 * t7 = t6^(2^31) * t6. */
KILN_HD uint64_t kiln_rp64_pow_inv7(uint64_t x)
{
    uint64_t x2 = kiln_gl_square(x);
    uint64_t x4 = kiln_gl_square(x2);
    uint64_t t3 = kiln_gl_mul(kiln_gl_sqn(x4, 3), x4); /* 100100 */
    uint64_t t4 = kiln_gl_mul(kiln_gl_sqn(t3, 6), t3); /* (100) x 4 */
    uint64_t t5 = kiln_gl_mul(kiln_gl_sqn(t4, 12), t4); /* (100) x 8 */
    uint64_t t6 = kiln_gl_mul(kiln_gl_sqn(t5, 6), t3); /* (100) x 10 */
    uint64_t t7 = kiln_gl_mul(kiln_gl_sqn(t6, 31), t6);
    uint64_t a = kiln_gl_sqn(kiln_gl_mul(kiln_gl_square(t7), t6), 2);
    uint64_t b = kiln_gl_mul(kiln_gl_mul(x4, x2), x);
    return kiln_gl_mul(a, b);
}

KILN_HD void kiln_rp64_round(uint64_t s[KILN_RP64_WIDTH], int r)
{
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RP64_WIDTH; i++) s[i] = kiln_rp64_pow7(s[i]);
    kiln_rp64_mds(s);
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RP64_WIDTH; i++) s[i] = kiln_gl_add(s[i], kiln_rp64_ark(0, r * KILN_RP64_WIDTH + i));
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RP64_WIDTH; i++) s[i] = kiln_rp64_pow_inv7(s[i]);
    kiln_rp64_mds(s);
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RP64_WIDTH; i++) s[i] = kiln_gl_add(s[i], kiln_rp64_ark(1, r * KILN_RP64_WIDTH + i));
}

/* The permutation, in place. Inputs need not be canonical (the first S-box reduces them); outputs
 * are. */
KILN_HD void kiln_rp64_permute(uint64_t s[KILN_RP64_WIDTH])
{
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
    for (int r = 0; r < KILN_RP64_ROUNDS; r++) kiln_rp64_round(s, r);
}

/* Winterfell's merge: capacity holds the element count (8), the two digests fill the rate. */
KILN_HD void kiln_rp64_merge(const uint64_t left[KILN_RP64_DIGEST], const uint64_t right[KILN_RP64_DIGEST],
                             uint64_t out[KILN_RP64_DIGEST])
{
    uint64_t s[KILN_RP64_WIDTH];
    s[0] = KILN_RP64_RATE;
    s[1] = s[2] = s[3] = 0;
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RP64_DIGEST; i++) {
        s[4 + i] = left[i];
        s[8 + i] = right[i];
    }
    kiln_rp64_permute(s);
    KILN_RP64_UNROLL
    for (int i = 0; i < KILN_RP64_DIGEST; i++) out[i] = s[4 + i];
}

/* Winterfell's hash_elements: capacity[0] = n, elements added into the rate, a permutation after
 * every 8 and one more after a partial block; no other padding. Elements must be canonical. */
KILN_HD void kiln_rp64_hash_elements(const uint64_t *e, size_t n, uint64_t out[KILN_RP64_DIGEST])
{
    uint64_t s[KILN_RP64_WIDTH];
    for (int i = 0; i < KILN_RP64_WIDTH; i++) s[i] = 0;
    s[0] = kiln_gl_canon((uint64_t)n);
    size_t pos = 0;
    for (size_t k = 0; k < n; k++) {
        s[4 + pos] = kiln_gl_add(s[4 + pos], e[k]);
        if (++pos == KILN_RP64_RATE) {
            kiln_rp64_permute(s);
            pos = 0;
        }
    }
    if (pos) kiln_rp64_permute(s);
    for (int i = 0; i < KILN_RP64_DIGEST; i++) out[i] = s[4 + i];
}

#endif
