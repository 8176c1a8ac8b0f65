/* Digest batches: one work-item per message, over the primitives of src/prim (included, so
 * embedded, as they are). Message bytes are read from global memory into private blocks, where
 * the primitives work (OpenCL C 1.2: their pointer parameters are private). Message i is
 * data[offsets[i] - base, offsets[i + 1] - base) with offsets, else data[i * msg_len, ...). */
#include "../../prim/sha256.h"
#include "../../prim/sha512.h"
#include "../../prim/keccak.h"

static void kiln_ocl_message(__global const ulong *offsets, int with_offsets, ulong base, ulong msg_len, ulong i,
                             ulong *off, ulong *len)
{
    if (with_offsets) {
        *off = offsets[i] - base;
        *len = offsets[i + 1] - offsets[i];
    } else {
        *off = i * msg_len;
        *len = msg_len;
    }
}

static void kiln_ocl_copy_in(uchar *dst, __global const uchar *src, uint n)
{
    for (uint k = 0; k < n; k++) dst[k] = src[k];
}

/* Big-endian words of a message straight from global memory: one load where the message is
 * aligned to the word, else its bytes. Padding is built word by word in loops of constant count,
 * so every block stays in registers (an array indexed by a run-time count would live in local
 * memory). byte(pos) is the padded message's byte: the message, 0x80 after it, then zeros. */
static inline uint kiln_ocl_be32_at(__global const uchar *p, int aligned)
{
    if (aligned) return kiln_bswap32(*(__global const uint *)p);
    return (uint)p[0] << 24 | (uint)p[1] << 16 | (uint)p[2] << 8 | p[3];
}

static inline ulong kiln_ocl_be64_at(__global const uchar *p, int aligned)
{
    if (aligned) {
        ulong v = *(__global const ulong *)p;
        return (ulong)kiln_bswap32((uint)v) << 32 | kiln_bswap32((uint)(v >> 32));
    }
    ulong v = 0;
    for (int j = 0; j < 8; j++) v = v << 8 | p[j];
    return v;
}

static inline uint kiln_ocl_pad_byte(__global const uchar *m, uint pos, uint rem)
{
    return pos < rem ? m[pos] : pos == rem ? 0x80u : 0u;
}

/* SHA-256, and sha256d with twice != 0 (the digest's own SHA-256, prim's one-block form). */
__kernel void kiln_sha256_batch(__global const uchar *data, __global const ulong *offsets, int with_offsets, ulong base,
                                ulong msg_len, ulong n, int twice, __global uchar *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    __global const uchar *m = data + off;
    const int aligned = (((ulong)m) & 3) == 0;
    uint32_t h[8], w[16];
    kiln_sha256_iv(h);
    ulong b = 0;
    for (; len - b >= 64; b += 64) {
        _Pragma("unroll") for (int k = 0; k < 16; k++) w[k] = kiln_ocl_be32_at(m + b + 4 * k, aligned);
        kiln_sha256_compress_words(h, w);
    }
    /* the tail and the 0x80 marker; the 64-bit bit count ends this block or a second one */
    const uint rem = (uint)(len - b);
    _Pragma("unroll") for (int k = 0; k < 16; k++) {
        uint v = 0;
        if (4 * k + 4 <= rem) {
            v = kiln_ocl_be32_at(m + b + 4 * k, aligned);
        } else {
            _Pragma("unroll") for (int j = 0; j < 4; j++) v = v << 8 | kiln_ocl_pad_byte(m + b, 4 * k + j, rem);
        }
        w[k] = v;
    }
    if (rem + 9 > 64) {
        kiln_sha256_compress_words(h, w);
        _Pragma("unroll") for (int k = 0; k < 14; k++) w[k] = 0;
    }
    w[14] = (uint)(len >> 29);
    w[15] = (uint)(len << 3);
    kiln_sha256_compress_words(h, w);
    if (twice) {
        uint32_t first[8];
        _Pragma("unroll") for (int j = 0; j < 8; j++) first[j] = h[j];
        kiln_sha256_of_digest_words(first, h);
    }
    __global uchar *o = out + i * 32;
    _Pragma("unroll") for (int j = 0; j < 8; j++) {
        o[4 * j] = (uchar)(h[j] >> 24);
        o[4 * j + 1] = (uchar)(h[j] >> 16);
        o[4 * j + 2] = (uchar)(h[j] >> 8);
        o[4 * j + 3] = (uchar)h[j];
    }
}

