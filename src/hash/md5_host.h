/* MD5 (RFC 1321) on the host: a streaming context and a one-shot helper around the portable
 * compression of src/prim/md5.h. MD5's rounds are one dependent chain with no SIMD or x86
 * instruction of its own to speed a single stream, so a stream has one candidate; batches of
 * equal-length messages run several streams in SIMD lanes (md5_lanes.h). */
#ifndef KILN_HASH_MD5_HOST_H
#define KILN_HASH_MD5_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpu_dispatch.h"
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

/* Batches do gain from SIMD: a lane kernel hashes `lanes` messages of one length at once, msg[i]
 * (len bytes) to out[i] (16 bytes). */
typedef void (*kiln_md5_lanes_fn)(const uint8_t *const *msg, size_t len, uint8_t *const *out);
typedef struct kiln_md5_lanes_impl {
    const char *name;
    unsigned lanes;
    kiln_md5_lanes_fn hash;
} kiln_md5_lanes_impl;

/* The chosen lane kernel (the portable one, one lane, where no SIMD kernel passes its
 * self-test), and the portable one. */
const kiln_md5_lanes_impl *kiln_md5_lanes(void);
const kiln_md5_lanes_impl *kiln_md5_lanes_portable(void);
/* The dispatch's known-answer self-test, public for the tests: nonzero when the kernel
 * reproduces RFC 1321's and OpenSSL's digests. */
int kiln_md5_lanes_selftest(const kiln_md5_lanes_impl *lanes);

/* n messages of msg_len bytes back to back, their 16-byte digests back to back in out: groups of
 * the chosen kernel's width, the rest one at a time. */
void kiln_md5_batch(const uint8_t *data, size_t msg_len, size_t n, uint8_t *out);

#if defined(KILN_X86_KERNELS)
/* eight lanes (AVX2), sixteen (AVX-512); only call when the CPU has them */
void kiln_md5_lanes_avx2(const uint8_t *const *msg, size_t len, uint8_t *const *out);
void kiln_md5_lanes_avx512(const uint8_t *const *msg, size_t len, uint8_t *const *out);
#endif

#endif
