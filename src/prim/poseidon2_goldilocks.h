/* Poseidon2 over Goldilocks (p = 2^64 - 2^32 + 1), the instances of Plonky3's
 * default_goldilocks_poseidon2_8() and default_goldilocks_poseidon2_12(), for host and device.
 * Constants: poseidon2_goldilocks_constants.h. The same structure as poseidon2.h (external linear
 * layer; 4 full rounds; 22 partial rounds; 4 full rounds; the same M4 blocks and internal layer
 * 1 + Diag(V)) with the S-box x^7 (4 multiplications) on canonical uint64_t elements (goldilocks.h). */
#ifndef KILN_PRIM_POSEIDON2_GOLDILOCKS_H
#define KILN_PRIM_POSEIDON2_GOLDILOCKS_H

#include "goldilocks.h"
#include "poseidon2_diag.h"
#include "poseidon2_goldilocks_constants.h"

#if defined(__CUDA_ARCH__) || defined(KILN_OPENCL_C)
#define KILN_P2GL_UNROLL _Pragma("unroll")
#else
#define KILN_P2GL_UNROLL
#endif

#define KILN_P2GL_ID(x) x

/* Round constants per width: the 4 initial full rounds (4w), the 4 final (4w), the 22 partial. */
KILN_TABLE uint64_t kiln_p2_gl8_rc_host[] = {KILN_P2_GL8_EXT_INIT(KILN_P2GL_ID), KILN_P2_GL8_EXT_FINAL(KILN_P2GL_ID),
                                             KILN_P2_GL8_INTERNAL(KILN_P2GL_ID)};
KILN_TABLE uint64_t kiln_p2_gl12_rc_host[] = {KILN_P2_GL12_EXT_INIT(KILN_P2GL_ID), KILN_P2_GL12_EXT_FINAL(KILN_P2GL_ID),
                                              KILN_P2_GL12_INTERNAL(KILN_P2GL_ID)};
#if defined(__CUDACC__)
static __device__ __constant__ uint64_t kiln_p2_gl8_rc_dev[] = {
    KILN_P2_GL8_EXT_INIT(KILN_P2GL_ID), KILN_P2_GL8_EXT_FINAL(KILN_P2GL_ID), KILN_P2_GL8_INTERNAL(KILN_P2GL_ID)};
static __device__ __constant__ uint64_t kiln_p2_gl12_rc_dev[] = {
    KILN_P2_GL12_EXT_INIT(KILN_P2GL_ID), KILN_P2_GL12_EXT_FINAL(KILN_P2GL_ID), KILN_P2_GL12_INTERNAL(KILN_P2GL_ID)};
#endif

KILN_HD_INLINE uint64_t kiln_p2_gl_rc(int w, int i)
{
#if defined(__CUDA_ARCH__)
    return w == 8 ? kiln_p2_gl8_rc_dev[i] : kiln_p2_gl12_rc_dev[i];
#else
    return w == 8 ? kiln_p2_gl8_rc_host[i] : kiln_p2_gl12_rc_host[i];
#endif
}

#define POS KILN_P2_POS
#define NEG KILN_P2_NEG
#define POS3 KILN_P2_MAG3
#define NEG3 (-KILN_P2_MAG3)
KILN_HD_INLINE int kiln_p2_gl_diag(int w, int i)
{
    if (w == 8) {
        switch (i) { KILN_P2_GL8_DIAG(KILN_P2_DIAG_CASE) }
    } else {
        switch (i) { KILN_P2_GL12_DIAG(KILN_P2_DIAG_CASE) }
    }
    return 0;
}
#undef POS
#undef NEG
#undef POS3
#undef NEG3

KILN_HD_INLINE uint64_t kiln_gl_double(uint64_t a) { return kiln_gl_add(a, a); }

/* a / 2: an odd a becomes (a + p) / 2 = (a >> 1) + (p + 1) / 2, without overflow. */
KILN_HD_INLINE uint64_t kiln_gl_halve(uint64_t a)
{
    return (a & 1) ? (a >> 1) + UINT64_C(0x7FFFFFFF80000001) : a >> 1;
}

KILN_HD_INLINE uint64_t kiln_gl_pow7(uint64_t x)
{
    const uint64_t x2 = kiln_gl_mul(x, x), x3 = kiln_gl_mul(x2, x), x4 = kiln_gl_mul(x2, x2);
    return kiln_gl_mul(x3, x4);
}

