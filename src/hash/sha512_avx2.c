/* Single-stream SHA-512 compression with the message schedule in AVX2 and the rounds in scalar
 * registers, two blocks at a time.
 *
 * Why: the rounds' rotates and the schedule's rotates and shifts all compete for the two x86 ports
 * that shift (6 for the rounds, 6 per schedule word), which caps the portable code near 6 cycles
 * a round. Here one vector holds schedule words t, t+1 of block i (low half) and of block i+1
 * (high half), so each vector step does four words' schedule on the vector ports and stores
 * W + K for both blocks; the first block's rounds run interleaved with it and the second block's
 * rounds only read the stored sums. An odd last block runs alone, its copy in the high half
 * unused. */
#include <immintrin.h>

#include "../prim/sha512.h"
#include "sha512_host.h"

static inline __m256i ror(__m256i x, int n)
{
    return _mm256_or_si256(_mm256_srli_epi64(x, n), _mm256_slli_epi64(x, 64 - n));
}

/* sigma0 of W[t-15..t-14], sigma1 of W[t-2..t-1], added to W[t-16..t-15] and W[t-7..t-6]:
 * x[k] holds words 2k, 2k + 1 of the 16-word window, oldest first (x0 = W[t-16], W[t-15]). */
static inline __m256i expand2(__m256i x0, __m256i x1, __m256i x4, __m256i x5, __m256i x7)
{
    const __m256i rot8 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7,
                                          0, 9, 10, 11, 12, 13, 14, 15, 8);
    __m256i w15 = _mm256_alignr_epi8(x1, x0, 8); /* W[t-15], W[t-14] */
    __m256i w7 = _mm256_alignr_epi8(x5, x4, 8); /* W[t-7], W[t-6] */
    __m256i s0 = _mm256_xor_si256(_mm256_xor_si256(ror(w15, 1), _mm256_shuffle_epi8(w15, rot8)),
                                  _mm256_srli_epi64(w15, 7));
    __m256i s1 = _mm256_xor_si256(_mm256_xor_si256(ror(x7, 19), ror(x7, 61)), _mm256_srli_epi64(x7, 6));
    return _mm256_add_epi64(_mm256_add_epi64(x0, w7), _mm256_add_epi64(s0, s1));
}

static inline uint64_t rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

/* One scalar round with K + W from memory. h + kw and Ch do not wait for this round's e's
 * sigma, so the chain from e to the next e is the sigma and two adds. */
#define R(a, b, c, d, e, f, g, h, kw)                                                               \
    do {                                                                                            \
        uint64_t t1_ = (h) + (kw) + ((g) ^ ((e) & ((f) ^ (g))));                                    \
        t1_ += rotr((e), 14) ^ rotr((e), 18) ^ rotr((e), 41);                                       \
        (d) += t1_;                                                                                 \
        (h) = t1_ + (rotr((a), 28) ^ rotr((a), 34) ^ rotr((a), 39)) + (((a) & (b)) | ((c) & ((a) | (b)))); \
    } while (0)

/* Round pair j of the first block (rounds 2j, 2j + 1): stores W + K of both blocks for that
 * pair from window slot S, then, while more words are due, replaces the slot with words 2j + 16,
 * 2j + 17. Slots are named by j mod 8, so the unrolled code indexes the window with constants. */
#define PAIR(j, S, EXPAND, a, b, c, d, e, f, g, h)                                                   \
    do {                                                                                            \
        __m256i k_ = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)&kiln_sha512_k_host[2 * (j)])); \
        _mm256_store_si256((__m256i *)wk[j], _mm256_add_epi64(x[S], k_));                           \
        if (EXPAND) x[S] = expand2(x[S], x[((S) + 1) & 7], x[((S) + 4) & 7], x[((S) + 5) & 7], x[((S) + 7) & 7]); \
        R(a, b, c, d, e, f, g, h, wk[j][0]);                                                        \
        R(h, a, b, c, d, e, f, g, wk[j][1]);                                                        \
    } while (0)

#define PAIRS8(j, EXPAND)                                          \
    do {                                                           \
        PAIR((j) + 0, 0, EXPAND, a, b, c, d, e, f, g, h);          \
        PAIR((j) + 1, 1, EXPAND, g, h, a, b, c, d, e, f);          \
        PAIR((j) + 2, 2, EXPAND, e, f, g, h, a, b, c, d);          \
        PAIR((j) + 3, 3, EXPAND, c, d, e, f, g, h, a, b);          \
        PAIR((j) + 4, 4, EXPAND, a, b, c, d, e, f, g, h);          \
        PAIR((j) + 5, 5, EXPAND, g, h, a, b, c, d, e, f);          \
        PAIR((j) + 6, 6, EXPAND, e, f, g, h, a, b, c, d);          \
        PAIR((j) + 7, 7, EXPAND, c, d, e, f, g, h, a, b);          \
    } while (0)

/* Eight rounds of the second block from the stored sums. */
#define ROUNDS8_STORED(j)                              \
    do {                                               \
        R(a, b, c, d, e, f, g, h, wk[(j) + 0][2]);     \
        R(h, a, b, c, d, e, f, g, wk[(j) + 0][3]);     \
        R(g, h, a, b, c, d, e, f, wk[(j) + 1][2]);     \
        R(f, g, h, a, b, c, d, e, wk[(j) + 1][3]);     \
        R(e, f, g, h, a, b, c, d, wk[(j) + 2][2]);     \
        R(d, e, f, g, h, a, b, c, wk[(j) + 2][3]);     \
        R(c, d, e, f, g, h, a, b, wk[(j) + 3][2]);     \
        R(b, c, d, e, f, g, h, a, wk[(j) + 3][3]);     \
    } while (0)

void kiln_sha512_blocks_avx2(uint64_t state[8], const uint8_t *blocks, size_t n)
{
    const __m256i bswap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
                                           0, 15, 14, 13, 12, 11, 10, 9, 8);
    _Alignas(32) uint64_t wk[40][4]; /* pair j: block i's W + K for rounds 2j, 2j + 1, then block i + 1's */
    uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
    while (n > 0) {
        const uint8_t *b0 = blocks, *b1 = n >= 2 ? blocks + KILN_SHA512_BLOCK : blocks;
        __m256i x[8];
        for (int k = 0; k < 8; k++) {
            __m128i lo = _mm_loadu_si128((const __m128i *)(b0 + 16 * k));
            __m128i hi = _mm_loadu_si128((const __m128i *)(b1 + 16 * k));
            x[k] = _mm256_shuffle_epi8(_mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1), bswap);
        }
        for (int j = 0; j < 32; j += 8) PAIRS8(j, 1);
        PAIRS8(32, 0);
        a += state[0], b += state[1], c += state[2], d += state[3];
        e += state[4], f += state[5], g += state[6], h += state[7];
        state[0] = a, state[1] = b, state[2] = c, state[3] = d;
        state[4] = e, state[5] = f, state[6] = g, state[7] = h;
        if (n < 2) break;
        for (int j = 0; j < 40; j += 4) ROUNDS8_STORED(j);
        a += state[0], b += state[1], c += state[2], d += state[3];
        e += state[4], f += state[5], g += state[6], h += state[7];
        state[0] = a, state[1] = b, state[2] = c, state[3] = d;
        state[4] = e, state[5] = f, state[6] = g, state[7] = h;
        blocks += 2 * KILN_SHA512_BLOCK;
        n -= 2;
    }
}
