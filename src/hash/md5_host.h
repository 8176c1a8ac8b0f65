/* MD5 (RFC 1321) on the host: a streaming context and a one-shot helper around the portable
 * compression of src/prim/md5.h. MD5's rounds are one dependent chain with no SIMD or x86
 * instruction of its own to speed a single stream, so the dispatch has one candidate. */
#ifndef KILN_HASH_MD5_HOST_H
#define KILN_HASH_MD5_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "md64_stream.h"

typedef kiln_md64_blocks_fn kiln_md5_blocks_fn;

kiln_md5_blocks_fn kiln_md5_blocks(void);
const char *kiln_md5_impl(void); /* "portable" */

typedef kiln_md64_ctx kiln_md5_ctx;

void kiln_md5_init(kiln_md5_ctx *c);
void kiln_md5_update(kiln_md5_ctx *c, const void *data, size_t len);
/* Writes the 16-byte digest; c must be initialized again before further use. */
void kiln_md5_final(kiln_md5_ctx *c, uint8_t digest[16]);
void kiln_md5(const void *data, size_t len, uint8_t digest[16]);

#endif
