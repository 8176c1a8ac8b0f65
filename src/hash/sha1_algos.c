/* SHA-1 (FIPS 180-4) as a hash algorithm (hash_desc.h): one algorithm, its own family. */
#include <stdio.h>

#include "hash_desc.h"
#include "sha1_host.h"

_Static_assert(sizeof(kiln_sha1_ctx) <= sizeof(((kiln_hash_stream *)0)->u), "SHA-1's state fits the stream");

static kiln_sha1_ctx *ctx_of(kiln_hash_stream *s) { return (kiln_sha1_ctx *)(void *)s->u.state; }

static void init(kiln_hash_stream *s, const kiln_hash_desc *d)
{
    (void)d;
    kiln_sha1_init(ctx_of(s));
}

static kiln_status update(kiln_hash_stream *s, const uint8_t *data, size_t len)
{
    kiln_sha1_update(ctx_of(s), data, len);
    return KILN_OK;
}

static void final(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen)
{
    (void)d;
    (void)outlen;
    kiln_sha1_final(ctx_of(s), out);
}

static void cpu_impl(char *out, size_t len) { snprintf(out, len, "%s", kiln_sha1_impl()); }

static const kiln_hash_family family = {
    .name = "sha1", .cpu_impl = cpu_impl, .init = init, .update = update, .final = final};

/* The tags: coreutils' sha1sum writes SHA1 with --tag, and so does OpenSSL. The known answer is
 * FIPS 180-4's "abc" example (NIST's SHA-1 example values). */
const kiln_hash_desc kiln_hash_sha1 = {
    "sha1", "sha1", {"SHA1", NULL}, "SHA-1 (FIPS 180-4; broken for collisions: checksums only)", 20, 64, 0, 0, 0, 0,
    &family, NULL, KILN_HASH_GPU_SHA1, -1, "abc", 3, "a9993e364706816aba3e25717850c26c9cd0d89d"};
