/* SHA-512, SHA-384 and SHA-512/256 (FIPS 180-4) as hash algorithms (hash_desc.h): one family, the
 * variant (kiln_sha512_variant) choosing the initial value and the digest's length. */
#include <stdio.h>
#include <string.h>

#include "hash_desc.h"
#include "sha512_host.h"

_Static_assert(sizeof(kiln_sha512_ctx) <= sizeof(((kiln_hash_stream *)0)->u), "SHA-512's state fits the stream");

static kiln_sha512_ctx *ctx_of(kiln_hash_stream *s) { return (kiln_sha512_ctx *)(void *)s->u.state; }

static void init(kiln_hash_stream *s, const kiln_hash_desc *d)
{
    kiln_sha512_init(ctx_of(s), (kiln_sha512_variant)d->variant);
}

static kiln_status update(kiln_hash_stream *s, const uint8_t *data, size_t len)
{
    kiln_sha512_update(ctx_of(s), data, len);
    return KILN_OK;
}

static void final(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen)
{
    (void)d;
    (void)outlen;
    kiln_sha512_final(ctx_of(s), out);
}

static void lanes(const kiln_hash_desc *d, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    kiln_sha512_batch((kiln_sha512_variant)d->variant, data, msg_len, n, out);
}

/* the compression for one stream, then the lanes for batches */
static void cpu_impl(char *out, size_t len) { snprintf(out, len, "%s/%s", kiln_sha512_impl(), kiln_sha512_lanes()->name); }

static const kiln_hash_family family = {
    .name = "sha512", .cpu_impl = cpu_impl, .init = init, .update = update, .final = final};

/* The tags: coreutils' sha512sum and sha384sum write SHA512 and SHA384 with --tag, FreeBSD's
 * sha512t256 SHA512t256; OpenSSL 3 writes SHA2-512, SHA2-384 and SHA2-512/256. The known answers
 * are FIPS 180-4's "abc" examples (NIST's SHA-2 example values). */
const kiln_hash_desc kiln_hash_sha512 = {
    "sha512", "sha512", {"SHA512", "SHA2-512"}, "SHA-512 (FIPS 180-4)", 64, 128, 0, 0, 0, KILN_SHA512_VARIANT_512,
    &family, lanes, KILN_HASH_GPU_SHA512, -1, "abc", 3,
    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"};

const kiln_hash_desc kiln_hash_sha384 = {
    "sha384", "sha384", {"SHA384", "SHA2-384"}, "SHA-384 (FIPS 180-4)", 48, 128, 0, 0, 0, KILN_SHA512_VARIANT_384,
    &family, lanes, KILN_HASH_GPU_SHA512, -1, "abc", 3,
    "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"};

const kiln_hash_desc kiln_hash_sha512_256 = {
    "sha512-256", "sha512_256", {"SHA512t256", "SHA2-512/256"}, "SHA-512/256 (FIPS 180-4)", 32, 128, 0, 0, 0,
    KILN_SHA512_VARIANT_512_256, &family, lanes, KILN_HASH_GPU_SHA512, -1, "abc", 3,
    "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"};
