/* A regular uncompressed SNAP file parsed on all the context's threads. The file is read in rounds
 * of one chunk per thread, each thread pread()ing its own; a chunk owns the lines that start in
 * it (it reads the byte before it, to see whether a line starts at its first byte, and up to a
 * longest line past its end, to finish its last line). Each chunk parses into its own arrays with
 * the serial parser's line rule (snap_line.h) and counts its lines; the round is then joined in
 * file order, so edges, weights and the first error in the file, its line number and its words,
 * are the serial parser's. The memory checks the serial parser makes as its arrays double are
 * made at the same edges, with the same line numbers, before the round is copied in; the
 * interrupt is polled and progress reported between rounds. */
#include <errno.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/mem_limit.h"
#include "snap.h"
#include "snap_line.h"

/* The serial parser's arrays start with room for this many edges and double; its memory checks
 * fall where they double. */
#define FIRST_CAP 4096u

enum { CH_OK, CH_BAD, CH_LONG, CH_NOMEM, CH_READ, CH_LOCALE };

typedef struct chunk {
    char *text; /* from the byte before the chunk (none for the first) to a longest line past it */
    uint64_t *src, *dst;
    double *w;
    size_t count, cap; /* edges parsed, room */
    uint64_t lines; /* lines that start in the chunk, the failing one included */
    int fail, err; /* CH_*, and errno for CH_READ */
    const char *why;
    char shown[64];
    int at_end; /* the file ends before the chunk's end: the last chunk */
    size_t from, owned, got; /* text: first owned line start, end of owned starts, bytes read */
    int eof; /* the read stopped at the end of the file */
    size_t at; /* where the join puts the chunk's first edge */
} chunk;

typedef struct plan {
    int fd, weighted;
    size_t size, max_line;
} plan;

/* Reads the chunk that starts at file offset start and finds its first owned line. */
static void read_chunk(chunk *c, const plan *p, uint64_t start, int first)
{
    const size_t lead = first ? 0 : 1;
    const uint64_t at = start - lead;
    const size_t want = lead + p->size + p->max_line + 2;
    size_t got = 0;
    while (got < want) {
        ssize_t n = pread(p->fd, c->text + got, want - got, (off_t)(at + got));
        if (n > 0) got += (size_t)n;
        else if (n == 0) break;
        else if (errno != EINTR) {
            c->fail = CH_READ;
            c->err = errno;
            return;
        }
    }
    const size_t end = lead + p->size;
    c->got = got;
    c->eof = got < want;
    c->at_end = got < end;
    c->owned = got < end ? got : end;
    c->from = lead;
    if (!first) {
        /* a line starts at text[i + 1] when text[i] ends one: owned starts need i + 1 < owned */
        const char *nl = c->owned > 1 ? memchr(c->text, '\n', c->owned - 1) : NULL;
        c->from = nl ? (size_t)(nl - c->text) + 1 : c->owned;
    }
}

static int push(chunk *c, uint64_t a, uint64_t b, double w, int weighted)
{
    if (c->count == c->cap) {
        size_t nc = c->cap ? c->cap * 2 : 1024;
        uint64_t *s = realloc(c->src, nc * sizeof *s);
        if (!s) return -1;
        c->src = s;
        uint64_t *d = realloc(c->dst, nc * sizeof *d);
        if (!d) return -1;
        c->dst = d;
        if (weighted) {
            double *nw = realloc(c->w, nc * sizeof *nw);
            if (!nw) return -1;
            c->w = nw;
        }
        c->cap = nc;
    }
    c->src[c->count] = a;
    c->dst[c->count] = b;
    if (weighted) c->w[c->count] = w;
    c->count++;
    return 0;
}

