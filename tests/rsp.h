/* A reader for the known-answer files of NIST CAVP (.rsp) and of the Keccak team (KAT .txt):
 * entries of `Key = Value` lines separated by blank lines, with `#` comments and `[...]` section
 * headers ignored. Keys: COUNT, Len, Outputlen, Repeat (decimal), Msg, MD, Output (hex), Text.
 * Strict: an unknown key, a repeated key, bad hex or a number that does not parse is an error
 * naming the line, and an entry needs a message (Msg or Text) and a digest (MD or Output). */
#ifndef KILN_TEST_RSP_H
#define KILN_TEST_RSP_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rsp_entry {
    long line; /* first line of the entry */
    long len_bits, outputlen_bits, repeat; /* -1 when absent */
    uint8_t *msg; /* Msg bytes as written, or Text's characters */
    size_t msg_len;
    uint8_t *md; /* MD or Output */
    size_t md_len;
} rsp_entry;

typedef struct rsp_reader {
    const char *p, *end;
    long line;
    char err[160];
} rsp_reader;

static inline void rsp_init(rsp_reader *r, const char *text, size_t len)
{
    r->p = text;
    r->end = text + len;
    r->line = 0;
    r->err[0] = '\0';
}

static inline void rsp_entry_free(rsp_entry *e)
{
    free(e->msg);
    free(e->md);
    memset(e, 0, sizeof *e);
}

static inline int rsp_hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes n hex characters (n even) into a new buffer; NULL on bad input. */
static inline uint8_t *rsp_hex(const char *s, size_t n, size_t *out_len)
{
    if (n % 2) return NULL;
    uint8_t *b = malloc(n / 2 + 1);
    if (!b) return NULL;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = rsp_hexval(s[2 * i]), lo = rsp_hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(b);
            return NULL;
        }
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    *out_len = n / 2;
    return b;
}

static inline int rsp_number(const char *s, size_t n, long *out)
{
    if (n == 0 || n > 18) return -1;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

static inline int rsp_fail(rsp_reader *r, rsp_entry *e, const char *what)
{
    snprintf(r->err, sizeof r->err, "line %ld: %s", r->line, what);
    rsp_entry_free(e);
    return -1;
}

/* 1 with the next entry in *e (free it with rsp_entry_free), 0 at the end, -1 on malformed
 * input (r->err says where and why; *e is then empty). */
static inline int rsp_next(rsp_reader *r, rsp_entry *e)
{
    memset(e, 0, sizeof *e);
    e->len_bits = e->outputlen_bits = e->repeat = -1;
    int any = 0, have_count = 0;
    while (r->p < r->end) {
        const char *ls = r->p, *le = memchr(ls, '\n', (size_t)(r->end - ls));
        if (!le) le = r->end;
        r->p = le < r->end ? le + 1 : le;
        r->line++;
        while (le > ls && (le[-1] == '\r' || le[-1] == ' ' || le[-1] == '\t')) le--;
        while (ls < le && (*ls == ' ' || *ls == '\t')) ls++;
        if (ls == le) { /* blank: ends an entry that has begun */
            if (any) break;
            continue;
        }
        if (*ls == '#' || *ls == '[') continue;
        if (memchr(ls, '\0', (size_t)(le - ls))) return rsp_fail(r, e, "NUL byte");
        const char *eq = memchr(ls, '=', (size_t)(le - ls));
        if (!eq) return rsp_fail(r, e, "expected 'Key = Value'");
        const char *ke = eq, *vs = eq + 1;
        while (ke > ls && (ke[-1] == ' ' || ke[-1] == '\t')) ke--;
        while (vs < le && (*vs == ' ' || *vs == '\t')) vs++;
        size_t kn = (size_t)(ke - ls), vn = (size_t)(le - vs);
        if (!any) e->line = r->line;
        any = 1;
#define RSP_KEY(k) (kn == sizeof(k) - 1 && memcmp(ls, k, kn) == 0)
        if (RSP_KEY("COUNT")) {
            long c;
            if (have_count++ || rsp_number(vs, vn, &c) != 0) return rsp_fail(r, e, "bad or repeated COUNT");
        } else if (RSP_KEY("Len") || RSP_KEY("Outputlen") || RSP_KEY("Repeat")) {
            long *dst = RSP_KEY("Len") ? &e->len_bits : RSP_KEY("Outputlen") ? &e->outputlen_bits : &e->repeat;
            if (*dst >= 0 || rsp_number(vs, vn, dst) != 0) return rsp_fail(r, e, "bad or repeated number");
        } else if (RSP_KEY("Msg") || RSP_KEY("Text")) {
            if (e->msg) return rsp_fail(r, e, "repeated message");
            if (RSP_KEY("Text")) {
                e->msg = malloc(vn + 1);
                if (!e->msg) return rsp_fail(r, e, "out of memory");
                memcpy(e->msg, vs, vn);
                e->msg_len = vn;
            } else if (!(e->msg = rsp_hex(vs, vn, &e->msg_len))) {
                return rsp_fail(r, e, "bad hex in Msg");
            }
        } else if (RSP_KEY("MD") || RSP_KEY("Output")) {
            if (e->md) return rsp_fail(r, e, "repeated digest");
            if (!(e->md = rsp_hex(vs, vn, &e->md_len))) return rsp_fail(r, e, "bad hex in digest");
        } else {
            return rsp_fail(r, e, "unknown key");
        }
#undef RSP_KEY
    }
    if (!any) return 0;
    if (!e->msg || !e->md) return rsp_fail(r, e, "entry without a message or a digest");
    if (e->len_bits >= 0 && e->len_bits % 8 == 0 && (size_t)(e->len_bits / 8) > e->msg_len)
        return rsp_fail(r, e, "Len longer than Msg");
    if (e->outputlen_bits >= 0 && e->outputlen_bits != (long)(8 * e->md_len))
        return rsp_fail(r, e, "Outputlen does not match the output");
    return 1;
}

/* Whole file as a NUL-terminated buffer, NULL on error. */
static inline char *rsp_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = '\0';
        *len = (size_t)n;
    }
    return b;
}

#endif
