/* SHA-512, SHA-384 and SHA-512/256 on the host: a streaming context, one-shot helpers, and
 * batches of equal-length messages hashed several at a time in SIMD lanes. The compression
 * function and the lane kernel are each picked once per process (src/core/cpu_dispatch.h). */
#ifndef KILN_HASH_SHA512_HOST_H
#define KILN_HASH_SHA512_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpu_dispatch.h"
#include "../prim/sha512.h"

/* Compresses n consecutive 128-byte blocks into state. */
typedef void (*kiln_sha512_blocks_fn)(uint64_t state[8], const uint8_t *blocks, size_t n);

/* The chosen compression, and the portable one (the reference the tests compare against). */
kiln_sha512_blocks_fn kiln_sha512_blocks(void);
kiln_sha512_blocks_fn kiln_sha512_blocks_portable(void);
const char *kiln_sha512_impl(void); /* the chosen compression's name: "avx2", "portable" */

/* A streaming hash. The total is kept in bytes: the 128-bit bit count FIPS 180-4 appends is
 * derived from it at the end, exact for any message shorter than 2^64 bytes. */
typedef struct kiln_sha512_ctx {
    uint64_t state[8];
    uint64_t total; /* bytes absorbed */
    unsigned digest_len; /* bytes final writes */
    uint8_t block[KILN_SHA512_BLOCK];
} kiln_sha512_ctx;

/* Starts variant v. An unknown v starts SHA-512. */
void kiln_sha512_init(kiln_sha512_ctx *c, kiln_sha512_variant v);
/* Starts from any initial value (another SHA-512/t, a midstate) with a digest of digest_len
 * bytes (1..64). */
void kiln_sha512_init_iv(kiln_sha512_ctx *c, const uint64_t iv[8], unsigned digest_len);
void kiln_sha512_update(kiln_sha512_ctx *c, const void *data, size_t len);
/* Writes c->digest_len bytes. c must be initialized again before further use. */
void kiln_sha512_final(kiln_sha512_ctx *c, uint8_t *digest);

void kiln_sha512(const void *data, size_t len, uint8_t digest[64]);
void kiln_sha384(const void *data, size_t len, uint8_t digest[48]);
void kiln_sha512_256(const void *data, size_t len, uint8_t digest[32]);
/* kiln_sha512_digest_len(v) bytes of variant v; nothing for an unknown v. */
void kiln_sha512_variant_hash(kiln_sha512_variant v, const void *data, size_t len, uint8_t *digest);

/* A lane kernel hashes `lanes` messages of one length at once: msg[i] (len bytes) to out[i]
 * (outlen bytes, 1..64), each from the initial value iv. */
typedef void (*kiln_sha512_lanes_fn)(const uint64_t iv[8], const uint8_t *const *msg, size_t len,
                                     uint8_t *const *out, unsigned outlen);
typedef struct kiln_sha512_lanes_impl {
    const char *name;
    unsigned lanes;
    kiln_sha512_lanes_fn hash;
} kiln_sha512_lanes_impl;

/* The chosen lane kernel (the portable one, one lane, where no SIMD kernel passes), and the
 * portable one. */
const kiln_sha512_lanes_impl *kiln_sha512_lanes(void);
const kiln_sha512_lanes_impl *kiln_sha512_lanes_portable(void);

/* Variant v of n messages of msg_len bytes each, message i at data + i * msg_len, its digest at
 * out + i * kiln_sha512_digest_len(v): the shape of a fixed-length hash batch and of a Merkle
 * level. Groups of the chosen lane kernel's width, the rest one at a time. */
void kiln_sha512_batch(kiln_sha512_variant v, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out);

/* The dispatch's known-answer self-tests (FIPS 180-4's SHA-512 examples), public for the tests:
 * nonzero when the compression, or the lane kernel, reproduces them. */
int kiln_sha512_blocks_selftest(kiln_sha512_blocks_fn blocks);
int kiln_sha512_lanes_selftest(const kiln_sha512_lanes_impl *lanes);

#if defined(KILN_X86_KERNELS)
/* AVX2 (the compression, four lanes) and AVX-512 (eight lanes); only call when the CPU has them. */
void kiln_sha512_blocks_avx2(uint64_t state[8], const uint8_t *blocks, size_t n);
void kiln_sha512_lanes_avx2(const uint64_t iv[8], const uint8_t *const *msg, size_t len, uint8_t *const *out,
                            unsigned outlen);
void kiln_sha512_lanes_avx512(const uint64_t iv[8], const uint8_t *const *msg, size_t len, uint8_t *const *out,
                              unsigned outlen);
#endif

#endif
