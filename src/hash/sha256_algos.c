/* SHA-256 and Bitcoin's sha256d as hash algorithms (hash_desc.h). */
#include <stdio.h>

#include "hash_desc.h"

static void init(kiln_hash_stream *s, const kiln_hash_desc *d)
{
    (void)d;
    kiln_sha256_init(&s->u.sha256);
}

static kiln_status update(kiln_hash_stream *s, const uint8_t *data, size_t len)
{
    kiln_sha256_update(&s->u.sha256, data, len);
    return KILN_OK;
}

static void final(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen)
{
    (void)outlen;
    kiln_sha256_final(&s->u.sha256, out);
    if (d->variant == 1) kiln_sha256(out, 32, out);
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
