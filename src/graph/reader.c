#include "reader.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

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

kiln_status kiln_reader_open(kiln_ctx *ctx, const char *path, kiln_reader **out)
{
    *out = NULL;
    kiln_reader *r = calloc(1, sizeof *r);
    if (!r) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    r->path = path;
    r->cap = READER_CHUNK;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        free(r);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    struct stat sb;
    if (stat(path, &sb) != 0) {
        int e = errno;
        kiln_reader_close(r);
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: %s", path, strerror(e));
    }
    if (S_ISDIR(sb.st_mode)) {
        kiln_reader_close(r);
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: is a directory", path);
    }
#ifdef KILN_HAVE_ZLIB
    /* gzread passes plain files through unchanged, so one path reads both */
    errno = 0;
    gzFile gz = gzopen(path, "rb");
    if (!gz) {
        int e = errno;
        kiln_reader_close(r);
        return kiln_fail(ctx, e ? KILN_ERR_INPUT : KILN_ERR_DEVICE, "%s: %s", path,
                         e ? strerror(e) : "cannot start zlib");
    }
    gzbuffer(gz, 1u << 18);
    r->gz = gz;
#else
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        int e = errno;
        kiln_reader_close(r);
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: %s", path, strerror(e));
    }
    unsigned char magic[2];
    size_t got = fread(magic, 1, 2, fp);
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        fclose(fp);
        kiln_reader_close(r);
        return kiln_fail(ctx, KILN_ERR_INPUT,
                         "%s: gzip-compressed input needs zlib, and this kiln was built without it "
                         "(install zlib1g-dev and rebuild, or gunzip the file)",
                         path);
    }
    rewind(fp);
    r->fp = fp;
#endif
    *out = r;
    return KILN_OK;
}

void kiln_reader_close(kiln_reader *r)
{
    if (!r) return;
#ifdef KILN_HAVE_ZLIB
    if (r->gz) gzclose((gzFile)r->gz);
#endif
    if (r->fp) fclose((FILE *)r->fp);
    free(r->buf);
    free(r);
}

/* Appends more input after buf[len]; returns bytes read, 0 at the end, -1 on error. */
static long fill(kiln_ctx *ctx, kiln_reader *r)
{
    if (r->eof) return 0;
    size_t room = r->cap - r->len;
    if (room > (1u << 30)) room = 1u << 30;
#ifdef KILN_HAVE_ZLIB
    int n = gzread((gzFile)r->gz, r->buf + r->len, (unsigned)room);
    if (n < 0) {
        int code;
        const char *msg = gzerror((gzFile)r->gz, &code);
        r->status = kiln_fail(ctx, code == Z_ERRNO ? KILN_ERR_DEVICE : KILN_ERR_INPUT, "%s: read failed after line %llu: %s",
                  r->path, (unsigned long long)r->line, code == Z_ERRNO ? strerror(errno) : msg);
        return -1;
    }
    if (n == 0) {
        int code;
        const char *msg = gzerror((gzFile)r->gz, &code);
        if (code != Z_OK && code != Z_STREAM_END) {
            r->status = kiln_fail(ctx, KILN_ERR_INPUT, "%s: compressed data ends early or is corrupt after line %llu: %s",
                      r->path, (unsigned long long)r->line, msg);
            return -1;
        }
        r->eof = 1;
    }
#else
    size_t n = fread(r->buf + r->len, 1, room, (FILE *)r->fp);
    if (n == 0) {
        if (ferror((FILE *)r->fp)) {
            r->status = kiln_fail(ctx, KILN_ERR_DEVICE, "%s: read failed after line %llu", r->path, (unsigned long long)r->line);
            return -1;
        }
        r->eof = 1;
    }
#endif
    r->len += (size_t)n;
    return (long)n;
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

int kiln_reader_next(kiln_ctx *ctx, kiln_reader *r, const char **line, size_t *len)
{
    size_t scanned = r->pos;
    for (;;) {
        char *start = r->buf + r->pos;
        char *nl = memchr(r->buf + scanned, '\n', r->len - scanned);
        if (nl) {
            size_t n = (size_t)(nl - start);
            r->pos += n + 1;
            if (n > 0 && start[n - 1] == '\r') n--;
            r->line++;
            *line = start;
            *len = n;
            return 1;
        }
        if (r->eof) {
            if (r->pos == r->len) return 0;
            size_t n = r->len - r->pos;
            r->pos = r->len;
            if (start[n - 1] == '\r') n--;
            r->line++;
            *line = start;
            *len = n;
            return 1;
        }
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
