/* The lines of a file of hashes, parsed: one at a time (merkle_line), or a large file's blocks
 * over all cores (merkle_lines_*), since decoding hex is what takes a file of leaves in: on a
 * one-GPU host a 4 GiB file is 66 million lines, two seconds on one core against the GPU's tens
 * of milliseconds to build their tree (issue 38.2). */
#ifndef KILN_CLI_MERKLE_LINES_H
#define KILN_CLI_MERKLE_LINES_H

#include <stddef.h>
#include <stdint.h>

/* What a line (without its LF) is: */
enum {
    MERKLE_LINE_SKIP, /* blank, or a '#' comment */
    MERKLE_LINE_HASH, /* a hash, decoded into node */
    MERKLE_LINE_LONG, /* longer than MERKLE_MAX_LINE bytes (a trailing CR aside) */
    MERKLE_LINE_DIGITS, /* not 64 characters once blanks and a CR are trimmed */
    MERKLE_LINE_HEX /* 64 characters, not all hex digits */
};
int merkle_line(const char *p, size_t len, int reversed, uint8_t node[32]);

/* threads (the caller's included; 0: one per core, up to 16) that parse a block's lines together;
 * NULL for one thread, or when no other could be had (the caller parses line by line). */
typedef struct merkle_lines merkle_lines;
merkle_lines *merkle_lines_start(unsigned threads);

/* The hashes of text[0..len), whole lines each ended by LF, decoded in order into out (room for
 * len / 65 nodes: a hash's line takes 65 bytes at least); *lines is the count of lines. Returns
 * the count of hashes, or -1 when a line is neither a hash nor blank nor a comment (the caller
 * then parses the text line by line, which names the line and the fault). */
int64_t merkle_lines_parse(merkle_lines *m, const char *text, size_t len, int reversed, uint8_t *out,
                           uint64_t *lines);

void merkle_lines_stop(merkle_lines *m);

#endif
