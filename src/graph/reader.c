#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef KILN_HAVE_ZLIB
#include <zlib.h>
#endif

#define READER_CHUNK (1u << 20)

int kiln_reader_has_zlib(void)
{
#ifdef KILN_HAVE_ZLIB
    return 1;
#else
    return 0;
#endif
}

/* Bytes straight from the descriptor: the count, 0 at its end, -1 with ctx set. A signal ends a
 * read blocked on a pipe with EINTR, but never a read from a regular file, so the interrupt is
 * also polled before each read, and reads are kept small enough for that to come often. */
static long raw_read(kiln_ctx *ctx, kiln_reader *r, void *dst, size_t n)
{
    if (n > (16u << 20)) n = 16u << 20;
    for (;;) {
        kiln_ctx_report(ctx, "graph load", "bytes", r->stored, r->stored_size);
        if (kiln_ctx_interrupt_requested(ctx)) {
            r->status = kiln_interrupted(ctx);
            return -1;
        }
        if (r->waits) {
            /* a signal landing between the look at the flag and a blocking read would leave the
             * read blocked: the wait is poll()'s, a tenth of a second at a time */
            struct pollfd p = {r->fd, POLLIN, 0};
            const int ready = poll(&p, 1, 100);
            if (ready == 0 || (ready < 0 && errno == EINTR)) continue; /* the flag is looked at again */
        }
        ssize_t got = read(r->fd, dst, n);
        if (got >= 0) {
            r->stored += (uint64_t)got;
            return (long)got;
        }
        if (errno == EINTR || errno == EAGAIN) continue; /* EAGAIN: a FIFO's writer has nothing yet */
        r->status = kiln_fail(ctx, KILN_ERR_DEVICE, "%s: read failed after line %llu: %s", r->path,
                              (unsigned long long)r->line, strerror(errno));
        return -1;
    }
}

#ifdef KILN_HAVE_ZLIB
static long corrupt(kiln_ctx *ctx, kiln_reader *r, const char *why)
{
    r->status = kiln_fail(ctx, KILN_ERR_INPUT, "%s: compressed data ends early or is corrupt after line %llu: %s",
                          r->path, (unsigned long long)r->line, why);
    return -1;
}

/* After the last gzip member: zeros to the end are padding (0), anything else is refused (-1). */
static long trailing(kiln_ctx *ctx, kiln_reader *r)
{
    z_stream *z = r->z;
    for (;;) {
        for (uInt i = 0; i < z->avail_in; i++)
            if (z->next_in[i] != 0) {
                r->status = kiln_fail(ctx, KILN_ERR_INPUT,
                                      "%s: bytes after the end of the gzip data (trailing garbage): damaged or "
                                      "not one gzip file",
                                      r->path);
                return -1;
            }
        z->avail_in = 0;
        if (r->zin_eof) return 0;
        long got = raw_read(ctx, r, r->zin, READER_CHUNK);
        if (got < 0) return -1;
        if (got == 0) r->zin_eof = 1;
        z->next_in = r->zin;
        z->avail_in = (uInt)got;
    }
}

/* Inflated bytes: the count, 0 after the last gzip member, -1 with ctx set. */
static long inflate_read(kiln_ctx *ctx, kiln_reader *r, void *dst, size_t n)
{
    z_stream *z = r->z;
    if (n > (1u << 30)) n = 1u << 30;
    z->next_out = dst;
    z->avail_out = (uInt)n;
    while (z->avail_out == (uInt)n) {
        if (z->avail_in == 0 && !r->zin_eof) {
            long got = raw_read(ctx, r, r->zin, READER_CHUNK);
            if (got < 0) return -1;
            if (got == 0) r->zin_eof = 1;
            z->next_in = r->zin;
            z->avail_in = (uInt)got;
        }
        if (r->z_member_done) {
            /* gzip members may follow one another, and zeros may pad the end (tar blocks), as gunzip
             * takes them; any other byte after the end is damage, refused (gunzip warns and exits 2) */
            if (z->avail_in == 0) return 0;
            if (z->next_in[0] != 0x1f) return trailing(ctx, r);
            inflateReset(z);
            r->z_member_done = 0;
        }
        if (z->avail_in == 0) return corrupt(ctx, r, "unexpected end of file");
        int rc = inflate(z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) r->z_member_done = 1;
        else if (rc != Z_OK && rc != Z_BUF_ERROR) return corrupt(ctx, r, z->msg ? z->msg : "invalid data");
    }
    return (long)(n - z->avail_out);
}
#endif

