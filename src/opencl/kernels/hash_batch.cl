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

/* SHA-256, and sha256d with twice != 0 (the digest's own SHA-256, prim's one-block form). */
__kernel void kiln_sha256_batch(__global const uchar *data, __global const ulong *offsets, int with_offsets, ulong base,
                                ulong msg_len, ulong n, int twice, __global uchar *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    __global const uchar *m = data + off;
    uint32_t h[8];
    kiln_sha256_iv(h);
    uchar block[128];
    ulong full = len / 64 * 64;
    for (ulong b = 0; b < full; b += 64) {
        kiln_ocl_copy_in(block, m + b, 64);
        kiln_sha256_compress_bytes(h, block);
    }
    /* the tail, the 0x80 marker, zeros and the 64-bit big-endian bit count: one or two blocks */
    uint rem = (uint)(len - full), end = rem + 9 > 64 ? 128 : 64;
    kiln_ocl_copy_in(block, m + full, rem);
    block[rem] = 0x80;
    for (uint k = rem + 1; k < end - 8; k++) block[k] = 0;
    kiln_store_be64(block + end - 8, len << 3);
    kiln_sha256_compress_bytes(h, block);
    if (end == 128) kiln_sha256_compress_bytes(h, block + 64);
    if (twice) {
        uint32_t first[8];
        for (int j = 0; j < 8; j++) first[j] = h[j];
        kiln_sha256_of_digest_words(first, h);
    }
    uchar d[32];
    for (int j = 0; j < 8; j++) kiln_store_be32(d + 4 * j, h[j]);
    for (int j = 0; j < 32; j++) out[i * 32 + j] = d[j];
}

/* SHA-512 and its truncations (variant: a kiln_sha512_variant), padded by prim's kiln_sha512_pad. */
__kernel void kiln_sha512_batch(__global const uchar *data, __global const ulong *offsets, int with_offsets, ulong base,
                                ulong msg_len, ulong n, int variant, __global uchar *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    __global const uchar *m = data + off;
    uint64_t h[8];
    kiln_sha512_iv((kiln_sha512_variant)variant, h);
    uchar block[2 * KILN_SHA512_BLOCK];
    ulong full = len / KILN_SHA512_BLOCK * KILN_SHA512_BLOCK;
    for (ulong b = 0; b < full; b += KILN_SHA512_BLOCK) {
        kiln_ocl_copy_in(block, m + b, KILN_SHA512_BLOCK);
        kiln_sha512_compress_bytes(h, block);
    }
    kiln_ocl_copy_in(block, m + full, (uint)(len - full));
    unsigned blocks = kiln_sha512_pad(block, len);
    for (unsigned b = 0; b < blocks; b++) kiln_sha512_compress_bytes(h, block + b * KILN_SHA512_BLOCK);
    unsigned dl = kiln_sha512_digest_len((kiln_sha512_variant)variant);
    uchar d[64];
    kiln_sha512_store_digest(h, d, dl);
    for (unsigned j = 0; j < dl; j++) out[i * dl + j] = d[j];
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