/* Up to 19 digits at *pp, which cannot overflow 64 bits: 1 with the value, else 0. */
static inline int short_id(const char **pp, const char *lim, uint64_t *out)
{
    const char *p = *pp, *start = p;
    uint64_t v = 0;
    while (p < lim && (unsigned)(*p - '0') < 10u && p - start < 20) v = v * 10 + (uint64_t)(*p++ - '0');
    if (p == start || p - start > 19) return 0;
    *out = v;
    *pp = p;
    return 1;
}

/* Most lines of a large file are "src<blanks>dst[blanks][CR]LF" with short ids: read those in one
 * pass, returning where the next line starts, and leave every other line (comments, weights,
 * errors, long ids, no line end) to the general path, NULL. What is taken here is exactly what
 * kiln_snap_line would accept, with weight 1. */
static inline const char *quick_line(const char *line, const char *lim, size_t max_line, uint64_t *a, uint64_t *b)
{
    const char *p = kiln_skip_blank(line, lim);
    if (!short_id(&p, lim, a)) return NULL;
    const char *q = kiln_skip_blank(p, lim);
    if (q == p || !short_id(&q, lim, b)) return NULL;
    p = kiln_skip_blank(q, lim);
    const char *end = p;
    if (p < lim && *p == '\r') p++;
    if (p == lim || *p != '\n' || (size_t)(end - line) > max_line) return NULL;
    return p + 1;
}

/* Walks the chunk's owned lines as the serial parser reads them. keep: stores the edges and
 * stops at the first bad line, recording it. Otherwise only finds the line of edge `find` (local
 * index), returned; c is not changed. */
static uint64_t walk(chunk *c, const plan *p, int keep, size_t find)
{
    kiln_c_numeric cn = {0};
    if (p->weighted && kiln_c_numeric_enter(NULL, &cn) != KILN_OK) {
        if (keep) c->fail = CH_LOCALE;
        return 0;
    }
    uint64_t lines = 0;
    size_t edges = 0;
    for (size_t q = c->from; q < c->owned;) {
        const char *line = c->text + q;
        uint64_t a, b;
        const char *quick = quick_line(line, c->text + c->got, p->max_line, &a, &b);
        if (quick) {
            lines++;
            if (!keep && edges == find) break;
            if (keep && push(c, a, b, 1, p->weighted) != 0) {
                c->fail = CH_NOMEM;
                break;
            }
            edges++;
            q = (size_t)(quick - c->text);
            continue;
        }
        const char *nl = memchr(line, '\n', c->got - q);
        size_t n = nl ? (size_t)(nl - line) : c->got - q;
        lines++;
        /* without a line end in the text, the line is longer than any accepted one, unless the
         * file ends there */
        if (!nl && !c->eof) {
            if (keep) c->fail = CH_LONG;
            break;
        }
        const size_t next = nl ? q + n + 1 : c->got;
        if (n > 0 && line[n - 1] == '\r') n--;
        if (n > p->max_line) {
            if (keep) c->fail = CH_LONG;
            break;
        }
        double w;
        const char *why = NULL;
        const int kind = kiln_snap_line(line, n, p->weighted, &a, &b, &w, &why);
        if (kind < 0) {
            if (keep) {
                c->fail = CH_BAD;
                c->why = why;
                kiln_show_line(line, n, c->shown, sizeof c->shown);
            }
            break;
        }
        if (kind > 0) {
            if (!keep && edges == find) break;
            if (keep && push(c, a, b, w, p->weighted) != 0) {
                c->fail = CH_NOMEM;
                break;
            }
            edges++;
        }
        q = next;
    }
    kiln_c_numeric_leave(&cn);
    if (keep) c->lines = lines;
    return lines;
}

static void parse_chunk(chunk *c, const plan *p, uint64_t start, int first)
{
    c->count = 0;
    c->lines = 0;
    c->fail = CH_OK;
    read_chunk(c, p, start, first);
    if (c->fail == CH_OK) walk(c, p, 1, 0);
}

