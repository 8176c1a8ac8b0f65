/* Poseidon2 (Grassi, Khovratovich, Schofnegger, eprint 2023/323) over BabyBear and KoalaBear, the
 * instances of Plonky3's default_babybear_poseidon2_16/24() and default_koalabear_poseidon2_16/24(),
 * for host and device. Constants: poseidon2_babybear_constants.h, poseidon2_koalabear_constants.h.
 *
 * A state of `w` elements (w = 16 or 24, Montgomery form) goes through
 *   the external linear layer;
 *   4 full rounds:    + round constants, S-box on every element, external linear layer;
 *   R_P partial rounds: + round constant on element 0, S-box on element 0, internal linear layer;
 *   4 full rounds as the first four, with the final constants.
 * S-box: x^7 over BabyBear (4 multiplications), x^3 over KoalaBear (2). R_P: BabyBear 13 (w 16), 21
 * (w 24); KoalaBear 20 (w 16), 23 (w 24).
 * External layer ("MDS light"): each block of 4 times the circulant matrix M4 = circ(2, 3, 1, 1),
 * then every element plus the sum of the elements in its place (i mod 4) of every block, i.e. the
 * matrix circ(2M4, M4, ..., M4): additions only.
 * Internal layer: s_i <- V_i * s_i + sum(s) with the constants header's diagonal V, whose entries
 * are +-2^e or +-3: additions, halvings, and a reduction without multiplication for 2^-e, e > 1.
 *
 * The functions are written once over a field id and a width; every caller passes constants, so
 * after inlining the branches fold away (the kernels unroll the loops to straight-line code). */
#ifndef KILN_PRIM_POSEIDON2_H
#define KILN_PRIM_POSEIDON2_H

#include "babybear.h"
#include "koalabear.h"
#include "poseidon2_babybear_constants.h"
#include "poseidon2_diag.h"
#include "poseidon2_koalabear_constants.h"

#define KILN_P2_BABYBEAR 0
#define KILN_P2_KOALABEAR 1
#define KILN_P2_HALF_FULL_ROUNDS 4

#if defined(__CUDA_ARCH__) || defined(KILN_OPENCL_C)
#define KILN_P2_UNROLL _Pragma("unroll")
#else
#define KILN_P2_UNROLL
#endif

/* Round constants in Montgomery form, per instance: the 4 initial full rounds (4w), the 4 final
 * (4w), then the R_P partial rounds' (one each). */
KILN_TABLE uint32_t kiln_p2_bb16_rc_host[] = {KILN_P2_BB16_EXT_INIT(KILN_BB_MONTY), KILN_P2_BB16_EXT_FINAL(KILN_BB_MONTY),
                                              KILN_P2_BB16_INTERNAL(KILN_BB_MONTY)};
KILN_TABLE uint32_t kiln_p2_bb24_rc_host[] = {KILN_P2_BB24_EXT_INIT(KILN_BB_MONTY), KILN_P2_BB24_EXT_FINAL(KILN_BB_MONTY),
                                              KILN_P2_BB24_INTERNAL(KILN_BB_MONTY)};
KILN_TABLE uint32_t kiln_p2_kb16_rc_host[] = {KILN_P2_KB16_EXT_INIT(KILN_KB_MONTY), KILN_P2_KB16_EXT_FINAL(KILN_KB_MONTY),
                                              KILN_P2_KB16_INTERNAL(KILN_KB_MONTY)};
KILN_TABLE uint32_t kiln_p2_kb24_rc_host[] = {KILN_P2_KB24_EXT_INIT(KILN_KB_MONTY), KILN_P2_KB24_EXT_FINAL(KILN_KB_MONTY),
                                              KILN_P2_KB24_INTERNAL(KILN_KB_MONTY)};
#if defined(__CUDACC__)
static __device__ __constant__ uint32_t kiln_p2_bb16_rc_dev[] = {
    KILN_P2_BB16_EXT_INIT(KILN_BB_MONTY), KILN_P2_BB16_EXT_FINAL(KILN_BB_MONTY), KILN_P2_BB16_INTERNAL(KILN_BB_MONTY)};
