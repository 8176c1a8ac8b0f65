/* sha256d lane kernel with the x86 SHA extensions: two nonces interleaved.
 *
 * sha256rnds2 does two rounds and has a latency of several cycles, so one nonce's chain of 62 of
 * them would leave the unit idle; two independent nonces fill it. The state is held split as ABEF
 * and CDGH (A in the high lane), K + W in the low lanes of the third operand. Per job: rounds 0
 * and 1 of the header's second block (only W0 and W1, both constant), and K + W of its constant
 * padding groups (W4..W15) and of the second hash's (W8..W15). The second hash stops after rounds
 * 60 and 61: digest word 7 is h after round 63 = e after round 60 + IV7 = the F lane after 61. */
#include <immintrin.h>

#include "sha256d_simd.h"

#define NX 2 /* nonces in flight */

typedef struct pre {
    __m128i abef2, cdgh2; /* state after rounds 0..1 of the header's second block */
    __m128i m0; /* W0 W1 W2 0: the nonce word goes in the top lane */
    __m128i m1, m2, m3; /* W4..W15: 0x80000000, zeros, 640 */
    __m128i kw1, kw2, kw3; /* K + W of those, groups 1..3 */
    __m128i mid_abef, mid_cdgh; /* midstate, added after round 63 */
    __m128i iv_abef, iv_cdgh;
    __m128i pad2, len2, kw2_2, kw2_3; /* second hash: W8..W11, W12..W15 and their K + W */
} pre;

static __m128i k4(int i) { return _mm_loadu_si128((const __m128i *)&kiln_sha256_k_host[4 * i]); }

/* State words a..h as the ABEF / CDGH pair. */
static void split(const uint32_t s[8], __m128i *abef, __m128i *cdgh)
{
    *abef = _mm_setr_epi32((int)s[5], (int)s[4], (int)s[1], (int)s[0]);
    *cdgh = _mm_setr_epi32((int)s[7], (int)s[6], (int)s[3], (int)s[2]);
}

static void precompute(const kiln_sha256d_job *job, pre *p)
{
    uint32_t s[8];
    for (int i = 0; i < 8; i++) s[i] = job->midstate[i];
    split(s, &p->mid_abef, &p->mid_cdgh);
    KILN_SHA256_ROUND(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], kiln_sha256_kt(0) + job->tail[0]);
    KILN_SHA256_ROUND(s[7], s[0], s[1], s[2], s[3], s[4], s[5], s[6], kiln_sha256_kt(1) + job->tail[1]);
    /* after two renamed rounds, a is s[6], b is s[7], c is s[0], ... */
    uint32_t r[8] = {s[6], s[7], s[0], s[1], s[2], s[3], s[4], s[5]};
    split(r, &p->abef2, &p->cdgh2);
    p->m0 = _mm_setr_epi32((int)job->tail[0], (int)job->tail[1], (int)job->tail[2], 0);
    p->m1 = _mm_setr_epi32((int)0x80000000u, 0, 0, 0);
    p->m2 = _mm_setzero_si128();
    p->m3 = _mm_setr_epi32(0, 0, 0, 640);
    p->kw1 = _mm_add_epi32(p->m1, k4(1));
    p->kw2 = _mm_add_epi32(p->m2, k4(2));
    p->kw3 = _mm_add_epi32(p->m3, k4(3));
    uint32_t iv[8];
    kiln_sha256_iv(iv);
    split(iv, &p->iv_abef, &p->iv_cdgh);
    p->pad2 = _mm_setr_epi32((int)0x80000000u, 0, 0, 0);
    p->len2 = _mm_setr_epi32(0, 0, 0, 256);
    p->kw2_2 = _mm_add_epi32(p->pad2, k4(2));
    p->kw2_3 = _mm_add_epi32(p->len2, k4(3));
}

/* The loops over j run NX times and unroll: each line below is NX independent instructions. */
#define EACH for (int j = 0; j < NX; j++)

/* Four rounds 4i..4i+3 for every nonce given K + W. */
#define RNDS4_KW(kw)                                                            \
    EACH {                                                                      \
        st1[j] = _mm_sha256rnds2_epu32(st1[j], st0[j], (kw));                   \
        st0[j] = _mm_sha256rnds2_epu32(st0[j], st1[j], _mm_shuffle_epi32((kw), 0x0e)); \
    }
