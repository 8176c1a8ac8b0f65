/* Portable one-nonce-at-a-time sha256d search: the reference lane kernel. It already uses the
 * per-job precomputation (start at round 3 of the second block, constant schedule words) and the
 * early reject (the second hash stops once digest word 7 is known, after round 60). */
#include "sha256d_cpu.h"

static uint32_t digest_word7(const kiln_sha256d_job *job, uint32_t nonce)
{
    uint32_t w[64];
    w[0] = job->tail[0];
    w[1] = job->tail[1];
    w[2] = job->tail[2];
    w[3] = kiln_bswap32(nonce);
    w[4] = 0x80000000u;
    for (int t = 5; t < 15; t++) w[t] = 0;
    w[15] = 640u;
    w[16] = job->w16;
    w[17] = job->w17;
    for (int t = 18; t < 64; t++) w[t] = kiln_sha256_expand(w[t - 2], w[t - 7], w[t - 15], w[t - 16]);

    uint32_t s[8];
    for (int i = 0; i < 8; i++) s[i] = job->state3[i];
    for (int t = 3; t < 64; t++) {
        uint32_t t1 = s[7] + kiln_sha256_bsig1(s[4]) + kiln_sha256_ch(s[4], s[5], s[6]) + kiln_sha256_kt(t) + w[t];
        uint32_t t2 = kiln_sha256_bsig0(s[0]) + kiln_sha256_maj(s[0], s[1], s[2]);
        s[7] = s[6], s[6] = s[5], s[5] = s[4], s[4] = s[3] + t1;
        s[3] = s[2], s[2] = s[1], s[1] = s[0], s[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) w[i] = job->midstate[i] + s[i];
    w[8] = 0x80000000u;
    for (int t = 9; t < 15; t++) w[t] = 0;
    w[15] = 256u;
    for (int t = 16; t < 61; t++) w[t] = kiln_sha256_expand(w[t - 2], w[t - 7], w[t - 15], w[t - 16]);

    kiln_sha256_iv(s);
    for (int t = 0; t < 60; t++) {
        uint32_t t1 = s[7] + kiln_sha256_bsig1(s[4]) + kiln_sha256_ch(s[4], s[5], s[6]) + kiln_sha256_kt(t) + w[t];
        uint32_t t2 = kiln_sha256_bsig0(s[0]) + kiln_sha256_maj(s[0], s[1], s[2]);
        s[7] = s[6], s[6] = s[5], s[5] = s[4], s[4] = s[3] + t1;
        s[3] = s[2], s[2] = s[1], s[1] = s[0], s[0] = t1 + t2;
    }
    /* round 60's new e becomes h after rounds 61..63, untouched: digest word 7 = e60 + IV7 */
    uint32_t e60 = s[3] + s[7] + kiln_sha256_bsig1(s[4]) + kiln_sha256_ch(s[4], s[5], s[6]) + kiln_sha256_kt(60) + w[60];
    return e60 + KILN_SHA256_IV7;
}

uint64_t kiln_sha256d_lanes_scalar(const kiln_sha256d_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                   uint32_t cap)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint32_t nonce = start + (uint32_t)i;
        if (kiln_bswap32(digest_word7(job, nonce)) <= job->target[7]) {
            if (n < cap) cand[n] = nonce;
            n++;
        }
    }
    return n;
}