/* Decoded bytes into dst: the count, 0 at the end, -1 with ctx set. */
static long source_read(kiln_ctx *ctx, kiln_reader *r, void *dst, size_t n)
{
#ifdef KILN_HAVE_ZLIB
    if (r->z) return inflate_read(ctx, r, dst, n);
#endif
    return raw_read(ctx, r, dst, n);
}

/* Appends more input after buf[len]; returns bytes read, 0 at the end, -1 on error. */
static long fill(kiln_ctx *ctx, kiln_reader *r)
{
    if (r->eof) return 0;
    long n = source_read(ctx, r, r->buf + r->len, r->cap - r->len);
    if (n < 0) return -1;
    if (n == 0) r->eof = 1;
    r->len += (size_t)n;
    return n;
}

/* The gzip magic was read like any other bytes; they move to the compressed side, where zlib
 * finds them, so nothing is read twice. */
static kiln_status start_gzip(kiln_ctx *ctx, kiln_reader *r)
{
#ifdef KILN_HAVE_ZLIB
    z_stream *z = calloc(1, sizeof *z);
    r->zin = malloc(READER_CHUNK);
    if (!z || !r->zin) {
        free(z);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    if (inflateInit2(z, 15 + 16) != Z_OK) {
        free(z);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "%s: cannot start zlib", r->path);
    }
    r->z = z;
    memcpy(r->zin, r->buf, r->len);
    z->next_in = r->zin;
    z->avail_in = (uInt)r->len;
    r->len = 0;
    r->size = -1;
    return KILN_OK;
#else
    return kiln_fail(ctx, KILN_ERR_INPUT,
                     "%s: gzip-compressed input needs zlib, and this kiln was built without it "
                     "(install zlib1g-dev and rebuild, or gunzip the file)",
                     r->path);
#endif
}

kiln_status kiln_reader_open(kiln_ctx *ctx, const char *path, kiln_reader **out)
{
    *out = NULL;
    kiln_reader *r = calloc(1, sizeof *r);
    if (!r) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    r->fd = -1;
    r->size = -1;
    r->cap = READER_CHUNK;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        kiln_reader_close(r);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    int is_stdin = strcmp(path, "-") == 0;
    r->path = is_stdin ? "<stdin>" : path;
    r->max_line = KILN_GRAPH_MAX_LINE;
    /* without O_NONBLOCK, opening a FIFO waits for its writer, and a signal just before the call
     * would leave it waiting: the wait is raw_read's poll(), which sees the interrupt (standard
     * input stays blocking: its open file description is shared) */
    if (kiln_ctx_interrupt_requested(ctx)) {
        kiln_reader_close(r);
        return kiln_interrupted(ctx);
    }
    r->fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    r->own_fd = !is_stdin;
    struct stat sb;
    if (r->fd < 0 || fstat(r->fd, &sb) != 0) {
        int e = errno;
        kiln_reader_close(r);
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: %s", is_stdin ? "<stdin>" : path, strerror(e));
    }
    if (S_ISDIR(sb.st_mode)) {
        kiln_reader_close(r);
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: is a directory", path);
    }
    r->waits = !S_ISREG(sb.st_mode);
    /* standard input may have been read from already, so only a file opened here has a known size */
    if (S_ISREG(sb.st_mode) && !is_stdin) r->size = (long long)sb.st_size;
    if (S_ISREG(sb.st_mode) && !is_stdin) r->stored_size = (uint64_t)sb.st_size;
    kiln_status st = KILN_OK;
    while (st == KILN_OK && r->len < 2 && !r->eof)
        if (fill(ctx, r) < 0) st = r->status;
    if (st == KILN_OK && r->len >= 2 && (unsigned char)r->buf[0] == 0x1f && (unsigned char)r->buf[1] == 0x8b)
        st = start_gzip(ctx, r);
    if (st == KILN_OK) *out = r;
    else kiln_reader_close(r);
    return st;
}

