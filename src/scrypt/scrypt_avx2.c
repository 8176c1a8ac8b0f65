/* Litecoin scrypt, 8 nonces per AVX2 vector (rotates are two shifts and an or). */
#include <immintrin.h>

#include "lane_interleave.h"

#define LANES 8
#define LANES_FN kiln_scrypt_lanes_avx2
typedef __m256i vec;

#define v_set1(x) _mm256_set1_epi32((int)(x))
#define v_add(a, b) _mm256_add_epi32((a), (b))
#define v_xor(a, b) _mm256_xor_si256((a), (b))
#define v_shr(x, n) _mm256_srli_epi32((x), (n))
#define v_load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define v_store(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))

static inline vec v_rol(vec x, int n) { return _mm256_or_si256(_mm256_slli_epi32(x, n), _mm256_srli_epi32(x, 32 - n)); }
static inline vec v_xor3(vec a, vec b, vec c) { return _mm256_xor_si256(_mm256_xor_si256(a, b), c); }
static inline vec v_ch(vec e, vec f, vec g) { return _mm256_xor_si256(g, _mm256_and_si256(e, _mm256_xor_si256(f, g))); }
static inline vec v_maj(vec a, vec b, vec c)
{
    return _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, _mm256_or_si256(a, b)));
}
static inline int v_le_mask(vec a, vec b)
{
    return _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_min_epu32(a, b), a)));
}
static inline vec v_bswap(vec x)
{
    const vec m = _mm256_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4,
                                  5, 6, 7, 0, 1, 2, 3);
    return _mm256_shuffle_epi8(x, m);
}

/* 8x8 transpose of 32-bit words */
static inline void v_transpose(vec m[8])
{
    vec t[8], u[8];
    KILN_LANE_INTERLEAVE(_mm256, 8, m, t, u);
    for (int e = 0; e < 4; e++) {
        m[e] = _mm256_permute2x128_si256(u[e], u[4 + e], 0x20);
        m[4 + e] = _mm256_permute2x128_si256(u[e], u[4 + e], 0x31);
    }
}

#include "scrypt_lanes.h"
