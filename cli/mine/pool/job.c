#include "job.h"

#include <stdlib.h>
#include <string.h>

#include "kiln.h"

void pool_job_free(pool_job *job)
{
    free(job->coinb);
    job->coinb = NULL;
    job->coinb1_len = job->coinb2_len = 0;
}

int pool_job_copy(pool_job *dst, const pool_job *src)
{
    *dst = *src;
    size_t n = src->coinb1_len + src->coinb2_len;
    dst->coinb = malloc(n ? n : 1);
    if (!dst->coinb) return -1;
    if (n) memcpy(dst->coinb, src->coinb, n);
    return 0;
}

int pool_prevhash_from_hex(const char *hex, uint8_t out[32])
{
    uint8_t raw[32];
    if (kiln_hex_decode(NULL, hex, raw, 32) != KILN_OK) return -1;
    for (int w = 0; w < 8; w++)
        for (int j = 0; j < 4; j++) out[4 * w + j] = raw[4 * w + 3 - j];
    return 0;
}

int pool_u32_from_hex(const char *hex, uint32_t *out)
{
    uint8_t b[4];
    if (kiln_hex_decode(NULL, hex, b, 4) != KILN_OK) return -1;
    *out = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return 0;
}

void pool_merkle_root(const uint8_t coinbase_hash[32], const uint8_t (*branch)[32], int nbranch, uint8_t root[32])
{
    uint8_t pair[64];
    memcpy(root, coinbase_hash, 32);
    for (int i = 0; i < nbranch; i++) {
        memcpy(pair, root, 32);
        memcpy(pair + 32, branch[i], 32);
        kiln_sha256d(pair, 64, root);
    }
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void pool_job_header(const pool_job *job, const uint8_t *en1, size_t en1_len, const uint8_t *en2, size_t en2_len,
                     uint32_t version, uint8_t header[80])
{
    kiln_sha256_stream s;
    uint8_t once[32], cb_hash[32], root[32];
    kiln_sha256_init(&s);
    kiln_sha256_update(&s, job->coinb, job->coinb1_len);
    kiln_sha256_update(&s, en1, en1_len);
    kiln_sha256_update(&s, en2, en2_len);
    kiln_sha256_update(&s, job->coinb + job->coinb1_len, job->coinb2_len);
    kiln_sha256_final(&s, once);
    kiln_sha256(once, 32, cb_hash);
    pool_merkle_root(cb_hash, (const uint8_t(*)[32])job->branch, job->nbranch, root);
    put_le32(header, version);
    memcpy(header + 4, job->prevhash, 32);
    memcpy(header + 36, root, 32);
    put_le32(header + 68, job->ntime);
    put_le32(header + 72, job->nbits);
    put_le32(header + 76, 0);
}

void pool_en2_encode(uint64_t counter, size_t size, uint8_t *out)
{
    for (size_t i = 0; i < size; i++) out[size - 1 - i] = i < 8 ? (uint8_t)(counter >> (8 * i)) : 0;
}
