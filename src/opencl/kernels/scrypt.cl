/* scrypt (RFC 7914) on the primitives of src/prim (salsa.h: BlockMix and Integerify;
 * hmac_sha256.h: HMAC and PBKDF2 pieces) and the Litecoin job of src/core/scrypt_job.h, all
 * included. OpenCL C 1.2's pointer parameters are private memory, so the scratchpad V (global)
 * is walked here, around prim's BlockMix on private X and Y, and the password, salt and B' bytes
 * (global) reach prim's streaming SHA-256 a 64-byte private block at a time. One work-item per
 * hash (search), per lane (KDF ROMix) or per 32-byte PBKDF2 block (KDF in and out). */
#include "../../core/scrypt_job.h"

#define KILN_OCL_SCRYPT_MAX_R 8 /* X and Y of 32 r words each live in private memory */

/* scryptROMix of X (32 r words) with V (N blocks of 32 r words) and Y as scratch: the fill V[i] =
 * X, X = BlockMix(X), then the mix X = BlockMix(X ^ V[Integerify(X)]). */
static void kiln_ocl_romix(uint32_t *X, uint32_t *Y, __global uint *V, ulong N, uint r)
{
    const uint words = 32 * r;
    for (ulong i = 0; i < N; i++) {
        __global uint *v = V + i * words;
        for (uint k = 0; k < words; k++) v[k] = X[k];
        kiln_scrypt_blockmix(X, Y, r);
        for (uint k = 0; k < words; k++) X[k] = Y[k];
    }
    for (ulong i = 0; i < N; i++) {
        __global const uint *v = V + kiln_scrypt_integerify(X, r, N) * words;
        for (uint k = 0; k < words; k++) Y[k] = X[k] ^ v[k];
        kiln_scrypt_blockmix(Y, X, r);
    }
}

/* The Litecoin search: nonce start + i hashed with its own scratchpad at V + i * 32 * 1024
 * words; a candidate is a nonce whose hash's top 32 bits (little-endian number) are <= the
 * target's, as the CUDA scan and the CPU decide it. */
__kernel void kiln_scrypt_ltc_search(kiln_scrypt_job job, uint start, uint count, __global uint *V,
                                     __global uint *cand, uint cap, __global volatile uint *ncand)
{
    uint i = (uint)get_global_id(0);
    if (i >= count) return;
    uint nonce = start + i, nonce_be = kiln_bswap32(nonce);
    kiln_hmac_sha256_key k;
    uint32_t inner64[8], X[32], Y[32], d[8];
    kiln_scrypt_job_key(&job, nonce_be, &k);
    kiln_scrypt_job_inner64(&job, &k, inner64);
    for (uint b = 0; b < 4; b++) kiln_scrypt_job_b_block(&job, &k, inner64, nonce_be, b + 1, X + 8 * b);
    kiln_ocl_romix(X, Y, V + (ulong)i * 32 * KILN_SCRYPT_LTC_N, KILN_SCRYPT_LTC_N, 1);
    kiln_scrypt_job_final(&k, X, d);
    if (kiln_bswap32(d[7]) <= job.target_top) {
        uint slot = atomic_inc(ncand);
        if (slot < cap) cand[slot] = nonce;
    }
}

/* n global bytes into a streaming SHA-256, a private block at a time. */
static void kiln_ocl_sha256_absorb(kiln_sha256_hd *s, __global const uchar *p, ulong n)
{
    uchar buf[64];
    while (n) {
        uint take = n < 64 ? (uint)n : 64;
        for (uint k = 0; k < take; k++) buf[k] = p[k];
        kiln_sha256_hd_update(s, buf, take);
        p += take;
        n -= take;
    }
}

/* prim's kiln_hmac_sha256_setkey for a key in global memory: a key longer than a block is first
 * hashed (RFC 2104), and its digest is then the key. */
static void kiln_ocl_hmac_key(kiln_hmac_sha256_key *k, __global const uchar *key, ulong len)
{
    uchar buf[64];
    if (len > 64) {
        kiln_sha256_hd s;
        uint32_t iv[8], w[8];
        kiln_sha256_iv(iv);
        kiln_sha256_hd_start(&s, iv, 0);
        kiln_ocl_sha256_absorb(&s, key, len);
        kiln_sha256_hd_final_words(&s, w);
        for (int i = 0; i < 8; i++) kiln_store_be32(buf + 4 * i, w[i]);
        len = 32;
    } else {
        for (uint i = 0; i < len; i++) buf[i] = key[i];
    }
    kiln_hmac_sha256_setkey(k, buf, (size_t)len);
}

