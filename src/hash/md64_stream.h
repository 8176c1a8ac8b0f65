/* The buffering and padding of a Merkle-Damgard hash over 64-byte blocks with a 64-bit bit count
 * (SHA-1, MD5), around a compression function of n whole blocks: written once for the families
 * whose only difference here is the byte order of the count. (SHA-256 keeps its own, older stream,
 * kiln_sha256_stream of kiln.h.) */
#ifndef KILN_HASH_MD64_STREAM_H
#define KILN_HASH_MD64_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Compresses n consecutive 64-byte blocks into state. */
typedef void (*kiln_md64_blocks_fn)(uint32_t *state, const uint8_t *blocks, size_t n);

typedef struct kiln_md64_ctx {
    uint32_t state[5]; /* SHA-1 uses five words, MD5 four */
    uint64_t total; /* bytes absorbed */
    uint8_t block[64];
} kiln_md64_ctx;

static inline void kiln_md64_update(kiln_md64_ctx *c, kiln_md64_blocks_fn blocks, const void *data, size_t len)
{
    if (len == 0) return; /* data may then be NULL, which memcpy may not be given */
    const uint8_t *p = data;
    size_t fill = (size_t)(c->total % 64);
    c->total += len;
    if (fill) {
        size_t take = 64 - fill < len ? 64 - fill : len;
        memcpy(c->block + fill, p, take);
        p += take;
        len -= take;
        if (fill + take < 64) return;
        blocks(c->state, c->block, 1);
    }
    if (len >= 64) {
        blocks(c->state, p, len / 64);
        p += len - len % 64;
        len %= 64;
    }
    if (len) memcpy(c->block, p, len);
}

/* Pads and compresses the last block or two: 0x80, zeros, the bit count big-endian (SHA-1) or
 * little-endian (MD5) in the last 8 bytes. The state then holds the digest's words. */
static inline void kiln_md64_pad(kiln_md64_ctx *c, kiln_md64_blocks_fn blocks, int big_endian_count)
{
    size_t fill = (size_t)(c->total % 64);
    uint64_t bits = c->total * 8;
    c->block[fill++] = 0x80;
    if (fill > 56) {
        memset(c->block + fill, 0, 64 - fill);
        blocks(c->state, c->block, 1);
        fill = 0;
    }
    memset(c->block + fill, 0, 56 - fill);
    for (int i = 0; i < 8; i++) c->block[56 + i] = (uint8_t)(bits >> (big_endian_count ? 56 - 8 * i : 8 * i));
    blocks(c->state, c->block, 1);
}

#endif
