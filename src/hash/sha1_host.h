/* SHA-1 on the host: a streaming context and a one-shot helper around a compression function
 * picked once per process (src/core/cpu_dispatch.h): the SHA extensions' sha1rnds4 where the CPU
 * has them and they pass the known-answer self-test, else the portable code of src/prim/sha1.h. */
#ifndef KILN_HASH_SHA1_HOST_H
#define KILN_HASH_SHA1_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpu_dispatch.h"
#include "md64_stream.h"

/* Compresses n consecutive 64-byte blocks into state (5 words). */
typedef kiln_md64_blocks_fn kiln_sha1_blocks_fn;

/* The chosen compression, and the portable one (the reference the tests compare against). */
kiln_sha1_blocks_fn kiln_sha1_blocks(void);
kiln_sha1_blocks_fn kiln_sha1_blocks_portable(void);
const char *kiln_sha1_impl(void); /* the chosen compression's name: "sha-ni", "portable" */

typedef kiln_md64_ctx kiln_sha1_ctx;

void kiln_sha1_init(kiln_sha1_ctx *c);
void kiln_sha1_update(kiln_sha1_ctx *c, const void *data, size_t len);
/* Writes the 20-byte digest; c must be initialized again before further use. */
void kiln_sha1_final(kiln_sha1_ctx *c, uint8_t digest[20]);
void kiln_sha1(const void *data, size_t len, uint8_t digest[20]);

/* The dispatch's known-answer self-test (FIPS 180-4's SHA-1 examples), public for the tests:
 * nonzero when the compression reproduces them. */
int kiln_sha1_blocks_selftest(kiln_sha1_blocks_fn blocks);

#if defined(KILN_X86_KERNELS)
/* SHA extensions (sha1rnds4 / sha1nexte / sha1msg1 / sha1msg2); only call when the CPU has them. */
void kiln_sha1_blocks_shani(uint32_t *state, const uint8_t *blocks, size_t n);
#endif

#endif
