/* SHA-512 and its truncated forms SHA-384 and SHA-512/256 (FIPS 180-4): constants, initial
 * values, the round and the compression function over 16 big-endian 64-bit words, for host and
 * device. Pure functions; no allocation, no I/O. The variants differ only in the initial value
 * and in how many bytes of the final state are the digest. */
#ifndef KILN_PRIM_SHA512_H
#define KILN_PRIM_SHA512_H

#include "bytes.h"
#include "kiln_hd.h"

/* The three variants, in the order of kiln_sha512_iv and kiln_sha512_digest_len. */
typedef enum kiln_sha512_variant {
    KILN_SHA512_VARIANT_512 = 0,
    KILN_SHA512_VARIANT_384 = 1,
    KILN_SHA512_VARIANT_512_256 = 2,
} kiln_sha512_variant;

#define KILN_SHA512_BLOCK 128
#define KILN_SHA512_MAX_DIGEST 64

/* Initial hash values H(0): FIPS 180-4 sections 5.3.5 (SHA-512), 5.3.4 (SHA-384) and 5.3.6.2
 * (SHA-512/256, the output of the SHA-512/t IV generation function for "SHA-512/256", as the
 * standard lists it; test_sha512_openssl regenerates it). */
#define KILN_SHA512_IV_LIST                                                                            \
    0x6a09e667f3bcc908ull, 0xbb67ae8584caa73bull, 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull,        \
        0x510e527fade682d1ull, 0x9b05688c2b3e6c1full, 0x1f83d9abfb41bd6bull, 0x5be0cd19137e2179ull
#define KILN_SHA384_IV_LIST                                                                            \
    0xcbbb9d5dc1059ed8ull, 0x629a292a367cd507ull, 0x9159015a3070dd17ull, 0x152fecd8f70e5939ull,        \
        0x67332667ffc00b31ull, 0x8eb44a8768581511ull, 0xdb0c2e0d64f98fa7ull, 0x47b5481dbefa4fa4ull
#define KILN_SHA512_256_IV_LIST                                                                        \
    0x22312194fc2bf72cull, 0x9f555fa3c84c64c2ull, 0x2393b86b6f53b151ull, 0x963877195940eabdull,        \
        0x96283ee2a88effe3ull, 0xbe5e1e2553863992ull, 0x2b0199fc2c85b8aaull, 0x0eb72ddc81c52ca2ull

