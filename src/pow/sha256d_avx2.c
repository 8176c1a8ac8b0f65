/* sha256d lane kernel for AVX2: 8 nonces per vector (sha256d_lanes.h). AVX2 has no rotate and no
 * three-input logic, so a rotation is two shifts and an OR, and Maj reuses the previous round's
 * a ^ b (MAJ_FROM_BC). */
#include <immintrin.h>

#define LANES 8
#define LANES_FN kiln_sha256d_lanes_avx2
typedef __m256i vec;
typedef unsigned lane_mask;

#define C(x) _mm256_set1_epi32((int)(x))
#define ADD(a, b) _mm256_add_epi32((a), (b))
#define XOR(a, b) _mm256_xor_si256((a), (b))
#define AND(a, b) _mm256_and_si256((a), (b))
#define SHR(x, n) _mm256_srli_epi32((x), (n))
#define SHL(x, n) _mm256_slli_epi32((x), (n))
#define ROR(x, n) _mm256_or_si256(SHR((x), (n)), SHL((x), 32 - (n)))
#define XOR3(a, b, c) XOR(XOR((a), (b)), (c))
#define CH(e, f, g) XOR((g), AND((e), XOR((f), (g))))
#define MAJ_FROM_BC 1

#define LANE_INDEX _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define BSWAP_BYTES                                                                                                  \
    _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, \
                     14, 13, 12)
#define SHUFFLE8(x, m) _mm256_shuffle_epi8((x), (m))

/* unsigned a <= b, as min(a, b) == a */
static inline lane_mask LE_MASK(vec a, vec b)
{
    return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_min_epu32(a, b), a)));
}

#include "sha256d_lanes.h"