/* SHA-512 and its truncations (variant: a kiln_sha512_variant): 128-byte blocks, a 128-bit bit
 * count whose upper half is zero for any message here. */
__kernel void kiln_sha512_batch(__global const uchar *data, __global const ulong *offsets, int with_offsets, ulong base,
                                ulong msg_len, ulong n, int variant, __global uchar *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    __global const uchar *m = data + off;
    const int aligned = (((ulong)m) & 7) == 0;
    uint64_t h[8], w[16];
    kiln_sha512_iv((kiln_sha512_variant)variant, h);
    ulong b = 0;
    for (; len - b >= KILN_SHA512_BLOCK; b += KILN_SHA512_BLOCK) {
        _Pragma("unroll") for (int k = 0; k < 16; k++) w[k] = kiln_ocl_be64_at(m + b + 8 * k, aligned);
        kiln_sha512_compress_words(h, w);
    }
    const uint rem = (uint)(len - b);
    _Pragma("unroll") for (int k = 0; k < 16; k++) {
        ulong v = 0;
        if (8 * k + 8 <= rem) {
            v = kiln_ocl_be64_at(m + b + 8 * k, aligned);
        } else {
            _Pragma("unroll") for (int j = 0; j < 8; j++) v = v << 8 | kiln_ocl_pad_byte(m + b, 8 * k + j, rem);
        }
        w[k] = v;
    }
    if (rem + 17 > KILN_SHA512_BLOCK) {
        kiln_sha512_compress_words(h, w);
        _Pragma("unroll") for (int k = 0; k < 14; k++) w[k] = 0;
    }
    w[14] = len >> 61;
    w[15] = len << 3;
    kiln_sha512_compress_words(h, w);
    const uint dl = kiln_sha512_digest_len((kiln_sha512_variant)variant);
    __global uchar *o = out + i * dl;
    _Pragma("unroll") for (int k = 0; k < 8; k++) {
        _Pragma("unroll") for (int j = 0; j < 8; j++) {
            if (8 * k + j < dl) o[8 * k + j] = (uchar)(h[k] >> (56 - 8 * j));
        }
    }
}

/* The Keccak sponge (SHA-3, SHAKE, Keccak): rate bytes a block, domain byte, outlen bytes out
 * (any length: squeezed block after block). */
__kernel void kiln_keccak_batch(__global const uchar *data, __global const ulong *offsets, int with_offsets, ulong base,
                                ulong msg_len, ulong n, uint rate, uint domain, uint outlen, __global uchar *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    __global const uchar *m = data + off;
    uint64_t s[KILN_KECCAK_LANES];
    for (int k = 0; k < KILN_KECCAK_LANES; k++) s[k] = 0;
    uchar block[KILN_KECCAK_STATE_BYTES];
    ulong full = len / rate * rate;
    for (ulong b = 0; b < full; b += rate) {
        kiln_ocl_copy_in(block, m + b, rate);
        kiln_keccak_xor_block(s, block, rate);
        kiln_keccak_f1600(s);
    }
    uint rem = (uint)(len - full);
    kiln_ocl_copy_in(block, m + full, rem);
    for (uint k = rem; k < rate; k++) block[k] = 0;
    kiln_keccak_xor_block(s, block, rate);
    kiln_keccak_pad(s, rem, rate, (uint8_t)domain);
    kiln_keccak_f1600(s);
    __global uchar *o = out + i * outlen;
    for (uint done = 0;;) {
        uint take = outlen - done < rate ? outlen - done : rate;
        for (uint j = 0; j < take; j++) o[done + j] = kiln_keccak_get_byte(s, j);
        done += take;
        if (done == outlen) break;
        kiln_keccak_f1600(s);
    }
}

/* The Keccak sponge again, one kernel per rate of the hash algorithms (R bytes, a literal): every
 * loop over a block's lanes then has a constant trip count and unrolls, so the 25 lanes stay in
 * registers (indexed by a run-time count they would live in local memory). Whole lanes are read
 * straight from global memory, as 64-bit words when the message is 8-byte aligned. */
