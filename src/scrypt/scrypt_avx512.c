/* Litecoin scrypt, 16 nonces per AVX-512 vector: native rotates (vprold) and three-input logic
 * (vpternlogd) make a Salsa20 step three instructions. */
#include <immintrin.h>

#include "lane_interleave.h"

#define LANES 16
#define LANES_FN kiln_scrypt_lanes_avx512
typedef __m512i vec;

#define v_set1(x) _mm512_set1_epi32((int)(x))
#define v_add(a, b) _mm512_add_epi32((a), (b))
#define v_xor(a, b) _mm512_xor_si512((a), (b))
#define v_rol(x, n) _mm512_rol_epi32((x), (n))
#define v_shr(x, n) _mm512_srli_epi32((x), (n))
#define v_xor3(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x96)
#define v_ch(e, f, g) _mm512_ternarylogic_epi32((e), (f), (g), 0xca)
#define v_maj(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0xe8)
#define v_load(p) _mm512_loadu_si512((const void *)(p))
#define v_store(p, v) _mm512_storeu_si512((void *)(p), (v))
#define v_le_mask(a, b) _mm512_cmple_epu32_mask((a), (b))

static inline vec v_bswap(vec x)
{
    const vec m = _mm512_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4,
                                  5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14,
                                  15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3);
    return _mm512_shuffle_epi8(x, m);
}

/* 16x16 transpose of 32-bit words: dword and qword interleaves within 128-bit blocks, then two
 * rounds of 128-bit block shuffles. */
static inline void v_transpose(vec m[16])
{
    vec t[16], u[16];
    KILN_LANE_INTERLEAVE(_mm512, 16, m, t, u);
    /* u[4g + e] block q holds rows 4g..4g+3 of column 4q + e */
    for (int e = 0; e < 4; e++) {
        vec v0 = _mm512_shuffle_i32x4(u[e], u[4 + e], 0x44), v1 = _mm512_shuffle_i32x4(u[e], u[4 + e], 0xee);
        vec v2 = _mm512_shuffle_i32x4(u[8 + e], u[12 + e], 0x44), v3 = _mm512_shuffle_i32x4(u[8 + e], u[12 + e], 0xee);
        m[e] = _mm512_shuffle_i32x4(v0, v2, 0x88);
        m[4 + e] = _mm512_shuffle_i32x4(v0, v2, 0xdd);
        m[8 + e] = _mm512_shuffle_i32x4(v1, v3, 0x88);
        m[12 + e] = _mm512_shuffle_i32x4(v1, v3, 0xdd);
    }
}

#include "scrypt_lanes.h"
