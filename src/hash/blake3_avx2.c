/* BLAKE3's many-inputs kernel in 8 lanes of AVX2 (blake3_lanes.h): each half of a block of 8
 * inputs loaded as 8 vectors and transposed so that vector w holds word w of every input. */
#include <immintrin.h>

#define V __m256i
#define LANES 8
#define VADD(a, b) _mm256_add_epi32(a, b)
#define VXOR(a, b) _mm256_xor_si256(a, b)
#define VSET1(x) _mm256_set1_epi32((int)(x))
/* rotations by whole bytes are one byte shuffle; the others two shifts and an or */
#define VROR16(x)                                                                                                      \
    _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, \
                                            5, 10, 11, 8, 9, 14, 15, 12, 13))
#define VROR8(x)                                                                                                       \
    _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, \
                                            4, 9, 10, 11, 8, 13, 14, 15, 12))
#define VROR12(x) _mm256_or_si256(_mm256_srli_epi32(x, 12), _mm256_slli_epi32(x, 20))
#define VROR7(x) _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25))

#include "blake3_host.h"

/* r[i] element j to r[j] element i, as transpose16 does (blake3_avx512.c) with two 128-bit lanes. */
static inline __attribute__((always_inline)) void transpose8(__m256i r[8])
{
    __m256i t[8];
    for (int g = 0; g < 2; g++) {
        __m256i a0 = _mm256_unpacklo_epi32(r[4 * g], r[4 * g + 1]), a1 = _mm256_unpackhi_epi32(r[4 * g], r[4 * g + 1]);
        __m256i a2 = _mm256_unpacklo_epi32(r[4 * g + 2], r[4 * g + 3]);
        __m256i a3 = _mm256_unpackhi_epi32(r[4 * g + 2], r[4 * g + 3]);
        t[4 * g + 0] = _mm256_unpacklo_epi64(a0, a2);
        t[4 * g + 1] = _mm256_unpackhi_epi64(a0, a2);
        t[4 * g + 2] = _mm256_unpacklo_epi64(a1, a3);
        t[4 * g + 3] = _mm256_unpackhi_epi64(a1, a3);
    }
    for (int k = 0; k < 4; k++) {
        r[k] = _mm256_permute2x128_si256(t[k], t[4 + k], 0x20);
        r[4 + k] = _mm256_permute2x128_si256(t[k], t[4 + k], 0x31);
    }
}

static inline __attribute__((always_inline)) void load_message(const uint8_t *const p[8], size_t off, __m256i m[16])
{
    for (int k = 0; k < 8; k++) {
        m[k] = _mm256_loadu_si256((const __m256i *)(const void *)(p[k] + off));
        m[8 + k] = _mm256_loadu_si256((const __m256i *)(const void *)(p[k] + off + 32));
    }
    transpose8(m);
    transpose8(m + 8);
}

static inline __attribute__((always_inline)) void store_cvs(const __m256i cv[8], uint8_t *out)
{
    __m256i r[8];
    for (int i = 0; i < 8; i++) r[i] = cv[i];
    transpose8(r);
    for (int k = 0; k < 8; k++) _mm256_storeu_si256((__m256i *)(void *)(out + 32 * k), r[k]);
}

static inline __attribute__((always_inline)) void counters(uint64_t counter, int increment, __m256i *lo, __m256i *hi)
{
    __m256i base = _mm256_set1_epi32((int)(uint32_t)counter);
    __m256i step = increment ? _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7) : _mm256_setzero_si256();
    *lo = _mm256_add_epi32(base, step);
    /* the carry, an unsigned lo < base as a signed compare with the top bits flipped: -1 where set */
    __m256i sign = _mm256_set1_epi32((int)0x80000000u);
    __m256i carry = _mm256_cmpgt_epi32(_mm256_xor_si256(base, sign), _mm256_xor_si256(*lo, sign));
    *hi = _mm256_sub_epi32(_mm256_set1_epi32((int)(uint32_t)(counter >> 32)), carry);
}

#define KILN_BLAKE3_ROUND round_avx2
#define KILN_BLAKE3_GROUP group_avx2
#include "blake3_lanes.h"

void kiln_blake3_many_avx2(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len,
                           const uint32_t key[8], uint64_t counter, int increment, uint32_t flags, uint32_t flags_start,
                           uint32_t flags_end, uint8_t *out)
{
    for (size_t i = 0, g; i < n; i += g) { /* the last group may be short */
        g = n - i < LANES ? n - i : LANES;
        group_avx2(in + i * stride, stride, g, blocks, last_len, key, counter + (increment ? i : 0), increment, flags,
                   flags_start, flags_end, out + 32 * i);
    }
}
