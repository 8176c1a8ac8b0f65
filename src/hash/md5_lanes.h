/* The MD5 lane kernel (kiln_md5_lanes_fn), written once for any vector width: lane k of every
 * vector belongs to message k, so LANES equal-length messages go through RFC 1321's 64 steps side
 * by side. MD5 is one dependent chain a message, which no SIMD shortens; lanes instead run LANES
 * chains at once. An instantiation (md5x8_avx2.c, md5x16_avx512.c) defines before including:
 *   LANES, LANES_FN           messages per vector and the kernel's name
 *   vec                       a vector of LANES 32-bit words
 *   C(x) ADD ROL              broadcast, add, rotate left by a constant
 *   LF LG LH LI               RFC 1321's F, G, H, I of three vectors
 *   load_block(w, p)          w[j] = little-endian word j of the 64-byte blocks p[0..LANES)
 *   STORE(dst, v)             the LANES words of v to dst
 * Messages of one length share the block count and the padding position, so no lane waits. */
#include <string.h>

#include "../prim/md5.h"
#include "md5_host.h"

/* a = b + ((a + FN(b, c, d) + X[k] + T) <<< s), X[k] + T first: it waits on nothing */
#define LSTEP(FN, a, b, c, d, k, t, s) (a) = ADD((b), ROL(ADD(ADD((a), ADD(w[k], C(t))), FN((b), (c), (d))), (s)))

static inline void lanes_compress(vec st[4], const vec w[16])
{
    vec a = st[0], b = st[1], c = st[2], d = st[3];
    LSTEP(LF, a, b, c, d, 0, 0xd76aa478u, 7);
    LSTEP(LF, d, a, b, c, 1, 0xe8c7b756u, 12);
    LSTEP(LF, c, d, a, b, 2, 0x242070dbu, 17);
    LSTEP(LF, b, c, d, a, 3, 0xc1bdceeeu, 22);
    LSTEP(LF, a, b, c, d, 4, 0xf57c0fafu, 7);
    LSTEP(LF, d, a, b, c, 5, 0x4787c62au, 12);
    LSTEP(LF, c, d, a, b, 6, 0xa8304613u, 17);
    LSTEP(LF, b, c, d, a, 7, 0xfd469501u, 22);
    LSTEP(LF, a, b, c, d, 8, 0x698098d8u, 7);
    LSTEP(LF, d, a, b, c, 9, 0x8b44f7afu, 12);
    LSTEP(LF, c, d, a, b, 10, 0xffff5bb1u, 17);
    LSTEP(LF, b, c, d, a, 11, 0x895cd7beu, 22);
    LSTEP(LF, a, b, c, d, 12, 0x6b901122u, 7);
    LSTEP(LF, d, a, b, c, 13, 0xfd987193u, 12);
    LSTEP(LF, c, d, a, b, 14, 0xa679438eu, 17);
    LSTEP(LF, b, c, d, a, 15, 0x49b40821u, 22);
    LSTEP(LG, a, b, c, d, 1, 0xf61e2562u, 5);
    LSTEP(LG, d, a, b, c, 6, 0xc040b340u, 9);
    LSTEP(LG, c, d, a, b, 11, 0x265e5a51u, 14);
    LSTEP(LG, b, c, d, a, 0, 0xe9b6c7aau, 20);
    LSTEP(LG, a, b, c, d, 5, 0xd62f105du, 5);
    LSTEP(LG, d, a, b, c, 10, 0x02441453u, 9);
    LSTEP(LG, c, d, a, b, 15, 0xd8a1e681u, 14);
    LSTEP(LG, b, c, d, a, 4, 0xe7d3fbc8u, 20);
    LSTEP(LG, a, b, c, d, 9, 0x21e1cde6u, 5);
    LSTEP(LG, d, a, b, c, 14, 0xc33707d6u, 9);
    LSTEP(LG, c, d, a, b, 3, 0xf4d50d87u, 14);
    LSTEP(LG, b, c, d, a, 8, 0x455a14edu, 20);
    LSTEP(LG, a, b, c, d, 13, 0xa9e3e905u, 5);
    LSTEP(LG, d, a, b, c, 2, 0xfcefa3f8u, 9);
    LSTEP(LG, c, d, a, b, 7, 0x676f02d9u, 14);
    LSTEP(LG, b, c, d, a, 12, 0x8d2a4c8au, 20);
    LSTEP(LH, a, b, c, d, 5, 0xfffa3942u, 4);
    LSTEP(LH, d, a, b, c, 8, 0x8771f681u, 11);
    LSTEP(LH, c, d, a, b, 11, 0x6d9d6122u, 16);
    LSTEP(LH, b, c, d, a, 14, 0xfde5380cu, 23);
    LSTEP(LH, a, b, c, d, 1, 0xa4beea44u, 4);
    LSTEP(LH, d, a, b, c, 4, 0x4bdecfa9u, 11);
    LSTEP(LH, c, d, a, b, 7, 0xf6bb4b60u, 16);
    LSTEP(LH, b, c, d, a, 10, 0xbebfbc70u, 23);
    LSTEP(LH, a, b, c, d, 13, 0x289b7ec6u, 4);
    LSTEP(LH, d, a, b, c, 0, 0xeaa127fau, 11);
    LSTEP(LH, c, d, a, b, 3, 0xd4ef3085u, 16);
    LSTEP(LH, b, c, d, a, 6, 0x04881d05u, 23);
    LSTEP(LH, a, b, c, d, 9, 0xd9d4d039u, 4);
    LSTEP(LH, d, a, b, c, 12, 0xe6db99e5u, 11);
    LSTEP(LH, c, d, a, b, 15, 0x1fa27cf8u, 16);
    LSTEP(LH, b, c, d, a, 2, 0xc4ac5665u, 23);
    LSTEP(LI, a, b, c, d, 0, 0xf4292244u, 6);
    LSTEP(LI, d, a, b, c, 7, 0x432aff97u, 10);
    LSTEP(LI, c, d, a, b, 14, 0xab9423a7u, 15);
    LSTEP(LI, b, c, d, a, 5, 0xfc93a039u, 21);
    LSTEP(LI, a, b, c, d, 12, 0x655b59c3u, 6);
    LSTEP(LI, d, a, b, c, 3, 0x8f0ccc92u, 10);
    LSTEP(LI, c, d, a, b, 10, 0xffeff47du, 15);
    LSTEP(LI, b, c, d, a, 1, 0x85845dd1u, 21);
    LSTEP(LI, a, b, c, d, 8, 0x6fa87e4fu, 6);
    LSTEP(LI, d, a, b, c, 15, 0xfe2ce6e0u, 10);
    LSTEP(LI, c, d, a, b, 6, 0xa3014314u, 15);
    LSTEP(LI, b, c, d, a, 13, 0x4e0811a1u, 21);
    LSTEP(LI, a, b, c, d, 4, 0xf7537e82u, 6);
    LSTEP(LI, d, a, b, c, 11, 0xbd3af235u, 10);
    LSTEP(LI, c, d, a, b, 2, 0x2ad7d2bbu, 15);
    LSTEP(LI, b, c, d, a, 9, 0xeb86d391u, 21);
    st[0] = ADD(st[0], a);
    st[1] = ADD(st[1], b);
    st[2] = ADD(st[2], c);
    st[3] = ADD(st[3], d);
}

