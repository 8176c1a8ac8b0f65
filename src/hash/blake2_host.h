/* BLAKE2b and BLAKE2s (RFC 7693) on the host: a streaming context with the whole parameter block
 * (digest length, key, salt, personalization and the tree parameters, as Python's hashlib takes
 * them), over the compressions of src/prim/blake2.h. */
#ifndef KILN_HASH_BLAKE2_HOST_H
#define KILN_HASH_BLAKE2_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpu_dispatch.h"
#include "../prim/blake2.h"

/* One context for both variants: BLAKE2s keeps its 32-bit words in the low halves of h and t. */
typedef struct kiln_blake2_ctx {
    uint64_t h[8];
    uint64_t t[2]; /* bytes compressed so far (BLAKE2s: t[0] only, up to 2^64 - 1 bytes) */
    uint64_t last_node; /* f1 of the final compression: all ones for the last node of a tree level */
    kiln_blake2_variant variant;
    unsigned outlen; /* digest bytes */
    unsigned buflen; /* bytes held in buf, up to a whole block: the last block is compressed by final */
    uint8_t buf[KILN_BLAKE2B_BLOCK];
} kiln_blake2_ctx;

/* The parameter block's fields (RFC 7693 section 2.5, BLAKE2's paper for the tree fields). */
typedef struct kiln_blake2_param {
    unsigned outlen; /* 1..64 (b), 1..32 (s) */
    const uint8_t *key;
    size_t key_len; /* up to 64 (b), 32 (s) */
    const uint8_t *salt, *person; /* zero-padded to 16 (b), 8 (s) bytes */
    size_t salt_len, person_len;
    unsigned fanout, depth; /* sequential hashing: 1, 1 */
    uint32_t leaf_size;
    uint64_t node_offset; /* BLAKE2s: 48 bits */
    unsigned node_depth, inner_size;
    int last_node;
} kiln_blake2_param;

/* Sequential unkeyed hashing with an outlen-byte digest. */
void kiln_blake2_init(kiln_blake2_ctx *c, kiln_blake2_variant v, unsigned outlen);
/* Any parameter block; the caller has checked the ranges (blake2_algos.c does). */
void kiln_blake2_init_param(kiln_blake2_ctx *c, kiln_blake2_variant v, const kiln_blake2_param *p);
void kiln_blake2_update(kiln_blake2_ctx *c, const void *data, size_t len);
/* Writes c->outlen bytes. */
void kiln_blake2_final(kiln_blake2_ctx *c, uint8_t *out);

/* A BLAKE2s lane kernel hashes `lanes` messages of one length at once, unkeyed with the default
 * parameter block: msg[i] (len bytes) to out[i] (outlen bytes, 1..32). */
typedef void (*kiln_blake2s_lanes_fn)(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out);
typedef struct kiln_blake2s_lanes_impl {
    const char *name;
    unsigned lanes;
    kiln_blake2s_lanes_fn hash;
} kiln_blake2s_lanes_impl;

/* The chosen lane kernel (the portable one, one lane, where no SIMD kernel passes its
 * self-test), and the portable one. */
const kiln_blake2s_lanes_impl *kiln_blake2s_lanes(void);
const kiln_blake2s_lanes_impl *kiln_blake2s_lanes_portable(void);
/* The dispatch's known-answer self-test, public for the tests: nonzero when the kernel
 * reproduces RFC 7693's and Python hashlib's digests. */
int kiln_blake2s_lanes_selftest(const kiln_blake2s_lanes_impl *lanes);

/* n messages of msg_len bytes back to back, their outlen-byte BLAKE2s digests back to back in
 * out: groups of the chosen kernel's width, the rest one at a time. */
void kiln_blake2s_batch(unsigned outlen, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out);

#if defined(KILN_X86_KERNELS)
/* eight lanes (AVX2), sixteen (AVX-512); only call when the CPU has them */
void kiln_blake2s_lanes_avx2(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out);
void kiln_blake2s_lanes_avx512(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out);
#endif

/* What BLAKE2s's and BLAKE2b's lanes share (blake2.c): kernel l's known-answer check with
 * outlen-byte digests, and a batch through l in groups of its width, the rest one at a time
 * (variant v's stream). */
struct kiln_lanes_kat;
int kiln_blake2_lanes_kat(const kiln_blake2s_lanes_impl *l, unsigned outlen, const struct kiln_lanes_kat *kat);
void kiln_blake2_lanes_batch(const kiln_blake2s_lanes_impl *l, kiln_blake2_variant v, unsigned outlen,
                             const uint8_t *data, size_t msg_len, size_t n, uint8_t *out);

/* BLAKE2b's the same way (blake2b_batch.c): outlen 1..64. */
typedef kiln_blake2s_lanes_fn kiln_blake2b_lanes_fn;
typedef kiln_blake2s_lanes_impl kiln_blake2b_lanes_impl;
const kiln_blake2b_lanes_impl *kiln_blake2b_lanes(void);
const kiln_blake2b_lanes_impl *kiln_blake2b_lanes_portable(void);
int kiln_blake2b_lanes_selftest(const kiln_blake2b_lanes_impl *lanes);
void kiln_blake2b_batch(unsigned outlen, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out);

#if defined(KILN_X86_KERNELS)
/* four lanes (AVX2), eight (AVX-512) of 64-bit words; only call when the CPU has them */
void kiln_blake2b_lanes_avx2(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out);
void kiln_blake2b_lanes_avx512(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out);
#endif

#endif