#define RNDS4(m, i)                                                             \
    EACH {                                                                      \
        __m128i kw_ = _mm_add_epi32((m)[j], k4(i));                             \
        st1[j] = _mm_sha256rnds2_epu32(st1[j], st0[j], kw_);                    \
        st0[j] = _mm_sha256rnds2_epu32(st0[j], st1[j], _mm_shuffle_epi32(kw_, 0x0e)); \
    }
#define SCHED(m0, m1, m2, m3)                                                                                   \
    EACH(m0)[j] = _mm_sha256msg2_epu32(                                                                         \
        _mm_add_epi32(_mm_sha256msg1_epu32((m0)[j], (m1)[j]), _mm_alignr_epi8((m3)[j], (m2)[j], 4)), (m3)[j])
#include "../hash/sha256_shani_groups.h"

/* Digest word 7 (before byte swapping) of sha256d for NX nonces. */
static inline void digest_word7(const pre *p, const uint32_t nonce[NX], uint32_t out[NX])
{
    __m128i st0[NX], st1[NX], m0[NX], m1[NX], m2[NX], m3[NX];

    /* first hash: rounds 2 and 3 (W2 and the nonce word), then the constant groups 1..3 */
    EACH {
        m0[j] = _mm_insert_epi32(p->m0, (int)kiln_bswap32(nonce[j]), 3);
        __m128i kw_ = _mm_shuffle_epi32(_mm_add_epi32(m0[j], k4(0)), 0x0e);
        st0[j] = _mm_sha256rnds2_epu32(p->cdgh2, p->abef2, kw_);
        st1[j] = p->abef2; /* CDGH after round 3 is ABEF after round 1 */
        m1[j] = p->m1;
        m2[j] = p->m2;
        m3[j] = p->m3;
    }
    RNDS4_KW(p->kw1);
    RNDS4_KW(p->kw2);
    RNDS4_KW(p->kw3);
    GROUPS4(4);
    GROUPS4(8);
    GROUPS4(12);

    /* second hash: the message is the first digest, then constant padding */
    EACH {
        __m128i abef = _mm_shuffle_epi32(_mm_add_epi32(st0[j], p->mid_abef), 0x1b); /* A B E F */
        __m128i ghcd = _mm_shuffle_epi32(_mm_add_epi32(st1[j], p->mid_cdgh), 0xb1); /* G H C D */
        m0[j] = _mm_blend_epi16(abef, ghcd, 0xf0); /* A B C D */
        m1[j] = _mm_alignr_epi8(ghcd, abef, 8); /* E F G H */
        m2[j] = p->pad2;
        m3[j] = p->len2;
        st0[j] = p->iv_abef;
        st1[j] = p->iv_cdgh;
    }
    RNDS4(m0, 0);
    RNDS4(m1, 1);
    RNDS4_KW(p->kw2_2);
    RNDS4_KW(p->kw2_3);
    GROUPS4(4);
    GROUPS4(8);
    SCHED(m0, m1, m2, m3);
    RNDS4(m0, 12);
    SCHED(m1, m2, m3, m0);
    RNDS4(m1, 13);
    SCHED(m2, m3, m0, m1);
    RNDS4(m2, 14);
    SCHED(m3, m0, m1, m2);
    EACH {
        /* rounds 60 and 61 only; F of the result is e after round 60 */
        __m128i kw_ = _mm_add_epi32(m3[j], k4(15));
        st1[j] = _mm_sha256rnds2_epu32(st1[j], st0[j], kw_);
        out[j] = (uint32_t)_mm_cvtsi128_si32(st1[j]) + KILN_SHA256_IV7;
    }
}

uint64_t kiln_sha256d_lanes_shani(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                  uint32_t cap)
{
    pre p;
    precompute(job, &p);
    uint64_t found = 0;
    for (uint64_t i = 0; i < count; i += NX) {
        uint32_t nonce[NX], h7[NX];
        uint64_t left = count - i;
        for (int j = 0; j < NX; j++) nonce[j] = start + (uint32_t)(i + ((uint64_t)j < left ? (uint64_t)j : 0));
        digest_word7(&p, nonce, h7);
        for (int j = 0; j < NX && (uint64_t)j < left; j++) {
            if (kiln_bswap32(h7[j]) <= job->target[7]) {
                if (found < cap) cand[found] = nonce[j];
                found++;
            }
        }
    }
    return found;
}
