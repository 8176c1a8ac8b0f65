/* SHA-512 lane kernel for AVX-512: eight messages per vector (sha512_lanes.h). A rotation is one
 * instruction and every three-input function (the sigmas' XOR, Ch, Maj) one vpternlogq, about
 * half the operations of the AVX2 round for twice the lanes. */
#include <immintrin.h>
#include <stdint.h>

#define LANES 8
#define LANES_FN kiln_sha512_lanes_avx512
typedef __m512i vec;

#define C(x) _mm512_set1_epi64((long long)(x))
#define ADD(a, b) _mm512_add_epi64((a), (b))
#define XOR(a, b) _mm512_xor_si512((a), (b))
#define SHR(x, n) _mm512_srli_epi64((x), (n))
#define ROR(x, n) _mm512_ror_epi64((x), (n))
/* vpternlogq's immediate is the truth table of (a, b, c) read as bits 7..0 for abc = 111..000 */
#define XOR3(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0x96)
#define CH(e, f, g) _mm512_ternarylogic_epi64((e), (f), (g), 0xca)
#define MAJ(a, b, c) _mm512_ternarylogic_epi64((a), (b), (c), 0xe8)
#define STORE(dst, v) _mm512_storeu_si512((void *)(dst), (v))

/* Eight words of each lane per step: an 8 x 8 transpose of 64-bit words (pairs, then 128-bit
 * chunks, then 256-bit halves), then byte-reversed within each word. */
static inline void load_block(vec w[16], const uint8_t *const p[8])
{
    const vec bswap = _mm512_set_epi64(0x08090a0b0c0d0e0fll, 0x0001020304050607ll, 0x08090a0b0c0d0e0fll,
                                       0x0001020304050607ll, 0x08090a0b0c0d0e0fll, 0x0001020304050607ll,
                                       0x08090a0b0c0d0e0fll, 0x0001020304050607ll);
    for (int j = 0; j < 16; j += 8) {
        vec r[8], t[8], u[8];
        for (int k = 0; k < 8; k++) r[k] = _mm512_loadu_si512((const void *)(p[k] + 8 * j));
        for (int k = 0; k < 8; k += 2) {
            t[k] = _mm512_unpacklo_epi64(r[k], r[k + 1]); /* words 0 2 4 6 of lanes k, k + 1 */
            t[k + 1] = _mm512_unpackhi_epi64(r[k], r[k + 1]); /* words 1 3 5 7 */
        }
        for (int k = 0; k < 8; k += 4)
            for (int m = 0; m < 2; m++) {
                /* lanes k..k+3: words 0 4 (m = 0) or 1 5, then 2 6 or 3 7 */
                u[k + m] = _mm512_shuffle_i64x2(t[k + m], t[k + m + 2], 0x88);
                u[k + m + 2] = _mm512_shuffle_i64x2(t[k + m], t[k + m + 2], 0xdd);
            }
        /* u[0] u[1] u[2] u[3]: words (0, 4) (1, 5) (2, 6) (3, 7) of lanes 0..3; u[4..7] of 4..7 */
        for (int m = 0; m < 4; m++) {
            w[j + m] = _mm512_shuffle_epi8(_mm512_shuffle_i64x2(u[m], u[m + 4], 0x88), bswap);
            w[j + m + 4] = _mm512_shuffle_epi8(_mm512_shuffle_i64x2(u[m], u[m + 4], 0xdd), bswap);
        }
    }
}

#include "sha512_lanes.h"
