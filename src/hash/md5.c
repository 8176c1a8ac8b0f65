/* Streaming MD5 on the host: md64_stream.h's buffering and padding (the bit count little-endian)
 * around src/prim/md5.h's compression. */
#include "../prim/md5.h"
#include "md5_host.h"

static void compress_portable(uint32_t *state, const uint8_t *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_md5_compress_bytes(state, blocks + 64 * i);
}

kiln_md5_blocks_fn kiln_md5_blocks(void) { return compress_portable; }

const char *kiln_md5_impl(void) { return "portable"; }

void kiln_md5_init(kiln_md5_ctx *c)
{
    kiln_md5_iv(c->state);
    c->state[4] = 0;
    c->total = 0;
}

void kiln_md5_update(kiln_md5_ctx *c, const void *data, size_t len) { kiln_md64_update(c, compress_portable, data, len); }

void kiln_md5_final(kiln_md5_ctx *c, uint8_t digest[16])
{
    kiln_md64_pad(c, compress_portable, 0);
    for (int i = 0; i < 4; i++) kiln_store_le32(digest + 4 * i, c->state[i]);
}

void kiln_md5(const void *data, size_t len, uint8_t digest[16])
{
    kiln_md5_ctx c;
    kiln_md5_init(&c);
    kiln_md5_update(&c, data, len);
    kiln_md5_final(&c, digest);
}
