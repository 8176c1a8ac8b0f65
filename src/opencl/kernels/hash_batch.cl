/* Digest batches: one work-item per message, over the primitives of src/prim (included, so
 * embedded, as they are), and Keccak-f[1600] permutation batches. The message words are read
 * from global memory straight into the private words the primitives work on (OpenCL C 1.2: their
 * pointer parameters are private), as src/cuda's kernels read them. Message i is
 * data[offsets[i] - base, offsets[i + 1] - base) with offsets, else data[i * msg_len, ...)
 * (hash_message.h, which a family's kernels in a .cl file of their own include too). */
#include "../../prim/sha256.h"
#include "../../prim/sha512.h"
#include "../../prim/keccak.h"
#include "../../prim/sha1.h"
#include "../../prim/md5.h"
#include "../../prim/blake2.h"
#include "../../prim/blake3.h"

#include "hash_message.h"

/* Big-endian word at byte p (a multiple of 4) of the SHA-256-padded message of len bytes at off,
 * whose padded length is padded: message bytes, 0x80, zeros, the 64-bit bit count. */
static inline uint kiln_ocl_sha256_word(__global const ulong *d, ulong off, ulong len, ulong padded, ulong p)
{
    if (p + 4 <= len) return kiln_bswap32((uint)kiln_ocl_load8(d, off + p));
    if (p >= padded - 8) return p == padded - 8 ? (uint)(len >> 29) : (uint)(len << 3);
    if (p > len) return 0;
    const uint have = (uint)(len - p); /* 0..3 message bytes, then the marker */
    uint v = have ? (uint)kiln_ocl_low_bytes(kiln_ocl_load8(d, off + p), have) : 0;
    return kiln_bswap32(v | 0x80u << (8 * have));
}

/* SHA-256 (variant 0), sha256d (1: the digest's own SHA-256, prim's one-block form) and SHA-224
 * (2: its IV, the first 7 words out). Blocks are counted over the padded length, so every block is
 * the same unrolled word loop. */
__kernel void kiln_sha256_batch(__global const ulong *data, __global const ulong *offsets, int with_offsets, ulong base,
                                ulong msg_len, ulong n, int variant, __global uint *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    const ulong padded = (len + 8) / 64 * 64 + 64;
    uint32_t h[8];
    if (variant == 2) kiln_sha224_iv(h);
    else kiln_sha256_iv(h);
    for (ulong b = 0; b < padded; b += 64) {
        uint32_t w[16];
        _Pragma("unroll") for (int k = 0; k < 16; k++) w[k] = kiln_ocl_sha256_word(data, off, len, padded, b + 4 * k);
        kiln_sha256_compress_words(h, w);
    }
    if (variant == 1) {
        uint32_t first[8];
        _Pragma("unroll") for (int j = 0; j < 8; j++) first[j] = h[j];
        kiln_sha256_of_digest_words(first, h);
    }
    /* digests are 32 or 28 bytes, so word-aligned: one store a word */
    if (variant == 2) {
        _Pragma("unroll") for (int j = 0; j < 7; j++) out[7 * i + j] = kiln_bswap32(h[j]);
    } else {
        _Pragma("unroll") for (int j = 0; j < 8; j++) out[8 * i + j] = kiln_bswap32(h[j]);
    }
}

/* SHA-1: SHA-256's padding and big-endian words (kiln_ocl_sha256_word), five words of state, 20
 * bytes out (word-aligned: one store a word). */
__kernel void kiln_sha1_batch(__global const ulong *data, __global const ulong *offsets, int with_offsets, ulong base,
                              ulong msg_len, ulong n, __global uint *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    const ulong padded = (len + 8) / 64 * 64 + 64;
    uint32_t h[5];
    kiln_sha1_iv(h);
    for (ulong b = 0; b < padded; b += 64) {
        uint32_t w[16];
        _Pragma("unroll") for (int k = 0; k < 16; k++) w[k] = kiln_ocl_sha256_word(data, off, len, padded, b + 4 * k);
        kiln_sha1_compress_words(h, w);
    }
    _Pragma("unroll") for (int j = 0; j < 5; j++) out[5 * i + j] = kiln_bswap32(h[j]);
}

/* Little-endian word at byte p (a multiple of 4) of the MD5-padded message of len bytes at off:
 * message bytes, 0x80, zeros, the 64-bit bit count little-endian (low word first). */
