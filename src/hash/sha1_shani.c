/* Multi-block SHA-1 compression with the x86 SHA extensions.
 *
 * sha1rnds4 does four rounds on A..D held in one register (A in the high lane), with the round
 * group's function and constant as its immediate and W[t] + E in its second operand (W[t] in the
 * high lane, E added to it). E of a group is A of four rounds before rotated by 30: sha1nexte
 * makes it from the state saved before the previous group and adds it to the group's words. The
 * schedule is four words at a time: W[4i..4i+3] = sha1msg2(sha1msg1(W_{i-4}, W_{i-3}) ^ W_{i-2},
 * W_{i-1}), the words of the four groups before. */
#include <immintrin.h>

#include "sha1_host.h"

/* Four rounds with the four words w (function f: 0 Ch, 1 Parity, 2 Maj, 3 Parity). */
#define RNDS4(w, f)                                                                                                    \
    do {                                                                                                               \
        const __m128i ew_ = _mm_sha1nexte_epu32(prev, (w));                                                            \
        prev = abcd;                                                                                                   \
        abcd = _mm_sha1rnds4_epu32(abcd, ew_, (f));                                                                    \
    } while (0)

/* w0 <- the next four schedule words, from the previous sixteen held in w0 (oldest) .. w3. */
#define SCHED(w0, w1, w2, w3) w0 = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32((w0), (w1)), (w2)), (w3))

/* Groups i..i+3 (i a multiple of 4, from 4): each makes its words from the sixteen before and runs
 * its four rounds. */
#define GROUPS4(f0, f1, f2, f3)                                                                                        \
    SCHED(m0, m1, m2, m3);                                                                                             \
    RNDS4(m0, f0);                                                                                                     \
    SCHED(m1, m2, m3, m0);                                                                                             \
    RNDS4(m1, f1);                                                                                                     \
    SCHED(m2, m3, m0, m1);                                                                                             \
    RNDS4(m2, f2);                                                                                                     \
    SCHED(m3, m0, m1, m2);                                                                                             \
    RNDS4(m3, f3)

void kiln_sha1_blocks_shani(uint32_t *state, const uint8_t *blocks, size_t n)
{
    /* big-endian words with W[0] in the high lane: reverse all sixteen bytes */
    const __m128i rev = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1b); /* A in the high lane */
    __m128i e0 = _mm_set_epi32((int)state[4], 0, 0, 0);

    for (size_t b = 0; b < n; b++) {
        const uint8_t *blk = blocks + 64 * b;
        const __m128i save_abcd = abcd, save_e = e0;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 0)), rev);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 16)), rev);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 32)), rev);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blk + 48)), rev);
        /* group 0: E is the block's own */
        __m128i prev = abcd;
        abcd = _mm_sha1rnds4_epu32(abcd, _mm_add_epi32(e0, m0), 0);
        RNDS4(m1, 0);
        RNDS4(m2, 0);
        RNDS4(m3, 0);
        GROUPS4(0, 1, 1, 1); /* rounds 16..31 */
        GROUPS4(1, 1, 2, 2); /* 32..47 */
        GROUPS4(2, 2, 2, 3); /* 48..63 */
        GROUPS4(3, 3, 3, 3); /* 64..79 */
        /* E after round 79 is A before round 76 rotated by 30, added to the saved E */
        e0 = _mm_sha1nexte_epu32(prev, save_e);
        abcd = _mm_add_epi32(abcd, save_abcd);
    }

    _mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1b));
    state[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}
