/* One pass over a graph input (a path, or "-" for standard input), gzip-compressed or not
 * (through zlib when kiln has it): opened once and never reopened or rewound, so pipes and FIFOs
 * read exactly like files. Lines come out with their number kept for error messages; the first
 * bytes can be looked at before anything is consumed, which is how the format is told. */
#ifndef KILN_GRAPH_READER_H
#define KILN_GRAPH_READER_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

/* The longest line a text graph format needs is two 20-digit ids and a value; anything longer is
 * not a graph line, and refusing it bounds the buffer a line can take. */
#define KILN_GRAPH_MAX_LINE 4096u

struct kiln_reader {
    const char *path; /* as error messages name the input */
    int fd, own_fd;
    int waits; /* a pipe, FIFO or terminal: each read waits for it in poll(), the interrupt seen */
    long long size; /* bytes a regular uncompressed file holds, else -1 */
    void *z; /* z_stream with zlib, when the input is gzip */
    unsigned char *zin; /* compressed bytes not yet inflated */
    int zin_eof, z_member_done;
    char *buf; /* decoded bytes buf[pos .. len) not yet consumed */
    size_t cap, len, pos;
    int eof;
    uint64_t line; /* number of the line last returned, from 1 */
    size_t max_line; /* longest line accepted, without its end (KILN_GRAPH_MAX_LINE) */
    kiln_status status; /* of the last failure */
    uint64_t stored, stored_size; /* bytes read as stored (compressed, for gzip), of stored_size (0: not known) */
};

kiln_status kiln_reader_open(kiln_ctx *ctx, const char *path, kiln_reader **out);
/* The next line without its LF (and without a CR before it). Returns 1 with a line, 0 at the
 * end of the input, -1 on a read error, a line longer than max_line or an interruption (r->status
 * and ctx hold it). The line stays valid until the next call. */
int kiln_reader_next(kiln_ctx *ctx, kiln_reader *r, const char **line, size_t *len);
/* Up to want bytes of what comes next, without consuming them (fewer at the end of the input). */
kiln_status kiln_reader_peek(kiln_ctx *ctx, kiln_reader *r, size_t want, const char **p, size_t *len);
/* The next n bytes into dst, large reads going straight there; *got < n at the end of the input. */
kiln_status kiln_reader_read(kiln_ctx *ctx, kiln_reader *r, void *dst, size_t n, size_t *got);
void kiln_reader_close(kiln_reader *r);

/* 1 when kiln was built with zlib. */
int kiln_reader_has_zlib(void);

#endif
