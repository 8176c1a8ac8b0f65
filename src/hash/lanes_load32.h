/* Little-endian 32-bit message words of eight lanes into eight AVX2 vectors, word j of every lane
 * in vector j: the load of MD5's and BLAKE2s's lane kernels (md5_lanes.h, blake2s_lanes.h). Only
 * for files compiled with -mavx2 (the *_avx2.c and *_avx512.c instantiations). */
#ifndef KILN_HASH_LANES_LOAD32_H
#define KILN_HASH_LANES_LOAD32_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

/* Words 0..7 at p[k] + off, transposed: 32-bit pairs, then 64-bit pairs, then 128-bit halves.
 * x86 is little-endian, so the words need no byte swap. */
static inline void kiln_lanes_load8x8_le32(__m256i w[8], const uint8_t *const p[8], size_t off)
{
    __m256i r[8], t[8], u[8];
    for (int k = 0; k < 8; k++) r[k] = _mm256_loadu_si256((const __m256i *)(p[k] + off));
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_epi32(r[k], r[k + 1]); /* words 0 1 | 4 5 of lanes k, k + 1 interleaved */
        t[k + 1] = _mm256_unpackhi_epi32(r[k], r[k + 1]); /* words 2 3 | 6 7 */
    }
    for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]); /* word 0 | 4 of lanes k..k+3 */
        u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]); /* word 1 | 5 */
        u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]); /* word 2 | 6 */
        u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]); /* word 3 | 7 */
    }
    for (int m = 0; m < 4; m++) {
        w[m] = _mm256_permute2x128_si256(u[m], u[m + 4], 0x20);
        w[m + 4] = _mm256_permute2x128_si256(u[m], u[m + 4], 0x31);
    }
}

#endif
