/* MD5 (RFC 1321): the initial value and the compression function, for host and device (the CPU
 * hash, the CUDA and OpenCL batch kernels). Blocks are 16 little-endian words; the padding is
 * 0x80, zeros and the 64-bit bit count, little-endian, in the last 8 bytes of a 64-byte block.
 * The 64 steps are written out with their constants (RFC 1321's T[i] = floor(2^32 |sin i|)) as
 * immediates, so no backend reads a table. MD5 is broken for collision resistance; kiln offers it
 * for checksums and interoperation. */
#ifndef KILN_PRIM_MD5_H
#define KILN_PRIM_MD5_H

#include "bytes.h"
#include "kiln_hd.h"

#define KILN_MD5_BLOCK 64
#define KILN_MD5_DIGEST 16

/* A, B, C, D of RFC 1321 section 3.3 (written there low-order byte first). */
KILN_HD void kiln_md5_iv(uint32_t state[4])
{
    state[0] = 0x67452301u;
    state[1] = 0xefcdab89u;
    state[2] = 0x98badcfeu;
    state[3] = 0x10325476u;
}

/* The auxiliary functions of section 3.4: F in its select form, H, I; G = (x & z) | (y & ~z) is
 * written into its step (KILN_MD5_STEP_G). */
#define KILN_MD5_F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define KILN_MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define KILN_MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))

/* a = b + ((a + FN(b, c, d) + X[k] + T) <<< s), the sum grouped so that what does not wait on b
 * (the newest word) is added first: b is then one AND or XOR (and G's add) from the rotate. G's
 * two terms never both have a bit set, so its OR is an addition, split the same way. */
#define KILN_MD5_STEP(FN, a, b, c, d, xk, t, s) (a) = (b) + kiln_rotl32(((a) + (xk) + (t)) + FN((b), (c), (d)), (s))
#define KILN_MD5_STEP_G(a, b, c, d, xk, t, s) \
    (a) = (b) + kiln_rotl32(((a) + (xk) + (t) + ((c) & ~(d))) + ((b) & (d)), (s))

