/* BLAKE2b and BLAKE2s (RFC 7693): initial values, the compression functions F over 16
 * little-endian message words, and the default parameter block, for host and device. Pure
 * functions; no allocation, no I/O. The message schedule SIGMA is written into the rounds as
 * literal word indices (a macro per round), so no compiler indexes a table at run time: the host
 * gets straight-line code, a GPU thread keeps the message and the state in registers, and no
 * backend needs a constant table of its own. */
#ifndef KILN_PRIM_BLAKE2_H
#define KILN_PRIM_BLAKE2_H

#include "kiln_hd.h"
#include "sha256.h" /* kiln_rotr32 */
#include "sha512.h" /* kiln_rotr64 */

#define KILN_BLAKE2B_BLOCK 128
#define KILN_BLAKE2B_OUT 64 /* the largest digest, and the default */
#define KILN_BLAKE2B_KEY 64
#define KILN_BLAKE2B_SALT 16 /* salt and personalization each */
#define KILN_BLAKE2S_BLOCK 64
#define KILN_BLAKE2S_OUT 32
#define KILN_BLAKE2S_KEY 32
#define KILN_BLAKE2S_SALT 8

/* The descriptors' variant (src/hash/blake2_algos.c) and the GPU batches' (src/core/gpu.h). */
typedef enum kiln_blake2_variant {
    KILN_BLAKE2_VARIANT_B = 0, /* BLAKE2b: 64-bit words, 128-byte blocks, 12 rounds */
    KILN_BLAKE2_VARIANT_S = 1, /* BLAKE2s: 32-bit words, 64-byte blocks, 10 rounds */
} kiln_blake2_variant;

/* RFC 7693 section 2.6: SHA-512's and SHA-256's initial values. */
#define KILN_BLAKE2B_IV_LIST KILN_SHA512_IV_LIST
#define KILN_BLAKE2S_IV_LIST                                                                     \
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u

/* SIGMA (RFC 7693 section 2.7), one row a round; BLAKE2b's rounds 10 and 11 reuse rows 0 and 1. */
#define KILN_BLAKE2_SIGMA0 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define KILN_BLAKE2_SIGMA1 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3
#define KILN_BLAKE2_SIGMA2 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4
#define KILN_BLAKE2_SIGMA3 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8
#define KILN_BLAKE2_SIGMA4 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13
#define KILN_BLAKE2_SIGMA5 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9
#define KILN_BLAKE2_SIGMA6 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11
#define KILN_BLAKE2_SIGMA7 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10
#define KILN_BLAKE2_SIGMA8 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5
#define KILN_BLAKE2_SIGMA9 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0

/* The mixing function G (section 3.1) with the rotation distances of each variant. */
#define KILN_BLAKE2B_G(v, a, b, c, d, x, y)             \
    do {                                                \
        v[a] = v[a] + v[b] + (x);                       \
        v[d] = kiln_rotr64(v[d] ^ v[a], 32);            \
        v[c] = v[c] + v[d];                             \
        v[b] = kiln_rotr64(v[b] ^ v[c], 24);            \
        v[a] = v[a] + v[b] + (y);                       \
        v[d] = kiln_rotr64(v[d] ^ v[a], 16);            \
        v[c] = v[c] + v[d];                             \
        v[b] = kiln_rotr64(v[b] ^ v[c], 63);            \
    } while (0)
#define KILN_BLAKE2S_G(v, a, b, c, d, x, y)             \
    do {                                                \
        v[a] = v[a] + v[b] + (x);                       \
        v[d] = kiln_rotr32(v[d] ^ v[a], 16);            \
        v[c] = v[c] + v[d];                             \
        v[b] = kiln_rotr32(v[b] ^ v[c], 12);            \
        v[a] = v[a] + v[b] + (y);                       \
        v[d] = kiln_rotr32(v[d] ^ v[a], 8);             \
        v[c] = v[c] + v[d];                             \
        v[b] = kiln_rotr32(v[b] ^ v[c], 7);             \
    } while (0)

/* One round: the four column steps, then the four diagonal steps, message words in SIGMA's order. */
#define KILN_BLAKE2_ROUND(G, v, m, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
    do {                                                                                             \
        G(v, 0, 4, 8, 12, m[s0], m[s1]);                                                             \
        G(v, 1, 5, 9, 13, m[s2], m[s3]);                                                             \
        G(v, 2, 6, 10, 14, m[s4], m[s5]);                                                            \
        G(v, 3, 7, 11, 15, m[s6], m[s7]);                                                            \
        G(v, 0, 5, 10, 15, m[s8], m[s9]);                                                            \
        G(v, 1, 6, 11, 12, m[s10], m[s11]);                                                          \
        G(v, 2, 7, 8, 13, m[s12], m[s13]);                                                           \
        G(v, 3, 4, 9, 14, m[s14], m[s15]);                                                           \
    } while (0)