static inline uint kiln_ocl_md5_word(__global const ulong *d, ulong off, ulong len, ulong padded, ulong p)
{
    if (p + 4 <= len) return (uint)kiln_ocl_load8(d, off + p);
    if (p >= padded - 8) return p == padded - 8 ? (uint)(len << 3) : (uint)(len >> 29);
    if (p > len) return 0;
    const uint have = (uint)(len - p); /* 0..3 message bytes, then the marker */
    uint v = have ? (uint)kiln_ocl_low_bytes(kiln_ocl_load8(d, off + p), have) : 0;
    return v | 0x80u << (8 * have);
}

/* MD5: 16 bytes out, its state words little-endian as they are. */
__kernel void kiln_md5_batch(__global const ulong *data, __global const ulong *offsets, int with_offsets, ulong base,
                             ulong msg_len, ulong n, __global uint *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    const ulong padded = (len + 8) / 64 * 64 + 64;
    uint32_t h[4];
    kiln_md5_iv(h);
    for (ulong b = 0; b < padded; b += 64) {
        uint32_t x[16];
        _Pragma("unroll") for (int k = 0; k < 16; k++) x[k] = kiln_ocl_md5_word(data, off, len, padded, b + 4 * k);
        kiln_md5_compress_words(h, x);
    }
    _Pragma("unroll") for (int j = 0; j < 4; j++) out[4 * i + j] = h[j];
}

/* Big-endian 64-bit word at byte p (a multiple of 8) of the SHA-512-padded message: message bytes,
 * 0x80, zeros, the 128-bit bit count (its upper half zero for any message here). */
static inline ulong kiln_ocl_sha512_word(__global const ulong *d, ulong off, ulong len, ulong padded, ulong p)
{
    if (p + 8 <= len) return kiln_ocl_bswap64(kiln_ocl_load8(d, off + p));
    if (p >= padded - 16) return p == padded - 16 ? len >> 61 : len << 3;
    if (p > len) return 0;
    const uint have = (uint)(len - p);
    ulong v = have ? kiln_ocl_low_bytes(kiln_ocl_load8(d, off + p), have) : 0;
    return kiln_ocl_bswap64(v | (ulong)0x80 << (8 * have));
}

/* SHA-512 and its truncations, one kernel per variant V (a kiln_sha512_variant literal) so the IV
 * and the digest size DL are constants, as CUDA's template does. */
#define KILN_OCL_SHA512(NAME, V, DL)                                                                                   \
    __kernel void NAME(__global const ulong *data, __global const ulong *offsets, int with_offsets, ulong base,        \
                       ulong msg_len, ulong n, __global ulong *out)                                                    \
    {                                                                                                                  \
        ulong i = get_global_id(0), off, len;                                                                          \
        if (i >= n) return;                                                                                            \
        kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);                                         \
        const ulong padded = (len + 16) / KILN_SHA512_BLOCK * KILN_SHA512_BLOCK + KILN_SHA512_BLOCK;                   \
        uint64_t h[8];                                                                                                 \
        kiln_sha512_iv((kiln_sha512_variant)(V), h);                                                                   \
        for (ulong b = 0; b < padded; b += KILN_SHA512_BLOCK) {                                                        \
            uint64_t w[16];                                                                                            \
            _Pragma("unroll") for (int k = 0; k < 16; k++) w[k] = kiln_ocl_sha512_word(data, off, len, padded, b + 8 * k); \
            kiln_sha512_compress_words(h, w);                                                                          \
        }                                                                                                              \
        _Pragma("unroll") for (int k = 0; k < (DL) / 8; k++) out[(DL) / 8 * i + k] = kiln_ocl_bswap64(h[k]);           \
    }

KILN_OCL_SHA512(kiln_sha512_batch_v0, 0, 64)
KILN_OCL_SHA512(kiln_sha512_batch_v1, 1, 48)
KILN_OCL_SHA512(kiln_sha512_batch_v2, 2, 32)

/* The little-endian word of W bytes (8 or 4) at byte p of the zero-padded message of len bytes at
 * off: BLAKE2's words are the batch's own byte order, so no swap. */
static inline ulong kiln_ocl_blake2_word(__global const ulong *d, ulong off, ulong len, ulong p, uint w)
{
    if (p >= len) return 0;
    const ulong v = kiln_ocl_load8(d, off + p);
    return p + w <= len ? v : kiln_ocl_low_bytes(v, (uint)(len - p));
}

/* BLAKE2b-512 and BLAKE2s-256, unkeyed (CUDA's blake2_kernel): the last block, zero-padded, is
 * flagged and counted to the message's end; the empty message is one zero block. */
