/* The KoalaBear field, p = 2^31 - 2^24 + 1 = 0x7f000001, for host and device: elements in
 * Montgomery form (monty31.h), as Plonky3's KoalaBear holds them. Canonical values (what nodes and
 * rows carry, each below p) enter with kiln_kb_to_monty and leave with kiln_kb_from_monty. */
#ifndef KILN_PRIM_KOALABEAR_H
#define KILN_PRIM_KOALABEAR_H

#include "monty31.h"

#define KILN_KB_P 0x7f000001u
#define KILN_KB_MU 0x81000001u /* p^-1 mod 2^32 */
#define KILN_KB_R2 0x17f7efe4u /* 2^64 mod p */
#define KILN_KB_MONTY(x) KILN_M31_TO_MONTY_CONST(x, KILN_KB_P)

KILN_HD_INLINE uint32_t kiln_kb_add(uint32_t a, uint32_t b) { return kiln_m31_add(a, b, KILN_KB_P); }
KILN_HD_INLINE uint32_t kiln_kb_sub(uint32_t a, uint32_t b) { return kiln_m31_sub(a, b, KILN_KB_P); }
KILN_HD_INLINE uint32_t kiln_kb_mul(uint32_t a, uint32_t b) { return kiln_m31_mul(a, b, KILN_KB_P, KILN_KB_MU); }
KILN_HD_INLINE uint32_t kiln_kb_double(uint32_t a) { return kiln_m31_double(a, KILN_KB_P); }
KILN_HD_INLINE uint32_t kiln_kb_halve(uint32_t a) { return kiln_m31_halve(a, KILN_KB_P); }
KILN_HD_INLINE uint32_t kiln_kb_div_2exp(uint32_t a, int k) { return kiln_m31_div_2exp(a, k, KILN_KB_P, KILN_KB_MU); }
KILN_HD_INLINE uint32_t kiln_kb_to_monty(uint32_t x) { return kiln_m31_to_monty(x, KILN_KB_R2, KILN_KB_P, KILN_KB_MU); }
KILN_HD_INLINE uint32_t kiln_kb_from_monty(uint32_t a) { return kiln_m31_from_monty(a, KILN_KB_P, KILN_KB_MU); }

/* x^3, Poseidon2's S-box over KoalaBear (3 does not divide p - 1 = 2^24 * 127): two multiplications. */
KILN_HD_INLINE uint32_t kiln_kb_pow3(uint32_t x) { return kiln_kb_mul(kiln_kb_mul(x, x), x); }

#endif
