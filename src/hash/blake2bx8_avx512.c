/* BLAKE2b lane kernel for AVX-512: eight messages per vector (blake2b_lanes.h); every rotation is
 * one vprorq. */
#include <immintrin.h>
#include <stdint.h>

#define LANES 8
#define LANES_FN kiln_blake2b_lanes_avx512
typedef __m512i vec;

#define C(x) _mm512_set1_epi64((long long)(x))
#define ADD(a, b) _mm512_add_epi64((a), (b))
#define XOR(a, b) _mm512_xor_si512((a), (b))
#define ROR32(x) _mm512_ror_epi64((x), 32)
#define ROR24(x) _mm512_ror_epi64((x), 24)
#define ROR16(x) _mm512_ror_epi64((x), 16)
#define ROR63(x) _mm512_ror_epi64((x), 63)
#define STORE(dst, v) _mm512_storeu_si512((void *)(dst), (v))

/* Eight words of each lane per step: an 8 x 8 transpose of 64-bit words (pairs, then 128-bit
 * chunks, then 256-bit halves), as sha512x8_avx512.c's load without its byte swap. */
static inline void load_block(vec w[16], const uint8_t *const p[8])
{
    for (int j = 0; j < 16; j += 8) {
        vec r[8], t[8], u[8];
        for (int k = 0; k < 8; k++) r[k] = _mm512_loadu_si512((const void *)(p[k] + 8 * j));
        for (int k = 0; k < 8; k += 2) {
            t[k] = _mm512_unpacklo_epi64(r[k], r[k + 1]); /* words 0 2 4 6 of lanes k, k + 1 */
            t[k + 1] = _mm512_unpackhi_epi64(r[k], r[k + 1]); /* words 1 3 5 7 */
        }
        for (int k = 0; k < 8; k += 4)
            for (int m = 0; m < 2; m++) {
                u[k + m] = _mm512_shuffle_i64x2(t[k + m], t[k + m + 2], 0x88);
                u[k + m + 2] = _mm512_shuffle_i64x2(t[k + m], t[k + m + 2], 0xdd);
            }
        for (int m = 0; m < 4; m++) {
            w[j + m] = _mm512_shuffle_i64x2(u[m], u[m + 4], 0x88);
            w[j + m + 4] = _mm512_shuffle_i64x2(u[m], u[m + 4], 0xdd);
        }
    }
}

#include "blake2b_lanes.h"
