/* Streaming SHA-1 on the host: md64_stream.h's buffering and padding around a compression chosen
 * once at run time (SHA extensions when the CPU has them, else the portable code). */
#include <string.h>

#include "../core/cpu_dispatch.h"
#include "../prim/sha1.h"
#include "sha1_host.h"

static void compress_portable(uint32_t *state, const uint8_t *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_sha1_compress_bytes(state, blocks + 64 * i);
}

/* FIPS 180-4 examples (NIST CSRC, SHA1.pdf): "abc" in one padded block, and the 448-bit
 * "abcdbcdecdefdefg...nopq" in two, compressed by a single call as update passes runs of blocks. */
int kiln_sha1_blocks_selftest(kiln_sha1_blocks_fn blocks)
{
    static const char msg2[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const uint32_t abc[5] = {0xa9993e36u, 0x4706816au, 0xba3e2571u, 0x7850c26cu, 0x9cd0d89du};
    static const uint32_t two[5] = {0x84983e44u, 0x1c3bd26eu, 0xbaae4aa1u, 0xf95129e5u, 0xe54670f1u};
    uint8_t b1[64] = {'a', 'b', 'c', 0x80}, b2[128] = {0};
    b1[63] = 24;
    memcpy(b2, msg2, 56);
    b2[56] = 0x80;
    b2[126] = 448 >> 8;
    b2[127] = 448 & 0xff;
    uint32_t s1[5], s2[5];
    kiln_sha1_iv(s1);
    kiln_sha1_iv(s2);
    blocks(s1, b1, 1);
    blocks(s2, b2, 2);
    return memcmp(s1, abc, sizeof abc) == 0 && memcmp(s2, two, sizeof two) == 0;
}

struct blocks_impl {
    kiln_sha1_blocks_fn fn;
};

static int selftest(const void *impl) { return kiln_sha1_blocks_selftest(((const struct blocks_impl *)impl)->fn); }

static const struct blocks_impl portable = {compress_portable};

KILN_CPU_LADDER(ranking, "portable", portable,
    {"sha-ni", KILN_NEEDS_SHANI, &(const struct blocks_impl){kiln_sha1_blocks_shani}, selftest})

kiln_sha1_blocks_fn kiln_sha1_blocks(void) { return ((const struct blocks_impl *)ranking()->usable[0]->impl)->fn; }

kiln_sha1_blocks_fn kiln_sha1_blocks_portable(void) { return compress_portable; }

const char *kiln_sha1_impl(void) { return ranking()->usable[0]->name; }

void kiln_sha1_init(kiln_sha1_ctx *c)
{
    kiln_sha1_iv(c->state);
    c->total = 0;
}

void kiln_sha1_update(kiln_sha1_ctx *c, const void *data, size_t len)
{
    kiln_md64_update(c, kiln_sha1_blocks(), data, len);
}

void kiln_sha1_final(kiln_sha1_ctx *c, uint8_t digest[20])
{
    kiln_md64_pad(c, kiln_sha1_blocks(), 1);
    for (int i = 0; i < 5; i++) kiln_store_be32(digest + 4 * i, c->state[i]);
}

void kiln_sha1(const void *data, size_t len, uint8_t digest[20])
{
    kiln_sha1_ctx c;
    kiln_sha1_init(&c);
    kiln_sha1_update(&c, data, len);
    kiln_sha1_final(&c, digest);
}
