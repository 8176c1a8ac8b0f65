/* A non-blocking connection to a pool, TCP or TLS over TCP: resolve, connect and handshake
 * without stalling the miner, buffered writes, reads into a capped line buffer. POSIX sockets. */
#ifndef KILN_POOL_NET_H
#define KILN_POOL_NET_H

#include <stddef.h>

#include "linebuf.h"
#include "resolve.h"
#include "tls.h"
#include "url.h"

typedef struct pool_conn {
    int fd; /* -1 when closed */
    resolve_req *resolving; /* a host name being resolved, before fd exists */
    struct addrinfo *addrs, *next_addr; /* addresses still to try while connecting */
    linebuf in;
    char *out;
    size_t out_len, out_cap;
    pool_tls *tls_cfg; /* the run's TLS settings (NULL: no TLS URL was given) */
    tls_session *tls; /* NULL over plain TCP */
    int use_tls;
    char host[POOL_HOST_MAX + 1]; /* the name the certificate must carry */
    short tls_events; /* what the handshake waits for */
    int read_wants_write, write_wants_read; /* TLS: a read or write waits for the other direction */
    char err[256]; /* why the last call returned -1 */
} pool_conn;

int conn_init(pool_conn *c); /* -1 when out of memory */
void conn_free(pool_conn *c);

/* Starts resolving the host (an address at once, a name in a resolver thread). 0: started (poll
 * conn_resolved); -1: failed, err says why. */
int conn_start(pool_conn *c, const pool_url *u, char *err, size_t errlen);
/* 0: still resolving; 1: resolved and connecting to the first address (wait for writability,
 * then conn_finish); -1: resolution or every connect failed, err says why. */
int conn_resolved(pool_conn *c, char *err, size_t errlen);
/* After the socket became writable: 1 connected, 2 connected and a TLS handshake started (call
 * conn_handshake when conn_events are ready), 0 this address failed but another connect was
 * started, -1 every address failed or TLS could not start (err says why). */
int conn_finish(pool_conn *c, char *err, size_t errlen);
/* 1 the TLS session is up, 0 not yet, -1 failed (err says at which step and why). */
int conn_handshake(pool_conn *c, char *err, size_t errlen);
/* The poll events to wait for while handshaking or up. */
short conn_events(const pool_conn *c);
/* 1 when bytes wait inside the TLS session (poll cannot see them): read without waiting. */
int conn_buffered(const pool_conn *c);

/* Queues a line and writes what the socket takes now. -1 on a socket error (c->err says why),
 * -2 when the pool stops reading (more than CONN_OUT_MAX bytes queued). */
#define CONN_OUT_MAX (1u << 20)
int conn_send(pool_conn *c, const char *line);
int conn_flush(pool_conn *c);
int conn_wants_write(const pool_conn *c);

/* Reads what is available into the line buffer: >0 bytes read, 0 end of stream, -1 error
 * (c->err), -2 nothing available now. */
long conn_read(pool_conn *c);

void conn_close(pool_conn *c);

#endif
