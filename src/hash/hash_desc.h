/* A hash algorithm's descriptor: everything kiln knows about one digest, written once beside its
 * code (sha256_algos.c, keccak_algos.c, ...) and listed once (core/hash_list.h). The hashing front end
 * (hash_algo.c), the workload registry, the batch and bench paths, `kiln hash`'s check lines and
 * the Python names all read it; none of them names an algorithm. */
#ifndef KILN_HASH_HASH_DESC_H
#define KILN_HASH_HASH_DESC_H

#include <stddef.h>
#include <stdint.h>

#include "../core/gpu.h"
#include "kiln.h"

typedef struct kiln_hash_desc kiln_hash_desc;

/* A family's streaming code. Its state lives in kiln_hash_stream's union and must fit it. */
typedef struct kiln_hash_family {
    const char *name; /* in the CPU dispatch report ("sha256=sha-ni keccak=avx512 ...") */
    /* writes the CPU kernels the dispatch chose for the family ("avx2/avx512x8") */
    void (*cpu_impl)(char *out, size_t len);
    void (*init)(kiln_hash_stream *s, const kiln_hash_desc *d);
    /* init with parameters (keys, salts, a digest length): NULL where the family takes none. It
     * checks every field (KILN_ERR_INPUT for one out of range or one it does not take) and sets
     * s->out_len when the digest length differs from d->digest. */
    kiln_status (*init_params)(kiln_hash_stream *s, const kiln_hash_desc *d, const kiln_hash_params *p);
    kiln_status (*update)(kiln_hash_stream *s, const uint8_t *data, size_t len); /* refused after a squeeze */
    /* outlen is the digest length, or any length >= 1 for an extendable-output function */
    void (*final)(kiln_hash_stream *s, const kiln_hash_desc *d, uint8_t *out, size_t outlen);
} kiln_hash_family;

struct kiln_hash_desc {
    const char *name; /* as the CLI spells it */
    const char *hashlib; /* Python hashlib's name, NULL when hashlib has none */
    const char *tags[2]; /* check-line tags: the first is what --tag writes (coreutils' spelling), the
                            second another spelling read too (OpenSSL 3's), or NULL */
    const char *help; /* one line */
    size_t digest; /* default output bytes */
    size_t block; /* bytes a compression or permutation takes in */
    int xof; /* any output length */
    unsigned rate; /* Keccak family: the sponge's rate in bytes */
    uint8_t domain; /* Keccak family: the padding's domain bits */
    int variant; /* the family's own choice (its line of core/hash_list.h says what) */
    const kiln_hash_family *family;
    /* n messages of msg_len bytes back to back, hashed several at a time in SIMD lanes, digests
     * of the default length back to back; NULL where one stream at a time is as fast */
    void (*lanes)(const kiln_hash_desc *d, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out);
    kiln_hash_gpu_family gpu; /* the GPU backends' kernel family (an F line of core/hash_list.h) */
    int tree; /* the kiln_merkle_algo merging with this digest, or -1 */
    /* a known answer `kiln selftest` checks on the context's device: the digest (hex, default
     * length) of the message kat_msg (kat_len bytes), or NULL when another check covers it */
    const char *kat_msg;
    size_t kat_len;
    const char *kat_digest;
};

/* The hash algorithms, by id (kiln_hash_algo): the KILN_HASH_* constants are the first ids. */
const kiln_hash_desc *kiln_hash_desc_of(kiln_hash_algo algo);
size_t kiln_hash_desc_count(void);

#endif
