/* Keccak-f[1600] on one state with AVX-512: each of five registers holds one plane (the five lanes
 * of a row y, in qword slots 0..4; slots 5..7 are never read into slots 0..4). theta's column
 * parity is then a vertical XOR of registers, rho one variable rotate per plane, chi two lane
 * rotations and one three-input logic instruction per plane, and pi the only cross-plane
 * shuffle. Called only when the CPU has AVX-512 (kiln_cpu()); src/CMakeLists.txt gives this file
 * alone the AVX-512 flags. */
#include <immintrin.h>

#include "keccak_host.h"

#include "../prim/keccak.h"

#define XOR3 0x96 /* a ^ b ^ c */
#define CHI 0xD2 /* a ^ (~b & c) */
#define PLANE_MASK 0x1F
#if defined(__GNUC__)
#define UNROLL5 _Pragma("GCC unroll 5")
#else
#define UNROLL5
#endif

typedef struct planes {
    __m512i p[5];
} planes;

static inline void load_planes(planes *a, const uint64_t s[KILN_KECCAK_LANES])
{
    for (int y = 0; y < 5; y++) a->p[y] = _mm512_maskz_loadu_epi64(PLANE_MASK, s + 5 * y);
}

static inline void store_planes(const planes *a, uint64_t s[KILN_KECCAK_LANES])
{
    for (int y = 0; y < 5; y++) _mm512_mask_storeu_epi64(s + 5 * y, PLANE_MASK, a->p[y]);
}

/* Index vectors: qword slot i of the result takes slot idx[i] (8 + k: slot k of the second source). */
#define IDX(a, b, c, d, e) _mm512_setr_epi64(a, b, c, d, e, 0, 0, 0)

static inline void permute(planes *st)
{
    const __m512i prev = IDX(4, 0, 1, 2, 3), next = IDX(1, 2, 3, 4, 0), next2 = IDX(2, 3, 4, 0, 1);
    const __m512i rho[5] = {IDX(0, 1, 62, 28, 27), IDX(36, 44, 6, 55, 20), IDX(3, 10, 43, 25, 39),
                            IDX(41, 45, 15, 21, 8), IDX(18, 2, 61, 56, 14)};
    /* pi: output plane Y slot X = input plane X slot (X + 3Y) mod 5. Slots 0,1 from planes 0,1;
     * slots 2,3 from planes 2,3; slot 4 from plane 4. */
    const __m512i pi01[5] = {IDX(0, 9, 0, 0, 0), IDX(3, 12, 0, 0, 0), IDX(1, 10, 0, 0, 0), IDX(4, 8, 0, 0, 0),
                             IDX(2, 11, 0, 0, 0)};
    const __m512i pi23[5] = {IDX(0, 0, 2, 11, 0), IDX(0, 0, 0, 9, 0), IDX(0, 0, 3, 12, 0), IDX(0, 0, 1, 10, 0),
                             IDX(0, 0, 4, 8, 0)};
    const __m512i pi4[5] = {IDX(0, 0, 0, 0, 4), IDX(0, 0, 0, 0, 2), IDX(0, 0, 0, 0, 0), IDX(0, 0, 0, 0, 3),
                            IDX(0, 0, 0, 0, 1)};
    __m512i *a = st->p;
    for (int r = 0; r < KILN_KECCAK_ROUNDS; r++) {
        __m512i c = _mm512_ternarylogic_epi64(a[0], a[1], a[2], XOR3);
        c = _mm512_ternarylogic_epi64(c, a[3], a[4], XOR3);
        __m512i cp = _mm512_permutexvar_epi64(prev, c);
        __m512i cn = _mm512_rol_epi64(_mm512_permutexvar_epi64(next, c), 1);
        __m512i b[5];
        UNROLL5
        for (int y = 0; y < 5; y++) b[y] = _mm512_rolv_epi64(_mm512_ternarylogic_epi64(a[y], cp, cn, XOR3), rho[y]);
        UNROLL5
        for (int y = 0; y < 5; y++) {
            __m512i t = _mm512_permutex2var_epi64(b[0], pi01[y], b[1]);
            __m512i u = _mm512_permutex2var_epi64(b[2], pi23[y], b[3]);
            t = _mm512_mask_blend_epi64(0x0C, t, u);
            t = _mm512_mask_permutexvar_epi64(t, 0x10, pi4[y], b[4]);
            a[y] = _mm512_ternarylogic_epi64(t, _mm512_permutexvar_epi64(next, t), _mm512_permutexvar_epi64(next2, t),
                                             CHI);
        }
        a[0] = _mm512_mask_xor_epi64(a[0], 1, a[0], _mm512_set1_epi64((long long)kiln_keccak_rc(r)));
    }
}

void kiln_keccak_f1600_zmm(uint64_t s[KILN_KECCAK_LANES])
{
    planes st;
    load_planes(&st, s);
    permute(&st);
    store_planes(&st, s);
}

void kiln_keccak_absorb_zmm(uint64_t s[KILN_KECCAK_LANES], const uint8_t *blocks, size_t n, unsigned rate)
{
    planes st;
    __mmask8 m[5];
    unsigned lanes = rate / 8;
    for (unsigned y = 0; y < 5; y++) {
        unsigned lo = 5 * y, k = lanes > lo ? lanes - lo : 0;
        m[y] = (__mmask8)(k >= 5 ? PLANE_MASK : (1u << k) - 1);
    }
    load_planes(&st, s);
    for (size_t i = 0; i < n; i++, blocks += rate) {
        for (int y = 0; y < 5; y++)
            if (m[y]) st.p[y] = _mm512_xor_si512(st.p[y], _mm512_maskz_loadu_epi64(m[y], blocks + 40 * y));
        permute(&st);
    }
    store_planes(&st, s);
}