/* PBKDF2-HMAC-SHA256 block `index` with one iteration (scrypt's c = 1): HMAC(P, S || INT(index))
 * for a salt in global memory, as 8 big-endian words. */
static void kiln_ocl_pbkdf2_block1(const kiln_hmac_sha256_key *k, __global const uchar *salt, ulong salt_len,
                                   uint index, uint32_t T[8])
{
    kiln_sha256_hd s;
    uint32_t inner[8];
    uchar be[4];
    kiln_sha256_hd_start(&s, k->inner, 64);
    kiln_ocl_sha256_absorb(&s, salt, salt_len);
    kiln_store_be32(be, index);
    kiln_sha256_hd_update(&s, be, 4);
    kiln_sha256_hd_final_words(&s, inner);
    kiln_hmac_sha256_outer(k, inner, T);
}

/* KDF items: 4 ulongs each (password offset and length, salt offset and length in arena). */

/* B = PBKDF2(P, S, 1, 128 r p) for items [0, n): one work-item per 32-byte block, B's words
 * little-endian (salsa order), bpi = 4 r p blocks an item. */
__kernel void kiln_scrypt_kdf_in(__global const uchar *arena, __global const ulong *items, ulong n, uint bpi,
                                 __global uint *B)
{
    ulong gid = get_global_id(0), item = gid / bpi;
    uint b = (uint)(gid % bpi);
    if (item >= n) return;
    __global const ulong *it = items + 4 * item;
    kiln_hmac_sha256_key k;
    uint32_t T[8];
    kiln_ocl_hmac_key(&k, arena + it[0], it[1]);
    kiln_ocl_pbkdf2_block1(&k, arena + it[2], it[3], b + 1, T);
    for (int q = 0; q < 8; q++) B[(item * bpi + b) * 8 + q] = kiln_bswap32(T[q]);
}

/* ROMix of lanes [lane0, lane0 + count) of B (32 r words each), lane lane0 + i with the
 * scratchpad at V + i * 32 r N words. */
__kernel void kiln_scrypt_kdf_romix(__global uint *B, ulong lane0, ulong count, ulong N, uint r, __global uint *V)
{
    ulong i = get_global_id(0);
    if (i >= count) return;
    const uint words = 32 * r;
    __global uint *x = B + (lane0 + i) * words;
    uint32_t X[32 * KILN_OCL_SCRYPT_MAX_R], Y[32 * KILN_OCL_SCRYPT_MAX_R];
    for (uint k = 0; k < words; k++) X[k] = x[k];
    kiln_ocl_romix(X, Y, V + i * words * N, N, r);
    for (uint k = 0; k < words; k++) x[k] = X[k];
}

/* The keys PBKDF2(P, B', 1, out_len) of items [0, n): one work-item per 32-byte block of a key;
 * B' is the item's 128 r p bytes of B (its little-endian words are the RFC's bytes on the
 * little-endian devices the host accepts). */
__kernel void kiln_scrypt_kdf_out(__global const uchar *arena, __global const ulong *items, ulong n, uint bpi,
                                  __global const uint *B, uint out_blocks, uint out_len, __global uchar *out)
{
    ulong gid = get_global_id(0), item = gid / out_blocks;
    uint b = (uint)(gid % out_blocks);
    if (item >= n) return;
    __global const ulong *it = items + 4 * item;
    kiln_hmac_sha256_key k;
    uint32_t T[8];
    kiln_ocl_hmac_key(&k, arena + it[0], it[1]);
    kiln_ocl_pbkdf2_block1(&k, (__global const uchar *)(B + item * bpi * 8), (ulong)bpi * 32, b + 1, T);
    __global uchar *o = out + item * out_len + 32 * b;
    for (uint i = 0; i < 32 && 32 * b + i < out_len; i++) o[i] = (uchar)(T[i >> 2] >> (24 - 8 * (i & 3)));
}
