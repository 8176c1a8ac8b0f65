/* The inputs of `kiln merkle`: files of hashes (leaves, proofs) and raw blocks, each read once
 * (a pipe, a FIFO or '-' works like a file) in bounded memory, and given up at once on SIGINT.
 * Every function returns an exit code, having printed the one-line error when it is not EXIT_OK. */
#ifndef KILN_CLI_MERKLE_INPUT_H
#define KILN_CLI_MERKLE_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* The longest line of a file of hashes: a hash is 64 digits; the rest is room for blanks and a
 * comment. Longer lines are refused as soon as that many bytes of them have arrived. */
#define MERKLE_MAX_LINE 1024u

/* A hash of len hex digits in the project's text order (reversed: sha256d's display order) into
 * raw node bytes; 0, or -1 when it is not 64 hex digits. */
int merkle_parse_hash(const char *hex, size_t len, int reversed, uint8_t node[32]);

/* One 64-hex-digit hash per line (blank lines and '#' comments skipped), decoded into *nodes
 * (32 bytes each, byte-reversed when reversed). More than max hashes is refused with max_note
 * as the reason; so is a count whose tree would not fit in memory (ulimit -v, -d included). A
 * large regular file is read ahead on a thread and, when max does not limit it, parsed by
 * `threads` threads (0: one per core, up to 16; --threads). */
int merkle_read_hashes(const char *cmd, const char *path, int reversed, uint64_t max, const char *max_note,
                       unsigned threads, uint8_t **nodes, uint64_t *n);

/* The whole file, or its first max bytes and one more when it is longer (for the parser to
 * refuse with its own limit): *len bytes in *data. */
int merkle_read_bytes(const char *cmd, const char *path, size_t max, unsigned char **data, size_t *len);

#endif
