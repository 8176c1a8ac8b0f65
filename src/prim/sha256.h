/* SHA-256 and SHA-224 (FIPS 180-4): constants, the round function and the compression function, for host and
 * device. Pure functions over uint32_t words; no allocation, no I/O. Mining kernels build on the
 * single-round macro so they can start at any round and stop early. */
#ifndef KILN_PRIM_SHA256_H
#define KILN_PRIM_SHA256_H

#include "bytes.h"
#include "kiln_hd.h"


/* Initial hash value H(0), FIPS 180-4 section 5.3.3. */
#define KILN_SHA256_IV0 0x6a09e667u
#define KILN_SHA256_IV1 0xbb67ae85u
#define KILN_SHA256_IV2 0x3c6ef372u
#define KILN_SHA256_IV3 0xa54ff53au
#define KILN_SHA256_IV4 0x510e527fu
#define KILN_SHA256_IV5 0x9b05688cu
#define KILN_SHA256_IV6 0x1f83d9abu
#define KILN_SHA256_IV7 0x5be0cd19u

/* Round constants, as a macro list so kernels can fold them into immediates. */
#define KILN_SHA256_K_LIST                                                                     \
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,    \
        0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, \
        0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, \
        0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, \
        0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, \
        0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu, \
        0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u, \
        0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u, \
        0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, \
        0xc67178f2u

/* Host code and device code each read their own copy: device code from constant memory. */
KILN_TABLE uint32_t kiln_sha256_k_host[64] = {KILN_SHA256_K_LIST};
#if defined(__CUDACC__)
static __device__ __constant__ uint32_t kiln_sha256_k_dev[64] = {KILN_SHA256_K_LIST};
#endif

KILN_HD uint32_t kiln_sha256_kt(int t)
{
#if defined(__CUDA_ARCH__)
    return kiln_sha256_k_dev[t];
#else
    return kiln_sha256_k_host[t];
#endif
}

KILN_HD uint32_t kiln_rotr32(uint32_t x, int n)
{
#if defined(__CUDA_ARCH__)
    return __funnelshift_r(x, x, n);
#else
    return (x >> n) | (x << (32 - n));
#endif
}

KILN_HD uint32_t kiln_sha256_bsig0(uint32_t x) { return kiln_rotr32(x, 2) ^ kiln_rotr32(x, 13) ^ kiln_rotr32(x, 22); }
KILN_HD uint32_t kiln_sha256_bsig1(uint32_t x) { return kiln_rotr32(x, 6) ^ kiln_rotr32(x, 11) ^ kiln_rotr32(x, 25); }
KILN_HD uint32_t kiln_sha256_ssig0(uint32_t x) { return kiln_rotr32(x, 7) ^ kiln_rotr32(x, 18) ^ (x >> 3); }
KILN_HD uint32_t kiln_sha256_ssig1(uint32_t x) { return kiln_rotr32(x, 17) ^ kiln_rotr32(x, 19) ^ (x >> 10); }
KILN_HD uint32_t kiln_sha256_ch(uint32_t e, uint32_t f, uint32_t g) { return g ^ (e & (f ^ g)); }
KILN_HD uint32_t kiln_sha256_maj(uint32_t a, uint32_t b, uint32_t c) { return (a & b) | (c & (a | b)); }

/* W[t] for t >= 16 from the four words it depends on. */
KILN_HD uint32_t kiln_sha256_expand(uint32_t w2, uint32_t w7, uint32_t w15, uint32_t w16)
{
    return kiln_sha256_ssig1(w2) + w7 + kiln_sha256_ssig0(w15) + w16;
}

/* One round with round constant plus message word already summed into kw. The state is kept in
 * place by renaming: callers rotate the argument order (a..h) each round instead of moving data. */
