/* The SHA-1 SHA-extension code path (src/hash/sha1_shani.c) runs on every x86-64 CPU: its source
 * is compiled into this test with the four SHA-1 instructions replaced by a model of the Intel
 * SDM's definitions (SHA1RNDS4, SHA1NEXTE, SHA1MSG1, SHA1MSG2, written here from their Operation
 * sections), then checked against the portable compression on random runs of blocks.
 * test_sha1_kat.c and test_sha1_md5_openssl.c check the real instructions where the CPU has them;
 * this catches a wrong lane order, schedule or round function anywhere the suite runs. */
#if defined(__x86_64__) || defined(__i386__)
#pragma GCC target("sse4.1")
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t emu_rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

/* lanes: d[0] is bits 31:0, d[3] bits 127:96 */
static inline void emu_get(__m128i v, uint32_t d[4]) { memcpy(d, &v, 16); }
static inline __m128i emu_put(const uint32_t d[4])
{
    __m128i v;
    memcpy(&v, d, 16);
    return v;
}

/* SHA1RNDS4 xmm1 (A B C D, A in 127:96), xmm2 (W0 + E, W1, W2, W3, W0 in 127:96), imm8 (f, K) */
static inline __m128i emu_sha1rnds4(__m128i src1, __m128i src2, int func)
{
    static const uint32_t kk[4] = {0x5a827999u, 0x6ed9eba1u, 0x8f1bbcdcu, 0xca62c1d6u};
    uint32_t s[4], w[4];
    emu_get(src1, s);
    emu_get(src2, w);
    uint32_t a = s[3], b = s[2], c = s[1], d = s[0], e = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t f = func == 0 ? (b & c) ^ (~b & d) : func == 2 ? (b & c) ^ (b & d) ^ (c & d) : b ^ c ^ d;
        uint32_t na = f + emu_rol(a, 5) + w[3 - i] + e + kk[func & 3];
        e = d, d = c, c = emu_rol(b, 30), b = a, a = na;
    }
    uint32_t out[4] = {d, c, b, a};
    return emu_put(out);
}

/* SHA1NEXTE: src2 with (src1[127:96] ROL 30) added to its 127:96 */
static inline __m128i emu_sha1nexte(__m128i src1, __m128i src2)
{
    uint32_t s[4], w[4];
    emu_get(src1, s);
    emu_get(src2, w);
    w[3] += emu_rol(s[3], 30);
    return emu_put(w);
}

/* SHA1MSG1: W0..W3 in src1, W4 W5 in src2's high lanes, out W2^W0, W3^W1, W4^W2, W5^W3 */
static inline __m128i emu_sha1msg1(__m128i src1, __m128i src2)
{
    uint32_t s[4], t[4];
    emu_get(src1, s);
    emu_get(src2, t);
    const uint32_t w0 = s[3], w1 = s[2], w2 = s[1], w3 = s[0], w4 = t[3], w5 = t[2];
    uint32_t out[4] = {w5 ^ w3, w4 ^ w2, w3 ^ w1, w2 ^ w0};
    return emu_put(out);
}

/* SHA1MSG2: W16..W19 from src1 (the partial sums) and W13..W15 in src2's low lanes */
static inline __m128i emu_sha1msg2(__m128i src1, __m128i src2)
{
    uint32_t s[4], t[4];
    emu_get(src1, s);
    emu_get(src2, t);
    const uint32_t w13 = t[2], w14 = t[1], w15 = t[0];
    const uint32_t w16 = emu_rol(s[3] ^ w13, 1), w17 = emu_rol(s[2] ^ w14, 1), w18 = emu_rol(s[1] ^ w15, 1),
                   w19 = emu_rol(s[0] ^ w16, 1);
    uint32_t out[4] = {w19, w18, w17, w16};
    return emu_put(out);
}

#define _mm_sha1rnds4_epu32 emu_sha1rnds4
#define _mm_sha1nexte_epu32 emu_sha1nexte
#define _mm_sha1msg1_epu32 emu_sha1msg1
#define _mm_sha1msg2_epu32 emu_sha1msg2

/* a distinct name, so the library's own (real-instruction) kernel stays untouched */
#define kiln_sha1_blocks_shani emu_sha1_blocks_shani
#include "../src/hash/sha1_shani.c"
#undef kiln_sha1_blocks_shani
#endif

#include <stdio.h>

#include "check.h"
#include "hash/sha1_host.h"

int main(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (!__builtin_cpu_supports("sse4.1")) {
        printf("no SSE4.1: skipped\n");
        return TEST_SKIP;
    }
    CHECK(kiln_sha1_blocks_selftest(emu_sha1_blocks_shani), "the emulated sha-ni path passes FIPS 180-4's examples");
    kiln_sha1_blocks_fn portable = kiln_sha1_blocks_portable();
    unsigned long long seed = 1729;
    static uint8_t data[64 * 5 + 1];
    for (int trial = 0; trial < 200; trial++) {
        size_t n = (size_t)(test_rand(&seed) % 5);
        size_t off = (size_t)(trial & 1); /* unaligned blocks too */
        for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)test_rand(&seed);
        uint32_t a[5], b[5];
        for (int i = 0; i < 5; i++) a[i] = b[i] = (uint32_t)test_rand(&seed);
        portable(a, data + off, n);
        emu_sha1_blocks_shani(b, data + off, n);
        CHECK(memcmp(a, b, sizeof a) == 0, "trial %d: %zu blocks at offset %zu differ from the portable code", trial, n,
              off);
    }
    return check_summary();
#else
    printf("not x86: skipped\n");
    return TEST_SKIP;
#endif
}