__kernel void kiln_blake2b_batch(__global const ulong *data, __global const ulong *offsets, int with_offsets,
                                 ulong base, ulong msg_len, ulong n, __global ulong *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    const ulong nblocks = len ? (len + KILN_BLAKE2B_BLOCK - 1) / KILN_BLAKE2B_BLOCK : 1;
    uint64_t h[8];
    kiln_blake2b_init_default(h, KILN_BLAKE2B_OUT);
    for (ulong b = 0; b < nblocks; b++) {
        const int last = b + 1 == nblocks;
        uint64_t m[16];
        _Pragma("unroll") for (int k = 0; k < 16; k++) m[k] = kiln_ocl_blake2_word(data, off, len, b * KILN_BLAKE2B_BLOCK + 8 * k, 8);
        kiln_blake2b_compress(h, m, last ? len : (b + 1) * KILN_BLAKE2B_BLOCK, 0, last ? ~(ulong)0 : 0, 0);
    }
    _Pragma("unroll") for (int k = 0; k < 8; k++) out[8 * i + k] = h[k];
}

__kernel void kiln_blake2s_batch(__global const ulong *data, __global const ulong *offsets, int with_offsets,
                                 ulong base, ulong msg_len, ulong n, __global uint *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    const ulong nblocks = len ? (len + KILN_BLAKE2S_BLOCK - 1) / KILN_BLAKE2S_BLOCK : 1;
    uint32_t h[8];
    kiln_blake2s_init_default(h, KILN_BLAKE2S_OUT);
    for (ulong b = 0; b < nblocks; b++) {
        const int last = b + 1 == nblocks;
        const ulong t = last ? len : (b + 1) * KILN_BLAKE2S_BLOCK;
        uint32_t m[16];
        _Pragma("unroll") for (int k = 0; k < 16; k++) m[k] = (uint)kiln_ocl_blake2_word(data, off, len, b * KILN_BLAKE2S_BLOCK + 4 * k, 4);
        kiln_blake2s_compress(h, m, (uint)t, (uint)(t >> 32), last ? 0xffffffffu : 0, 0);
    }
    _Pragma("unroll") for (int k = 0; k < 8; k++) out[8 * i + k] = h[k];
}

/* The Keccak sponge (SHA-3, SHAKE, Keccak): rate bytes a block, domain byte, outlen bytes out
 * (any length: squeezed block after block). The rates of no hash algorithm come here. */
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
 * registers (indexed by a run-time count they would live in local memory). Lanes are read as
 * whole words (kiln_ocl_load8); the last block's lanes are masked and padded in registers, as
 * CUDA's absorb_last does; digests go out a lane at a time where outlen keeps them 8-byte aligned. */