#define KILN_SHA256_ROUND(a, b, c, d, e, f, g, h, kw)                                     \
    do {                                                                                  \
        uint32_t kiln_t1_ = (h) + kiln_sha256_bsig1(e) + kiln_sha256_ch((e), (f), (g)) + (kw); \
        (d) += kiln_t1_;                                                                  \
        (h) = kiln_t1_ + kiln_sha256_bsig0(a) + kiln_sha256_maj((a), (b), (c));           \
    } while (0)

/* Compresses one 64-byte block given as 16 big-endian words into state. */
KILN_HD void kiln_sha256_compress_words(uint32_t state[8], const uint32_t block[16])
{
    uint32_t w[64];
    KILN_OCL_UNROLL
    for (int t = 0; t < 16; t++) w[t] = block[t];
    KILN_OCL_UNROLL
    for (int t = 16; t < 64; t++) w[t] = kiln_sha256_expand(w[t - 2], w[t - 7], w[t - 15], w[t - 16]);
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    KILN_OCL_UNROLL
    for (int t = 0; t < 64; t += 8) {
        KILN_SHA256_ROUND(a, b, c, d, e, f, g, h, kiln_sha256_kt(t + 0) + w[t + 0]);
        KILN_SHA256_ROUND(h, a, b, c, d, e, f, g, kiln_sha256_kt(t + 1) + w[t + 1]);
        KILN_SHA256_ROUND(g, h, a, b, c, d, e, f, kiln_sha256_kt(t + 2) + w[t + 2]);
        KILN_SHA256_ROUND(f, g, h, a, b, c, d, e, kiln_sha256_kt(t + 3) + w[t + 3]);
        KILN_SHA256_ROUND(e, f, g, h, a, b, c, d, kiln_sha256_kt(t + 4) + w[t + 4]);
        KILN_SHA256_ROUND(d, e, f, g, h, a, b, c, kiln_sha256_kt(t + 5) + w[t + 5]);
        KILN_SHA256_ROUND(c, d, e, f, g, h, a, b, kiln_sha256_kt(t + 6) + w[t + 6]);
        KILN_SHA256_ROUND(b, c, d, e, f, g, h, a, kiln_sha256_kt(t + 7) + w[t + 7]);
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

KILN_HD void kiln_sha256_compress_bytes(uint32_t state[8], const uint8_t block[64])
{
    uint32_t w[16];
    KILN_OCL_UNROLL
    for (int t = 0; t < 16; t++) w[t] = kiln_load_be32(block + 4 * t);
    kiln_sha256_compress_words(state, w);
}

KILN_HD void kiln_sha256_iv(uint32_t state[8])
{
    state[0] = KILN_SHA256_IV0;
    state[1] = KILN_SHA256_IV1;
    state[2] = KILN_SHA256_IV2;
    state[3] = KILN_SHA256_IV3;
    state[4] = KILN_SHA256_IV4;
    state[5] = KILN_SHA256_IV5;
    state[6] = KILN_SHA256_IV6;
    state[7] = KILN_SHA256_IV7;
}

/* SHA-224's H(0), FIPS 180-4 section 5.3.2: SHA-256 from this value, the digest its first 7 words. */
KILN_HD void kiln_sha224_iv(uint32_t state[8])
{
    state[0] = 0xc1059ed8u;
    state[1] = 0x367cd507u;
    state[2] = 0x3070dd17u;
    state[3] = 0xf70e5939u;
    state[4] = 0xffc00b31u;
    state[5] = 0x68581511u;
    state[6] = 0x64f98fa7u;
    state[7] = 0xbefa4fa4u;
}

/* SHA-256 of a 32-byte message given as 8 big-endian words (the second hash of sha256d): one
 * block whose padding words are constants. */
KILN_HD void kiln_sha256_of_digest_words(const uint32_t in[8], uint32_t out[8])
{
    uint32_t block[16];
    for (int t = 0; t < 8; t++) block[t] = in[t];
    block[8] = 0x80000000u;
    for (int t = 9; t < 15; t++) block[t] = 0;
    block[15] = 256;
    kiln_sha256_iv(out);
    kiln_sha256_compress_words(out, block);
}

#endif
