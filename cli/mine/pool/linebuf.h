/* A fixed-size line reader: bytes from a socket go in, newline-terminated lines come out. A line
 * longer than the limit is an error instead of a reason to grow: a pool cannot make the miner
 * hold more than one limit's worth of bytes. */
#ifndef KILN_POOL_LINEBUF_H
#define KILN_POOL_LINEBUF_H

#include <stddef.h>

#define POOL_LINE_MAX 65536 /* bytes per line, without the newline */

typedef struct linebuf {
    char *buf;
    size_t cap; /* max_line + 1: a full line and its newline */
    size_t max_line;
    size_t head, len; /* unread bytes are buf[head .. len) */
} linebuf;

int linebuf_init(linebuf *lb, size_t max_line); /* -1 when out of memory */
void linebuf_free(linebuf *lb);
void linebuf_reset(linebuf *lb);

/* Free space to read into (never 0 while linebuf_next has not reported -1). */
char *linebuf_space(linebuf *lb, size_t *avail);
void linebuf_commit(linebuf *lb, size_t n);

/* Next complete line, NUL-terminated, without "\n" or "\r\n"; empty lines are skipped. The line
 * stays valid until the next call. Returns 1 for a line, 0 when more bytes are needed, -1 when
 * the pending line is longer than max_line (the buffer must then be reset). */
int linebuf_next(linebuf *lb, char **line, size_t *len);

/* Whether a complete line is among the unread bytes: bytes already read, which poll() no longer
 * reports (a connection kept for the answers after client.reconnect holds what came with it). */
int linebuf_has_line(const linebuf *lb);

#endif