#define KILN_OCL_KECCAK_RATE(R)                                                                                        \
    __kernel void kiln_keccak_batch_r##R(__global const ulong *data, __global const ulong *offsets, int with_offsets,  \
                                         ulong base, ulong msg_len, ulong n, uint domain, uint outlen,                 \
                                         __global uchar *out)                                                          \
    {                                                                                                                  \
        ulong i = get_global_id(0), off, len;                                                                          \
        if (i >= n) return;                                                                                            \
        kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);                                         \
        uint64_t s[KILN_KECCAK_LANES];                                                                                 \
        _Pragma("unroll") for (int k = 0; k < KILN_KECCAK_LANES; k++) s[k] = 0;                                        \
        for (; len >= R; off += R, len -= R) {                                                                         \
            _Pragma("unroll") for (int k = 0; k < R / 8; k++) s[k] ^= kiln_ocl_load8(data, off + 8 * k);               \
            kiln_keccak_f1600(s);                                                                                      \
        }                                                                                                              \
        /* the tail (rem < R bytes), the domain byte after it and 0x80 in the block's last byte */                    \
        const uint rem = (uint)len, whole = rem >> 3, part = rem & 7;                                                  \
        _Pragma("unroll") for (int k = 0; k < R / 8; k++) {                                                            \
            if ((uint)k < whole) {                                                                                     \
                s[k] ^= kiln_ocl_load8(data, off + 8 * k);                                                             \
            } else if ((uint)k == whole) {                                                                             \
                ulong v = part ? kiln_ocl_low_bytes(kiln_ocl_load8(data, off + 8 * k), part) : 0;                      \
                s[k] ^= v ^ (ulong)domain << (8 * part);                                                               \
            }                                                                                                          \
        }                                                                                                              \
        s[R / 8 - 1] ^= 0x8000000000000000ul;                                                                          \
        kiln_keccak_f1600(s);                                                                                          \
        __global uchar *o = out + i * outlen;                                                                          \
        const int lanes_out = (outlen & 7) == 0;                                                                       \
        for (uint done = 0;;) {                                                                                        \
            _Pragma("unroll") for (int k = 0; k < R / 8; k++) {                                                        \
                const uint at = done + 8 * k;                                                                          \
                if (lanes_out && at + 8 <= outlen) {                                                                   \
                    *(__global ulong *)(o + at) = s[k];                                                                \
                } else if (at < outlen) {                                                                              \
                    _Pragma("unroll") for (int j = 0; j < 8; j++) {                                                    \
                        if (at + j < outlen) o[at + j] = (uchar)(s[k] >> (8 * j));                                     \
                    }                                                                                                  \
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

/* SHA3-256 and Keccak-256 of fixed-length LEN-byte messages (32 or 64: a 256-bit word or two, as
 * Ethereum hashes them), CUDA's keccak_fixed_kernel: the length, the padding's place and the
 * digest size are constants, so the zero lanes of the first round and the unused lanes of the last
 * cost nothing, and messages and digests move as 16-byte vectors (both are 16-byte aligned). */
#define KILN_OCL_KECCAK_FIXED136(LEN)                                                                                  \
    __kernel void kiln_keccak_fixed136_l##LEN(__global const ulong2 *data, ulong n, uint domain, __global ulong2 *out) \
    {                                                                                                                  \
        ulong i = get_global_id(0);                                                                                    \
        if (i >= n) return;                                                                                            \
        uint64_t s[KILN_KECCAK_LANES];                                                                                 \
        _Pragma("unroll") for (int k = 0; k < KILN_KECCAK_LANES; k++) s[k] = 0;                                        \
        _Pragma("unroll") for (int k = 0; k < LEN / 16; k++) {                                                         \
            const ulong2 v = data[LEN / 16 * i + k];                                                                   \
            s[2 * k] = v.x;                                                                                            \
            s[2 * k + 1] = v.y;                                                                                        \
        }                                                                                                              \
        s[LEN / 8] = domain;                                                                                           \
        s[136 / 8 - 1] ^= 0x8000000000000000ul;                                                                        \
        kiln_keccak_f1600(s);                                                                                          \
        out[2 * i] = (ulong2)(s[0], s[1]);                                                                             \
        out[2 * i + 1] = (ulong2)(s[2], s[3]);                                                                         \
    }

KILN_OCL_KECCAK_FIXED136(32)
KILN_OCL_KECCAK_FIXED136(64)

/* Keccak-f[1600] on n states of 25 lanes in place, iters times each (the bench's in-register
 * mode; a batch is 1), in the study's three layouts as src/cuda/keccak_perm.cu has them. */

/* thread: one work-item per state, the specification's loops and table lookups (prim's looped
 * transcription): the state in private memory indexed at run time. */
__kernel void kiln_keccak_perm_thread(__global ulong *states, ulong n, uint iters)
{
    ulong i = get_global_id(0);
    if (i >= n) return;
    uint64_t s[KILN_KECCAK_LANES];
    for (int k = 0; k < KILN_KECCAK_LANES; k++) s[k] = states[25 * i + k];
    for (uint r = 0; r < iters; r++) kiln_keccak_f1600_looped(s);
    for (int k = 0; k < KILN_KECCAK_LANES; k++) states[25 * i + k] = s[k];
}

/* unrolled: one work-item per state, straight-line rounds with the lanes in registers. A
 * work-item's lanes are 200 bytes from its neighbour's, so the group stages its states through
 * local memory (buf: 25 lanes per work-item): global memory is read and written in consecutive
 * words across the group (coalesced), and each item reads its own lanes from local memory. */
__kernel void kiln_keccak_perm_unrolled(__global ulong *states, ulong n, uint iters, __local ulong *buf)
{
    const uint t = get_local_id(0), wg = get_local_size(0);
    const ulong first = get_global_id(0) - t; /* the group's first state, past a global offset */
    const uint count = n - first < wg ? (uint)(n - first) : wg;
    __global ulong *g = states + 25 * first;
    for (uint k = t; k < 25 * count; k += wg) buf[k] = g[k];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t < count) {
        uint64_t s[KILN_KECCAK_LANES];
        _Pragma("unroll") for (int k = 0; k < KILN_KECCAK_LANES; k++) s[k] = buf[25 * t + k];
        for (uint r = 0; r < iters; r++) kiln_keccak_f1600(s);
        _Pragma("unroll") for (int k = 0; k < KILN_KECCAK_LANES; k++) buf[25 * t + k] = s[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = t; k < 25 * count; k += wg) g[k] = buf[k];
}

/* lane: 25 work-items per state, one lane each (Hoffmann's layout), the group a whole number of
 * states (get_local_size(0) = 25 per state). Each round's steps exchange lanes through local
 * memory: a (the lanes), b (after rho-pi) 25 words per state, c (theta's column parities) 5; three
 * barriers a round. Every work-item reaches every barrier, also past the batch's end. */
__kernel void kiln_keccak_perm_lane(__global ulong *states, ulong n, uint iters, __local ulong *a_sh,
                                    __local ulong *b_sh, __local ulong *c_sh)
{
    const uint t = get_local_id(0), lane = t % 25, base = t - lane, x = lane % 5, y = lane / 5;
    const ulong gi = get_global_id(0);
    const int active = gi < 25 * n;
    const int rho = kiln_keccak_rho((int)lane);
    const uint col = base / 5, dst = base + y + 5 * ((2 * x + 3 * y) % 5);
    const uint x1 = base + 5 * y + (x + 1) % 5, x2 = base + 5 * y + (x + 2) % 5;
    const uint cm = col + (x + 4) % 5, cp = col + (x + 1) % 5;
    ulong a = active ? states[gi] : 0;
    for (uint it = 0; it < iters; it++) {
        for (int r = 0; r < KILN_KECCAK_ROUNDS; r++) {
            a_sh[t] = a;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lane < 5) c_sh[col + lane] = a_sh[t] ^ a_sh[t + 5] ^ a_sh[t + 10] ^ a_sh[t + 15] ^ a_sh[t + 20];
            barrier(CLK_LOCAL_MEM_FENCE);
            const ulong d = c_sh[cm] ^ kiln_rotl64(c_sh[cp], 1);
            b_sh[dst] = kiln_rotl64(a ^ d, rho);
            barrier(CLK_LOCAL_MEM_FENCE);
            a = kiln_keccak_chi(b_sh[t], b_sh[x1], b_sh[x2]);
            if (lane == 0) a ^= kiln_keccak_rc(r);
        }
    }
    if (active) states[gi] = a;
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

/* BLAKE3 (unkeyed), outlen bytes of any length: src/prim/blake3.h's block-by-block hasher, its
 * chaining-value stack in private memory, the message words read as whole 8-byte words and the
 * last block zero-padded on the fly. */
__kernel void kiln_blake3_batch(__global const ulong *data, __global const ulong *offsets, int with_offsets, ulong base,
                                ulong msg_len, ulong n, uint outlen, __global uchar *out)
{
    ulong i = get_global_id(0), off, len;
    if (i >= n) return;
    kiln_ocl_message(offsets, with_offsets, base, msg_len, i, &off, &len);
    uint32_t key[8];
    kiln_blake3_iv(key);
    kiln_blake3_blocks h;
    kiln_blake3_blocks_init(&h, key, 0);
    kiln_blake3_output o;
    const ulong nblocks = len ? (len + KILN_BLAKE3_BLOCK - 1) / KILN_BLAKE3_BLOCK : 1;
    for (ulong b = 0; b < nblocks; b++) {
        uint32_t m[16];
        const ulong at = KILN_BLAKE3_BLOCK * b;
        _Pragma("unroll") for (int j = 0; j < 8; j++) {
            const ulong p = at + 8 * j;
            ulong q = 0;
            if (p + 8 <= len) q = kiln_ocl_load8(data, off + p);
            else if (p < len) q = kiln_ocl_low_bytes(kiln_ocl_load8(data, off + p), (uint)(len - p));
            m[2 * j] = (uint)q;
            m[2 * j + 1] = (uint)(q >> 32);
        }
        const ulong left = len - at;
        kiln_blake3_blocks_next(&h, m, left < KILN_BLAKE3_BLOCK ? (uint)left : KILN_BLAKE3_BLOCK, b + 1 == nblocks, &o);
    }
    __global uchar *dst = out + i * outlen;
    for (ulong at = 0; at < outlen; at += KILN_BLAKE3_BLOCK) {
        uint32_t w[16];
        kiln_blake3_output_root(&o, at / KILN_BLAKE3_BLOCK, w);
        for (uint j = 0; j < KILN_BLAKE3_BLOCK && at + j < outlen; j++) dst[at + j] = (uchar)(w[j / 4] >> (8 * (j % 4)));
    }
}
