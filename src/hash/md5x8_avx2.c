/* MD5 lane kernel for AVX2: eight messages per vector (md5_lanes.h). AVX2 has no rotate and no
 * three-input logic: a rotation is two shifts and an OR, F and I two or three operations. */
#include <immintrin.h>
#include <stdint.h>

#include "lanes_load32.h"

#define LANES 8
#define LANES_FN kiln_md5_lanes_avx2
typedef __m256i vec;

#define C(x) _mm256_set1_epi32((int)(x))
#define ADD(a, b) _mm256_add_epi32((a), (b))
#define XOR(a, b) _mm256_xor_si256((a), (b))
#define AND(a, b) _mm256_and_si256((a), (b))
#define ROL(x, n) _mm256_or_si256(_mm256_slli_epi32((x), (n)), _mm256_srli_epi32((x), 32 - (n)))
#define LF(x, y, z) XOR((z), AND((x), XOR((y), (z))))
/* (x & z) | (y & ~z): the same select as F, with z choosing */
#define LG(x, y, z) XOR((y), AND((z), XOR((x), (y))))
#define LH(x, y, z) XOR(XOR((x), (y)), (z))
#define LI(x, y, z) XOR((y), _mm256_or_si256((x), XOR((z), C(0xffffffffu))))
#define STORE(dst, v) _mm256_storeu_si256((__m256i *)(dst), (v))

static inline void load_block(vec w[16], const uint8_t *const p[8])
{
    kiln_lanes_load8x8_le32(w, p, 0);
    kiln_lanes_load8x8_le32(w + 8, p, 32);
}

#include "md5_lanes.h"
