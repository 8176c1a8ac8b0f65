/* BLAKE2s lane kernel for AVX2: eight messages per vector (blake2s_lanes.h). Rotations by 16 and
 * 8 bits are one byte shuffle, by 12 and 7 two shifts and an OR. */
#include <immintrin.h>
#include <stdint.h>

#include "lanes_load32.h"

#define LANES 8
#define LANES_FN kiln_blake2s_lanes_avx2
typedef __m256i vec;

#define C(x) _mm256_set1_epi32((int)(x))
#define ADD(a, b) _mm256_add_epi32((a), (b))
#define XOR(a, b) _mm256_xor_si256((a), (b))
#define RORS(x, n) _mm256_or_si256(_mm256_srli_epi32((x), (n)), _mm256_slli_epi32((x), 32 - (n)))
#define ROR16(x)                                                                                                  \
    _mm256_shuffle_epi8((x), _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, \
                                              7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13))
#define ROR8(x)                                                                                                   \
    _mm256_shuffle_epi8((x), _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, \
                                              6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12))
#define ROR12(x) RORS((x), 12)
#define ROR7(x) RORS((x), 7)
#define STORE(dst, v) _mm256_storeu_si256((__m256i *)(dst), (v))

static inline void load_block(vec w[16], const uint8_t *const p[8])
{
    kiln_lanes_load8x8_le32(w, p, 0);
    kiln_lanes_load8x8_le32(w + 8, p, 32);
}

#include "blake2s_lanes.h"
