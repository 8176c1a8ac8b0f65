/* Per-job precomputation for Litecoin-style scrypt searches, shared by every backend.
 *
 * The PoW hash is scrypt(P = header, S = header, N = 1024, r = 1, p = 1, 32 bytes). The 80-byte
 * header is longer than a SHA-256 block, so HMAC hashes it into the key first; per nonce the work
 * is: K = SHA-256(header) (its first block is per-job: the midstate), the two pad
 * states, then PBKDF2's four 32-byte blocks of B, ROMix, and one HMAC over B' || INT(1). This file
 * holds the per-job part and the per-nonce PBKDF2 steps in the scalar form that the reference
 * lane and the one-hash-per-thread GPU layout run. */
#ifndef KILN_CORE_SCRYPT_JOB_H
#define KILN_CORE_SCRYPT_JOB_H

#include "../prim/hmac_sha256.h"
#include "../prim/salsa.h"

#define KILN_SCRYPT_LTC_N 1024u

typedef struct kiln_scrypt_job {
    uint32_t head[20]; /* header as big-endian words; head[19] (the nonce) is replaced per nonce */
    uint32_t mid[8]; /* SHA-256 state after header bytes 0..63 */
    uint32_t target_top; /* most significant 32 bits of the target (little-endian number) */
} kiln_scrypt_job;

KILN_HD void kiln_scrypt_job_init(kiln_scrypt_job *job, const uint8_t header[80], const uint8_t target[32])
{
    for (int i = 0; i < 20; i++) job->head[i] = kiln_load_be32(header + 4 * i);
    kiln_sha256_iv(job->mid);
    kiln_sha256_compress_ring(job->mid, job->head);
    job->target_top = kiln_load_le32(target + 28);
}

/* HMAC key schedule for one nonce: K = SHA-256(header) from the midstate, then the pad states. */
KILN_HD void kiln_scrypt_job_key(const kiln_scrypt_job *job, uint32_t nonce_be, kiln_hmac_sha256_key *k)
{
    uint32_t block[16] = {job->head[16], job->head[17], job->head[18], nonce_be, 0x80000000u, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, 0, 640u};
    uint32_t key[16];
    for (int i = 0; i < 8; i++) key[i] = job->mid[i];
    kiln_sha256_compress_ring(key, block);
    for (int i = 8; i < 16; i++) key[i] = 0;
    kiln_hmac_sha256_key_words(k, key);
}

/* State after the inner pad and header bytes 0..63: shared by PBKDF2's four first-pass blocks. */
KILN_HD void kiln_scrypt_job_inner64(const kiln_scrypt_job *job, const kiln_hmac_sha256_key *k, uint32_t st[8])
{
    for (int i = 0; i < 8; i++) st[i] = k->inner[i];
    kiln_sha256_compress_ring(st, job->head);
}

/* Block `index` (1..4) of B = PBKDF2(header, header, 1, 128) as 8 little-endian salsa words. */
KILN_HD void kiln_scrypt_job_b_block(const kiln_scrypt_job *job, const kiln_hmac_sha256_key *k,
                                     const uint32_t inner64[8], uint32_t nonce_be, uint32_t index, uint32_t out[8])
{
    /* inner message: pad block (64) + header (80) + INT(index) (4) = 148 bytes = 1184 bits */
    uint32_t block[16] = {job->head[16], job->head[17], job->head[18], nonce_be, index, 0x80000000u, 0, 0,
                          0, 0, 0, 0, 0, 0, 0, 1184u};
    uint32_t st[8], u[8];
    for (int i = 0; i < 8; i++) st[i] = inner64[i];
    kiln_sha256_compress_ring(st, block);
    kiln_hmac_sha256_outer(k, st, u);
    for (int i = 0; i < 8; i++) out[i] = kiln_bswap32(u[i]);
}

/* The PoW digest HMAC(K, B' || INT(1)) from ROMix's output X (32 little-endian salsa words), as
 * 8 big-endian SHA-256 words. The hash's top 32 bits (little-endian number) are bswap(d[7]). */
KILN_HD void kiln_scrypt_job_final(const kiln_hmac_sha256_key *k, const uint32_t X[32], uint32_t d[8])
{
    uint32_t block[16], st[8];
    for (int i = 0; i < 8; i++) st[i] = k->inner[i];
    for (int i = 0; i < 16; i++) block[i] = kiln_bswap32(X[i]);
    kiln_sha256_compress_ring(st, block);
    for (int i = 0; i < 16; i++) block[i] = kiln_bswap32(X[16 + i]);
    kiln_sha256_compress_ring(st, block);
    /* pad block (64) + B' (128) + INT(1) (4) = 196 bytes = 1568 bits */
    block[0] = 1;
    block[1] = 0x80000000u;
    for (int i = 2; i < 15; i++) block[i] = 0;
    block[15] = 1568u;
    kiln_sha256_compress_ring(st, block);
    kiln_hmac_sha256_outer(k, st, d);
}

#endif
