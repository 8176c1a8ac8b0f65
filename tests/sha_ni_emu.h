/* A portable model of the three SHA-256 instructions of the x86 SHA extensions, written from the
 * Operation sections of the Intel SDM (SHA256RNDS2, SHA256MSG1, SHA256MSG2), so code written for
 * them can be run and checked on a CPU without them. Include after <immintrin.h>; it redirects the
 * intrinsics' names to these functions. Test-only: slow, and nothing in the library uses it. */
#ifndef KILN_TEST_SHA_NI_EMU_H
#define KILN_TEST_SHA_NI_EMU_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t emu_ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static inline uint32_t emu_bsig0(uint32_t x) { return emu_ror(x, 2) ^ emu_ror(x, 13) ^ emu_ror(x, 22); }
static inline uint32_t emu_bsig1(uint32_t x) { return emu_ror(x, 6) ^ emu_ror(x, 11) ^ emu_ror(x, 25); }
static inline uint32_t emu_ssig0(uint32_t x) { return emu_ror(x, 7) ^ emu_ror(x, 18) ^ (x >> 3); }
static inline uint32_t emu_ssig1(uint32_t x) { return emu_ror(x, 17) ^ emu_ror(x, 19) ^ (x >> 10); }

/* lanes: d[0] is bits 31:0 */
static inline void emu_get(__m128i v, uint32_t d[4]) { memcpy(d, &v, 16); }
static inline __m128i emu_put(const uint32_t d[4])
{
    __m128i v;
    memcpy(&v, d, 16);
    return v;
}

/* SHA256RNDS2 xmm1 (C,D,G,H), xmm2 (A,B,E,F), <XMM0> (K + W in its two low dwords) */
static inline __m128i emu_sha256rnds2(__m128i src1, __m128i src2, __m128i wk)
{
    uint32_t s1[4], s2[4], k[4];
    emu_get(src1, s1);
    emu_get(src2, s2);
    emu_get(wk, k);
    uint32_t a = s2[3], b = s2[2], c = s1[3], d = s1[2], e = s2[1], f = s2[0], g = s1[1], h = s1[0];
    for (int i = 0; i < 2; i++) {
        uint32_t t = ((e & f) ^ (~e & g)) + emu_bsig1(e) + k[i] + h;
        uint32_t na = t + ((a & b) ^ (a & c) ^ (b & c)) + emu_bsig0(a), ne = t + d;
        h = g, g = f, f = e, e = ne, d = c, c = b, b = a, a = na;
    }
    uint32_t out[4] = {f, e, b, a};
    return emu_put(out);
}

static inline __m128i emu_sha256msg1(__m128i src1, __m128i src2)
{
    uint32_t w[4], x[4];
    emu_get(src1, w);
    emu_get(src2, x);
    uint32_t out[4] = {w[0] + emu_ssig0(w[1]), w[1] + emu_ssig0(w[2]), w[2] + emu_ssig0(w[3]), w[3] + emu_ssig0(x[0])};
    return emu_put(out);
}

static inline __m128i emu_sha256msg2(__m128i src1, __m128i src2)
{
    uint32_t w[4], x[4];
    emu_get(src1, w);
    emu_get(src2, x);
    uint32_t w16 = w[0] + emu_ssig1(x[2]), w17 = w[1] + emu_ssig1(x[3]);
    uint32_t out[4] = {w16, w17, w[2] + emu_ssig1(w16), w[3] + emu_ssig1(w17)};
    return emu_put(out);
}

#define _mm_sha256rnds2_epu32 emu_sha256rnds2
#define _mm_sha256msg1_epu32 emu_sha256msg1
#define _mm_sha256msg2_epu32 emu_sha256msg2

#endif
