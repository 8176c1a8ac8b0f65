#include "http_request.h"

#include <string.h>

static int is_tchar(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* The end of the line starting at p (its '\n'), or NULL when the buffer ends first. */
static const char *line_end(const char *p, const char *end) { return memchr(p, '\n', (size_t)(end - p)); }

static int request_line(const char *p, const char *eol, http_request *out)
{
    if (eol > p && eol[-1] == '\r') eol--;
    const char *q = p;
    while (q < eol && is_tchar((unsigned char)*q)) q++;
    if (q == p || q - p >= (int)sizeof out->method || q == eol || *q != ' ') return -400;
    memcpy(out->method, p, (size_t)(q - p));
    out->method[q - p] = '\0';
    p = ++q;
    while (q < eol && (unsigned char)*q > 0x20 && (unsigned char)*q < 0x7f) q++;
    if (q == p || *p != '/' || q == eol || *q != ' ') return -400;
    const char *query = memchr(p, '?', (size_t)(q - p));
    const char *pend = query ? query : q;
    if (pend - p > HTTP_MAX_PATH) return -414;
    memcpy(out->path, p, (size_t)(pend - p));
    out->path[pend - p] = '\0';
    p = q + 1;
    if (eol - p != 8 || memcmp(p, "HTTP/", 5) != 0) return -400;
    if (p[5] != '1' || p[6] != '.' || (p[7] != '0' && p[7] != '1')) return -505;
    return 0;
}

/* A header line "name: value" (tabs and visible bytes in the value). */
static int header_line(const char *p, const char *eol)
{
    if (eol > p && eol[-1] == '\r') eol--;
    const char *q = p;
    while (q < eol && is_tchar((unsigned char)*q)) q++;
    if (q == p || q == eol || *q != ':') return -400;
    for (q++; q < eol; q++)
        if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f) return -400;
    return 0;
}

int http_parse(const char *buf, size_t len, http_request *out)
{
    memset(out, 0, sizeof *out);
    const char *end = buf + (len > HTTP_MAX_HEAD ? HTTP_MAX_HEAD : len);
    const char *eol = line_end(buf, end);
    if (!eol) return len >= HTTP_MAX_HEAD ? -414 : 0;
    int r = request_line(buf, eol, out);
    if (r) return r;
    for (const char *p = eol + 1;;) {
        eol = line_end(p, end);
        if (!eol) return len >= HTTP_MAX_HEAD ? -431 : 0;
        if (eol == p || (eol == p + 1 && *p == '\r')) return (int)(eol + 1 - buf);
        if ((r = header_line(p, eol)) != 0) return r;
        p = eol + 1;
    }
}
