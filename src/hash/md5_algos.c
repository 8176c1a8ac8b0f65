/* MD5 (RFC 1321) as a hash algorithm (hash_desc.h): one algorithm, its own family. */
#include <stdio.h>

#include "hash_desc.h"
#include "md5_host.h"

_Static_assert(sizeof(kiln_md5_ctx) <= sizeof(((kiln_hash_stream *)0)->u), "MD5's state fits the stream");

static kiln_md5_ctx *ctx_of(kiln_hash_stream *s) { return (kiln_md5_ctx *)(void *)s->u.state; }

static void init(kiln_hash_stream *s, const kiln_hash_desc *d)
{
    (void)d;
    kiln_md5_init(ctx_of(s));
}

static kiln_status update(kiln_hash_stream *s, const uint8_t *data, size_t len)
{
    kiln_md5_update(ctx_of(s), data, len);
    return KILN_OK;
}

static void final(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen)
{
    (void)d;
    (void)outlen;
    kiln_md5_final(ctx_of(s), out);
}

static void lanes(const kiln_hash_desc *d, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    (void)d;
    kiln_md5_batch(data, msg_len, n, out);
}

/* the compression for one stream, then the lanes for batches */
static void cpu_impl(char *out, size_t len) { snprintf(out, len, "%s/%s", kiln_md5_impl(), kiln_md5_lanes()->name); }

static const kiln_hash_family family = {
    .name = "md5", .cpu_impl = cpu_impl, .init = init, .update = update, .final = final};

/* The tag: coreutils' md5sum writes MD5 with --tag, and so does OpenSSL. The known answer is
 * RFC 1321's test suite entry for "abc" (appendix A.5). */
const kiln_hash_desc kiln_hash_md5 = {
    "md5", "md5", {"MD5", NULL}, "MD5 (RFC 1321; broken for collisions: checksums only)", 16, 64, 0, 0, 0, 0,
    &family, lanes, KILN_HASH_GPU_MD5, -1, "abc", 3, "900150983cd24fb0d6963f7d28e17f72"};
