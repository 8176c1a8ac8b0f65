/* The Keccak sponge's hash algorithms (hash_desc.h): SHA-3 and SHAKE (FIPS 202) and Keccak with
 * its original padding (Ethereum's keccak256). One family, told apart by rate and domain. */
#include <stdio.h>

#include "../prim/keccak.h"
#include "hash_desc.h"
#include "keccak_host.h"

static void init(kiln_hash_stream *s, const kiln_hash_desc *d) { kiln_keccak_init(&s->u.keccak, d->rate, d->domain); }

static kiln_status update(kiln_hash_stream *s, const uint8_t *data, size_t len)
{
    return kiln_keccak_absorb(&s->u.keccak, data, len);
}

static void final(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen)
{
    (void)d;
    kiln_keccak_squeeze(&s->u.keccak, out, outlen);
}

static void lanes(const kiln_hash_desc *d, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    kiln_keccak_batch(d->rate, d->domain, data, msg_len, n, out, d->digest);
}

/* the permutation for one stream, then the lanes for batches */
static void cpu_impl(char *out, size_t len) { snprintf(out, len, "%s/%s", kiln_keccak_impl(), kiln_keccak_lanes()->name); }

static const kiln_hash_family family = {
    .name = "keccak", .cpu_impl = cpu_impl, .init = init, .update = update, .final = final};

/* name, hashlib's name, tags, help, digest bytes, rate, domain, Merkle merge */
#define KECCAK_ALGO(id, name, hashlib, tag0, tag1, help, digest, rate, domain, tree)                                   \
    const kiln_hash_desc id = {name,   hashlib, {tag0, tag1}, help, digest, rate, (domain) == KILN_SHAKE_DOMAIN,      \
                               rate,   domain,  0,            &family, lanes, KILN_HASH_GPU_KECCAK, tree, NULL, 0, NULL};

KECCAK_ALGO(kiln_hash_sha3_224, "sha3-224", "sha3_224", "SHA3-224", NULL, "SHA3-224 (FIPS 202)", 28, 144,
            KILN_SHA3_DOMAIN, -1)
KECCAK_ALGO(kiln_hash_sha3_256, "sha3-256", "sha3_256", "SHA3-256", NULL, "SHA3-256 (FIPS 202)", 32, 136,
            KILN_SHA3_DOMAIN, KILN_MERKLE_SHA3_256)
KECCAK_ALGO(kiln_hash_sha3_384, "sha3-384", "sha3_384", "SHA3-384", NULL, "SHA3-384 (FIPS 202)", 48, 104,
            KILN_SHA3_DOMAIN, -1)
KECCAK_ALGO(kiln_hash_sha3_512, "sha3-512", "sha3_512", "SHA3-512", NULL, "SHA3-512 (FIPS 202)", 64, 72,
            KILN_SHA3_DOMAIN, -1)
KECCAK_ALGO(kiln_hash_shake128, "shake128", "shake_128", "SHAKE128", "SHAKE-128",
            "SHAKE128, any output length (FIPS 202)", 32, 168, KILN_SHAKE_DOMAIN, -1)
KECCAK_ALGO(kiln_hash_shake256, "shake256", "shake_256", "SHAKE256", "SHAKE-256",
            "SHAKE256, any output length (FIPS 202)", 64, 136, KILN_SHAKE_DOMAIN, -1)
KECCAK_ALGO(kiln_hash_keccak224, "keccak224", NULL, "KECCAK-224", "KECCAK224", "Keccak-224, original padding", 28,
            144, KILN_KECCAK_DOMAIN, -1)
KECCAK_ALGO(kiln_hash_keccak256, "keccak256", NULL, "KECCAK-256", "KECCAK256",
            "Keccak-256, original padding (Ethereum)", 32, 136, KILN_KECCAK_DOMAIN, KILN_MERKLE_KECCAK256)
KECCAK_ALGO(kiln_hash_keccak384, "keccak384", NULL, "KECCAK-384", "KECCAK384", "Keccak-384, original padding", 48,
            104, KILN_KECCAK_DOMAIN, -1)
KECCAK_ALGO(kiln_hash_keccak512, "keccak512", NULL, "KECCAK-512", "KECCAK512", "Keccak-512, original padding", 64,
            72, KILN_KECCAK_DOMAIN, -1)
