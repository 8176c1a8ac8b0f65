/* BLAKE3 on the host: a streaming hasher (plain, keyed and derive-key), and the many-inputs
 * kernel it feeds whole runs of chunks and of parents to, chosen once per process
 * (src/core/cpu_dispatch.h): 16 lanes of AVX-512, 8 of AVX2, or the portable one. */
#ifndef KILN_HASH_BLAKE3_HOST_H
#define KILN_HASH_BLAKE3_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "../core/cpu_dispatch.h"
#include "../prim/blake3.h"

/* Input i (of n) is `blocks` 64-byte blocks at in + i * stride, chained from key, the last of
 * them holding last_len bytes (0..64; the block's other bytes are zeros, read as such); its
 * counter is counter + i when increment is set (chunks), else counter (parents, single-chunk
 * messages); block j's flags are flags, plus flags_start when j == 0 and flags_end when j is the
 * last. The 8 words of its chaining value go to out + 32 * i, little-endian. */
typedef void (*kiln_blake3_many_fn)(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len,
                                    const uint32_t key[8], uint64_t counter, int increment, uint32_t flags,
                                    uint32_t flags_start, uint32_t flags_end, uint8_t *out);

typedef struct kiln_blake3_many_impl {
    const char *name;
    unsigned lanes;
    kiln_blake3_many_fn fn;
} kiln_blake3_many_impl;

/* The chosen kernel, and the portable one (the reference the tests compare against). */
const kiln_blake3_many_impl *kiln_blake3_many(void);
const kiln_blake3_many_impl *kiln_blake3_many_portable(void);

/* A streaming hasher: the current chunk's chain and its last bytes, and the chaining-value stack
 * of the complete subtrees to its left. 1.9 KiB: it lives in kiln_hash_stream's union. */
typedef struct kiln_blake3_ctx {
    uint32_t key[8];                                 /* the IV, the key, or the derived context key */
    uint32_t cv[8];                                  /* the current chunk's chain, before its buffered block */
    uint32_t stack[8 * (KILN_BLAKE3_MAX_DEPTH + 1)]; /* one more: a push before its merges */
    uint64_t chunk;                                  /* the current chunk's index: the chunks in the stack */
    uint32_t stack_n;
    uint32_t flags;     /* KEYED_HASH, DERIVE_KEY_CONTEXT or DERIVE_KEY_MATERIAL */
    uint32_t chunk_len; /* bytes of the current chunk taken, buf's included (0..1024) */
    uint32_t buf_len;   /* bytes of buf not yet compressed (0..64); the last block waits for its flags */
    uint8_t buf[KILN_BLAKE3_BLOCK];
} kiln_blake3_ctx;

void kiln_blake3_init(kiln_blake3_ctx *c);
void kiln_blake3_init_keyed(kiln_blake3_ctx *c, const uint8_t key[KILN_BLAKE3_KEY]);
/* derive_key: the context string (context_len bytes) hashed into the key of the material that
 * update then takes. */
void kiln_blake3_init_derive_key(kiln_blake3_ctx *c, const char *context, size_t context_len);
void kiln_blake3_update(kiln_blake3_ctx *c, const void *data, size_t len);
/* Any number of output bytes (the first 32 are the digest); c is left unchanged, so more input
 * may follow. */
void kiln_blake3_final(const kiln_blake3_ctx *c, uint8_t *out, size_t outlen);

/* The same, with the many-inputs kernel given: the self-tests and the tests run one kernel. */
void kiln_blake3_update_with(kiln_blake3_ctx *c, const void *data, size_t len, kiln_blake3_many_fn many);

/* n messages of msg_len bytes back to back, their 32-byte digests back to back (a hash batch, a
 * Merkle level): messages of one chunk or less through the kernel (copied into zero-padded
 * slots unless they are whole blocks), longer ones one stream a message. */
void kiln_blake3_batch(const uint8_t *data, size_t msg_len, size_t n, uint8_t *out);

/* The dispatch's known-answer self-test, public for the tests: nonzero when the kernel, driving
 * the hasher, reproduces the BLAKE3 team's test vectors for 16 and 31 chunks. */
int kiln_blake3_many_selftest(kiln_blake3_many_fn many);

#if defined(KILN_X86_KERNELS)
/* 8 lanes of AVX2 and 16 of AVX-512; only call when the CPU has them. */
void kiln_blake3_many_avx2(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len,
                           const uint32_t key[8], uint64_t counter, int increment, uint32_t flags, uint32_t flags_start,
                           uint32_t flags_end, uint8_t *out);
void kiln_blake3_many_avx512(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len,
                             const uint32_t key[8], uint64_t counter, int increment, uint32_t flags,
                             uint32_t flags_start, uint32_t flags_end, uint8_t *out);
#endif

#endif
