/* The hashing front end: one table of algorithms (digest size, sponge parameters; their names are
 * in the workload registry) and a stream type that forwards to SHA-256 or to the Keccak sponge, so `kiln hash` and the batch API
 * treat every algorithm alike. */
#include <string.h>

#include "../core/ctx.h"
#include "../prim/keccak.h"

typedef struct algo_info {
    size_t digest; /* default output bytes */
    unsigned rate; /* 0: SHA-256 family */
    uint8_t domain;
} algo_info;

static const algo_info algos[KILN_HASH_ALGO_COUNT] = {
    [KILN_HASH_SHA256] = {32, 0, 0},
    [KILN_HASH_SHA256D] = {32, 0, 0},
    [KILN_HASH_SHA3_224] = {28, 144, KILN_SHA3_DOMAIN},
    [KILN_HASH_SHA3_256] = {32, 136, KILN_SHA3_DOMAIN},
    [KILN_HASH_SHA3_384] = {48, 104, KILN_SHA3_DOMAIN},
    [KILN_HASH_SHA3_512] = {64, 72, KILN_SHA3_DOMAIN},
    [KILN_HASH_SHAKE128] = {32, 168, KILN_SHAKE_DOMAIN},
    [KILN_HASH_SHAKE256] = {64, 136, KILN_SHAKE_DOMAIN},
    [KILN_HASH_KECCAK224] = {28, 144, KILN_KECCAK_DOMAIN},
    [KILN_HASH_KECCAK256] = {32, 136, KILN_KECCAK_DOMAIN},
    [KILN_HASH_KECCAK384] = {48, 104, KILN_KECCAK_DOMAIN},
    [KILN_HASH_KECCAK512] = {64, 72, KILN_KECCAK_DOMAIN},
};

static int valid(kiln_hash_algo a) { return (unsigned)a < KILN_HASH_ALGO_COUNT; }

size_t kiln_hash_digest_len(kiln_hash_algo algo) { return valid(algo) ? algos[algo].digest : 0; }
int kiln_hash_is_xof(kiln_hash_algo algo) { return algo == KILN_HASH_SHAKE128 || algo == KILN_HASH_SHAKE256; }
unsigned kiln_hash_rate(kiln_hash_algo algo) { return valid(algo) ? algos[algo].rate : 0; }
uint8_t kiln_hash_domain(kiln_hash_algo algo) { return valid(algo) ? algos[algo].domain : 0; }

kiln_status kiln_hash_init(kiln_hash_stream *s, kiln_hash_algo algo)
{
    if (!s || !valid(algo)) return KILN_ERR_INPUT;
    s->algo = algo;
    if (algos[algo].rate == 0) {
        kiln_sha256_init(&s->u.sha256);
        return KILN_OK;
    }
    return kiln_keccak_init(&s->u.keccak, algos[algo].rate, algos[algo].domain);
}

kiln_status kiln_hash_update(kiln_hash_stream *s, const void *data, size_t len)
{
    if (!s || !valid(s->algo) || (len && !data)) return KILN_ERR_INPUT;
    if (algos[s->algo].rate) return kiln_keccak_absorb(&s->u.keccak, data, len);
    kiln_sha256_update(&s->u.sha256, data, len);
    return KILN_OK;
}

static int outlen_ok(kiln_hash_algo algo, size_t outlen)
{
    return kiln_hash_is_xof(algo) ? outlen >= 1 : outlen == algos[algo].digest;
}

kiln_status kiln_hash_final(kiln_hash_stream *s, uint8_t *out, size_t outlen)
{
    if (!s || !valid(s->algo) || !out || !outlen_ok(s->algo, outlen)) return KILN_ERR_INPUT;
    if (algos[s->algo].rate) {
        kiln_keccak_squeeze(&s->u.keccak, out, outlen);
        return KILN_OK;
    }
    kiln_sha256_final(&s->u.sha256, out);
    if (s->algo == KILN_HASH_SHA256D) kiln_sha256(out, 32, out);
    return KILN_OK;
}

kiln_status kiln_hash(kiln_hash_algo algo, const void *data, size_t len, uint8_t *out, size_t outlen)
{
    kiln_hash_stream s;
    kiln_status st = kiln_hash_init(&s, algo);
    if (st == KILN_OK) st = kiln_hash_update(&s, data, len);
    if (st == KILN_OK) st = kiln_hash_final(&s, out, outlen);
    return st;
}
