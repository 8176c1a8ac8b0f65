#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hash_lines.h"

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int hex_to_bytes(const char *hex, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

/* The tags come from each algorithm's descriptor: the first is what --tag writes (coreutils'
 * spelling where coreutils has the hash), the second is read too (OpenSSL 3 writes SHA2-256,
 * SHAKE-128 and, from 3.2, KECCAK-256). */
const char *hash_tag_name(kiln_hash_algo algo)
{
    const char *t = kiln_hash_algo_tag(algo, 0);
    return t ? t : "?";
}

int hash_tag_algo(const char *tag, size_t len)
{
    for (size_t a = 0; a < kiln_hash_algo_count(); a++)
        for (int j = 0; j < 2; j++) {
            const char *t = kiln_hash_algo_tag((kiln_hash_algo)a, j);
            if (t && strlen(t) == len && memcmp(t, tag, len) == 0) return (int)a;
        }
    return -1;
}

int hash_digest_len_ok(kiln_hash_algo algo, size_t bytes)
{
    if (bytes == 0 || kiln_hash_is_xof(algo)) return 0;
    kiln_hash_stream s;
    kiln_hash_params p = {.digest_len = bytes};
    return kiln_hash_init_params(&s, algo, &p) == KILN_OK;
}

int hash_tag_algo_len(const char *tag, size_t len, size_t *outlen)
{
    *outlen = 0;
    int algo = hash_tag_algo(tag, len);
    if (algo >= 0) return algo;
    size_t dash = len;
    while (dash > 0 && tag[dash - 1] != '-') dash--;
    if (dash < 2 || dash == len || tag[dash] == '0' || len - dash > 4) return -1;
    size_t bits = 0;
    for (size_t i = dash; i < len; i++) {
        if (tag[i] < '0' || tag[i] > '9') return -1;
        bits = 10 * bits + (size_t)(tag[i] - '0');
    }
    algo = hash_tag_algo(tag, dash - 1);
    if (algo < 0 || bits % 8 || !hash_digest_len_ok((kiln_hash_algo)algo, bits / 8)) return -1;
    *outlen = bits / 8;
    return algo;
}

static int is_white(char c) { return c == ' ' || c == '\t'; }

/* Undoes "\\\\", "\\n" and "\\r" in place over s[0..len); any other escape is an error. */
static int unescape(char *s, size_t len)
{
    char *w = s;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\\') {
            *w++ = s[i];
            continue;
        }
        if (++i == len) return -1;
        if (s[i] == '\\') *w++ = '\\';
        else if (s[i] == 'n') *w++ = '\n';
        else if (s[i] == 'r') *w++ = '\r';
        else return -1;
    }
    *w = '\0';
    return 0;
}

static int all_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (hexval(s[i]) < 0) return 0;
    return 1;
}

/* "TAG (name) = hex" from just after '(': the name ends at the last ')', since BSD tools do not
 * escape names and a name may hold ')'. */
static int parse_tagged(char *p, char *end, check_line *out)
{
    char *close = end;
    while (close > p && close[-1] != ')') close--;
    if (close == p) return CHECK_LINE_BAD;
    char *name_end = close - 1, *q = close;
    while (q < end && is_white(*q)) q++;
    if (q == end || *q++ != '=') return CHECK_LINE_BAD;
    while (q < end && is_white(*q)) q++;
    size_t h = (size_t)(end - q);
    if (h == 0 || h % 2 || !all_hex(q, h)) return CHECK_LINE_BAD;
    out->hex = q;
    out->hex_len = h;
    out->name = p;
    *name_end = '\0';
    return (size_t)(name_end - p) ? CHECK_LINE_OK : CHECK_LINE_BAD;
}

/* "<hex><white><name>" from the digest on. */
static int parse_plain(char *p, char *end, int *sep, check_line *out)
{
    size_t h = 0;
    while (p + h < end && hexval(p[h]) >= 0) h++;
    if (h == 0 || h % 2 || p + h == end || !is_white(p[h])) return CHECK_LINE_BAD;
    out->hex = p;
    out->hex_len = h;
    char *name = p + h + 1;
    if (name == end) return CHECK_LINE_BAD;
    /* one character left, or no second separator: the one-space (md5 -r) form */
    int one = end - name == 1 || (*name != ' ' && *name != '*');
    if (one) {
        if (*sep == CHECK_SEP_TWO) return CHECK_LINE_BAD;
        *sep = CHECK_SEP_ONE;
    } else if (*sep != CHECK_SEP_ONE) {
        *sep = CHECK_SEP_TWO;
        name++;
    }
    out->name = name;
    *end = '\0';
    return CHECK_LINE_OK;
}