/* Round constants (section 4.2.3), as a macro list so kernels can fold them into immediates. */
#define KILN_SHA512_K_LIST                                                                             \
    0x428a2f98d728ae22ull, 0x7137449123ef65cdull, 0xb5c0fbcfec4d3b2full, 0xe9b5dba58189dbbcull,        \
        0x3956c25bf348b538ull, 0x59f111f1b605d019ull, 0x923f82a4af194f9bull, 0xab1c5ed5da6d8118ull,    \
        0xd807aa98a3030242ull, 0x12835b0145706fbeull, 0x243185be4ee4b28cull, 0x550c7dc3d5ffb4e2ull,    \
        0x72be5d74f27b896full, 0x80deb1fe3b1696b1ull, 0x9bdc06a725c71235ull, 0xc19bf174cf692694ull,    \
        0xe49b69c19ef14ad2ull, 0xefbe4786384f25e3ull, 0x0fc19dc68b8cd5b5ull, 0x240ca1cc77ac9c65ull,    \
        0x2de92c6f592b0275ull, 0x4a7484aa6ea6e483ull, 0x5cb0a9dcbd41fbd4ull, 0x76f988da831153b5ull,    \
        0x983e5152ee66dfabull, 0xa831c66d2db43210ull, 0xb00327c898fb213full, 0xbf597fc7beef0ee4ull,    \
        0xc6e00bf33da88fc2ull, 0xd5a79147930aa725ull, 0x06ca6351e003826full, 0x142929670a0e6e70ull,    \
        0x27b70a8546d22ffcull, 0x2e1b21385c26c926ull, 0x4d2c6dfc5ac42aedull, 0x53380d139d95b3dfull,    \
        0x650a73548baf63deull, 0x766a0abb3c77b2a8ull, 0x81c2c92e47edaee6ull, 0x92722c851482353bull,    \
        0xa2bfe8a14cf10364ull, 0xa81a664bbc423001ull, 0xc24b8b70d0f89791ull, 0xc76c51a30654be30ull,    \
        0xd192e819d6ef5218ull, 0xd69906245565a910ull, 0xf40e35855771202aull, 0x106aa07032bbd1b8ull,    \
        0x19a4c116b8d2d0c8ull, 0x1e376c085141ab53ull, 0x2748774cdf8eeb99ull, 0x34b0bcb5e19b48a8ull,    \
        0x391c0cb3c5c95a63ull, 0x4ed8aa4ae3418acbull, 0x5b9cca4f7763e373ull, 0x682e6ff3d6b2b8a3ull,    \
        0x748f82ee5defb2fcull, 0x78a5636f43172f60ull, 0x84c87814a1f0ab72ull, 0x8cc702081a6439ecull,    \
        0x90befffa23631e28ull, 0xa4506cebde82bde9ull, 0xbef9a3f7b2c67915ull, 0xc67178f2e372532bull,    \
        0xca273eceea26619cull, 0xd186b8c721c0c207ull, 0xeada7dd6cde0eb1eull, 0xf57d4f7fee6ed178ull,    \
        0x06f067aa72176fbaull, 0x0a637dc5a2c898a6ull, 0x113f9804bef90daeull, 0x1b710b35131c471bull,    \
        0x28db77f523047d84ull, 0x32caab7b40c72493ull, 0x3c9ebe0a15c9bebcull, 0x431d67c49c100d4cull,    \
        0x4cc5d4becb3e42b6ull, 0x597f299cfc657e2aull, 0x5fcb6fab3ad6faecull, 0x6c44198c4a475817ull

/* Host code and device code each read their own copy: device code from constant memory, where
 * an unrolled round's fixed index becomes an operand of the add. */
KILN_TABLE uint64_t kiln_sha512_k_host[80] = {KILN_SHA512_K_LIST};
#if defined(__CUDACC__)
static __device__ __constant__ uint64_t kiln_sha512_k_dev[80] = {KILN_SHA512_K_LIST};
#endif

KILN_HD uint64_t kiln_sha512_kt(int t)
{
#if defined(__CUDA_ARCH__)
    return kiln_sha512_k_dev[t];
#else
    return kiln_sha512_k_host[t];
#endif
}

/* n in 1..63. The GPU has 32-bit funnel shifts only: a 64-bit rotate is two of them on the
 * halves (swapped first when n >= 32), where the shift-or form may cost four shifts. */
KILN_HD uint64_t kiln_rotr64(uint64_t x, int n)
{
#if defined(__CUDA_ARCH__)
    uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
    if (n >= 32) {
        uint32_t t = lo;
        lo = hi;
        hi = t;
        n -= 32;
    }
    return ((uint64_t)__funnelshift_r(hi, lo, n) << 32) | __funnelshift_r(lo, hi, n);
#elif defined(KILN_OPENCL_C) && defined(KILN_OCL_NV)
    /* NVIDIA's OpenCL compiler: the same two funnel shifts in inline PTX (the host sets
     * KILN_OCL_NV for that driver only) */
    uint64_t r;
    if (n >= 32)
        __asm__ volatile("{\n\t.reg .b32 lo, hi, rl, rh;\n\tmov.b64 {lo, hi}, %1;\n\t"
                         "shf.r.wrap.b32 rh, lo, hi, %2;\n\tshf.r.wrap.b32 rl, hi, lo, %2;\n\t"
                         "mov.b64 %0, {rl, rh};\n\t}"
                         : "=l"(r)
                         : "l"(x), "r"(n));
    else
        __asm__ volatile("{\n\t.reg .b32 lo, hi, rl, rh;\n\tmov.b64 {lo, hi}, %1;\n\t"
                         "shf.r.wrap.b32 rh, hi, lo, %2;\n\tshf.r.wrap.b32 rl, lo, hi, %2;\n\t"
                         "mov.b64 %0, {rl, rh};\n\t}"
                         : "=l"(r)
                         : "l"(x), "r"(n));
    return r;
#else
    return (x >> n) | (x << (64 - n));
#endif
}

