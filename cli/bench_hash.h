/* Rows of `kiln bench` for the hashing algorithms and the Keccak permutation. */
#ifndef KILN_CLI_BENCH_HASH_H
#define KILN_CLI_BENCH_HASH_H

#include <stddef.h>

#include "kiln.h"

typedef struct bench_hash_opts {
    size_t size; /* message bytes */
    int offsets; /* GPU: read an offsets array (the general batch path) */
    int in_registers; /* keccakf1600 on a GPU: 16 permutations per state load/store */
    kiln_keccak_layout layout;
    double seconds;
} bench_hash_opts;

/* 1 for the names bench_hash_row measures: every `kiln hash` algorithm but sha256d (which `kiln
 * bench` measures as mining), and keccakf1600. */
int bench_hash_is_name(const char *name);
/* Measures and prints one row (JSON object when json, preceded by ", " unless first). */
kiln_status bench_hash_row(kiln_ctx *ctx, const char *name, const bench_hash_opts *o, int json, int first);

#endif
