#include <string.h>

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

/* Undoes "\\\\" and "\\n" in place; any other escape is an error. */
static int unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r != '\\') {
            *w++ = *r;
            continue;
        }
        r++;
        if (*r == '\\') *w++ = '\\';
        else if (*r == 'n') *w++ = '\n';
        else return -1;
    }
    *w = '\0';
    return 0;
}

int check_line_parse(char *line, check_line *out)
{
    size_t len = strlen(line);
    if (len && line[len - 1] == '\r') line[--len] = '\0';
    int escaped = line[0] == '\\';
    char *p = line + escaped;
    size_t h = 0;
    while (hexval(p[h]) >= 0) h++;
    if (h == 0 || h % 2 != 0) return -1;
    if (p[h] != ' ' || (p[h + 1] != ' ' && p[h + 1] != '*') || p[h + 2] == '\0') return -1;
    char *name = p + h + 2;
    if (escaped && unescape(name) != 0) return -1;
    out->hex = p;
    out->hex_len = h;
    out->name = name;
    return 0;
}

size_t hash_line_format(char *buf, size_t cap, const char *hex, const char *name)
{
    int escape = strpbrk(name, "\\\n") != NULL;
    size_t n = 0;
#define PUT(c)                         \
    do {                               \
        if (n + 1 < cap) buf[n] = (c); \
        n++;                           \
    } while (0)
    if (escape) PUT('\\');
    for (const char *h = hex; *h; h++) PUT(*h);
    PUT(' ');
    PUT(' ');
    for (const char *s = name; *s; s++) {
        if (escape && *s == '\\') {
            PUT('\\');
            PUT('\\');
        } else if (escape && *s == '\n') {
            PUT('\\');
            PUT('n');
        } else {
            PUT(*s);
        }
    }
    PUT('\n');
#undef PUT
    if (cap) buf[n < cap ? n : cap - 1] = '\0';
    return n;
}
