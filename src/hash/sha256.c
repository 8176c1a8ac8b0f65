/* Streaming SHA-256 on the host: buffering and padding around a compression function chosen
 * once at run time (SHA extensions when the CPU has them, else the portable code). */
#include <string.h>

#include "../core/cpu_features.h"
#include "../prim/sha256.h"
#include "kiln.h"
#include "sha256_host.h"

static void compress_portable(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_sha256_compress_bytes(state, blocks + 64 * i);
}

static kiln_sha256_blocks_fn pick(void)
{
#if defined(KILN_HAVE_SHANI)
    if (kiln_cpu()->sha_ni) return kiln_sha256_blocks_shani;
#endif
    return compress_portable;
}

kiln_sha256_blocks_fn kiln_sha256_blocks(void)
{
    static kiln_sha256_blocks_fn fn;
    if (!fn) fn = pick(); /* idempotent: a racing first call stores the same pointer */
    return fn;
}

kiln_sha256_blocks_fn kiln_sha256_blocks_portable(void) { return compress_portable; }

const char *kiln_sha256_impl(void)
{
    return kiln_sha256_blocks() == compress_portable ? "portable" : "sha-ni";
}

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

void kiln_sha256d(const void *data, size_t len, uint8_t digest[32])
{
    uint8_t first[32];
    kiln_sha256(data, len, first);
    kiln_sha256(first, 32, digest);
}
