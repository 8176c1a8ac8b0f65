/* SHA-256, Bitcoin's sha256d and SHA-224 as hash algorithms (hash_desc.h). The variant is the
 * GPU's (core/gpu.h): 0 SHA-256, 1 sha256d, 2 SHA-224 (SHA-256 from its own initial value, the
 * digest cut to 28 bytes). */
#include <stdio.h>
#include <string.h>

#include "hash_desc.h"
#include "sha256_host.h"

static void init(kiln_hash_stream *s, const kiln_hash_desc *d)
{
    if (d->variant == 2) kiln_sha224_init(&s->u.sha256);
    else kiln_sha256_init(&s->u.sha256);
}

static kiln_status update(kiln_hash_stream *s, const uint8_t *data, size_t len)
{
    kiln_sha256_update(&s->u.sha256, data, len);
    return KILN_OK;
}

static void final(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen)
{
    uint8_t full[32];
    kiln_sha256_final(&s->u.sha256, full);
    if (d->variant == 1) kiln_sha256(full, 32, full);
    memcpy(out, full, outlen);
}

static void cpu_impl(char *out, size_t len) { snprintf(out, len, "%s", kiln_sha256_impl()); }

static const kiln_hash_family family = {
    .name = "sha256", .cpu_impl = cpu_impl, .init = init, .update = update, .final = final};

const kiln_hash_desc kiln_hash_sha256 = {
    "sha256", "sha256", {"SHA256", "SHA2-256"}, "SHA-256 (FIPS 180-4)", 32, 64, 0, 0, 0, 0, &family,
    NULL, KILN_HASH_GPU_SHA256, KILN_MERKLE_SHA256, "abc", 3,
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}; /* FIPS 180-4's example */

const kiln_hash_desc kiln_hash_sha256d = {
    "sha256d", NULL, {"SHA256D", NULL}, "Bitcoin's double SHA-256: mining, digests, Merkle trees", 32, 64, 0, 0, 0, 1,
    &family, NULL, KILN_HASH_GPU_SHA256, KILN_MERKLE_SHA256D, NULL, 0, NULL};

/* The tags: coreutils' sha224sum writes SHA224 with --tag, OpenSSL 3 SHA2-224. The known answer is
 * FIPS 180-4's "abc" example (NIST's SHA-224 example values). */
const kiln_hash_desc kiln_hash_sha224 = {
    "sha224", "sha224", {"SHA224", "SHA2-224"}, "SHA-224 (FIPS 180-4)", 28, 64, 0, 0, 0, 2, &family,
    NULL, KILN_HASH_GPU_SHA256, -1, "abc", 3, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"};