void LANES_FN(const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    vec st[4], w[16];
    const uint8_t *p[LANES];
    uint32_t iv[4];
    kiln_md5_iv(iv);
    for (int i = 0; i < 4; i++) st[i] = C(iv[i]);
    size_t full = len / KILN_MD5_BLOCK;
    for (size_t blk = 0; blk < full; blk++) {
        for (int k = 0; k < LANES; k++) p[k] = msg[k] + blk * KILN_MD5_BLOCK;
        load_block(w, p);
        lanes_compress(st, w);
    }
    /* The padded tails, one or two blocks, the same count in every lane: 0x80, zeros, the bit
     * count little-endian in the last 8 bytes. One fixed-size clear for all lanes, as the SHA-512
     * lanes do (sha512_lanes.h). */
    size_t rem = len % KILN_MD5_BLOCK;
    unsigned ntail = rem + 9 > KILN_MD5_BLOCK ? 2 : 1, end = ntail * KILN_MD5_BLOCK;
    _Alignas(64) uint8_t tail[LANES][2 * KILN_MD5_BLOCK];
    memset(tail, 0, sizeof tail);
    const uint64_t bits = (uint64_t)len << 3;
    for (int k = 0; k < LANES; k++) {
        if (rem) memcpy(tail[k], msg[k] + full * KILN_MD5_BLOCK, rem);
        tail[k][rem] = 0x80;
        kiln_store_le32(tail[k] + end - 8, (uint32_t)bits);
        kiln_store_le32(tail[k] + end - 4, (uint32_t)(bits >> 32));
    }
    for (unsigned blk = 0; blk < ntail; blk++) {
        for (int k = 0; k < LANES; k++) p[k] = tail[k] + blk * KILN_MD5_BLOCK;
        load_block(w, p);
        lanes_compress(st, w);
    }
    uint32_t words[4][LANES];
    for (int i = 0; i < 4; i++) STORE(words[i], st[i]);
    for (int k = 0; k < LANES; k++)
        for (int i = 0; i < 4; i++) kiln_store_le32(out[k] + 4 * i, words[i][k]);
}
