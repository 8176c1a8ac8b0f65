/* BLAKE2b and BLAKE2s (RFC 7693) as hash algorithms (hash_desc.h): one family, the variant
 * (kiln_blake2_variant) choosing the word size. The parameters (kiln_hash_params) are checked
 * against the ranges Python's hashlib.blake2b/blake2s accept, so a call hashlib refuses is refused
 * here too. */
#include <stdio.h>
#include <string.h>

#include "blake2_host.h"
#include "hash_desc.h"

_Static_assert(sizeof(kiln_blake2_ctx) <= sizeof(((kiln_hash_stream *)0)->u), "BLAKE2's state fits the stream");

static kiln_blake2_ctx *ctx_of(kiln_hash_stream *s) { return (kiln_blake2_ctx *)(void *)s->u.state; }

static void init(kiln_hash_stream *s, const kiln_hash_desc *d)
{
    kiln_blake2_init(ctx_of(s), (kiln_blake2_variant)d->variant, (unsigned)d->digest);
}

/* The parameter block from p: every field in hashlib's range (a key, salt or personalization
 * given by length must have its bytes), else KILN_ERR_INPUT; BLAKE3's context is not BLAKE2's. */
static kiln_status init_params(kiln_hash_stream *s, const kiln_hash_desc *d, const kiln_hash_params *p)
{
    const int b = d->variant == KILN_BLAKE2_VARIANT_B;
    const size_t out_max = b ? KILN_BLAKE2B_OUT : KILN_BLAKE2S_OUT, key_max = b ? KILN_BLAKE2B_KEY : KILN_BLAKE2S_KEY,
                 salt_max = b ? KILN_BLAKE2B_SALT : KILN_BLAKE2S_SALT;
    const uint64_t offset_max = b ? UINT64_MAX : (UINT64_C(1) << 48) - 1;
    kiln_blake2_param q = {.outlen = (unsigned)(p->digest_len ? p->digest_len : d->digest), .fanout = 1, .depth = 1};
    if (p->digest_len > out_max || p->key_len > key_max || p->salt_len > salt_max || p->person_len > salt_max ||
        (p->key_len && !p->key) || (p->salt_len && !p->salt) || (p->person_len && !p->person) || p->context ||
        p->context_len)
        return KILN_ERR_INPUT;
    if (p->tree) {
        if (p->fanout > 255 || p->depth < 1 || p->depth > 255 || p->node_offset > offset_max || p->node_depth > 255 ||
            p->inner_size > out_max)
            return KILN_ERR_INPUT;
        q.fanout = p->fanout;
        q.depth = p->depth;
        q.leaf_size = p->leaf_size;
        q.node_offset = p->node_offset;
        q.node_depth = p->node_depth;
        q.inner_size = p->inner_size;
        q.last_node = p->last_node != 0;
    }
    q.key = p->key;
    q.key_len = p->key_len;
    q.salt = p->salt;
    q.salt_len = p->salt_len;
    q.person = p->person;
    q.person_len = p->person_len;
    kiln_blake2_init_param(ctx_of(s), (kiln_blake2_variant)d->variant, &q);
    s->out_len = q.outlen;
    return KILN_OK;
}

static kiln_status update(kiln_hash_stream *s, const uint8_t *data, size_t len)
{
    kiln_blake2_update(ctx_of(s), data, len);
    return KILN_OK;
}

static void final(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen)
{
    (void)d;
    (void)outlen; /* the front end checked it against s->out_len, which is the context's */
    kiln_blake2_final(ctx_of(s), out);
}

/* BLAKE2s batches (the default parameter block, as the batch path hashes) in SIMD lanes */
static void lanes_s(const kiln_hash_desc *d, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    kiln_blake2s_batch((unsigned)d->digest, data, msg_len, n, out);
}

static void lanes_b(const kiln_hash_desc *d, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    kiln_blake2b_batch((unsigned)d->digest, data, msg_len, n, out);
}

/* one compression, portable C with the rounds unrolled (src/prim/blake2.h), then BLAKE2b's and
 * BLAKE2s's lanes */
static void cpu_impl(char *out, size_t len)
{
    snprintf(out, len, "portable/%s/%s", kiln_blake2b_lanes()->name, kiln_blake2s_lanes()->name);
}

static const kiln_hash_family family = {
    .name = "blake2", .cpu_impl = cpu_impl, .init = init, .init_params = init_params, .update = update, .final = final};

/* The tags: coreutils' b2sum --tag writes BLAKE2b (and BLAKE2b-<bits> with --length; blake2s has
 * no coreutils tool, BLAKE2s is the reference b2sum's spelling); OpenSSL 3's dgst writes
 * BLAKE2B-512 and BLAKE2S-256. The known answers are RFC 7693's appendices A and B ("abc"). */
const kiln_hash_desc kiln_hash_blake2b = {
    .name = "blake2b",
    .hashlib = "blake2b",
    .tags = {"BLAKE2b", "BLAKE2B-512"},
    .help = "BLAKE2b-512 (RFC 7693)",
    .digest = 64,
    .block = KILN_BLAKE2B_BLOCK,
    .variant = KILN_BLAKE2_VARIANT_B,
    .family = &family,
    .lanes = lanes_b,
    .gpu = KILN_HASH_GPU_BLAKE2,
    .tree = -1,
    .kat_msg = "abc",
    .kat_len = 3,
    .kat_digest = "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                  "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923"};

const kiln_hash_desc kiln_hash_blake2s = {
    .name = "blake2s",
    .hashlib = "blake2s",
    .tags = {"BLAKE2s", "BLAKE2S-256"},
    .help = "BLAKE2s-256 (RFC 7693)",
    .digest = 32,
    .block = KILN_BLAKE2S_BLOCK,
    .variant = KILN_BLAKE2_VARIANT_S,
    .family = &family,
    .lanes = lanes_s,
    .gpu = KILN_HASH_GPU_BLAKE2,
    .tree = KILN_MERKLE_BLAKE2S,
    .kat_msg = "abc",
    .kat_len = 3,
    .kat_digest = "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982"};
