/* BLAKE3's many-inputs kernel in 16 lanes of AVX-512 (blake3_lanes.h): a block of each of 16
 * inputs loaded as 16 vectors and transposed so that vector w holds word w of every input. */
#include <immintrin.h>

#define V __m512i
#define LANES 16
#define VADD(a, b) _mm512_add_epi32(a, b)
#define VXOR(a, b) _mm512_xor_si512(a, b)
#define VSET1(x) _mm512_set1_epi32((int)(x))
#define VROR16(x) _mm512_ror_epi32(x, 16)
#define VROR12(x) _mm512_ror_epi32(x, 12)
#define VROR8(x) _mm512_ror_epi32(x, 8)
#define VROR7(x) _mm512_ror_epi32(x, 7)

#include "blake3_host.h"

/* r[i] element j to r[j] element i: 32-bit pairs, then 64-bit pairs within 128-bit lanes, which
 * leaves 128-bit lane j of the vector for word k of four rows holding word 4j + k; then two
 * rounds of 128-bit lane shuffles gather the four rows' groups. */
static inline __attribute__((always_inline)) void transpose16(__m512i r[16])
{
    __m512i t[16], u[16];
    for (int g = 0; g < 4; g++) {
        __m512i a0 = _mm512_unpacklo_epi32(r[4 * g], r[4 * g + 1]), a1 = _mm512_unpackhi_epi32(r[4 * g], r[4 * g + 1]);
        __m512i a2 = _mm512_unpacklo_epi32(r[4 * g + 2], r[4 * g + 3]);
        __m512i a3 = _mm512_unpackhi_epi32(r[4 * g + 2], r[4 * g + 3]);
        t[4 * g + 0] = _mm512_unpacklo_epi64(a0, a2);
        t[4 * g + 1] = _mm512_unpackhi_epi64(a0, a2);
        t[4 * g + 2] = _mm512_unpacklo_epi64(a1, a3);
        t[4 * g + 3] = _mm512_unpackhi_epi64(a1, a3);
    }
    for (int k = 0; k < 4; k++) { /* t[4g + k]: lane j holds word 4j + k of rows 4g..4g+3 */
        __m512i a = _mm512_shuffle_i32x4(t[k], t[4 + k], 0x44), b = _mm512_shuffle_i32x4(t[k], t[4 + k], 0xee);
        __m512i c = _mm512_shuffle_i32x4(t[8 + k], t[12 + k], 0x44),
                d = _mm512_shuffle_i32x4(t[8 + k], t[12 + k], 0xee);
        u[k] = _mm512_shuffle_i32x4(a, c, 0x88);
        u[4 + k] = _mm512_shuffle_i32x4(a, c, 0xdd);
        u[8 + k] = _mm512_shuffle_i32x4(b, d, 0x88);
        u[12 + k] = _mm512_shuffle_i32x4(b, d, 0xdd);
    }
    for (int i = 0; i < 16; i++) r[i] = u[i];
}

static inline __attribute__((always_inline)) void load_message(const uint8_t *const p[16], size_t off, __m512i m[16])
{
    for (int k = 0; k < 16; k++) m[k] = _mm512_loadu_si512((const void *)(p[k] + off));
    transpose16(m);
}

static inline __attribute__((always_inline)) void store_cvs(const __m512i cv[8], uint8_t *out)
{
    __m512i r[16];
    for (int i = 0; i < 8; i++) r[i] = cv[i];
    for (int i = 8; i < 16; i++) r[i] = _mm512_setzero_si512();
    transpose16(r);
    for (int k = 0; k < 16; k++) _mm256_storeu_si256((__m256i *)(void *)(out + 32 * k), _mm512_castsi512_si256(r[k]));
}

static inline __attribute__((always_inline)) void counters(uint64_t counter, int increment, __m512i *lo, __m512i *hi)
{
    __m512i base = _mm512_set1_epi32((int)(uint32_t)counter);
    __m512i step =
        increment ? _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) : _mm512_setzero_si512();
    *lo = _mm512_add_epi32(base, step);
    __m512i h = _mm512_set1_epi32((int)(uint32_t)(counter >> 32));
    *hi = _mm512_mask_add_epi32(h, _mm512_cmplt_epu32_mask(*lo, base), h, _mm512_set1_epi32(1)); /* the carry */
}

#define KILN_BLAKE3_ROUND round_avx512
#define KILN_BLAKE3_GROUP group_avx512
#include "blake3_lanes.h"

void kiln_blake3_many_avx512(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len,
                             const uint32_t key[8], uint64_t counter, int increment, uint32_t flags,
                             uint32_t flags_start, uint32_t flags_end, uint8_t *out)
{
    size_t i = 0;
    while (n - i > 8) { /* the last group may be short; 8 or fewer left: a group of AVX2 */
        size_t g = n - i < LANES ? n - i : LANES;
        group_avx512(in + i * stride, stride, g, blocks, last_len, key, counter + (increment ? i : 0), increment, flags,
                     flags_start, flags_end, out + 32 * i);
        i += g;
    }
    if (i < n)
        kiln_blake3_many_avx2(in + i * stride, stride, n - i, blocks, last_len, key, counter + (increment ? i : 0),
                              increment, flags, flags_start, flags_end, out + 32 * i);
}
