/* What `kiln merkle`, `kiln bench --algo merkle-*` and `kiln tune --algo merkle-*` share: names,
 * leaf counts, launch-shape options and the tune cache entries "merkle-<algo>" (threads per block,
 * subtree height k in the items column). */
#ifndef KILN_CLI_MERKLE_CLI_H
#define KILN_CLI_MERKLE_CLI_H

#include <stdint.h>

#include "kiln.h"

/* "merkle-sha256d", "merkle-sha256", "merkle-sha3-256", "merkle-keccak256", "merkle-rp64_256" or its
 * short form "merkle-rp64". 0 on success. */
int merkle_cli_algo(const char *name, kiln_merkle_algo *algo);
/* The tune cache's name for an algorithm ("merkle-rp64" for rp64_256). */
const char *merkle_cli_cache_name(kiln_merkle_algo algo);
/* 1 when argv holds --algo merkle-... (bench and tune hand such runs to the functions below). */
int merkle_cli_requested(int argc, char **argv);
/* "2^N" (N <= 40) or a decimal count >= 1. 0 on success. */
int merkle_cli_leaves(const char *s, uint64_t *n);
/* "levels", "subtrees" or "auto". 0 on success. */
int merkle_cli_method(const char *s, kiln_merkle_method *m);
/* Fills the shape fields left at 0 from the tune cache (GPU contexts only). */
void merkle_cli_apply_cache(kiln_ctx *ctx, kiln_merkle_algo algo, kiln_merkle_opts *o);

int cmd_bench_merkle(int argc, char **argv);
int cmd_tune_merkle(int argc, char **argv);

#endif
