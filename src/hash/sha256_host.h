/* Host-side multi-block SHA-256 compression, picked at run time. */
#ifndef KILN_HASH_SHA256_HOST_H
#define KILN_HASH_SHA256_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpu_dispatch.h"
#include "kiln.h"

/* Compresses n consecutive 64-byte blocks into state. */
typedef void (*kiln_sha256_blocks_fn)(uint32_t state[8], const uint8_t *blocks, size_t n);

kiln_sha256_blocks_fn kiln_sha256_blocks(void);
kiln_sha256_blocks_fn kiln_sha256_blocks_portable(void);

/* SHA-224 (FIPS 180-4): a SHA-256 stream started from SHA-224's initial value (kiln_sha256_update
 * feeds it); its digest is the first 28 bytes of kiln_sha256_final's. */
void kiln_sha224_init(kiln_sha256_stream *s);
void kiln_sha224(const void *data, size_t len, uint8_t digest[28]);

#if defined(KILN_X86_KERNELS)
/* SHA extensions (sha256rnds2 / sha256msg1 / sha256msg2); only call when kiln_cpu()->sha_ni. */
void kiln_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n);
#endif

#endif