KILN_HD uint64_t kiln_sha512_bsig0(uint64_t x) { return kiln_rotr64(x, 28) ^ kiln_rotr64(x, 34) ^ kiln_rotr64(x, 39); }
KILN_HD uint64_t kiln_sha512_bsig1(uint64_t x) { return kiln_rotr64(x, 14) ^ kiln_rotr64(x, 18) ^ kiln_rotr64(x, 41); }
KILN_HD uint64_t kiln_sha512_ssig0(uint64_t x) { return kiln_rotr64(x, 1) ^ kiln_rotr64(x, 8) ^ (x >> 7); }
KILN_HD uint64_t kiln_sha512_ssig1(uint64_t x) { return kiln_rotr64(x, 19) ^ kiln_rotr64(x, 61) ^ (x >> 6); }
KILN_HD uint64_t kiln_sha512_ch(uint64_t e, uint64_t f, uint64_t g) { return g ^ (e & (f ^ g)); }
KILN_HD uint64_t kiln_sha512_maj(uint64_t a, uint64_t b, uint64_t c) { return (a & b) | (c & (a | b)); }

/* W[t] for t >= 16 from W[t-2], W[t-7], W[t-15], W[t-16]. */
KILN_HD uint64_t kiln_sha512_expand(uint64_t w2, uint64_t w7, uint64_t w15, uint64_t w16)
{
    return kiln_sha512_ssig1(w2) + w7 + kiln_sha512_ssig0(w15) + w16;
}

/* One round with K[t] + W[t] summed into kw. As in sha256.h, the state stays in place: callers
 * rotate the argument order each round instead of moving eight words. */
#define KILN_SHA512_ROUND(a, b, c, d, e, f, g, h, kw)                                           \
    do {                                                                                        \
        uint64_t kiln_t1_ = (h) + kiln_sha512_bsig1(e) + kiln_sha512_ch((e), (f), (g)) + (kw); \
        (d) += kiln_t1_;                                                                        \
        (h) = kiln_t1_ + kiln_sha512_bsig0(a) + kiln_sha512_maj((a), (b), (c));                 \
    } while (0)

/* Round t of 16..79 with W[t] computed just before it into the 16-word window, over W[t-16]:
 * the schedule spread over the rounds measured 7% faster on the host than 16 words at a time. */
#define KILN_SHA512_XROUND(w, t, a, b, c, d, e, f, g, h)                                          \
    do {                                                                                          \
        (w)[(t) & 15] = kiln_sha512_expand((w)[((t) + 14) & 15], (w)[((t) + 9) & 15],            \
                                           (w)[((t) + 1) & 15], (w)[(t) & 15]);                   \
        KILN_SHA512_ROUND(a, b, c, d, e, f, g, h, kiln_sha512_kt(t) + (w)[(t) & 15]);             \
    } while (0)

/* Eight rounds t..t+7 (t a multiple of 8); X is KILN_SHA512_XROUND from round 16 on. */
#define KILN_SHA512_ROUNDS8(X, w, t)                \
    do {                                            \
        X(w, (t) + 0, a, b, c, d, e, f, g, h);      \
        X(w, (t) + 1, h, a, b, c, d, e, f, g);      \
        X(w, (t) + 2, g, h, a, b, c, d, e, f);      \
        X(w, (t) + 3, f, g, h, a, b, c, d, e);      \
        X(w, (t) + 4, e, f, g, h, a, b, c, d);      \
        X(w, (t) + 5, d, e, f, g, h, a, b, c);      \
        X(w, (t) + 6, c, d, e, f, g, h, a, b);      \
        X(w, (t) + 7, b, c, d, e, f, g, h, a);      \
    } while (0)
