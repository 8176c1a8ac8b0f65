/* Arithmetic in the Goldilocks field, p = 2^64 - 2^32 + 1, for host and device.
 *
 * Elements are uint64_t. Every function returns a canonical value (< p); add, sub and neg need
 * canonical inputs, mul and the reductions take any 64-bit inputs. The reduction uses the shape of
 * p: 2^64 = 2^32 - 1 (mod p) and 2^96 = -1 (mod p), so a 128-bit product hi:lo reduces with one
 * subtraction, one 32x32-bit multiplication and one addition, each with a single correction, and no
 * division. Pure functions: no tables, no allocation. */
#ifndef KILN_PRIM_GOLDILOCKS_H
#define KILN_PRIM_GOLDILOCKS_H

#include "kiln_hd.h"

#define KILN_GL_P UINT64_C(0xFFFFFFFF00000001)
/* 2^64 mod p = 2^32 - 1 */
#define KILN_GL_EPS UINT64_C(0xFFFFFFFF)

KILN_HD uint64_t kiln_gl_canon(uint64_t a) { return a >= KILN_GL_P ? a - KILN_GL_P : a; }

KILN_HD uint64_t kiln_gl_add(uint64_t a, uint64_t b)
{
    uint64_t s = a + b;
    /* a carry out means the true sum is s + 2^64 = s + EPS (mod p), and s + EPS < p then */
    if (s < a) s += KILN_GL_EPS;
    return kiln_gl_canon(s);
}

KILN_HD uint64_t kiln_gl_sub(uint64_t a, uint64_t b)
{
    uint64_t d = a - b;
    /* a borrow wrapped d to a - b + 2^64; a - b + p is that minus EPS, and it cannot wrap again */
    if (a < b) d -= KILN_GL_EPS;
    return d;
}

KILN_HD uint64_t kiln_gl_neg(uint64_t a) { return a ? KILN_GL_P - a : 0; }

/* hi * 2^64 + lo mod p, for any hi and lo. With hi = hh * 2^32 + hl:
 * value = lo - hh + hl * (2^32 - 1) (mod p). */
KILN_HD uint64_t kiln_gl_reduce128(uint64_t lo, uint64_t hi)
{
    uint64_t hh = hi >> 32, hl = hi & KILN_GL_EPS;
    uint64_t t0 = lo - hh;
    if (lo < hh) t0 -= KILN_GL_EPS; /* borrow: add p, i.e. subtract EPS; t0 >= 2^64 - 2^32 here */
    uint64_t t1 = hl * KILN_GL_EPS; /* < 2^64 */
    uint64_t r = t0 + t1;
    if (r < t1) r += KILN_GL_EPS; /* carry: r < t1 <= (2^32 - 1)^2, so adding EPS cannot wrap */
    return kiln_gl_canon(r);
}

/* The full 128-bit product of two 64-bit words. */
KILN_HD void kiln_mul64_wide(uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi)
{
#if defined(__CUDA_ARCH__)
    *lo = a * b;
    *hi = __umul64hi(a, b);
#elif defined(KILN_OPENCL_C)
    *lo = a * b;
    *hi = mul_hi(a, b); /* OpenCL C has no 128-bit integers */
#elif defined(__SIZEOF_INT128__)
    __extension__ unsigned __int128 p = (unsigned __int128)a * b;
    *lo = (uint64_t)p;
    *hi = (uint64_t)(p >> 64);
#else
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    *lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

KILN_HD uint64_t kiln_gl_mul(uint64_t a, uint64_t b)
{
    uint64_t lo, hi;
    kiln_mul64_wide(a, b, &lo, &hi);
    return kiln_gl_reduce128(lo, hi);
}

KILN_HD uint64_t kiln_gl_square(uint64_t a) { return kiln_gl_mul(a, a); }

/* a^(2^m): m squarings. */
KILN_HD uint64_t kiln_gl_sqn(uint64_t a, int m)
{
    for (int i = 0; i < m; i++) a = kiln_gl_square(a);
    return a;
}

/* a^e by square-and-multiply; for tests and one-off exponents (the S-boxes use fixed chains). */
KILN_HD uint64_t kiln_gl_pow(uint64_t a, uint64_t e)
{
    uint64_t r = 1;
    a = kiln_gl_canon(a);
    while (e) {
        if (e & 1) r = kiln_gl_mul(r, a);
        a = kiln_gl_square(a);
        e >>= 1;
    }
    return r;
}

/* Multiplicative inverse by Fermat (a^(p-2)); 0 maps to 0. */
KILN_HD uint64_t kiln_gl_inv(uint64_t a) { return kiln_gl_pow(a, KILN_GL_P - 2); }

#endif
