/* What `kiln merkle`, `kiln bench` and `kiln tune` share for trees: leaf counts. The
 * tune cache entries of trees are "merkle-<short name>" (threads per block, subtree height k in
 * the items column). */
#ifndef KILN_CLI_MERKLE_CLI_H
#define KILN_CLI_MERKLE_CLI_H

#include <stdint.h>

#include "kiln.h"

/* "2^N" (N <= 40) or a decimal count >= 1. 0 on success. */
int merkle_cli_leaves(const char *s, uint64_t *n);
/* --leaves of bench and tune: merkle_cli_leaves, and a tree of at least 2 leaves; 0, or the exit
 * code after "bad --leaves ...". */
int merkle_cli_leaves_opt(const char *cmd, const char *s, uint64_t *n);

#endif
