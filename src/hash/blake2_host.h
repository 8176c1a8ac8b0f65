/* BLAKE2b and BLAKE2s (RFC 7693) on the host: a streaming context with the whole parameter block
 * (digest length, key, salt, personalization and the tree parameters, as Python's hashlib takes
 * them), over the compressions of src/prim/blake2.h. */
#ifndef KILN_HASH_BLAKE2_HOST_H
#define KILN_HASH_BLAKE2_HOST_H

#include <stddef.h>
#include <stdint.h>

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

#endif
