/* The registry's private half: what the library itself runs for an entry. */
#ifndef KILN_API_REGISTRY_INTERNAL_H
#define KILN_API_REGISTRY_INTERNAL_H

#include <stddef.h>

#include "kiln.h"

/* A known-answer check on the context's device; the message names what failed. */
typedef kiln_status (*kiln_selftest_fn)(kiln_ctx *ctx);

typedef struct registry_entry {
    kiln_workload w;
    kiln_selftest_fn selftest;
} registry_entry;

/* Entry i's check, or NULL. */
kiln_selftest_fn kiln_workload_selftest(size_t i);

/* The checks (selftest.c, selftest_keccak.c, selftest_poseidon2.c). */
kiln_status kiln_selftest_sha256d_search(kiln_ctx *ctx);
kiln_status kiln_selftest_scrypt_search(kiln_ctx *ctx);
kiln_status kiln_selftest_scrypt_kdf(kiln_ctx *ctx);
kiln_status kiln_selftest_keccak(kiln_ctx *ctx);
kiln_status kiln_selftest_poseidon2_babybear16(kiln_ctx *ctx); /* selftest_poseidon2.c */
kiln_status kiln_selftest_poseidon2_koalabear16(kiln_ctx *ctx);
kiln_status kiln_selftest_poseidon2_goldilocks8(kiln_ctx *ctx);
kiln_status kiln_selftest_poseidon2_goldilocks12(kiln_ctx *ctx);

#endif
