/* Host-side multi-block SHA-256 compression, picked at run time. */
#ifndef KILN_HASH_SHA256_HOST_H
#define KILN_HASH_SHA256_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpu_dispatch.h"

/* Compresses n consecutive 64-byte blocks into state. */
typedef void (*kiln_sha256_blocks_fn)(uint32_t state[8], const uint8_t *blocks, size_t n);

kiln_sha256_blocks_fn kiln_sha256_blocks(void);
kiln_sha256_blocks_fn kiln_sha256_blocks_portable(void);

#if defined(KILN_X86_KERNELS)
/* SHA extensions (sha256rnds2 / sha256msg1 / sha256msg2); only call when kiln_cpu()->sha_ni. */
void kiln_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n);
#endif

#endif