int check_line_parse(char *line, size_t len, int *sep, check_line *out)
{
    if (len && line[0] == '#') return CHECK_LINE_SKIP;
    if (len && line[len - 1] == '\r') len--;
    if (len == 0) return CHECK_LINE_SKIP;
    if (memchr(line, '\0', len)) return CHECK_LINE_BAD;
    char *p = line, *end = line + len;
    *end = '\0';
    while (p < end && is_white(*p)) p++;
    int escaped = p < end && *p == '\\';
    p += escaped;
    out->tag = NULL;
    out->tag_len = 0;
    /* a tag is letters, digits, '-' and '/' (OpenSSL's SHA2-512/256) with something a digest
     * cannot hold (every tag has an 'S' or a 'K'), so "abcd (x) = ..." stays a digest and a name */
    size_t t = 0;
    int non_hex = 0;
    while (p + t < end && ((p[t] >= 'A' && p[t] <= 'Z') || (p[t] >= 'a' && p[t] <= 'z') ||
                           (p[t] >= '0' && p[t] <= '9') || p[t] == '-' || p[t] == '/')) {
        non_hex |= hexval(p[t]) < 0;
        t++;
    }
    int st;
    if (t && non_hex) {
        char *q = p + t;
        if (q < end && *q == ' ') q++;
        if (q == end || *q != '(') return CHECK_LINE_BAD;
        out->tag = p;
        out->tag_len = t;
        st = parse_tagged(q + 1, end, out);
    } else {
        st = parse_plain(p, end, sep, out);
    }
    if (st == CHECK_LINE_OK && escaped) {
        char *name = (char *)out->name;
        if (unescape(name, strlen(name)) != 0 || !name[0]) return CHECK_LINE_BAD;
    }
    return st;
}

/* Appends to buf[0..cap) at *n, counting what does not fit, as snprintf does. */
static void put(char *buf, size_t cap, size_t *n, char c)
{
    if (*n + 1 < cap) buf[*n] = c;
    (*n)++;
}

static void put_str(char *buf, size_t cap, size_t *n, const char *s)
{
    for (; *s; s++) put(buf, cap, n, *s);
}

static void put_name(char *buf, size_t cap, size_t *n, const char *name, int escape)
{
    for (const char *s = name; *s; s++) {
        const char *e = !escape ? NULL : *s == '\\' ? "\\\\" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : NULL;
        if (e) put_str(buf, cap, n, e);
        else put(buf, cap, n, *s);
    }
}

static size_t finish(char *buf, size_t cap, size_t n)
{
    if (cap) buf[n < cap ? n : cap - 1] = '\0';
    return n;
}

size_t hash_line_format(char *buf, size_t cap, const char *tag, const char *hex, const char *name)
{
    return hash_line_format_mode(buf, cap, tag, hex, name, 0);
}

size_t hash_line_format_mode(char *buf, size_t cap, const char *tag, const char *hex, const char *name, int binary)
{
    int escape = strpbrk(name, "\\\n\r") != NULL;
    size_t n = 0;
    if (escape) put(buf, cap, &n, '\\');
    if (tag) {
        put_str(buf, cap, &n, tag);
        put_str(buf, cap, &n, " (");
        put_name(buf, cap, &n, name, escape);
        put_str(buf, cap, &n, ") = ");
        put_str(buf, cap, &n, hex);
    } else {
        put_str(buf, cap, &n, hex);
        put_str(buf, cap, &n, binary ? " *" : "  ");
        put_name(buf, cap, &n, name, escape);
    }
    put(buf, cap, &n, '\n');
    return finish(buf, cap, n);
}

size_t check_name_format(char *buf, size_t cap, const char *name)
{
    int escape = strchr(name, '\n') != NULL;
    size_t n = 0;
    if (escape) put(buf, cap, &n, '\\');
    put_name(buf, cap, &n, name, escape);
    return finish(buf, cap, n);
}

int line_reader_init(line_reader *lr, int fd, size_t max_line)
{
    memset(lr, 0, sizeof *lr);
    lr->fd = fd;
    lr->max_line = max_line;
    /* a longest line, its '\n', and room for the NUL of a last line without one */
    lr->buf = malloc(max_line + 2);
    return lr->buf ? 0 : -1;
}

void line_reader_free(line_reader *lr)
{
    free(lr->buf);
    lr->buf = NULL;
}

int line_reader_next(line_reader *lr, char **line, size_t *len)
{
    for (;;) {
        char *start = lr->buf + lr->head;
        size_t avail = lr->len - lr->head;
        char *nl = memchr(start, '\n', avail);
        if (nl || (lr->eof && avail)) {
            size_t n = nl ? (size_t)(nl - start) : avail;
            lr->head += n + (nl != NULL);
            lr->lineno++;
            if (lr->skipping) {
                lr->skipping = 0;
                return LINE_TOO_LONG;
            }
            start[n] = '\0';
            *line = start;
            *len = n;
            return LINE_OK;
        }
        if (lr->skipping || avail > lr->max_line) {
            /* past the limit: drop what is held and the rest of the line as it comes */
            lr->skipping = 1;
            lr->head = lr->len = 0;
            avail = 0;
        }
        if (lr->eof) {
            if (!lr->skipping) return LINE_END;
            lr->skipping = 0;
            lr->lineno++;
            return LINE_TOO_LONG;
        }
        if (lr->head) {
            memmove(lr->buf, start, avail);
            lr->head = 0;
            lr->len = avail;
        }
        ssize_t got = read(lr->fd, lr->buf + lr->len, lr->max_line + 1 - lr->len);
        if (got < 0) return LINE_ERROR;
        if (got == 0) lr->eof = 1;
        lr->len += (size_t)got;
    }
}