typedef struct round {
    chunk *c;
    int n; /* chunks taking part: up to and including the last or failing one */
    uint64_t line0; /* lines before the round */
    size_t count0; /* edges before the round */
} round;

/* The line number of the round's edge i (counted over the whole input). */
static uint64_t line_of_edge(const round *rd, const plan *p, size_t i)
{
    uint64_t line = rd->line0;
    size_t k = i - rd->count0;
    for (int j = 0; j < rd->n; j++) {
        if (k < rd->c[j].count) return line + walk(&rd->c[j], p, 0, k);
        k -= rd->c[j].count;
        line += rd->c[j].lines;
    }
    return line;
}

/* Appends the round's edges to raw in file order, after the memory checks the serial parser makes
 * at the same edges. */
static kiln_status join(kiln_ctx *ctx, const kiln_reader *r, round *rd, const plan *p, kiln_raw_edges *raw,
                        int threads)
{
    size_t add = 0;
    for (int j = 0; j < rd->n; j++) add += rd->c[j].count;
    if (add == 0) return KILN_OK;
    const size_t total = raw->count + add;
    const double edge_bytes = KILN_SNAP_EDGE_BYTES + (p->weighted ? KILN_GRAPH_WEIGHT_ARC_BYTES : 0);
    for (size_t i = FIRST_CAP; i < total; i *= 2)
        if (i >= raw->count &&
            kiln_mem_check(ctx, (double)i * edge_bytes, "%s:%llu: %llu edges so far", r->path,
                           (unsigned long long)line_of_edge(rd, p, i), (unsigned long long)i) != KILN_OK)
            return KILN_ERR_INPUT;
    if (total > raw->cap) {
        /* the first edge that finds no room names the line, as in the serial parser */
        const size_t homeless = raw->count > raw->cap ? raw->count : raw->cap;
        size_t nc = raw->cap ? raw->cap : FIRST_CAP;
        while (nc < total) nc *= 2;
        void *s = realloc(raw->src, nc * sizeof *raw->src);
        if (s) raw->src = s;
        void *d = s ? realloc(raw->dst, nc * sizeof *raw->dst) : NULL;
        if (d) raw->dst = d;
        if (d) raw->cap = nc;
        if (!d || (p->weighted && kiln_weights_reserve(&raw->w, &raw->wcap, nc) != 0))
            return kiln_fail(ctx, KILN_ERR_DEVICE, "%s:%llu: out of memory", r->path,
                             (unsigned long long)line_of_edge(rd, p, homeless));
    }
    size_t at = raw->count;
    for (int j = 0; j < rd->n; j++) {
        rd->c[j].at = at;
        at += rd->c[j].count;
    }
    /* copying is a tenth of parsing: parallel only when a round is large */
#pragma omp parallel for num_threads(threads) schedule(static, 1) if (threads > 1 && add > (1u << 16))
    for (int j = 0; j < rd->n; j++) {
        const chunk *c = &rd->c[j];
        if (c->count == 0) continue; /* a chunk of comments has no arrays: memcpy's source may not be NULL */
        memcpy(raw->src + c->at, c->src, c->count * sizeof *c->src);
        memcpy(raw->dst + c->at, c->dst, c->count * sizeof *c->dst);
        if (p->weighted) memcpy(raw->w + c->at, c->w, c->count * sizeof *c->w);
    }
    raw->count = total;
    return KILN_OK;
}

