/* BLAKE3 as a hash algorithm (hash_desc.h): an extendable-output hash of 32 bytes by default, with
 * its keyed and derive-key modes through kiln_hash_init_params. */
#include <stdio.h>
#include <string.h>

#include "blake3_host.h"
#include "hash_desc.h"

_Static_assert(sizeof(kiln_blake3_ctx) <= sizeof(((kiln_hash_stream *)0)->u), "BLAKE3's state fits the stream");

static kiln_blake3_ctx *ctx_of(kiln_hash_stream *s) { return (kiln_blake3_ctx *)(void *)s->u.state; }

static void init(kiln_hash_stream *s, const kiln_hash_desc *d)
{
    (void)d;
    kiln_blake3_init(ctx_of(s));
}

/* BLAKE3 takes a 32-byte key (keyed hashing) or a context string (derive_key), not both, and none
 * of BLAKE2's fields; its output length is final's, so no digest length either. */
static kiln_status init_params(kiln_hash_stream *s, const kiln_hash_desc *d, const kiln_hash_params *p)
{
    (void)d;
    int keyed = p->key || p->key_len;
    if (p->digest_len || p->salt_len || p->salt || p->person_len || p->person || p->tree) return KILN_ERR_INPUT;
    if ((keyed && (!p->key || p->key_len != KILN_BLAKE3_KEY)) || (keyed && p->context)) return KILN_ERR_INPUT;
    if (!p->context && p->context_len) return KILN_ERR_INPUT;
    if (keyed) kiln_blake3_init_keyed(ctx_of(s), p->key);
    else if (p->context) kiln_blake3_init_derive_key(ctx_of(s), p->context, p->context_len);
    else kiln_blake3_init(ctx_of(s));
    return KILN_OK;
}

static kiln_status update(kiln_hash_stream *s, const uint8_t *data, size_t len)
{
    kiln_blake3_update(ctx_of(s), data, len);
    return KILN_OK;
}

static void final(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen)
{
    (void)d;
    kiln_blake3_final(ctx_of(s), out, outlen);
}

static void lanes(const kiln_hash_desc *d, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    (void)d;
    kiln_blake3_batch(data, msg_len, n, out);
}

static void cpu_impl(char *out, size_t len) { snprintf(out, len, "%s", kiln_blake3_many()->name); }

static const kiln_hash_family family = {
    .name = "blake3", .cpu_impl = cpu_impl, .init = init, .init_params = init_params, .update = update, .final = final};

/* b3sum writes no tag; BLAKE3 is the name the specification and OpenSSL-style tools would give.
 * The known answer is b3sum 1.2.0's digest of "abc" (the test vectors in tests/data cover the
 * rest). */
const kiln_hash_desc kiln_hash_blake3 = {
    "blake3", NULL, {"BLAKE3", NULL}, "BLAKE3 (any output length; keyed and derive-key modes)", 32, 64, 1, 0, 0, 0,
    &family, lanes, KILN_HASH_GPU_BLAKE3, KILN_MERKLE_BLAKE3, "abc", 3,
    "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"};