static __device__ __constant__ uint32_t kiln_p2_bb24_rc_dev[] = {
    KILN_P2_BB24_EXT_INIT(KILN_BB_MONTY), KILN_P2_BB24_EXT_FINAL(KILN_BB_MONTY), KILN_P2_BB24_INTERNAL(KILN_BB_MONTY)};
static __device__ __constant__ uint32_t kiln_p2_kb16_rc_dev[] = {
    KILN_P2_KB16_EXT_INIT(KILN_KB_MONTY), KILN_P2_KB16_EXT_FINAL(KILN_KB_MONTY), KILN_P2_KB16_INTERNAL(KILN_KB_MONTY)};
static __device__ __constant__ uint32_t kiln_p2_kb24_rc_dev[] = {
    KILN_P2_KB24_EXT_INIT(KILN_KB_MONTY), KILN_P2_KB24_EXT_FINAL(KILN_KB_MONTY), KILN_P2_KB24_INTERNAL(KILN_KB_MONTY)};
#endif

KILN_HD_INLINE int kiln_p2_m31_partial_rounds(int f, int w)
{
    return f == KILN_P2_BABYBEAR ? (w == 16 ? KILN_P2_BB16_INTERNAL_COUNT : KILN_P2_BB24_INTERNAL_COUNT)
                                 : (w == 16 ? KILN_P2_KB16_INTERNAL_COUNT : KILN_P2_KB24_INTERNAL_COUNT);
}

/* Round constant i of instance (f, w), laid out as the tables above. */
KILN_HD_INLINE uint32_t kiln_p2_m31_rc(int f, int w, int i)
{
#if defined(__CUDA_ARCH__)
    if (f == KILN_P2_BABYBEAR) return w == 16 ? kiln_p2_bb16_rc_dev[i] : kiln_p2_bb24_rc_dev[i];
    return w == 16 ? kiln_p2_kb16_rc_dev[i] : kiln_p2_kb24_rc_dev[i];
#else
    if (f == KILN_P2_BABYBEAR) return w == 16 ? kiln_p2_bb16_rc_host[i] : kiln_p2_bb24_rc_host[i];
    return w == 16 ? kiln_p2_kb16_rc_host[i] : kiln_p2_kb24_rc_host[i];
#endif
}

/* The diagonal's code for entry i (poseidon2_diag.h), as a switch so that unrolled code folds it. */
#define POS KILN_P2_POS
#define NEG KILN_P2_NEG
#define POS3 KILN_P2_MAG3
#define NEG3 (-KILN_P2_MAG3)
KILN_HD_INLINE int kiln_p2_m31_diag(int f, int w, int i)
{
    if (f == KILN_P2_BABYBEAR && w == 16) {
        switch (i) { KILN_P2_BB16_DIAG(KILN_P2_DIAG_CASE) }
    } else if (f == KILN_P2_BABYBEAR) {
        switch (i) { KILN_P2_BB24_DIAG(KILN_P2_DIAG_CASE) }
    } else if (w == 16) {
        switch (i) { KILN_P2_KB16_DIAG(KILN_P2_DIAG_CASE) }
    } else {
        switch (i) { KILN_P2_KB24_DIAG(KILN_P2_DIAG_CASE) }
    }
    return 0;
}
#undef POS
#undef NEG
#undef POS3
#undef NEG3

KILN_HD_INLINE uint32_t kiln_p2_m31_p(int f) { return f == KILN_P2_BABYBEAR ? KILN_BB_P : KILN_KB_P; }
KILN_HD_INLINE uint32_t kiln_p2_m31_mu(int f) { return f == KILN_P2_BABYBEAR ? KILN_BB_MU : KILN_KB_MU; }

KILN_HD_INLINE uint32_t kiln_p2_m31_sbox(int f, uint32_t x)
{
    return f == KILN_P2_BABYBEAR ? kiln_bb_pow7(x) : kiln_kb_pow3(x);
}

/* x times M4 = circ(2, 3, 1, 1) (row i: 2 x_i + 3 x_(i+1) + x_(i+2) + x_(i+3), indices mod 4): each
 * row is the sum of all four plus x_(i+1) plus one pair sum or doubling, so 9 additions and 2
 * doublings in all, shared between rows. */
