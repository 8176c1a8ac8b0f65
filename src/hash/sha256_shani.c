/* Multi-block SHA-256 compression with the x86 SHA extensions.
 *
 * sha256rnds2 does two rounds on the state split as ABEF and CDGH (A in the high lane) with
 * K + W for the two rounds in the low lanes of its third operand; sha256msg1 / sha256msg2 compute
 * four schedule words at a time. The state is converted to that split once per call. */
#include <immintrin.h>

#include "../prim/sha256.h"
#include "sha256_host.h"

/* Four rounds 4i..4i+3 with message words m (W[4i] in the low lane). */
#define RNDS4(m, i)                                                                                    \
    do {                                                                                               \
        __m128i kw_ = _mm_add_epi32((m), _mm_loadu_si128((const __m128i *)&kiln_sha256_k_host[4 * (i)])); \
        st1 = _mm_sha256rnds2_epu32(st1, st0, kw_);                                                    \
        st0 = _mm_sha256rnds2_epu32(st0, st1, _mm_shuffle_epi32(kw_, 0x0e));                           \
    } while (0)

/* m0 <- the next four schedule words, from the previous sixteen held in m0 (oldest) .. m3. */
#define SCHED(m0, m1, m2, m3) \
    m0 = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32((m0), (m1)), _mm_alignr_epi8((m3), (m2), 4)), (m3))

#include "sha256_shani_groups.h"

void kiln_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    /* big-endian message words: reverse the bytes of each 32-bit lane */
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i abcd = _mm_loadu_si128((const __m128i *)&state[0]); /* lanes A B C D, A lowest */
    __m128i efgh = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i badc = _mm_shuffle_epi32(abcd, 0xb1);
    __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1b);
    __m128i st0 = _mm_alignr_epi8(badc, hgfe, 8); /* lanes F E B A: "ABEF" */
    __m128i st1 = _mm_blend_epi16(hgfe, badc, 0xf0); /* lanes H G D C: "CDGH" */

    for (size_t b = 0; b < n; b++) {
        const uint8_t *blk = blocks + 64 * b;
        __m128i save0 = st0, save1 = st1;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 0)), bswap);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 16)), bswap);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 32)), bswap);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 48)), bswap);
        RNDS4(m0, 0);
        RNDS4(m1, 1);
        RNDS4(m2, 2);
        RNDS4(m3, 3);
        GROUPS4(4);
        GROUPS4(8);
        GROUPS4(12);
        st0 = _mm_add_epi32(st0, save0);
        st1 = _mm_add_epi32(st1, save1);
    }

    __m128i abef = _mm_shuffle_epi32(st0, 0x1b); /* lanes A B E F */
    __m128i ghcd = _mm_shuffle_epi32(st1, 0xb1); /* lanes G H C D */
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(abef, ghcd, 0xf0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(ghcd, abef, 8));
}