void kiln_reader_close(kiln_reader *r)
{
    if (!r) return;
#ifdef KILN_HAVE_ZLIB
    if (r->z) inflateEnd((z_stream *)r->z);
#endif
    free(r->z);
    free(r->zin);
    if (r->own_fd && r->fd >= 0) close(r->fd);
    free(r->buf);
    free(r);
}

/* Makes room at the end of the buffer: drops consumed bytes, then grows it when full. */
static int make_room(kiln_ctx *ctx, kiln_reader *r)
{
    if (r->pos > 0) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len == r->cap) {
        size_t cap = r->cap * 2;
        char *b = realloc(r->buf, cap);
        if (!b) {
            r->status = kiln_fail(ctx, KILN_ERR_DEVICE, "%s: out of memory at line %llu", r->path, (unsigned long long)r->line + 1);
            return -1;
        }
        r->buf = b;
        r->cap = cap;
    }
    return 0;
}

/* A line over the limit is refused as soon as that many bytes of it have arrived, so a file with
 * no line ends (a binary file, /dev/zero) costs one buffer, not its whole length. */
static int too_long(kiln_ctx *ctx, kiln_reader *r)
{
    r->status = kiln_fail(ctx, KILN_ERR_INPUT, "%s:%llu: line longer than %zu bytes, the limit for a line of a graph file",
                          r->path, (unsigned long long)r->line + 1, r->max_line);
    return -1;
}

int kiln_reader_next(kiln_ctx *ctx, kiln_reader *r, const char **line, size_t *len)
{
    size_t scanned = r->pos;
    for (;;) {
        char *start = r->buf + r->pos;
        char *nl = memchr(r->buf + scanned, '\n', r->len - scanned);
        if (nl || r->eof) {
            if (!nl && r->pos == r->len) return 0;
            size_t n = nl ? (size_t)(nl - start) : r->len - r->pos;
            r->pos += nl ? n + 1 : n;
            if (n > 0 && start[n - 1] == '\r') n--;
            if (n > r->max_line) return too_long(ctx, r);
            r->line++;
            *line = start;
            *len = n;
            return 1;
        }
        /* one byte more than the limit may still be the CR of a CRLF */
        if (r->len - r->pos > r->max_line + 1) return too_long(ctx, r);
        size_t keep = r->len - r->pos;
        if (make_room(ctx, r) != 0) return -1;
        scanned = keep;
        if (fill(ctx, r) < 0) return -1;
    }
}

kiln_status kiln_reader_peek(kiln_ctx *ctx, kiln_reader *r, size_t want, const char **p, size_t *len)
{
    while (r->len - r->pos < want && !r->eof) {
        if (make_room(ctx, r) != 0 || fill(ctx, r) < 0) return r->status;
    }
    *p = r->buf + r->pos;
    *len = r->len - r->pos < want ? r->len - r->pos : want;
    return KILN_OK;
}

kiln_status kiln_reader_read(kiln_ctx *ctx, kiln_reader *r, void *dst, size_t n, size_t *got)
{
    unsigned char *d = dst;
    size_t done = r->len - r->pos < n ? r->len - r->pos : n;
    memcpy(d, r->buf + r->pos, done);
    r->pos += done;
    while (done < n && !r->eof) {
        long k = source_read(ctx, r, d + done, n - done);
        if (k < 0) return r->status;
        if (k == 0) r->eof = 1;
        done += (size_t)k;
    }
    *got = done;
    return KILN_OK;
}