/* Compresses one block of 16 little-endian words into state. */
KILN_HD void kiln_md5_compress_words(uint32_t state[4], const uint32_t x[16])
{
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    /* round 1: X[i] */
    KILN_MD5_STEP(KILN_MD5_F, a, b, c, d, x[0], 0xd76aa478u, 7);
    KILN_MD5_STEP(KILN_MD5_F, d, a, b, c, x[1], 0xe8c7b756u, 12);
    KILN_MD5_STEP(KILN_MD5_F, c, d, a, b, x[2], 0x242070dbu, 17);
    KILN_MD5_STEP(KILN_MD5_F, b, c, d, a, x[3], 0xc1bdceeeu, 22);
    KILN_MD5_STEP(KILN_MD5_F, a, b, c, d, x[4], 0xf57c0fafu, 7);
    KILN_MD5_STEP(KILN_MD5_F, d, a, b, c, x[5], 0x4787c62au, 12);
    KILN_MD5_STEP(KILN_MD5_F, c, d, a, b, x[6], 0xa8304613u, 17);
    KILN_MD5_STEP(KILN_MD5_F, b, c, d, a, x[7], 0xfd469501u, 22);
    KILN_MD5_STEP(KILN_MD5_F, a, b, c, d, x[8], 0x698098d8u, 7);
    KILN_MD5_STEP(KILN_MD5_F, d, a, b, c, x[9], 0x8b44f7afu, 12);
    KILN_MD5_STEP(KILN_MD5_F, c, d, a, b, x[10], 0xffff5bb1u, 17);
    KILN_MD5_STEP(KILN_MD5_F, b, c, d, a, x[11], 0x895cd7beu, 22);
    KILN_MD5_STEP(KILN_MD5_F, a, b, c, d, x[12], 0x6b901122u, 7);
    KILN_MD5_STEP(KILN_MD5_F, d, a, b, c, x[13], 0xfd987193u, 12);
    KILN_MD5_STEP(KILN_MD5_F, c, d, a, b, x[14], 0xa679438eu, 17);
    KILN_MD5_STEP(KILN_MD5_F, b, c, d, a, x[15], 0x49b40821u, 22);
    /* round 2: X[(1 + 5i) mod 16] */
    KILN_MD5_STEP_G(a, b, c, d, x[1], 0xf61e2562u, 5);
    KILN_MD5_STEP_G(d, a, b, c, x[6], 0xc040b340u, 9);
    KILN_MD5_STEP_G(c, d, a, b, x[11], 0x265e5a51u, 14);
    KILN_MD5_STEP_G(b, c, d, a, x[0], 0xe9b6c7aau, 20);
    KILN_MD5_STEP_G(a, b, c, d, x[5], 0xd62f105du, 5);
    KILN_MD5_STEP_G(d, a, b, c, x[10], 0x02441453u, 9);
    KILN_MD5_STEP_G(c, d, a, b, x[15], 0xd8a1e681u, 14);
    KILN_MD5_STEP_G(b, c, d, a, x[4], 0xe7d3fbc8u, 20);
    KILN_MD5_STEP_G(a, b, c, d, x[9], 0x21e1cde6u, 5);
    KILN_MD5_STEP_G(d, a, b, c, x[14], 0xc33707d6u, 9);
    KILN_MD5_STEP_G(c, d, a, b, x[3], 0xf4d50d87u, 14);
    KILN_MD5_STEP_G(b, c, d, a, x[8], 0x455a14edu, 20);
    KILN_MD5_STEP_G(a, b, c, d, x[13], 0xa9e3e905u, 5);
    KILN_MD5_STEP_G(d, a, b, c, x[2], 0xfcefa3f8u, 9);
    KILN_MD5_STEP_G(c, d, a, b, x[7], 0x676f02d9u, 14);
    KILN_MD5_STEP_G(b, c, d, a, x[12], 0x8d2a4c8au, 20);
    /* round 3: X[(5 + 3i) mod 16] */
    KILN_MD5_STEP(KILN_MD5_H, a, b, c, d, x[5], 0xfffa3942u, 4);
    KILN_MD5_STEP(KILN_MD5_H, d, a, b, c, x[8], 0x8771f681u, 11);
    KILN_MD5_STEP(KILN_MD5_H, c, d, a, b, x[11], 0x6d9d6122u, 16);
    KILN_MD5_STEP(KILN_MD5_H, b, c, d, a, x[14], 0xfde5380cu, 23);
    KILN_MD5_STEP(KILN_MD5_H, a, b, c, d, x[1], 0xa4beea44u, 4);
    KILN_MD5_STEP(KILN_MD5_H, d, a, b, c, x[4], 0x4bdecfa9u, 11);
    KILN_MD5_STEP(KILN_MD5_H, c, d, a, b, x[7], 0xf6bb4b60u, 16);
    KILN_MD5_STEP(KILN_MD5_H, b, c, d, a, x[10], 0xbebfbc70u, 23);
    KILN_MD5_STEP(KILN_MD5_H, a, b, c, d, x[13], 0x289b7ec6u, 4);
    KILN_MD5_STEP(KILN_MD5_H, d, a, b, c, x[0], 0xeaa127fau, 11);
    KILN_MD5_STEP(KILN_MD5_H, c, d, a, b, x[3], 0xd4ef3085u, 16);
    KILN_MD5_STEP(KILN_MD5_H, b, c, d, a, x[6], 0x04881d05u, 23);
    KILN_MD5_STEP(KILN_MD5_H, a, b, c, d, x[9], 0xd9d4d039u, 4);
    KILN_MD5_STEP(KILN_MD5_H, d, a, b, c, x[12], 0xe6db99e5u, 11);
    KILN_MD5_STEP(KILN_MD5_H, c, d, a, b, x[15], 0x1fa27cf8u, 16);
    KILN_MD5_STEP(KILN_MD5_H, b, c, d, a, x[2], 0xc4ac5665u, 23);
    /* round 4: X[7i mod 16] */
    KILN_MD5_STEP(KILN_MD5_I, a, b, c, d, x[0], 0xf4292244u, 6);
    KILN_MD5_STEP(KILN_MD5_I, d, a, b, c, x[7], 0x432aff97u, 10);
    KILN_MD5_STEP(KILN_MD5_I, c, d, a, b, x[14], 0xab9423a7u, 15);
    KILN_MD5_STEP(KILN_MD5_I, b, c, d, a, x[5], 0xfc93a039u, 21);
    KILN_MD5_STEP(KILN_MD5_I, a, b, c, d, x[12], 0x655b59c3u, 6);
    KILN_MD5_STEP(KILN_MD5_I, d, a, b, c, x[3], 0x8f0ccc92u, 10);
    KILN_MD5_STEP(KILN_MD5_I, c, d, a, b, x[10], 0xffeff47du, 15);
    KILN_MD5_STEP(KILN_MD5_I, b, c, d, a, x[1], 0x85845dd1u, 21);
    KILN_MD5_STEP(KILN_MD5_I, a, b, c, d, x[8], 0x6fa87e4fu, 6);
    KILN_MD5_STEP(KILN_MD5_I, d, a, b, c, x[15], 0xfe2ce6e0u, 10);
    KILN_MD5_STEP(KILN_MD5_I, c, d, a, b, x[6], 0xa3014314u, 15);
    KILN_MD5_STEP(KILN_MD5_I, b, c, d, a, x[13], 0x4e0811a1u, 21);
    KILN_MD5_STEP(KILN_MD5_I, a, b, c, d, x[4], 0xf7537e82u, 6);
    KILN_MD5_STEP(KILN_MD5_I, d, a, b, c, x[11], 0xbd3af235u, 10);
    KILN_MD5_STEP(KILN_MD5_I, c, d, a, b, x[2], 0x2ad7d2bbu, 15);
    KILN_MD5_STEP(KILN_MD5_I, b, c, d, a, x[9], 0xeb86d391u, 21);
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

KILN_HD void kiln_md5_compress_bytes(uint32_t state[4], const uint8_t block[64])
{
    uint32_t x[16];
    KILN_OCL_UNROLL
    for (int t = 0; t < 16; t++) x[t] = kiln_load_le32(block + 4 * t);
    kiln_md5_compress_words(state, x);
}

#endif
