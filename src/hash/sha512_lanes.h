/* The SHA-512 lane kernel (kiln_sha512_lanes_fn), written once for any vector width: lane k of
 * every vector belongs to message k, so LANES equal-length messages go through the rounds of
 * src/prim/sha512.h side by side. An instantiation (sha512x4_avx2.c, sha512x8_avx512.c) defines
 * before including:
 *   LANES, LANES_FN           messages per vector and the kernel's name
 *   vec                       a vector of LANES 64-bit words
 *   C(x) ADD XOR ROR SHR XOR3 CH   broadcast, add, xor, rotate and shift right, a ^ b ^ c, e ? f : g
 *   MAJ(a, b, c), or MAJ_FROM_BC with AND (see ROUND)
 *   load_block(w, p)          w[j] = big-endian word j of the 128-byte blocks p[0..LANES)
 *   STORE(dst, v)             the LANES words of v to dst
 * Messages of one length share the block count and the padding position, so no lane waits. */
#include <string.h>

#include "../prim/sha512.h"
#include "sha512_host.h"

#define LBSIG0(x) XOR3(ROR((x), 28), ROR((x), 34), ROR((x), 39))
#define LBSIG1(x) XOR3(ROR((x), 14), ROR((x), 18), ROR((x), 41))
#define LSSIG0(x) XOR3(ROR((x), 1), ROR((x), 8), SHR((x), 7))
#define LSSIG1(x) XOR3(ROR((x), 19), ROR((x), 61), SHR((x), 6))

/* Without a three-input Maj, Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)): this round's a ^ b is the
 * next round's b ^ c, carried in bc, which saves an operation a round. */
#if defined(MAJ_FROM_BC)
#define LMAJ(a, b, c) XOR((b), AND(ab_ = XOR((a), (b)), bc))
#define LMAJ_NEXT() bc = ab_
#define LMAJ_DECL vec bc = XOR(b, c), ab_
#else
#define LMAJ(a, b, c) MAJ((a), (b), (c))
#define LMAJ_NEXT() (void)0
#define LMAJ_DECL
#endif

#define LROUND(a, b, c, d, e, f, g, h, kw)                                                  \
    do {                                                                                    \
        vec t1_ = ADD(ADD((h), (kw)), ADD(LBSIG1(e), CH((e), (f), (g))));                   \
        (d) = ADD((d), t1_);                                                                \
        (h) = ADD(t1_, ADD(LBSIG0(a), LMAJ((a), (b), (c))));                                \
        LMAJ_NEXT();                                                                        \
    } while (0)

#define LKW(t, j) ADD(w[j], C(kiln_sha512_k_host[(t) + (j)]))
#define LROUNDS8(t, j)                                         \
    do {                                                       \
        LROUND(a, b, c, d, e, f, g, h, LKW(t, (j) + 0));       \
        LROUND(h, a, b, c, d, e, f, g, LKW(t, (j) + 1));       \
        LROUND(g, h, a, b, c, d, e, f, LKW(t, (j) + 2));       \
        LROUND(f, g, h, a, b, c, d, e, LKW(t, (j) + 3));       \
        LROUND(e, f, g, h, a, b, c, d, LKW(t, (j) + 4));       \
        LROUND(d, e, f, g, h, a, b, c, LKW(t, (j) + 5));       \
        LROUND(c, d, e, f, g, h, a, b, LKW(t, (j) + 6));       \
        LROUND(b, c, d, e, f, g, h, a, LKW(t, (j) + 7));       \
    } while (0)

/* The schedule as in kiln_sha512_compress_words: a 16-word window rewritten in place. */
static inline void lanes_compress(vec st[8], vec w[16])
{
    vec a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    LMAJ_DECL;
    for (int t = 0; t < 80; t += 16) {
        if (t > 0)
            for (int j = 0; j < 16; j++)
                w[j] = ADD(ADD(LSSIG1(w[(j + 14) & 15]), w[(j + 9) & 15]), ADD(LSSIG0(w[(j + 1) & 15]), w[j]));
        LROUNDS8(t, 0);
        LROUNDS8(t, 8);
    }
    st[0] = ADD(st[0], a);
    st[1] = ADD(st[1], b);
    st[2] = ADD(st[2], c);
    st[3] = ADD(st[3], d);
    st[4] = ADD(st[4], e);
    st[5] = ADD(st[5], f);
    st[6] = ADD(st[6], g);
    st[7] = ADD(st[7], h);
}

void LANES_FN(const uint64_t iv[8], const uint8_t *const *msg, size_t len, uint8_t *const *out, unsigned outlen)
{
    vec st[8], w[16];
    const uint8_t *p[LANES];
    for (int i = 0; i < 8; i++) st[i] = C(iv[i]);
    size_t full = len / KILN_SHA512_BLOCK;
    for (size_t blk = 0; blk < full; blk++) {
        for (int k = 0; k < LANES; k++) p[k] = msg[k] + blk * KILN_SHA512_BLOCK;
        load_block(w, p);
        lanes_compress(st, w);
    }
    /* The padded tails, one or two blocks, the same count in every lane. Built here rather than by
     * kiln_sha512_pad: one fixed-size clear for all lanes and a word-wise copy instead of a
     * variable-length memset and memcpy per lane took AVX-512 from 12.1 to 14.6 million 64-byte
     * messages a second. */
    size_t rem = len % KILN_SHA512_BLOCK;
    unsigned ntail = rem + 17 > KILN_SHA512_BLOCK ? 2 : 1, end = ntail * KILN_SHA512_BLOCK;
    _Alignas(64) uint8_t tail[LANES][2 * KILN_SHA512_BLOCK];
    memset(tail, 0, sizeof tail);
    for (int k = 0; k < LANES; k++) {
        const uint8_t *src = msg[k] + full * KILN_SHA512_BLOCK;
        size_t i = 0;
        for (; i + 8 <= rem; i += 8) {
            uint64_t v;
            memcpy(&v, src + i, 8);
            memcpy(tail[k] + i, &v, 8);
        }
        for (; i < rem; i++) tail[k][i] = src[i];
        tail[k][rem] = 0x80;
        kiln_store_be64(tail[k] + end - 16, (uint64_t)len >> 61);
        kiln_store_be64(tail[k] + end - 8, (uint64_t)len << 3);
    }
    for (unsigned blk = 0; blk < ntail; blk++) {
        for (int k = 0; k < LANES; k++) p[k] = tail[k] + blk * KILN_SHA512_BLOCK;
        load_block(w, p);
        lanes_compress(st, w);
    }
    uint64_t words[8][LANES], one[8];
    for (int i = 0; i < 8; i++) STORE(words[i], st[i]);
    for (int k = 0; k < LANES; k++) {
        for (int i = 0; i < 8; i++) one[i] = words[i][k];
        kiln_sha512_store_digest(one, out[k], outlen);
    }
}
