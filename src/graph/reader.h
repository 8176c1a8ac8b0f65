/* Line-by-line reading of a text file, gzip-compressed or not (through zlib when kiln has it),
 * in large chunks, with the line number kept for error messages. */
#ifndef KILN_GRAPH_READER_H
#define KILN_GRAPH_READER_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

struct kiln_reader {
    const char *path;
    void *gz; /* gzFile with zlib */
    void *fp; /* FILE * without zlib */
    char *buf;
    size_t cap, len, pos;
    int eof;
    uint64_t line; /* number of the line last returned, from 1 */
    kiln_status status; /* of the last failure */
};

kiln_status kiln_reader_open(kiln_ctx *ctx, const char *path, kiln_reader **out);
/* The next line without its LF (and without a CR before it). Returns 1 with a line, 0 at the
 * end of the input, -1 on a read error (ctx holds the message). The line stays valid until the
 * next call. */
int kiln_reader_next(kiln_ctx *ctx, kiln_reader *r, const char **line, size_t *len);
/* Up to want bytes of what comes next, without consuming them (fewer at the end of the input). */
kiln_status kiln_reader_peek(kiln_ctx *ctx, kiln_reader *r, size_t want, const char **p, size_t *len);
void kiln_reader_close(kiln_reader *r);

/* 1 when kiln was built with zlib. */
int kiln_reader_has_zlib(void);

#endif