#define KILN_SHA512_PROUND(w, t, a, b, c, d, e, f, g, h) \
    KILN_SHA512_ROUND(a, b, c, d, e, f, g, h, kiln_sha512_kt(t) + (w)[(t) & 15])

/* Compresses one 128-byte block given as 16 big-endian words into state. The schedule lives in
 * a 16-word window (W[t] replaces W[t-16]), so a GPU thread keeps it in registers. */
KILN_HD void kiln_sha512_compress_words(uint64_t state[8], const uint64_t block[16])
{
    uint64_t w[16];
    KILN_OCL_UNROLL
    for (int j = 0; j < 16; j++) w[j] = block[j];
    uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
    KILN_SHA512_ROUNDS8(KILN_SHA512_PROUND, w, 0);
    KILN_SHA512_ROUNDS8(KILN_SHA512_PROUND, w, 8);
    /* a loop of 8-round bodies: fully unrolled, the host code measured 10% slower (gcc 12) */
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    KILN_OCL_UNROLL
    for (int t = 16; t < 80; t += 8) KILN_SHA512_ROUNDS8(KILN_SHA512_XROUND, w, t);
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

KILN_HD void kiln_sha512_compress_bytes(uint64_t state[8], const uint8_t block[128])
{
    uint64_t w[16];
    KILN_OCL_UNROLL
    for (int j = 0; j < 16; j++) w[j] = kiln_load_be64(block + 8 * j);
    kiln_sha512_compress_words(state, w);
}

/* H(0) of variant v; SHA-512's for an unknown v. A select per word rather than a pointer into
 * one of the tables, so that device code unrolls it into immediates instead of local memory. */
KILN_HD void kiln_sha512_iv(kiln_sha512_variant v, uint64_t state[8])
{
    const uint64_t iv512[8] = {KILN_SHA512_IV_LIST}, iv384[8] = {KILN_SHA384_IV_LIST},
                   iv256[8] = {KILN_SHA512_256_IV_LIST};
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int j = 0; j < 8; j++)
        state[j] = v == KILN_SHA512_VARIANT_384 ? iv384[j] : v == KILN_SHA512_VARIANT_512_256 ? iv256[j] : iv512[j];
}

/* Digest bytes of variant v (the leading bytes of the big-endian final state); 0 if unknown. */
KILN_HD unsigned kiln_sha512_digest_len(kiln_sha512_variant v)
{
    return v == KILN_SHA512_VARIANT_512 ? 64u : v == KILN_SHA512_VARIANT_384 ? 48u : v == KILN_SHA512_VARIANT_512_256 ? 32u : 0u;
}

/* The first n (<= 64) bytes of the big-endian state: the digest. */
KILN_HD void kiln_sha512_store_digest(const uint64_t state[8], uint8_t *out, unsigned n)
{
    for (unsigned j = 0; j < n / 8; j++) kiln_store_be64(out + 8 * j, state[j]);
    for (unsigned k = n & ~7u; k < n; k++) out[k] = (uint8_t)(state[k / 8] >> (56 - 8 * (k % 8)));
}

/* Pads a message of total bytes whose last total % 128 bytes are already at the start of tail:
 * the 0x80 marker, zeros and the 128-bit big-endian bit count (exact below 2^64 bytes). Returns
 * the padded tail's block count: 2 when fewer than 17 bytes of the last block are free. */
KILN_HD unsigned kiln_sha512_pad(uint8_t tail[2 * KILN_SHA512_BLOCK], uint64_t total)
{
    unsigned rem = (unsigned)(total % KILN_SHA512_BLOCK);
    unsigned end = rem + 17 > KILN_SHA512_BLOCK ? 2 * KILN_SHA512_BLOCK : KILN_SHA512_BLOCK;
    tail[rem] = 0x80;
    for (unsigned k = rem + 1; k < end - 16; k++) tail[k] = 0;
    kiln_store_be64(tail + end - 16, total >> 61);
    kiln_store_be64(tail + end - 8, total << 3);
    return end / KILN_SHA512_BLOCK;
}

#endif
