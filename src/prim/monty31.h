/* Arithmetic in 31-bit prime fields (p < 2^31) in Montgomery form, R = 2^32, for host and device:
 * the shared code of BabyBear (babybear.h) and KoalaBear (koalabear.h), each of which passes its
 * p and mu = p^-1 mod 2^32 as constants.
 *
 * Element x is held as the uint32_t x * R mod p, always below p. A product is one 32x32->64-bit
 * multiplication and a Montgomery reduction: m = lo32(t) * mu, t - m * p is divisible by 2^32 and
 * its high word, hi32(t) - hi32(m * p), is t / R mod p after one correction; so a multiplication
 * costs three 32-bit multiply instructions (the wide product, the low m, the high word of m * p),
 * what the GPU issues fastest, and no division. Additions need no multiplication: p < 2^31, so a
 * sum of two elements fits 32 bits and one conditional subtraction reduces it. Pure functions. */
#ifndef KILN_PRIM_MONTY31_H
#define KILN_PRIM_MONTY31_H

#include "kiln_hd.h"

/* x * 2^32 mod p as an integer constant expression: a canonical x (< p) in Montgomery form, for
 * tables of constants (host arrays, CUDA __constant__ memory, OpenCL __constant arrays alike). */
#define KILN_M31_TO_MONTY_CONST(x, p) ((uint32_t)((((uint64_t)(x)) << 32) % (uint64_t)(p)))

/* The smaller of a and b, as the device's minimum instruction. On CUDA as PTX's min.u32 itself:
 * given umin() or a comparison, NVVM turns the minimum of s and s - p back into a comparison of s
 * with p and a select (two instructions, measured in the PTX of a merge). */
KILN_HD_INLINE uint32_t kiln_m31_umin(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm("min.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#elif defined(KILN_OPENCL_C)
    return min(a, b);
#else
    return a < b ? a : b;
#endif
}

/* t / 2^32 mod p for t < p * 2^32, below p. */
KILN_HD_INLINE uint32_t kiln_m31_reduce(uint64_t t, uint32_t p, uint32_t mu)
{
    const uint32_t m = (uint32_t)t * mu;
#if defined(__CUDA_ARCH__)
    const uint32_t mp_hi = __umulhi(m, p);
#elif defined(KILN_OPENCL_C)
    const uint32_t mp_hi = mul_hi(m, p);
#else
    const uint32_t mp_hi = (uint32_t)(((uint64_t)m * p) >> 32);
#endif
    const uint32_t t_hi = (uint32_t)(t >> 32);
    /* t and m * p agree in their low words, so t - m * p = (t_hi - mp_hi) * 2^32 exactly; it lies in
     * (-p, p) * 2^32. The corrections here and below are an unsigned minimum (one instruction on the
     * GPU) instead of a compare and a select. */
    const uint32_t r = t_hi - mp_hi;
    return kiln_m31_umin(r, r + p); /* r wrapped (t_hi < mp_hi) exactly when r + p is the smaller */
}

KILN_HD_INLINE uint32_t kiln_m31_mul(uint32_t a, uint32_t b, uint32_t p, uint32_t mu)
{
    return kiln_m31_reduce((uint64_t)a * b, p, mu);
}

KILN_HD_INLINE uint32_t kiln_m31_add(uint32_t a, uint32_t b, uint32_t p)
{
    const uint32_t s = a + b;
    return kiln_m31_umin(s, s - p); /* s - p wraps above s exactly when s < p */
}

KILN_HD_INLINE uint32_t kiln_m31_sub(uint32_t a, uint32_t b, uint32_t p)
{
    const uint32_t d = a - b;
    return kiln_m31_umin(d, d + p); /* d + p wraps below d exactly when a - b wrapped */
}

KILN_HD_INLINE uint32_t kiln_m31_double(uint32_t a, uint32_t p) { return kiln_m31_add(a, a, p); }

/* a / 2: p is odd, so an odd a becomes (a + p) / 2, computed without overflow. Linear, so the
 * same in Montgomery form. */
KILN_HD_INLINE uint32_t kiln_m31_halve(uint32_t a, uint32_t p)
{
    return (a & 1u) ? (a >> 1) + (p >> 1) + 1u : a >> 1;
}

/* a / 2^k for 1 <= k <= 32: the reduction alone of a * 2^(32-k), since reducing divides by 2^32 (a
 * Montgomery element times a plain 2^(32-k) stays a Montgomery element); no multiplication of a. */
KILN_HD_INLINE uint32_t kiln_m31_div_2exp(uint32_t a, int k, uint32_t p, uint32_t mu)
{
    return kiln_m31_reduce((uint64_t)a << (32 - k), p, mu);
}

/* Montgomery form of a canonical x: x * R^2 / R, with r2 = R^2 mod p. */
KILN_HD_INLINE uint32_t kiln_m31_to_monty(uint32_t x, uint32_t r2, uint32_t p, uint32_t mu)
{
    return kiln_m31_mul(x, r2, p, mu);
}

/* The canonical value of a Montgomery element. */
KILN_HD_INLINE uint32_t kiln_m31_from_monty(uint32_t a, uint32_t p, uint32_t mu) { return kiln_m31_reduce(a, p, mu); }

#endif
