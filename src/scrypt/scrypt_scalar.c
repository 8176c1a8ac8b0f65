/* Portable one-nonce-at-a-time Litecoin scrypt: the reference lane kernel, built from the same
 * primitives as the general KDF plus the per-job PBKDF2 shortcuts of scrypt_job.h. */
#include "scrypt_cpu.h"

uint64_t kiln_scrypt_lanes_scalar(const kiln_scrypt_job *job, uint32_t start, uint32_t count, uint32_t *cand,
                                  uint32_t cap, uint32_t *V)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint32_t nonce = start + (uint32_t)i, nonce_be = kiln_bswap32(nonce);
        kiln_hmac_sha256_key k;
        uint32_t inner64[8], X[32], Y[32], d[8];
        kiln_scrypt_job_key(job, nonce_be, &k);
        kiln_scrypt_job_inner64(job, &k, inner64);
        for (uint32_t b = 0; b < 4; b++) kiln_scrypt_job_b_block(job, &k, inner64, nonce_be, b + 1, X + 8 * b);
        kiln_scrypt_romix(X, V, Y, KILN_SCRYPT_LTC_N, 1);
        kiln_scrypt_job_final(&k, X, d);
        if (kiln_bswap32(d[7]) <= job->target_top) {
            if (n < cap) cand[n] = nonce;
            n++;
        }
    }
    return n;
}
