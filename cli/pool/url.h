/* Pool addresses: stratum+tcp://HOST:PORT, HOST a name, an IPv4 address or [IPv6]. */
#ifndef KILN_POOL_URL_H
#define KILN_POOL_URL_H

#include <stddef.h>

#define POOL_HOST_MAX 255

typedef struct pool_url {
    char host[POOL_HOST_MAX + 1]; /* without brackets */
    char port[6]; /* decimal, 1..65535 */
} pool_url;

/* 0 on success; -1 with a message in err naming what is wrong. */
int pool_url_parse(const char *text, pool_url *out, char *err, size_t errlen);

/* Host and port as a "stratum+tcp://host:port" string (brackets around IPv6). */
void pool_url_format(const pool_url *u, char *out, size_t n);

/* Fills out from a host and a port given separately (client.reconnect); same rules as a URL. */
int pool_url_from_parts(const char *host, const char *port, pool_url *out, char *err, size_t errlen);

#endif
