/* Pool addresses: stratum+tcp://HOST:PORT, or over TLS stratum+ssl://, stratum+tls:// (and
 * cpuminer-opt's stratum+tcps://); HOST a name, an IPv4 address or [IPv6]. */
#ifndef KILN_POOL_URL_H
#define KILN_POOL_URL_H

#include <stddef.h>

#define POOL_HOST_MAX 255

typedef struct pool_url {
    char host[POOL_HOST_MAX + 1]; /* without brackets */
    char port[6]; /* decimal, 1..65535 */
    int scheme; /* POOL_TCP or one of the TLS spellings (kept, so messages show what was given) */
} pool_url;

enum { POOL_TCP = 0, POOL_SSL, POOL_TLS, POOL_TCPS };
#define pool_url_tls(u) ((u)->scheme != POOL_TCP)

/* 0 on success; -1 with a message in err naming what is wrong. */
int pool_url_parse(const char *text, pool_url *out, char *err, size_t errlen);

/* The URL as a "SCHEME://host:port" string (brackets around IPv6). */
void pool_url_format(const pool_url *u, char *out, size_t n);

/* Fills out from a host and a port given separately (client.reconnect); same rules as a URL.
 * The scheme is plain TCP: the caller keeps the current connection's. */
int pool_url_from_parts(const char *host, const char *port, pool_url *out, char *err, size_t errlen);

#endif
