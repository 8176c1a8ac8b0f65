/* The BabyBear field, p = 2^31 - 2^27 + 1 = 0x78000001, for host and device: elements in
 * Montgomery form (monty31.h), as Plonky3's BabyBear holds them. Canonical values (what nodes and
 * rows carry, each below p) enter with kiln_bb_to_monty and leave with kiln_bb_from_monty. */
#ifndef KILN_PRIM_BABYBEAR_H
#define KILN_PRIM_BABYBEAR_H

#include "monty31.h"

#define KILN_BB_P 0x78000001u
#define KILN_BB_MU 0x88000001u /* p^-1 mod 2^32 */
#define KILN_BB_R2 0x45dddde3u /* 2^64 mod p */
#define KILN_BB_MONTY(x) KILN_M31_TO_MONTY_CONST(x, KILN_BB_P)

KILN_HD_INLINE uint32_t kiln_bb_add(uint32_t a, uint32_t b) { return kiln_m31_add(a, b, KILN_BB_P); }
KILN_HD_INLINE uint32_t kiln_bb_sub(uint32_t a, uint32_t b) { return kiln_m31_sub(a, b, KILN_BB_P); }
KILN_HD_INLINE uint32_t kiln_bb_mul(uint32_t a, uint32_t b) { return kiln_m31_mul(a, b, KILN_BB_P, KILN_BB_MU); }
KILN_HD_INLINE uint32_t kiln_bb_double(uint32_t a) { return kiln_m31_double(a, KILN_BB_P); }
KILN_HD_INLINE uint32_t kiln_bb_halve(uint32_t a) { return kiln_m31_halve(a, KILN_BB_P); }
KILN_HD_INLINE uint32_t kiln_bb_div_2exp(uint32_t a, int k) { return kiln_m31_div_2exp(a, k, KILN_BB_P, KILN_BB_MU); }
KILN_HD_INLINE uint32_t kiln_bb_to_monty(uint32_t x) { return kiln_m31_to_monty(x, KILN_BB_R2, KILN_BB_P, KILN_BB_MU); }
KILN_HD_INLINE uint32_t kiln_bb_from_monty(uint32_t a) { return kiln_m31_from_monty(a, KILN_BB_P, KILN_BB_MU); }

/* x^7, Poseidon2's S-box over BabyBear (gcd(7, p - 1) = 1): x^2, x^3, x^4, x^7, four multiplications. */
KILN_HD_INLINE uint32_t kiln_bb_pow7(uint32_t x)
{
    const uint32_t x2 = kiln_bb_mul(x, x), x3 = kiln_bb_mul(x2, x), x4 = kiln_bb_mul(x2, x2);
    return kiln_bb_mul(x3, x4);
}

#endif
