/* sha256d lane kernel for AVX-512 (F, VL, BW): 16 nonces per vector (sha256d_lanes.h). Rotations
 * are single vprord; Ch, Maj and the three-way XORs are single vpternlogd. */
#include <immintrin.h>

#define LANES 16
#define LANES_FN kiln_sha256d_lanes_avx512
typedef __m512i vec;
typedef __mmask16 lane_mask;

#define C(x) _mm512_set1_epi32((int)(x))
#define ADD(a, b) _mm512_add_epi32((a), (b))
#define ROR(x, n) _mm512_ror_epi32((x), (n))
#define SHR(x, n) _mm512_srli_epi32((x), (n))
#define XOR3(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0x96)
#define CH(e, f, g) _mm512_ternarylogic_epi32((e), (f), (g), 0xca) /* e ? f : g */
#define MAJ(a, b, c) _mm512_ternarylogic_epi32((a), (b), (c), 0xe8)

#define LANE_INDEX _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
/* vpshufb works within 128-bit lanes: the same byte-reversing pattern four times */
#define BSWAP_BYTES _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12))
#define SHUFFLE8(x, m) _mm512_shuffle_epi8((x), (m))
#define LE_MASK(a, b) _mm512_cmple_epu32_mask((a), (b))

#include "sha256d_lanes.h"
