/* Small pieces shared by the parsers. */
#ifndef KILN_GRAPH_PARSE_UTIL_H
#define KILN_GRAPH_PARSE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../core/ctx.h"

/* Records an input error in ctx and in the caller's st, then leaves through its fail label. */
#define KILN_FAIL_INPUT(...)                                                                       \
    do {                                                                                           \
        st = kiln_fail(ctx, KILN_ERR_INPUT, __VA_ARGS__);                                          \
        goto fail;                                                                                 \
    } while (0)

static inline const char *kiln_skip_blank(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t')) p++;
    return p;
}

/* A non-negative decimal integer of at most 64 bits at *p (a leading '+' is refused, so is '-').
 * Advances *p past it; on failure returns -1 with *why set. */
static inline int kiln_parse_id(const char **pp, const char *end, uint64_t *out, const char **why)
{
    const char *p = *pp;
    if (p == end) {
        *why = "missing id";
        return -1;
    }
    if (*p == '-') {
        *why = "negative id";
        return -1;
    }
    if (*p < '0' || *p > '9') {
        *why = "expected a non-negative integer id";
        return -1;
    }
    uint64_t v = 0;
    for (; p < end && *p >= '0' && *p <= '9'; p++) {
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) {
            *why = "id does not fit in 64 bits";
            return -1;
        }
        v = v * 10 + d;
    }
    if (p < end && *p != ' ' && *p != '\t') {
        *why = (*p == '.' || *p == 'e' || *p == 'E') ? "ids must be integers" : "unexpected character in an id";
        return -1;
    }
    *out = v;
    *pp = p;
    return 0;
}

/* A printable, shortened copy of a line for an error message (cap >= 8). */
static inline void kiln_show_line(const char *line, size_t len, char *out, size_t cap)
{
    size_t j = 0, i = 0;
    for (; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        char tmp[8];
        int n = 1;
        if (c >= 32 && c < 127 && c != '"' && c != '\\') tmp[0] = (char)c;
        else n = snprintf(tmp, sizeof tmp, "\\x%02x", c);
        if (j + (size_t)n + 4 > cap) break; /* room for "..." and the NUL */
        memcpy(out + j, tmp, (size_t)n);
        j += (size_t)n;
    }
    if (i < len) {
        memcpy(out + j, "...", 3);
        j += 3;
    }
    out[j] = '\0';
}

#endif
