/* BLAKE2s lane kernel for AVX-512: sixteen messages per vector (blake2s_lanes.h); every rotation
 * is one vprord. */
#include <immintrin.h>
#include <stdint.h>

#include "lanes_load32.h"

#define LANES 16
#define LANES_FN kiln_blake2s_lanes_avx512
typedef __m512i vec;

#define C(x) _mm512_set1_epi32((int)(x))
#define ADD(a, b) _mm512_add_epi32((a), (b))
#define XOR(a, b) _mm512_xor_si512((a), (b))
#define ROR16(x) _mm512_ror_epi32((x), 16)
#define ROR12(x) _mm512_ror_epi32((x), 12)
#define ROR8(x) _mm512_ror_epi32((x), 8)
#define ROR7(x) _mm512_ror_epi32((x), 7)
#define STORE(dst, v) _mm512_storeu_si512((void *)(dst), (v))

/* lanes 0..7 and 8..15 transposed as AVX2's eight (lanes_load32.h), then joined */
static inline void load_block(vec w[16], const uint8_t *const p[16])
{
    __m256i lo[16], hi[16];
    kiln_lanes_load8x8_le32(lo, p, 0);
    kiln_lanes_load8x8_le32(lo + 8, p, 32);
    kiln_lanes_load8x8_le32(hi, p + 8, 0);
    kiln_lanes_load8x8_le32(hi + 8, p + 8, 32);
    for (int j = 0; j < 16; j++) w[j] = _mm512_inserti64x4(_mm512_castsi256_si512(lo[j]), hi[j], 1);
}

#include "blake2s_lanes.h"