/* x times M4 = circ(2, 3, 1, 1), as kiln_p2_m31_mat4. */
KILN_HD_INLINE void kiln_p2_gl_mat4(uint64_t *x)
{
    const uint64_t t01 = kiln_gl_add(x[0], x[1]), t23 = kiln_gl_add(x[2], x[3]);
    const uint64_t t0123 = kiln_gl_add(t01, t23);
    const uint64_t t01123 = kiln_gl_add(t0123, x[1]), t01233 = kiln_gl_add(t0123, x[3]);
    const uint64_t y0 = kiln_gl_add(t01123, t01);
    const uint64_t y1 = kiln_gl_add(t01123, kiln_gl_double(x[2]));
    const uint64_t y2 = kiln_gl_add(t01233, t23);
    const uint64_t y3 = kiln_gl_add(t01233, kiln_gl_double(x[0]));
    x[0] = y0, x[1] = y1, x[2] = y2, x[3] = y3;
}

KILN_HD_INLINE void kiln_p2_gl_external(uint64_t *s, int w)
{
    KILN_P2GL_UNROLL
    for (int b = 0; b < w; b += 4) kiln_p2_gl_mat4(s + b);
    uint64_t col[4];
    KILN_P2GL_UNROLL
    for (int k = 0; k < 4; k++) {
        col[k] = s[k];
        KILN_P2GL_UNROLL
        for (int b = 4; b < w; b += 4) col[k] = kiln_gl_add(col[k], s[b + k]);
    }
    KILN_P2GL_UNROLL
    for (int i = 0; i < w; i++) s[i] = kiln_gl_add(s[i], col[i & 3]);
}

KILN_HD_INLINE uint64_t kiln_p2_gl_diag_mag(int code, uint64_t x)
{
    const int mag = code < 0 ? -code : code;
    if (mag == KILN_P2_MAG3) return kiln_gl_add(kiln_gl_double(x), x);
    int e = mag - 64;
    for (; e > 0; e--) x = kiln_gl_double(x);
    for (; e < 0; e++) x = kiln_gl_halve(x);
    return x;
}

KILN_HD_INLINE void kiln_p2_gl_internal(uint64_t *s, int w)
{
    uint64_t sum = s[0];
    KILN_P2GL_UNROLL
    for (int i = 1; i < w; i++) sum = kiln_gl_add(sum, s[i]);
    KILN_P2GL_UNROLL
    for (int i = 0; i < w; i++) {
        const int code = kiln_p2_gl_diag(w, i);
        const uint64_t y = kiln_p2_gl_diag_mag(code, s[i]);
        s[i] = code < 0 ? kiln_gl_sub(sum, y) : kiln_gl_add(sum, y);
    }
}

KILN_HD_INLINE void kiln_p2_gl_full_rounds(uint64_t *s, int w, int base)
{
    KILN_P2GL_UNROLL
    for (int r = 0; r < 4; r++) {
        KILN_P2GL_UNROLL
        for (int i = 0; i < w; i++) s[i] = kiln_gl_pow7(kiln_gl_add(s[i], kiln_p2_gl_rc(w, base + r * w + i)));
        kiln_p2_gl_external(s, w);
    }
}

/* The permutation of width w (8 or 12) on canonical elements, in place. */
KILN_HD_INLINE void kiln_p2_gl_permute(uint64_t *s, int w)
{
    kiln_p2_gl_external(s, w);
    kiln_p2_gl_full_rounds(s, w, 0);
    KILN_P2_UNROLL_PARTIAL /* nvcc keeps these 22 a loop all the same */
    for (int r = 0; r < KILN_P2_GL8_INTERNAL_COUNT; r++) {
        s[0] = kiln_gl_pow7(kiln_gl_add(s[0], kiln_p2_gl_rc(w, 8 * w + r)));
        kiln_p2_gl_internal(s, w);
    }
    kiln_p2_gl_full_rounds(s, w, 4 * w);
}

KILN_HD void kiln_poseidon2_gl8(uint64_t s[8]) { kiln_p2_gl_permute(s, 8); }
KILN_HD void kiln_poseidon2_gl12(uint64_t s[12]) { kiln_p2_gl_permute(s, 12); }

/* Plonky3's TruncatedPermutation<Perm8, 2, 4, 8>: left's 4 elements, right's 4, permuted; the first 4. */
KILN_HD_INLINE void kiln_p2_gl_compress8(const uint64_t l[4], const uint64_t r[4], uint64_t out[4])
{
    uint64_t s[8];
    KILN_P2GL_UNROLL
    for (int i = 0; i < 4; i++) {
        s[i] = l[i];
        s[4 + i] = r[i];
    }
    kiln_p2_gl_permute(s, 8);
    KILN_P2GL_UNROLL
    for (int i = 0; i < 4; i++) out[i] = s[i];
}

/* The sponges' absorb steps: poseidon2_sponge.h. */

#endif
