/* HMAC-SHA256 (RFC 2104) and PBKDF2-HMAC-SHA256 (RFC 8018) on the shared SHA-256 compression,
 * for host and device. The key is absorbed once into the inner and outer pad states, so each
 * HMAC after that costs the message's blocks plus one outer block. Pure, allocation-free. */
#ifndef KILN_PRIM_HMAC_SHA256_H
#define KILN_PRIM_HMAC_SHA256_H

#include "sha256.h"

/* SHA-256 compression with the message schedule kept as a 16-word ring computed as the rounds
 * need it: the same function as kiln_sha256_compress_words, but when unrolled on a GPU only 16
 * schedule words are live at a time instead of 64 (fewer registers, more resident threads). */
KILN_HD void kiln_sha256_compress_ring(uint32_t state[8], const uint32_t block[16])
{
    uint32_t w[16];
    for (int t = 0; t < 16; t++) w[t] = block[t];
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int t = 0; t < 64; t++) {
        if (t >= 16) w[t & 15] = kiln_sha256_expand(w[(t - 2) & 15], w[(t - 7) & 15], w[(t - 15) & 15], w[t & 15]);
        uint32_t t1 = h + kiln_sha256_bsig1(e) + kiln_sha256_ch(e, f, g) + kiln_sha256_kt(t) + w[t & 15];
        uint32_t t2 = kiln_sha256_bsig0(a) + kiln_sha256_maj(a, b, c);
        h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    state[0] += a, state[1] += b, state[2] += c, state[3] += d;
    state[4] += e, state[5] += f, state[6] += g, state[7] += h;
}

/* A byte-stream SHA-256 that can start from any chaining state (e.g. an HMAC pad state). */
typedef struct kiln_sha256_hd {
    uint32_t state[8];
    uint32_t buf[16]; /* partial block, big-endian words */
    uint64_t total; /* bytes absorbed, including any blocks already in state */
} kiln_sha256_hd;

KILN_HD void kiln_sha256_hd_start(kiln_sha256_hd *s, const uint32_t state[8], uint64_t absorbed)
{
    for (int i = 0; i < 8; i++) s->state[i] = state[i];
    for (int i = 0; i < 16; i++) s->buf[i] = 0;
    s->total = absorbed;
}

KILN_HD void kiln_sha256_hd_byte(kiln_sha256_hd *s, uint8_t b)
{
    unsigned fill = (unsigned)(s->total & 63);
    s->buf[fill >> 2] |= (uint32_t)b << (24 - 8 * (fill & 3));
    s->total++;
    if (fill == 63) {
        kiln_sha256_compress_ring(s->state, s->buf);
        for (int i = 0; i < 16; i++) s->buf[i] = 0;
    }
}

KILN_HD void kiln_sha256_hd_update(kiln_sha256_hd *s, const uint8_t *p, size_t n)
{
    /* whole aligned words at a time where possible, bytes at the edges */
    while (n && (s->total & 3)) kiln_sha256_hd_byte(s, *p++), n--;
    while (n >= 4) {
        unsigned fill = (unsigned)(s->total & 63);
        s->buf[fill >> 2] = kiln_load_be32(p);
        s->total += 4;
        p += 4;
        n -= 4;
        if (fill == 60) {
            kiln_sha256_compress_ring(s->state, s->buf);
            for (int i = 0; i < 16; i++) s->buf[i] = 0;
        }
    }
    while (n) kiln_sha256_hd_byte(s, *p++), n--;
}

/* Pads, compresses and leaves the digest as 8 big-endian words in out. */
KILN_HD void kiln_sha256_hd_final_words(kiln_sha256_hd *s, uint32_t out[8])
{
    uint64_t bits = s->total * 8;
    kiln_sha256_hd_byte(s, 0x80);
    if ((s->total & 63) > 56) {
        while (s->total & 63) kiln_sha256_hd_byte(s, 0);
    }
    s->buf[14] = (uint32_t)(bits >> 32);
    s->buf[15] = (uint32_t)bits;
    kiln_sha256_compress_ring(s->state, s->buf);
    for (int i = 0; i < 8; i++) out[i] = s->state[i];
}

/* HMAC key schedule: the states after compressing key^ipad and key^opad. */
typedef struct kiln_hmac_sha256_key {
    uint32_t inner[8], outer[8];
} kiln_hmac_sha256_key;

/* Pad states from a key already reduced to at most 64 bytes, given as 16 big-endian words
 * (zero-padded). */
