/* Per-job precomputation for sha256d nonce searches, shared by every backend.
 *
 * The 80-byte header is two SHA-256 blocks: the first (bytes 0..63) never changes within a job,
 * so its compression is done once (the midstate). The second block holds the last 4 bytes of the
 * Merkle root, the time, the bits and the nonce (message words W0..W3), then constant padding.
 * Rounds 0..2 of that block use only W0..W2, so their result is also per-job, as are the
 * schedule words W16 and W17. Everything here is computed once on the host; kernels start at
 * round 3 with W3 = byte-swapped nonce. */
#ifndef KILN_CORE_SHA256D_JOB_H
#define KILN_CORE_SHA256D_JOB_H

#include "../prim/sha256.h"

typedef struct kiln_sha256d_job {
    uint32_t midstate[8]; /* state after the first 64 header bytes */
    uint32_t tail[3]; /* W0..W2 of the second block (big-endian words of bytes 64..75) */
    uint32_t state3[8]; /* working variables a..h after rounds 0..2 of the second block */
    uint32_t w16, w17; /* schedule words that do not depend on the nonce */
    uint32_t target[8]; /* target as little-endian 32-bit words; target[7] most significant */
} kiln_sha256d_job;

/* Fills a job from a header (its nonce bytes ignored) and a 32-byte little-endian target. */
KILN_HD void kiln_sha256d_job_init(kiln_sha256d_job *job, const uint8_t header[80], const uint8_t target[32])
{
    kiln_sha256_iv(job->midstate);
    kiln_sha256_compress_bytes(job->midstate, header);
    for (int i = 0; i < 3; i++) job->tail[i] = kiln_load_be32(header + 64 + 4 * i);
    for (int i = 0; i < 8; i++) job->target[i] = kiln_load_le32(target + 4 * i);

    uint32_t a = job->midstate[0], b = job->midstate[1], c = job->midstate[2], d = job->midstate[3];
    uint32_t e = job->midstate[4], f = job->midstate[5], g = job->midstate[6], h = job->midstate[7];
    KILN_SHA256_ROUND(a, b, c, d, e, f, g, h, kiln_sha256_kt(0) + job->tail[0]);
    KILN_SHA256_ROUND(h, a, b, c, d, e, f, g, kiln_sha256_kt(1) + job->tail[1]);
    KILN_SHA256_ROUND(g, h, a, b, c, d, e, f, kiln_sha256_kt(2) + job->tail[2]);
    /* after three renamed rounds the variable holding "a" is f, "b" is g, and so on */
    job->state3[0] = f;
    job->state3[1] = g;
    job->state3[2] = h;
    job->state3[3] = a;
    job->state3[4] = b;
    job->state3[5] = c;
    job->state3[6] = d;
    job->state3[7] = e;

    /* W4 = 0x80000000 (padding), W5..W14 = 0, W15 = 640 (bit length) */
    job->w16 = kiln_sha256_ssig0(job->tail[1]) + job->tail[0];
    job->w17 = kiln_sha256_ssig1(640u) + kiln_sha256_ssig0(job->tail[2]) + job->tail[1];
}

/* Full sha256d of the header with `nonce`, from the job alone: the reference every fast path
 * is checked against. digest receives the 8 big-endian output words. */
KILN_HD void kiln_sha256d_job_hash(const kiln_sha256d_job *job, uint32_t nonce, uint32_t digest[8])
{
    uint32_t block[16] = {job->tail[0], job->tail[1], job->tail[2], kiln_bswap32(nonce), 0x80000000u, 0, 0, 0,
                          0, 0, 0, 0, 0, 0, 0, 640u};
    uint32_t mid[8];
    for (int i = 0; i < 8; i++) mid[i] = job->midstate[i];
    kiln_sha256_compress_words(mid, block);
    kiln_sha256_of_digest_words(mid, digest);
}

/* True when the digest (big-endian words as SHA-256 outputs them) meets the job's target:
 * the 256-bit little-endian number's most significant word is byte-swapped digest word 7. */
KILN_HD int kiln_sha256d_digest_meets(const uint32_t digest[8], const uint32_t target[8])
{
    for (int i = 7; i >= 0; i--) {
        uint32_t hw = kiln_bswap32(digest[i]);
        if (hw < target[i]) return 1;
        if (hw > target[i]) return 0;
    }
    return 1;
}

#endif
