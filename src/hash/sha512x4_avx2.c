/* SHA-512 lane kernel for AVX2: four messages per vector (sha512_lanes.h). AVX2 has no 64-bit
 * rotate and no three-input logic: a rotation is two shifts and an OR, except by 8 bits, which
 * is one byte shuffle, and Maj reuses the previous round's a ^ b (MAJ_FROM_BC). */
#include <immintrin.h>
#include <stdint.h>

#define LANES 4
#define LANES_FN kiln_sha512_lanes_avx2
typedef __m256i vec;

#define C(x) _mm256_set1_epi64x((long long)(x))
#define ADD(a, b) _mm256_add_epi64((a), (b))
#define XOR(a, b) _mm256_xor_si256((a), (b))
#define AND(a, b) _mm256_and_si256((a), (b))
#define SHR(x, n) _mm256_srli_epi64((x), (n))
#define ROR(x, n) ((n) == 8 ? ror8(x) : _mm256_or_si256(_mm256_srli_epi64((x), (n)), _mm256_slli_epi64((x), 64 - (n))))
#define XOR3(a, b, c) XOR(XOR((a), (b)), (c))
#define CH(e, f, g) XOR((g), AND((e), XOR((f), (g))))
#define MAJ_FROM_BC 1
#define STORE(dst, v) _mm256_storeu_si256((__m256i *)(dst), (v))

static inline vec ror8(vec x)
{
    const vec rot = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9,
                                     10, 11, 12, 13, 14, 15, 8);
    return _mm256_shuffle_epi8(x, rot);
}

/* Four words of each lane per step, transposed so that vector j holds word j of every lane, then
 * byte-reversed within each word (the message is big-endian). */
static inline void load_block(vec w[16], const uint8_t *const p[4])
{
    const vec bswap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15,
                                       14, 13, 12, 11, 10, 9, 8);
    for (int j = 0; j < 16; j += 4) {
        vec r0 = _mm256_loadu_si256((const __m256i *)(p[0] + 8 * j));
        vec r1 = _mm256_loadu_si256((const __m256i *)(p[1] + 8 * j));
        vec r2 = _mm256_loadu_si256((const __m256i *)(p[2] + 8 * j));
        vec r3 = _mm256_loadu_si256((const __m256i *)(p[3] + 8 * j));
        vec t0 = _mm256_unpacklo_epi64(r0, r1); /* r0[0] r1[0] r0[2] r1[2] */
        vec t1 = _mm256_unpackhi_epi64(r0, r1); /* r0[1] r1[1] r0[3] r1[3] */
        vec t2 = _mm256_unpacklo_epi64(r2, r3);
        vec t3 = _mm256_unpackhi_epi64(r2, r3);
        w[j + 0] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t0, t2, 0x20), bswap);
        w[j + 1] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t1, t3, 0x20), bswap);
        w[j + 2] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t0, t2, 0x31), bswap);
        w[j + 3] = _mm256_shuffle_epi8(_mm256_permute2x128_si256(t1, t3, 0x31), bswap);
    }
}

#include "sha512_lanes.h"
