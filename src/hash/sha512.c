/* Streaming SHA-512 / SHA-384 / SHA-512/256 on the host: buffering and padding around a
 * compression function chosen once at run time (AVX2 message schedule when the CPU has it, else
 * the portable code), and batches of equal-length messages through a lane kernel chosen the same
 * way. */
#include <string.h>

#include "../core/cpu_dispatch.h"
#include "../prim/sha512.h"
#include "lanes_groups.h"
#include "sha512_host.h"

static void compress_portable(uint64_t state[8], const uint8_t *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_sha512_compress_bytes(state, blocks + KILN_SHA512_BLOCK * i);
}

/* FIPS 180-4 examples (NIST CSRC, SHA512.pdf): SHA-512 of "abc" in one padded block, and of the
 * 896-bit "abcdefghbcdefghi...nopqrstu", whose padding spills into a second block. */
static const char fips_two_block_msg[] =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
static const uint64_t fips_abc[8] = {0xddaf35a193617abaull, 0xcc417349ae204131ull, 0x12e6fa4e89a97ea2ull,
                                     0x0a9eeee64b55d39aull, 0x2192992a274fc1a8ull, 0x36ba3c23a3feebbdull,
                                     0x454d4423643ce80eull, 0x2a9ac94fa54ca49full};
static const uint64_t fips_two[8] = {0x8e959b75dae313daull, 0x8cf4f72814fc143full, 0x8f7779c6eb9f7fa1ull,
                                     0x7299aeadb6889018ull, 0x501d289e4900f7e4ull, 0x331b99dec4b5433aull,
                                     0xc7d329eeb6dd2654ull, 0x5e96e55b874be909ull};

struct blocks_impl {
    kiln_sha512_blocks_fn fn;
};

/* The two examples, each padded by hand; the second is compressed by one two-block call, the way
 * update passes whole runs of blocks. */
int kiln_sha512_blocks_selftest(kiln_sha512_blocks_fn blocks)
{
    uint8_t b1[128] = {'a', 'b', 'c', 0x80}, b2[256] = {0};
    b1[127] = 3 * 8;
    memcpy(b2, fips_two_block_msg, 112);
    b2[112] = 0x80;
    b2[254] = (896 >> 8) & 0xff;
    b2[255] = 896 & 0xff;
    uint64_t s1[8], s2[8];
    kiln_sha512_iv(KILN_SHA512_VARIANT_512, s1);
    kiln_sha512_iv(KILN_SHA512_VARIANT_512, s2);
    blocks(s1, b1, 1);
    blocks(s2, b2, 2);
    return memcmp(s1, fips_abc, sizeof s1) == 0 && memcmp(s2, fips_two, sizeof s2) == 0;
}

static int blocks_selftest(const void *impl) { return kiln_sha512_blocks_selftest(((const struct blocks_impl *)impl)->fn); }

static const struct blocks_impl blocks_portable = {compress_portable};

KILN_CPU_LADDER(blocks_ranking, "portable", blocks_portable,
    {"avx2", KILN_NEEDS_AVX2, &(const struct blocks_impl){kiln_sha512_blocks_avx2}, blocks_selftest})

kiln_sha512_blocks_fn kiln_sha512_blocks(void)
{
    return ((const struct blocks_impl *)blocks_ranking()->usable[0]->impl)->fn;
}

kiln_sha512_blocks_fn kiln_sha512_blocks_portable(void) { return compress_portable; }

const char *kiln_sha512_impl(void) { return blocks_ranking()->usable[0]->name; }

void kiln_sha512_init_iv(kiln_sha512_ctx *c, const uint64_t iv[8], unsigned digest_len)
{
    memcpy(c->state, iv, sizeof c->state);
    c->total = 0;
    c->digest_len = digest_len > KILN_SHA512_MAX_DIGEST ? KILN_SHA512_MAX_DIGEST : digest_len;
}

void kiln_sha512_init(kiln_sha512_ctx *c, kiln_sha512_variant v)
{
    unsigned len = kiln_sha512_digest_len(v);
    if (len == 0) v = KILN_SHA512_VARIANT_512, len = 64;
    kiln_sha512_iv(v, c->state);
    c->total = 0;
    c->digest_len = len;
}

void kiln_sha512_update(kiln_sha512_ctx *c, const void *data, size_t len)
{
    if (len == 0) return; /* data may then be NULL, which memcpy may not be given */
    const uint8_t *p = data;
    kiln_sha512_blocks_fn blocks = kiln_sha512_blocks();
    size_t fill = (size_t)(c->total % KILN_SHA512_BLOCK);
    c->total += len;
    if (fill) {
        size_t take = KILN_SHA512_BLOCK - fill < len ? KILN_SHA512_BLOCK - fill : len;
        memcpy(c->block + fill, p, take);
        p += take;
        len -= take;
        if (fill + take < KILN_SHA512_BLOCK) return;
        blocks(c->state, c->block, 1);
    }
    if (len >= KILN_SHA512_BLOCK) {
        blocks(c->state, p, len / KILN_SHA512_BLOCK);
        p += len - len % KILN_SHA512_BLOCK;
        len %= KILN_SHA512_BLOCK;
    }
    if (len) memcpy(c->block, p, len);
}

