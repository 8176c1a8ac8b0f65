/* MD5 lane kernel for AVX-512: sixteen messages per vector (md5_lanes.h). A rotation is one
 * vprold and each of F, G, H, I one vpternlogd, so a step is five operations for sixteen lanes. */
#include <immintrin.h>
#include <stdint.h>

#include "lanes_load32.h"

#define LANES 16
#define LANES_FN kiln_md5_lanes_avx512
typedef __m512i vec;

#define C(x) _mm512_set1_epi32((int)(x))
#define ADD(a, b) _mm512_add_epi32((a), (b))
#define ROL(x, n) _mm512_rol_epi32((x), (n))
/* vpternlogd's immediate is the truth table of (x, y, z) read as bits 7..0 for xyz = 111..000 */
#define LF(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0xca)
#define LG(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0xe4)
#define LH(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0x96)
#define LI(x, y, z) _mm512_ternarylogic_epi32((x), (y), (z), 0x39)
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

#include "md5_lanes.h"
