/* Stratum jobs and the block header built from one: coinbase = coinb1 + extranonce1 +
 * extranonce2 + coinb2, Merkle root from the coinbase hash and the branch, then version,
 * previous hash, root, time, bits. No JSON here: stratum.c fills the job from mining.notify. */
#ifndef KILN_POOL_JOB_H
#define KILN_POOL_JOB_H

#include <stddef.h>
#include <stdint.h>

#define POOL_JOB_ID_MAX 64
#define POOL_BRANCH_MAX 32 /* a tree of 2^32 transactions */
#define POOL_EN1_MAX 32
#define POOL_EN2_MAX 16

typedef struct pool_job {
    char id[POOL_JOB_ID_MAX + 1];
    uint8_t prevhash[32]; /* header order (the notify field's 4-byte words swapped back) */
    uint8_t *coinb; /* coinb1 then coinb2, one allocation */
    size_t coinb1_len, coinb2_len;
    uint8_t branch[POOL_BRANCH_MAX][32];
    int nbranch;
    uint32_t version, nbits, ntime;
    int clean;
} pool_job;

void pool_job_free(pool_job *job);
/* Deep copy; -1 when out of memory. */
int pool_job_copy(pool_job *dst, const pool_job *src);

/* Stratum's prevhash field: 64 hex digits, each 4-byte word byte-swapped relative to the header.
 * 0 on success. */
int pool_prevhash_from_hex(const char *hex, uint8_t out[32]);
/* 8 hex digits of a 32-bit value, most significant first (version, nbits, ntime). 0 on success. */
int pool_u32_from_hex(const char *hex, uint32_t *out);

/* root = sha256d(root || branch[i]) for each branch entry, starting from the coinbase hash. */
void pool_merkle_root(const uint8_t coinbase_hash[32], const uint8_t (*branch)[32], int nbranch, uint8_t root[32]);

/* The 80-byte header (nonce 0) for this job with these extranonces and this version. */
void pool_job_header(const pool_job *job, const uint8_t *en1, size_t en1_len, const uint8_t *en2, size_t en2_len,
                     uint32_t version, uint8_t header[80]);

/* extranonce2 bytes for a counter value: big-endian in `size` bytes. */
void pool_en2_encode(uint64_t counter, size_t size, uint8_t *out);

#endif