/* The serial parser's message for the round's failing chunk f. */
static kiln_status chunk_error(kiln_ctx *ctx, kiln_reader *r, const round *rd, const plan *p, int f)
{
    uint64_t line = rd->line0;
    for (int j = 0; j < f; j++) line += rd->c[j].lines;
    const chunk *c = &rd->c[f];
    const unsigned long long at = (unsigned long long)(line + c->lines);
    switch (c->fail) {
    case CH_BAD:
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s:%llu: %s: \"%s\"", r->path, at, c->why, c->shown);
    case CH_LONG:
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s:%llu: line longer than %zu bytes, the limit for a line of a graph file",
                         r->path, at, p->max_line);
    case CH_NOMEM:
        return kiln_fail(ctx, KILN_ERR_DEVICE, "%s:%llu: out of memory", r->path, at);
    case CH_READ:
        return kiln_fail(ctx, KILN_ERR_DEVICE, "%s: read failed after line %llu: %s", r->path,
                         (unsigned long long)line, strerror(c->err));
    default:
        return kiln_fail(ctx, KILN_ERR_DEVICE, "cannot create the C locale for reading numbers");
    }
}

int kiln_snap_can_chunk(const kiln_reader *r)
{
    return r->size >= 0 && !r->z && !r->waits && r->fd >= 0;
}

static void free_chunks(chunk *c, int n)
{
    for (int j = 0; j < n; j++) {
        free(c[j].text);
        free(c[j].src);
        free(c[j].dst);
        free(c[j].w);
    }
    free(c);
}

kiln_status kiln_parse_snap_chunked(kiln_ctx *ctx, kiln_reader *r, unsigned flags, size_t chunk_bytes,
                                    kiln_raw_edges *raw)
{
    const plan p = {r->fd, (flags & KILN_GRAPH_WEIGHTED) != 0, chunk_bytes ? chunk_bytes : KILN_SNAP_CHUNK_DEFAULT,
                    r->max_line};
    const int threads = kiln_graph_threads(ctx);
    chunk *c = calloc((size_t)threads, sizeof *c);
    if (!c) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    /* where the reader stands: at a line start, its buffered bytes read again from the file */
    uint64_t off = r->stored - (r->len - r->pos);
    round rd = {c, 0, r->line, 0};
    kiln_status st = KILN_OK;
    for (int first = 1, done = 0; !done; first = 0) {
        r->stored = off;
        kiln_ctx_report(ctx, "graph load", "bytes", r->stored, r->stored_size);
        if (kiln_ctx_interrupt_requested(ctx)) {
            st = r->status = kiln_interrupted(ctx);
            break;
        }
        const uint64_t left = (uint64_t)r->size > off ? (uint64_t)r->size - off : 0;
        const uint64_t want = left / p.size + 1;
        int n = want < (uint64_t)threads ? (int)want : threads;
        for (int j = 0; j < n && st == KILN_OK; j++)
            if (!c[j].text && !(c[j].text = malloc(p.size + p.max_line + 3)))
                st = kiln_fail(ctx, KILN_ERR_DEVICE, "%s: out of memory", r->path);
        if (st != KILN_OK) break;
#pragma omp parallel for num_threads(n) schedule(static, 1) if (n > 1)
        for (int j = 0; j < n; j++) parse_chunk(&c[j], &p, off + (uint64_t)j * p.size, first && j == 0);
        int failed = -1;
        rd.n = n;
        for (int j = 0; j < n; j++) {
            if (c[j].fail != CH_OK) failed = j;
            if (c[j].fail != CH_OK || c[j].at_end) {
                rd.n = j + 1;
                done = 1;
                break;
            }
        }
        rd.count0 = raw->count;
        st = join(ctx, r, &rd, &p, raw, threads);
        if (st == KILN_OK && failed >= 0) st = chunk_error(ctx, r, &rd, &p, failed);
        if (st != KILN_OK) break;
        for (int j = 0; j < rd.n; j++) rd.line0 += c[j].lines;
        off += (uint64_t)n * p.size;
    }
    free_chunks(c, threads);
    if (st == KILN_OK) {
        r->line = rd.line0;
        r->pos = r->len;
        r->eof = 1;
        r->stored = (uint64_t)r->size;
        /* the serial reader's last report comes as it meets the end; so does this one */
        kiln_ctx_report(ctx, "graph load", "bytes", r->stored, r->stored_size);
    }
    return st;
}