KILN_HD_INLINE void kiln_p2_m31_mat4(uint32_t *x, uint32_t p)
{
    const uint32_t t01 = kiln_m31_add(x[0], x[1], p), t23 = kiln_m31_add(x[2], x[3], p);
    const uint32_t t0123 = kiln_m31_add(t01, t23, p);
    const uint32_t t01123 = kiln_m31_add(t0123, x[1], p), t01233 = kiln_m31_add(t0123, x[3], p);
    const uint32_t y0 = kiln_m31_add(t01123, t01, p); /* 2x0 + 3x1 + x2 + x3 */
    const uint32_t y1 = kiln_m31_add(t01123, kiln_m31_double(x[2], p), p); /* x0 + 2x1 + 3x2 + x3 */
    const uint32_t y2 = kiln_m31_add(t01233, t23, p); /* x0 + x1 + 2x2 + 3x3 */
    const uint32_t y3 = kiln_m31_add(t01233, kiln_m31_double(x[0], p), p); /* 3x0 + x1 + x2 + 2x3 */
    x[0] = y0, x[1] = y1, x[2] = y2, x[3] = y3;
}

KILN_HD_INLINE void kiln_p2_m31_external(uint32_t *s, int w, uint32_t p)
{
    KILN_P2_UNROLL
    for (int b = 0; b < w; b += 4) kiln_p2_m31_mat4(s + b, p);
    uint32_t col[4];
    KILN_P2_UNROLL
    for (int k = 0; k < 4; k++) {
        col[k] = s[k];
        KILN_P2_UNROLL
        for (int b = 4; b < w; b += 4) col[k] = kiln_m31_add(col[k], s[b + k], p);
    }
    KILN_P2_UNROLL
    for (int i = 0; i < w; i++) s[i] = kiln_m31_add(s[i], col[i & 3], p);
}

/* |V_i| * x for a diagonal code. */
KILN_HD_INLINE uint32_t kiln_p2_m31_diag_mag(int code, uint32_t x, uint32_t p, uint32_t mu)
{
    const int mag = code < 0 ? -code : code;
    if (mag == KILN_P2_MAG3) return kiln_m31_add(kiln_m31_double(x, p), x, p);
    const int e = mag - 64;
    if (e == 0) return x;
    if (e == 1) return kiln_m31_double(x, p);
    if (e == 2) return kiln_m31_double(kiln_m31_double(x, p), p);
    if (e == -1) return kiln_m31_halve(x, p);
    return kiln_m31_div_2exp(x, -e, p, mu);
}

KILN_HD_INLINE void kiln_p2_m31_internal(uint32_t *s, int f, int w)
{
    const uint32_t p = kiln_p2_m31_p(f), mu = kiln_p2_m31_mu(f);
    uint32_t sum = s[0];
    KILN_P2_UNROLL
    for (int i = 1; i < w; i++) sum = kiln_m31_add(sum, s[i], p);
    KILN_P2_UNROLL
    for (int i = 0; i < w; i++) {
        const int code = kiln_p2_m31_diag(f, w, i);
        const uint32_t y = kiln_p2_m31_diag_mag(code, s[i], p, mu);
        s[i] = code < 0 ? kiln_m31_sub(sum, y, p) : kiln_m31_add(sum, y, p);
    }
}

/* 4 full rounds with the constants from index `base` (0: initial, 4w: final). */
KILN_HD_INLINE void kiln_p2_m31_full_rounds(uint32_t *s, int f, int w, int base)
{
    const uint32_t p = kiln_p2_m31_p(f);
    KILN_P2_UNROLL
    for (int r = 0; r < KILN_P2_HALF_FULL_ROUNDS; r++) {
        KILN_P2_UNROLL
        for (int i = 0; i < w; i++) s[i] = kiln_p2_m31_sbox(f, kiln_m31_add(s[i], kiln_p2_m31_rc(f, w, base + r * w + i), p));
        kiln_p2_m31_external(s, w, p);
    }
}