void kiln_sha512_final(kiln_sha512_ctx *c, uint8_t *digest)
{
    uint8_t tail[2 * KILN_SHA512_BLOCK];
    memcpy(tail, c->block, (size_t)(c->total % KILN_SHA512_BLOCK));
    unsigned nblocks = kiln_sha512_pad(tail, c->total);
    kiln_sha512_blocks()(c->state, tail, nblocks);
    kiln_sha512_store_digest(c->state, digest, c->digest_len);
}

void kiln_sha512_variant_hash(kiln_sha512_variant v, const void *data, size_t len, uint8_t *digest)
{
    if (kiln_sha512_digest_len(v) == 0) return;
    kiln_sha512_ctx c;
    kiln_sha512_init(&c, v);
    kiln_sha512_update(&c, data, len);
    kiln_sha512_final(&c, digest);
}

void kiln_sha512(const void *data, size_t len, uint8_t digest[64])
{
    kiln_sha512_variant_hash(KILN_SHA512_VARIANT_512, data, len, digest);
}

void kiln_sha384(const void *data, size_t len, uint8_t digest[48])
{
    kiln_sha512_variant_hash(KILN_SHA512_VARIANT_384, data, len, digest);
}

void kiln_sha512_256(const void *data, size_t len, uint8_t digest[32])
{
    kiln_sha512_variant_hash(KILN_SHA512_VARIANT_512_256, data, len, digest);
}

/* One lane: the stream, from iv. */
static void lanes_portable_hash(const uint64_t iv[8], const uint8_t *const *msg, size_t len, uint8_t *const *out,
                                unsigned outlen)
{
    kiln_sha512_ctx c;
    kiln_sha512_init_iv(&c, iv, outlen);
    kiln_sha512_update(&c, msg[0], len);
    kiln_sha512_final(&c, out[0]);
}

/* Lane k hashes the 896-bit FIPS example with every byte XORed with k, so that every message word
 * differs between lanes and a kernel that mixes up lanes fails. Lane 0 is the example itself (the
 * full FIPS digest); the others' leading 8 digest bytes are from OpenSSL (Python hashlib). Then
 * "abc" in every lane: a one-block tail. */
int kiln_sha512_lanes_selftest(const kiln_sha512_lanes_impl *l)
{
    static const uint64_t lead[8] = {0x8e959b75dae313daull, 0x8c9ee1f02ce76c04ull, 0x529085f45f040ba6ull,
                                     0xa324839bcffba08aull, 0xaba2eba9c5ce3201ull, 0x3fdf435736d9d2b5ull,
                                     0x39716e22fe353ba6ull, 0xc3f4c0a1c750125eull};
    if (l->lanes == 0 || l->lanes > 8) return 0;
    uint64_t iv[8];
    kiln_sha512_iv(KILN_SHA512_VARIANT_512, iv);
    uint8_t msgs[8][112], digests[8][64];
    const uint8_t *in[8];
    uint8_t *out[8];
    for (unsigned k = 0; k < l->lanes; k++) {
        for (int i = 0; i < 112; i++) msgs[k][i] = (uint8_t)(fips_two_block_msg[i] ^ k);
        in[k] = msgs[k];
        out[k] = digests[k];
    }
    l->hash(iv, in, 112, out, 64);
    int ok = 1;
    for (unsigned j = 0; j < 8; j++) ok &= kiln_load_be64(digests[0] + 8 * j) == fips_two[j];
    for (unsigned k = 0; k < l->lanes; k++) ok &= kiln_load_be64(digests[k]) == lead[k];
    for (unsigned k = 0; k < l->lanes; k++) in[k] = (const uint8_t *)"abc";
    l->hash(iv, in, 3, out, 64);
    for (unsigned k = 0; k < l->lanes; k++)
        for (unsigned j = 0; j < 8; j++) ok &= kiln_load_be64(digests[k] + 8 * j) == fips_abc[j];
    return ok;
}

static int lanes_selftest(const void *impl) { return kiln_sha512_lanes_selftest(impl); }

static const kiln_sha512_lanes_impl lanes_portable = {"portable", 1, lanes_portable_hash};

KILN_CPU_LADDER(lanes_ranking, "portable", lanes_portable,
    {"avx512x8", KILN_NEEDS_AVX512, &(const kiln_sha512_lanes_impl){"avx512x8", 8, kiln_sha512_lanes_avx512}, lanes_selftest},
    {"avx2x4", KILN_NEEDS_AVX2, &(const kiln_sha512_lanes_impl){"avx2x4", 4, kiln_sha512_lanes_avx2}, lanes_selftest})

const kiln_sha512_lanes_impl *kiln_sha512_lanes(void) { return lanes_ranking()->usable[0]->impl; }

const kiln_sha512_lanes_impl *kiln_sha512_lanes_portable(void) { return &lanes_portable; }

typedef struct variant_group {
    const kiln_sha512_lanes_impl *l;
    uint64_t iv[8];
    unsigned dlen;
} variant_group;

static void run_group(void *arg, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    const variant_group *g = arg;
    g->l->hash(g->iv, msg, len, out, g->dlen);
}

void kiln_sha512_batch(kiln_sha512_variant v, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    unsigned dlen = kiln_sha512_digest_len(v);
    if (dlen == 0) return;
    variant_group g = {kiln_sha512_lanes(), {0}, dlen};
    kiln_sha512_iv(v, g.iv);
    size_t i = kiln_lanes_groups(g.l->lanes, data, msg_len, n, out, dlen, run_group, &g);
    for (; i < n; i++) kiln_sha512_variant_hash(v, data + i * msg_len, msg_len, out + i * dlen);
}