/* Round with the SIGMA row S (a KILN_BLAKE2_SIGMA* name): the parenthesized list expands S into
 * its 16 indices before KILN_BLAKE2_ROUND is applied to them. */
#define KILN_BLAKE2_APPLY(f, args) f args
#define KILN_BLAKE2_R(G, v, m, S) KILN_BLAKE2_APPLY(KILN_BLAKE2_ROUND, (G, v, m, S))

/* F (section 3.2): compresses the 16 message words m into h; t0, t1 the byte counter (low, high
 * word), f0 the last-block flag (all ones or 0), f1 the last-node flag (tree hashing). */
KILN_HD void kiln_blake2b_compress(uint64_t h[8], const uint64_t m[16], uint64_t t0, uint64_t t1, uint64_t f0,
                                   uint64_t f1)
{
    const uint64_t iv[8] = {KILN_BLAKE2B_IV_LIST};
    uint64_t v[16];
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[8 + i] = iv[i];
    }
    v[12] ^= t0;
    v[13] ^= t1;
    v[14] ^= f0;
    v[15] ^= f1;
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA0);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA1);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA2);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA3);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA4);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA5);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA6);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA7);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA8);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA9);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA0);
    KILN_BLAKE2_R(KILN_BLAKE2B_G, v, m, KILN_BLAKE2_SIGMA1);
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[8 + i];
}

KILN_HD void kiln_blake2s_compress(uint32_t h[8], const uint32_t m[16], uint32_t t0, uint32_t t1, uint32_t f0,
                                   uint32_t f1)
{
    const uint32_t iv[8] = {KILN_BLAKE2S_IV_LIST};
    uint32_t v[16];
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[8 + i] = iv[i];
    }
    v[12] ^= t0;
    v[13] ^= t1;
    v[14] ^= f0;
    v[15] ^= f1;
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA0);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA1);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA2);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA3);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA4);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA5);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA6);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA7);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA8);
    KILN_BLAKE2_R(KILN_BLAKE2S_G, v, m, KILN_BLAKE2_SIGMA9);
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[8 + i];
}

KILN_HD uint64_t kiln_blake2_load_le64(const uint8_t *p)
{
    return (uint64_t)kiln_load_le32(p) | ((uint64_t)kiln_load_le32(p + 4) << 32);
}

KILN_HD void kiln_blake2b_compress_bytes(uint64_t h[8], const uint8_t block[KILN_BLAKE2B_BLOCK], uint64_t t0,
                                         uint64_t t1, uint64_t f0, uint64_t f1)
{
    uint64_t m[16];
    KILN_OCL_UNROLL
    for (int i = 0; i < 16; i++) m[i] = kiln_blake2_load_le64(block + 8 * i);
    kiln_blake2b_compress(h, m, t0, t1, f0, f1);
}

KILN_HD void kiln_blake2s_compress_bytes(uint32_t h[8], const uint8_t block[KILN_BLAKE2S_BLOCK], uint32_t t0,
                                         uint32_t t1, uint32_t f0, uint32_t f1)
{
    uint32_t m[16];
    KILN_OCL_UNROLL
    for (int i = 0; i < 16; i++) m[i] = kiln_load_le32(block + 4 * i);
    kiln_blake2s_compress(h, m, t0, t1, f0, f1);
}

/* h(0) for sequential unkeyed hashing with an outlen-byte digest (section 2.5: parameter block
 * word 0 = 0x0101kknn, key length kk = 0, the rest zero); the batch kernels start here. */
KILN_HD void kiln_blake2b_init_default(uint64_t h[8], unsigned outlen)
{
    const uint64_t iv[8] = {KILN_BLAKE2B_IV_LIST};
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) h[i] = iv[i];
    h[0] ^= 0x01010000u ^ (uint64_t)outlen;
}

KILN_HD void kiln_blake2s_init_default(uint32_t h[8], unsigned outlen)
{
    const uint32_t iv[8] = {KILN_BLAKE2S_IV_LIST};
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) h[i] = iv[i];
    h[0] ^= 0x01010000u ^ (uint32_t)outlen;
}

#endif
