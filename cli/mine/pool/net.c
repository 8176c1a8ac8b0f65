#include "net.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

int conn_init(pool_conn *c)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    return linebuf_init(&c->in, POOL_LINE_MAX);
}

void conn_close(pool_conn *c)
{
    tls_session_free(c->tls);
    c->tls = NULL;
    c->read_wants_write = c->write_wants_read = 0;
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    resolve_release(c->resolving);
    c->resolving = NULL;
    if (c->addrs) freeaddrinfo(c->addrs);
    c->addrs = c->next_addr = NULL;
    linebuf_reset(&c->in);
    c->out_len = 0;
}

void conn_free(pool_conn *c)
{
    conn_close(c);
    linebuf_free(&c->in);
    free(c->out);
    c->out = NULL;
}

/* Starts a non-blocking connect to c->next_addr and advances it; -1 when none is left. */
static int try_next(pool_conn *c, char *err, size_t errlen)
{
    while (c->next_addr) {
        struct addrinfo *a = c->next_addr;
        c->next_addr = a->ai_next;
        if (c->fd >= 0) close(c->fd);
        c->fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (c->fd < 0) {
            snprintf(err, errlen, "socket: %s", strerror(errno));
            continue;
        }
        int flags = fcntl(c->fd, F_GETFL, 0);
        if (flags < 0 || fcntl(c->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
            snprintf(err, errlen, "fcntl: %s", strerror(errno));
            continue;
        }
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); /* shares go out at once */
        setsockopt(c->fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
        if (connect(c->fd, a->ai_addr, a->ai_addrlen) == 0 || errno == EINPROGRESS) return 0;
        snprintf(err, errlen, "connect: %s", strerror(errno));
    }
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    return -1;
}

int conn_start(pool_conn *c, const pool_url *u, char *err, size_t errlen)
{
    conn_close(c);
    c->use_tls = pool_url_tls(u);
    if (c->use_tls && !c->tls_cfg) {
        snprintf(err, errlen, "TLS is not set up");
        return -1;
    }
    snprintf(c->host, sizeof c->host, "%s", u->host);
    /* an address needs no lookup: connect at once, without a thread */
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
    if (getaddrinfo(u->host, u->port, &hints, &c->addrs) == 0) return 0;
    c->addrs = NULL;
    c->resolving = resolve_start(u->host, u->port, err, errlen);
    return c->resolving ? 0 : -1;
}

int conn_resolved(pool_conn *c, char *err, size_t errlen)
{
    if (c->resolving) {
        int r = resolve_poll(c->resolving, &c->addrs, err, errlen);
        if (r == 0) return 0;
        resolve_release(c->resolving);
        c->resolving = NULL;
        if (r < 0) return -1;
    }
    c->next_addr = c->addrs;
    snprintf(err, errlen, "no address");
    return try_next(c, err, errlen) == 0 ? 1 : -1;
}

int conn_finish(pool_conn *c, char *err, size_t errlen)
{
    int e = 0;
    socklen_t len = sizeof e;
    if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &e, &len) < 0) e = errno;
    if (e == 0) {
        freeaddrinfo(c->addrs);
        c->addrs = c->next_addr = NULL;
        if (!c->use_tls) return 1;
        c->tls = tls_session_new(c->tls_cfg, c->fd, c->host, err, errlen);
        c->tls_events = POLLOUT;
        return c->tls ? 2 : -1;
    }
    snprintf(err, errlen, "connect: %s", strerror(e));
    return try_next(c, err, errlen) == 0 ? 0 : -1;
}

int conn_handshake(pool_conn *c, char *err, size_t errlen)
{
    return tls_handshake(c->tls, &c->tls_events, err, errlen);
}

short conn_events(const pool_conn *c)
{
    if (c->tls && !tls_handshake_done(c->tls)) return c->tls_events;
    /* a TLS write waiting for the pool's bytes must not spin on a writable socket */
    int out = c->out_len > 0 && !c->write_wants_read;
    return (short)(POLLIN | (out || c->read_wants_write ? POLLOUT : 0));
}

int conn_buffered(const pool_conn *c) { return c->tls && tls_pending(c->tls) > 0; }

int conn_flush(pool_conn *c)
{
    size_t done = 0;
    c->write_wants_read = 0;
    while (done < c->out_len) {
        if (c->tls) {
            short ev = 0;
            long n = tls_write(c->tls, c->out + done, c->out_len - done, &ev, c->err, sizeof c->err);
            if (n == -2) {
                c->write_wants_read = ev == POLLIN;
                break;
            }
            if (n < 0) return -1;
            done += (size_t)n;
            continue;
        }
        ssize_t n = send(c->fd, c->out + done, c->out_len - done, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) break;
            snprintf(c->err, sizeof c->err, "%s", strerror(errno));
            return -1;
        }
        done += (size_t)n;
    }
    memmove(c->out, c->out + done, c->out_len - done);
    c->out_len -= done;
    return 0;
}

int conn_send(pool_conn *c, const char *line)
{
    size_t n = strlen(line);
    if (c->fd < 0) {
        snprintf(c->err, sizeof c->err, "%s", strerror(ENOTCONN));
        return -1;
    }
    if (c->out_len + n > CONN_OUT_MAX) return -2;
    if (c->out_len + n > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        while (cap < c->out_len + n) cap *= 2;
        char *p = realloc(c->out, cap);
        if (!p) {
            snprintf(c->err, sizeof c->err, "%s", strerror(ENOMEM));
            return -1;
        }
        c->out = p;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, line, n);
    c->out_len += n;
    return conn_flush(c);
}

int conn_wants_write(const pool_conn *c) { return c->out_len > 0; }

long conn_read(pool_conn *c)
{
    size_t avail;
    char *p = linebuf_space(&c->in, &avail);
    if (avail == 0) { /* the caller drains lines first; full means over-long */
        snprintf(c->err, sizeof c->err, "line buffer full");
        return -1;
    }
    if (c->tls) {
        short ev = 0;
        c->read_wants_write = 0;
        long n = tls_read(c->tls, p, avail, &ev, c->err, sizeof c->err);
        if (n == -2) c->read_wants_write = ev == POLLOUT;
        if (n > 0) linebuf_commit(&c->in, (size_t)n);
        return n;
    }
    for (;;) {
        ssize_t n = recv(c->fd, p, avail, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return -2;
        if (n < 0) {
            snprintf(c->err, sizeof c->err, "%s", strerror(errno));
            return -1;
        }
        linebuf_commit(&c->in, (size_t)n);
        return (long)n;
    }
}
