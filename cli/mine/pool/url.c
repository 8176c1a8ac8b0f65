#include "url.h"

#include <stdio.h>
#include <string.h>

static const char *const schemes[] = {"stratum+tcp://", "stratum+ssl://", "stratum+tls://", "stratum+tcps://"};

static int fail(char *err, size_t n, const char *msg, const char *text)
{
    snprintf(err, n, "%s in pool URL '%.200s' (expected stratum+tcp://HOST:PORT or stratum+ssl://HOST:PORT)", msg, text);
    return -1;
}

static int host_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_';
}

static int ipv6_char(char c)
{
    return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || (c >= '0' && c <= '9') || c == ':' || c == '.';
}

static int parse_port(const char *p, size_t len, char out[6])
{
    if (len == 0 || len > 5) return -1;
    unsigned v = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] < '0' || p[i] > '9') return -1;
        v = v * 10 + (unsigned)(p[i] - '0');
    }
    if (v == 0 || v > 65535) return -1;
    snprintf(out, 6, "%u", v);
    return 0;
}

static int set_host(pool_url *out, const char *h, size_t len, int v6)
{
    if (len == 0 || len > POOL_HOST_MAX) return -1;
    for (size_t i = 0; i < len; i++)
        if (!(v6 ? ipv6_char(h[i]) : host_char(h[i]))) return -1;
    if (v6 && !memchr(h, ':', len)) return -1;
    memcpy(out->host, h, len);
    out->host[len] = '\0';
    return 0;
}

int pool_url_parse(const char *text, pool_url *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!text || !*text) return fail(err, errlen, "empty address", "");
    int sc = -1;
    for (int i = 0; i < (int)(sizeof schemes / sizeof schemes[0]) && sc < 0; i++)
        if (strncmp(text, schemes[i], strlen(schemes[i])) == 0) sc = i;
    if (sc < 0) return fail(err, errlen, "unknown scheme", text);
    out->scheme = sc;
    const char *p = text + strlen(schemes[sc]), *end = p + strlen(p);
    if (end > p && end[-1] == '/') end--; /* one trailing slash is harmless */
    const char *colon;
    if (*p == '[') {
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (!close || set_host(out, p + 1, (size_t)(close - p - 1), 1) != 0)
            return fail(err, errlen, "bad IPv6 host", text);
        colon = close + 1;
        if (colon >= end || *colon != ':') return fail(err, errlen, "missing port", text);
    } else {
        colon = memchr(p, ':', (size_t)(end - p));
        if (!colon) return fail(err, errlen, "missing port", text);
        if (set_host(out, p, (size_t)(colon - p), 0) != 0) return fail(err, errlen, "bad host", text);
    }
    if (parse_port(colon + 1, (size_t)(end - colon - 1), out->port) != 0)
        return fail(err, errlen, "bad port (1..65535)", text);
    return 0;
}

int pool_url_from_parts(const char *host, const char *port, pool_url *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t hl = strlen(host);
    int v6 = memchr(host, ':', hl) != NULL;
    if (set_host(out, host, hl, v6) != 0 || parse_port(port, strlen(port), out->port) != 0) {
        snprintf(err, errlen, "bad host or port '%.200s' '%.8s'", host, port);
        return -1;
    }
    return 0;
}

void pool_url_format(const pool_url *u, char *out, size_t n)
{
    const char *scheme = schemes[u->scheme >= POOL_TCP && u->scheme <= POOL_TCPS ? u->scheme : POOL_TCP];
    if (strchr(u->host, ':')) snprintf(out, n, "%s[%s]:%s", scheme, u->host, u->port);
    else snprintf(out, n, "%s%s:%s", scheme, u->host, u->port);
}
