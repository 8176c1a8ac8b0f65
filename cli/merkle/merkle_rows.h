/* `kiln merkle --rows`: a matrix's rows as text, for the leaf hashes of the Poseidon2 merges. */
#ifndef KILN_CLI_MERKLE_ROWS_H
#define KILN_CLI_MERKLE_ROWS_H

#include <stddef.h>
#include <stdint.h>

/* Reads `path` ('-': standard input): one row a line, its field elements in decimal separated by
 * spaces or tabs, every row as long as the first; blank lines and lines starting with '#' are
 * skipped. *rows receives the elements little-endian, elem_size bytes each (4 or 8; malloc'd, the
 * caller frees it), *n the rows and *row_elems their length. Elements are only checked to fit
 * elem_size bytes (the library checks them against p). 0, or the exit code after a message. */
int merkle_read_rows(const char *cmd, const char *path, size_t elem_size, uint8_t **rows, uint64_t *n,
                     size_t *row_elems);

#endif