/* The permutation of instance (f, w) on a state in Montgomery form, in place. */
KILN_HD_INLINE void kiln_p2_m31_permute_monty(uint32_t *s, int f, int w)
{
    const uint32_t p = kiln_p2_m31_p(f);
    const int rp = kiln_p2_m31_partial_rounds(f, w);
    kiln_p2_m31_external(s, w, p);
    kiln_p2_m31_full_rounds(s, f, w, 0);
    KILN_P2_UNROLL_PARTIAL
    for (int r = 0; r < rp; r++) {
        s[0] = kiln_p2_m31_sbox(f, kiln_m31_add(s[0], kiln_p2_m31_rc(f, w, 8 * w + r), p));
        kiln_p2_m31_internal(s, f, w);
    }
    kiln_p2_m31_full_rounds(s, f, w, 4 * w);
}

KILN_HD_INLINE void kiln_p2_m31_to_monty(uint32_t *s, int f, int n)
{
    for (int i = 0; i < n; i++) s[i] = f == KILN_P2_BABYBEAR ? kiln_bb_to_monty(s[i]) : kiln_kb_to_monty(s[i]);
}

KILN_HD_INLINE void kiln_p2_m31_from_monty(uint32_t *s, int f, int n)
{
    for (int i = 0; i < n; i++) s[i] = f == KILN_P2_BABYBEAR ? kiln_bb_from_monty(s[i]) : kiln_kb_from_monty(s[i]);
}

/* The permutation on canonical elements (each below p), in place: Plonky3's permute_mut. */
KILN_HD_INLINE void kiln_p2_m31_permute(uint32_t *s, int f, int w)
{
    kiln_p2_m31_to_monty(s, f, w);
    kiln_p2_m31_permute_monty(s, f, w);
    kiln_p2_m31_from_monty(s, f, w);
}

/* Each instance once, specialized (on Montgomery states, and on canonical ones). */
KILN_HD void kiln_p2_bb16_permute_monty(uint32_t s[16]) { kiln_p2_m31_permute_monty(s, KILN_P2_BABYBEAR, 16); }
KILN_HD void kiln_p2_kb16_permute_monty(uint32_t s[16]) { kiln_p2_m31_permute_monty(s, KILN_P2_KOALABEAR, 16); }
KILN_HD void kiln_poseidon2_bb16(uint32_t s[16]) { kiln_p2_m31_permute(s, KILN_P2_BABYBEAR, 16); }
KILN_HD void kiln_poseidon2_bb24(uint32_t s[24]) { kiln_p2_m31_permute(s, KILN_P2_BABYBEAR, 24); }
KILN_HD void kiln_poseidon2_kb16(uint32_t s[16]) { kiln_p2_m31_permute(s, KILN_P2_KOALABEAR, 16); }
KILN_HD void kiln_poseidon2_kb24(uint32_t s[24]) { kiln_p2_m31_permute(s, KILN_P2_KOALABEAR, 24); }

/* Plonky3's TruncatedPermutation<Perm16, 2, 8, 16>: the state is left's 8 elements, then right's,
 * permuted; the parent is the first 8. Canonical elements in and out. */
KILN_HD_INLINE void kiln_p2_m31_compress16(const uint32_t l[8], const uint32_t r[8], uint32_t out[8], int f)
{
    uint32_t s[16];
    KILN_P2_UNROLL
    for (int i = 0; i < 8; i++) {
        s[i] = l[i];
        s[8 + i] = r[i];
    }
    kiln_p2_m31_permute(s, f, 16);
    KILN_P2_UNROLL
    for (int i = 0; i < 8; i++) out[i] = s[i];
}

/* A PaddingFreeSponge's digest (the absorb steps: poseidon2_sponge.h): the state's first 8
 * elements, canonical. */
KILN_HD_INLINE void kiln_p2_m31_squeeze16(const uint32_t s[16], uint32_t out[8], int f)
{
    KILN_P2_UNROLL
    for (int j = 0; j < 8; j++) out[j] = f == KILN_P2_BABYBEAR ? kiln_bb_from_monty(s[j]) : kiln_kb_from_monty(s[j]);
}

#endif
