/* SHA-1 (FIPS 180-4 section 6.1): the initial value and the compression function, for host and
 * device (the CPU's portable fallback, the CUDA and OpenCL batch kernels). Blocks are 16
 * big-endian words, as SHA-256 reads them, and the padding is SHA-256's (0x80, zeros, the 64-bit
 * big-endian bit count), so the batch kernels read SHA-1's message words with SHA-256's reader.
 * SHA-1 is broken for collision resistance; kiln offers it for checksums and interoperation. */
#ifndef KILN_PRIM_SHA1_H
#define KILN_PRIM_SHA1_H

#include "bytes.h"
#include "kiln_hd.h"

#define KILN_SHA1_BLOCK 64
#define KILN_SHA1_DIGEST 20

/* H(0), FIPS 180-4 section 5.3.1. */
KILN_HD void kiln_sha1_iv(uint32_t state[5])
{
    state[0] = 0x67452301u;
    state[1] = 0xefcdab89u;
    state[2] = 0x98badcfeu;
    state[3] = 0x10325476u;
    state[4] = 0xc3d2e1f0u;
}

/* Round t (0..79) with the schedule word wt: the function and constant of its group of twenty
 * (Ch, Parity, Maj, Parity), then the rename of a..e, which an unrolled loop turns into nothing. */
#define KILN_SHA1_ROUND(t, a, b, c, d, e, wt)                                                                          \
    do {                                                                                                               \
        uint32_t f_, k_;                                                                                               \
        if ((t) < 20) f_ = (d) ^ ((b) & ((c) ^ (d))), k_ = 0x5a827999u;                                                \
        else if ((t) < 40) f_ = (b) ^ (c) ^ (d), k_ = 0x6ed9eba1u;                                                     \
        else if ((t) < 60) f_ = ((b) & (c)) | ((d) & ((b) | (c))), k_ = 0x8f1bbcdcu;                                  \
        else f_ = (b) ^ (c) ^ (d), k_ = 0xca62c1d6u;                                                                   \
        const uint32_t t_ = kiln_rotl32((a), 5) + f_ + (e) + k_ + (wt);                                                \
        (e) = (d);                                                                                                     \
        (d) = (c);                                                                                                     \
        (c) = kiln_rotl32((b), 30);                                                                                    \
        (b) = (a);                                                                                                     \
        (a) = t_;                                                                                                      \
    } while (0)

/* Compresses one block of 16 big-endian words into state. The schedule is a window of sixteen
 * words updated in place (W[t] replaces W[t - 16]), so a GPU thread keeps it in registers. */
KILN_HD void kiln_sha1_compress_words(uint32_t state[5], const uint32_t block[16])
{
    uint32_t w[16];
    KILN_OCL_UNROLL
    for (int t = 0; t < 16; t++) w[t] = block[t];
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
    KILN_OCL_UNROLL
    for (int t = 0; t < 80; t++) {
        if (t >= 16) w[t & 15] = kiln_rotl32(w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15], 1);
        KILN_SHA1_ROUND(t, a, b, c, d, e, w[t & 15]);
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
}

KILN_HD void kiln_sha1_compress_bytes(uint32_t state[5], const uint8_t block[64])
{
    uint32_t w[16];
    KILN_OCL_UNROLL
    for (int t = 0; t < 16; t++) w[t] = kiln_load_be32(block + 4 * t);
    kiln_sha1_compress_words(state, w);
}

#endif
