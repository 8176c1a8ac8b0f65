/* BLAKE2b lane kernel for AVX2: four messages per vector (blake2b_lanes.h). Rotations by 32, 24
 * and 16 bits are one shuffle; by 63, a shift, an add (x + x is x << 1) and an OR. */
#include <immintrin.h>
#include <stdint.h>

#define LANES 4
#define LANES_FN kiln_blake2b_lanes_avx2
typedef __m256i vec;

#define C(x) _mm256_set1_epi64x((long long)(x))
#define ADD(a, b) _mm256_add_epi64((a), (b))
#define XOR(a, b) _mm256_xor_si256((a), (b))
#define ROR32(x) _mm256_shuffle_epi32((x), 0xb1)
#define ROR24(x)                                                                                                  \
    _mm256_shuffle_epi8((x), _mm256_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10, 3, 4, 5, 6, 7, \
                                              0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10))
#define ROR16(x)                                                                                                  \
    _mm256_shuffle_epi8((x), _mm256_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4, 5, 6, \
                                              7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9))
#define ROR63(x) _mm256_or_si256(_mm256_srli_epi64((x), 63), _mm256_add_epi64((x), (x)))
#define STORE(dst, v) _mm256_storeu_si256((__m256i *)(dst), (v))

/* Four words of each lane per step, transposed so that vector j holds word j of every lane (the
 * words are little-endian, as x86's are: no byte swap). */
static inline void load_block(vec w[16], const uint8_t *const p[4])
{
    for (int j = 0; j < 16; j += 4) {
        vec r0 = _mm256_loadu_si256((const __m256i *)(p[0] + 8 * j));
        vec r1 = _mm256_loadu_si256((const __m256i *)(p[1] + 8 * j));
        vec r2 = _mm256_loadu_si256((const __m256i *)(p[2] + 8 * j));
        vec r3 = _mm256_loadu_si256((const __m256i *)(p[3] + 8 * j));
        vec t0 = _mm256_unpacklo_epi64(r0, r1); /* r0[0] r1[0] r0[2] r1[2] */
        vec t1 = _mm256_unpackhi_epi64(r0, r1); /* r0[1] r1[1] r0[3] r1[3] */
        vec t2 = _mm256_unpacklo_epi64(r2, r3);
        vec t3 = _mm256_unpackhi_epi64(r2, r3);
        w[j + 0] = _mm256_permute2x128_si256(t0, t2, 0x20);
        w[j + 1] = _mm256_permute2x128_si256(t1, t3, 0x20);
        w[j + 2] = _mm256_permute2x128_si256(t0, t2, 0x31);
        w[j + 3] = _mm256_permute2x128_si256(t1, t3, 0x31);
    }
}

#include "blake2b_lanes.h"