KILN_HD void kiln_hmac_sha256_key_words(kiln_hmac_sha256_key *k, const uint32_t key[16])
{
    uint32_t pad[16];
    for (int i = 0; i < 16; i++) pad[i] = key[i] ^ 0x36363636u;
    kiln_sha256_iv(k->inner);
    kiln_sha256_compress_ring(k->inner, pad);
    for (int i = 0; i < 16; i++) pad[i] = key[i] ^ 0x5c5c5c5cu;
    kiln_sha256_iv(k->outer);
    kiln_sha256_compress_ring(k->outer, pad);
}

KILN_HD void kiln_hmac_sha256_setkey(kiln_hmac_sha256_key *k, const uint8_t *key, size_t len)
{
    uint32_t w[16];
    for (int i = 0; i < 16; i++) w[i] = 0;
    if (len > 64) { /* keys longer than a block are hashed first */
        kiln_sha256_hd s;
        uint32_t iv[8];
        kiln_sha256_iv(iv);
        kiln_sha256_hd_start(&s, iv, 0);
        kiln_sha256_hd_update(&s, key, len);
        kiln_sha256_hd_final_words(&s, w);
    } else {
        for (size_t i = 0; i < len; i++) w[i >> 2] |= (uint32_t)key[i] << (24 - 8 * (i & 3));
    }
    kiln_hmac_sha256_key_words(k, w);
}

/* Outer hash of a finished inner digest: one block, the digest then constant padding. */
KILN_HD void kiln_hmac_sha256_outer(const kiln_hmac_sha256_key *k, const uint32_t inner[8], uint32_t out[8])
{
    uint32_t block[16];
    for (int i = 0; i < 8; i++) block[i] = inner[i];
    block[8] = 0x80000000u;
    for (int i = 9; i < 15; i++) block[i] = 0;
    block[15] = (64 + 32) * 8;
    for (int i = 0; i < 8; i++) out[i] = k->outer[i];
    kiln_sha256_compress_ring(out, block);
}

/* HMAC of a 32-byte message given as 8 big-endian words (PBKDF2's U_i chain). */
KILN_HD void kiln_hmac_sha256_32(const kiln_hmac_sha256_key *k, const uint32_t msg[8], uint32_t out[8])
{
    uint32_t block[16], inner[8];
    for (int i = 0; i < 8; i++) block[i] = msg[i];
    block[8] = 0x80000000u;
    for (int i = 9; i < 15; i++) block[i] = 0;
    block[15] = (64 + 32) * 8;
    for (int i = 0; i < 8; i++) inner[i] = k->inner[i];
    kiln_sha256_compress_ring(inner, block);
    kiln_hmac_sha256_outer(k, inner, out);
}

/* T_index of PBKDF2 (index counts from 1): U_1 = HMAC(P, S || INT(index)), U_j = HMAC(P, U_j-1),
 * T = U_1 ^ ... ^ U_c. The result is 8 big-endian words. */
KILN_HD void kiln_pbkdf2_sha256_block(const kiln_hmac_sha256_key *k, const uint8_t *salt, size_t salt_len,
                                      uint64_t c, uint32_t index, uint32_t T[8])
{
    kiln_sha256_hd s;
    uint32_t inner[8], u[8];
    kiln_sha256_hd_start(&s, k->inner, 64);
    kiln_sha256_hd_update(&s, salt, salt_len);
    for (int i = 0; i < 4; i++) kiln_sha256_hd_byte(&s, (uint8_t)(index >> (24 - 8 * i)));
    kiln_sha256_hd_final_words(&s, inner);
    kiln_hmac_sha256_outer(k, inner, u);
    for (int i = 0; i < 8; i++) T[i] = u[i];
    for (uint64_t j = 1; j < c; j++) {
        kiln_hmac_sha256_32(k, u, u);
        for (int i = 0; i < 8; i++) T[i] ^= u[i];
    }
}

/* PBKDF2-HMAC-SHA256(P, S, c, dkLen) into out. dk_len <= (2^32 - 1) * 32 is the caller's check. */
KILN_HD void kiln_pbkdf2_sha256_hd(const uint8_t *pw, size_t pw_len, const uint8_t *salt, size_t salt_len, uint64_t c,
                                uint8_t *out, size_t dk_len)
{
    kiln_hmac_sha256_key k;
    kiln_hmac_sha256_setkey(&k, pw, pw_len);
    for (size_t done = 0, index = 1; done < dk_len; index++) {
        uint32_t T[8];
        kiln_pbkdf2_sha256_block(&k, salt, salt_len, c, (uint32_t)index, T);
        for (int i = 0; i < 32 && done < dk_len; i++, done++) out[done] = (uint8_t)(T[i >> 2] >> (24 - 8 * (i & 3)));
    }
}

#endif
