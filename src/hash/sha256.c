/* Streaming SHA-256 on the host: buffering and padding around a compression function chosen
 * once at run time (SHA extensions when the CPU has them, else the portable code). */
#include <string.h>

#include "../core/cpu_dispatch.h"
#include "../prim/sha256.h"
#include "kiln.h"
#include "sha256_host.h"

static void compress_portable(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_sha256_compress_bytes(state, blocks + 64 * i);
}

struct blocks_impl {
    kiln_sha256_blocks_fn fn;
};

/* FIPS 180-4 examples (NIST CSRC, SHA256.pdf): "abc" in one padded block, and the 448-bit
 * "abcdbcdecdefdefg...nopq" in two, compressed by a single call. */
static int selftest(const void *impl)
{
    kiln_sha256_blocks_fn blocks = ((const struct blocks_impl *)impl)->fn;
    static const char msg2[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const uint32_t abc[8] = {0xba7816bfu, 0x8f01cfeau, 0x414140deu, 0x5dae2223u,
                                    0xb00361a3u, 0x96177a9cu, 0xb410ff61u, 0xf20015adu};
    static const uint32_t two[8] = {0x248d6a61u, 0xd20638b8u, 0xe5c02693u, 0x0c3e6039u,
                                    0xa33ce459u, 0x64ff2167u, 0xf6ecedd4u, 0x19db06c1u};
    uint8_t b1[64] = {'a', 'b', 'c', 0x80}, b2[128] = {0};
    b1[63] = 24;
    memcpy(b2, msg2, 56);
    b2[56] = 0x80;
    b2[126] = 448 >> 8;
    b2[127] = 448 & 0xff;
    uint32_t s1[8], s2[8];
    kiln_sha256_iv(s1);
    kiln_sha256_iv(s2);
    blocks(s1, b1, 1);
    blocks(s2, b2, 2);
    return memcmp(s1, abc, sizeof abc) == 0 && memcmp(s2, two, sizeof two) == 0;
}

static const struct blocks_impl portable = {compress_portable};

KILN_CPU_LADDER(ranking, "portable", portable,
    {"sha-ni", KILN_NEEDS_SHANI, &(const struct blocks_impl){kiln_sha256_blocks_shani}, selftest})

static const struct blocks_impl *chosen(void) { return ranking()->usable[0]->impl; }

kiln_sha256_blocks_fn kiln_sha256_blocks(void) { return chosen()->fn; }

kiln_sha256_blocks_fn kiln_sha256_blocks_portable(void) { return compress_portable; }

const char *kiln_sha256_impl(void) { return ranking()->usable[0]->name; }

void kiln_sha256_init(kiln_sha256_stream *s)
{
    kiln_sha256_iv(s->state);
    s->total = 0;
}

void kiln_sha256_update(kiln_sha256_stream *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    kiln_sha256_blocks_fn blocks = kiln_sha256_blocks();
    size_t fill = (size_t)(s->total % 64);
    s->total += len;
    if (fill) {
        size_t take = 64 - fill < len ? 64 - fill : len;
        memcpy(s->block + fill, p, take);
        p += take;
        len -= take;
        if (fill + take < 64) return;
        blocks(s->state, s->block, 1);
    }
    if (len >= 64) {
        blocks(s->state, p, len / 64);
        p += len - len % 64;
        len %= 64;
    }
    if (len) memcpy(s->block, p, len);
}

void kiln_sha256_final(kiln_sha256_stream *s, uint8_t digest[32])
{
    kiln_sha256_blocks_fn blocks = kiln_sha256_blocks();
    size_t fill = (size_t)(s->total % 64);
    uint64_t bits = s->total * 8;
    s->block[fill++] = 0x80;
    if (fill > 56) {
        memset(s->block + fill, 0, 64 - fill);
        blocks(s->state, s->block, 1);
        fill = 0;
    }
    memset(s->block + fill, 0, 56 - fill);
    for (int i = 0; i < 8; i++) s->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    blocks(s->state, s->block, 1);
    for (int i = 0; i < 8; i++) kiln_store_be32(digest + 4 * i, s->state[i]);
}

void kiln_sha256(const void *data, size_t len, uint8_t digest[32])
{
    kiln_sha256_stream s;
    kiln_sha256_init(&s);
    kiln_sha256_update(&s, data, len);
    kiln_sha256_final(&s, digest);
}

void kiln_sha224_init(kiln_sha256_stream *s)
{
    kiln_sha224_iv(s->state);
    s->total = 0;
}

void kiln_sha224(const void *data, size_t len, uint8_t digest[28])
{
    kiln_sha256_stream s;
    uint8_t full[32];
    kiln_sha224_init(&s);
    kiln_sha256_update(&s, data, len);
    kiln_sha256_final(&s, full);
    memcpy(digest, full, 28);
}

void kiln_sha256d(const void *data, size_t len, uint8_t digest[32])
{
    uint8_t first[32];
    kiln_sha256(data, len, first);
    kiln_sha256(first, 32, digest);
}