static inline ulong kiln_ocl_lane_at(__global const uchar *p, int aligned)
{
    if (aligned) return *(__global const ulong *)p;
    ulong v = 0;
    for (int j = 7; j >= 0; j--) v = v << 8 | p[j];
    return v;
}

#define KILN_OCL_KECCAK_RATE(R)                                                                                        \
    __kernel void kiln_keccak_batch_r##R(__global const uchar *data, __global const ulong *offsets, int with_offsets,  \
                                         ulong base, ulong msg_len, ulong n, uint domain, uint outlen,                 \
                                         __global uchar *out)                                                          \
    {                                                                                                                  \
        ulong i = get_global_id(0), off, len;                                                                          \
        if (i >= n) return;                                                                                            \
        kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);                                         \
        __global const uchar *m = data + off;                                                                          \
        const int aligned = (((ulong)m) & 7) == 0;                                                                     \
        uint64_t s[KILN_KECCAK_LANES];                                                                                 \
        _Pragma("unroll") for (int k = 0; k < KILN_KECCAK_LANES; k++) s[k] = 0;                                        \
        ulong b = 0;                                                                                                   \
        for (; len - b >= R; b += R) {                                                                                 \
            _Pragma("unroll") for (int k = 0; k < R / 8; k++) s[k] ^= kiln_ocl_lane_at(m + b + 8 * k, aligned);        \
            kiln_keccak_f1600(s);                                                                                      \
        }                                                                                                              \
        /* the tail, the domain byte after it and 0x80 in the block's last byte, lane by lane */                      \
        const uint rem = (uint)(len - b);                                                                              \
        _Pragma("unroll") for (int k = 0; k < R / 8; k++) {                                                            \
            ulong v = 0;                                                                                               \
            _Pragma("unroll") for (int j = 7; j >= 0; j--) {                                                           \
                const uint pos = 8 * k + j;                                                                            \
                ulong byte = pos < rem ? m[b + pos] : pos == rem ? domain : 0;                                         \
                if (pos == R - 1) byte |= 0x80;                                                                        \
                v = v << 8 | byte;                                                                                     \
            }                                                                                                          \
            s[k] ^= v;                                                                                                 \
        }                                                                                                              \
        kiln_keccak_f1600(s);                                                                                          \
        __global uchar *o = out + i * outlen;                                                                          \
        for (uint done = 0;;) {                                                                                        \
            _Pragma("unroll") for (int k = 0; k < R / 8; k++) {                                                        \
                _Pragma("unroll") for (int j = 0; j < 8; j++) {                                                        \
                    if (done + 8 * k + j < outlen) o[done + 8 * k + j] = (uchar)(s[k] >> (8 * j));                     \
                }                                                                                                      \
            }                                                                                                          \
            done += R;                                                                                                 \
            if (done >= outlen) break;                                                                                 \
            kiln_keccak_f1600(s);                                                                                      \
        }                                                                                                              \
    }

KILN_OCL_KECCAK_RATE(72)
KILN_OCL_KECCAK_RATE(104)
KILN_OCL_KECCAK_RATE(136)
KILN_OCL_KECCAK_RATE(144)
KILN_OCL_KECCAK_RATE(168)

/* Keccak-f[1600] on n states of 25 lanes in place, iters times each (the bench's in-register
 * mode; a batch is 1). */
__kernel void kiln_keccak_f1600_batch(__global ulong *states, ulong n, uint iters)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    uint64_t s[KILN_KECCAK_LANES];
    for (int k = 0; k < KILN_KECCAK_LANES; k++) s[k] = states[25 * i + k];
    for (uint r = 0; r < iters; r++) kiln_keccak_f1600(s);
    for (int k = 0; k < KILN_KECCAK_LANES; k++) states[25 * i + k] = s[k];
}

/* The benches' device-made inputs: splitmix64 of each word's index, and offsets i * len. */
__kernel void kiln_fill_random(__global ulong *d, ulong words, ulong seed)
{
    ulong i = get_global_id(0);
    if (i >= words) return;
    ulong z = (i + seed) * 0x9e3779b97f4a7c15ul;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ul;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebul;
    d[i] = z ^ (z >> 31);
}

__kernel void kiln_fill_offsets(__global ulong *o, ulong n, ulong len)
{
    ulong i = get_global_id(0);
    if (i <= n) o[i] = i * len;
}
