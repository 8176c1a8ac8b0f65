#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/progress.h"
#include "http_request.h"
#include "status.h"

typedef struct conn {
    int fd; /* -1: free */
    double since; /* accepted at; the deadlines count from here */
    char in[HTTP_MAX_HEAD];
    size_t in_len;
    char *out; /* the answer, once the head is read */
    size_t out_len, out_off;
} conn;

/* An answered connection whose write side is shut: kept until the client closes (its unread bytes
 * drained) or API_LINGER_S passes, since closing a socket with unread input sends a reset that can
 * destroy the answer before the client reads it. */
typedef struct parked {
    int fd; /* -1: free */
    double until;
} parked;

static struct {
    int listen_fd, wake[2], running;
    pthread_t thread;
    conn conns[API_MAX_CONNS];
    parked lingering[API_MAX_LINGER];
} S = {.listen_fd = -1, .wake = {-1, -1}};

/* Hands fd to the lingering set; when that is full its oldest goes first. */
static void linger_add(int fd, double now)
{
    shutdown(fd, SHUT_WR);
    parked *slot = &S.lingering[0];
    for (int i = 0; i < API_MAX_LINGER; i++) {
        if (S.lingering[i].fd < 0) {
            slot = &S.lingering[i];
            break;
        }
        if (S.lingering[i].until < slot->until) slot = &S.lingering[i];
    }
    if (slot->fd >= 0) close(slot->fd);
    slot->fd = fd;
    slot->until = now + API_LINGER_S;
}

static void linger_read(parked *l)
{
    char sink[4096];
    ssize_t n = recv(l->fd, sink, sizeof sink, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        close(l->fd);
        l->fd = -1;
    }
}

static const char *reason_phrase(int code)
{
    switch (code) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    case 500: return "Internal Server Error";
    default: return "Internal Server Error";
    }
}

/* The whole answer, head and body (the body left out for HEAD). NULL when memory runs out. */
static char *answer(int code, const char *type, const char *body, int head_only, size_t *len)
{
    char tmp[64];
    if (!body) {
        snprintf(tmp, sizeof tmp, "%d %s\n", code, reason_phrase(code));
        body = tmp;
        type = "text/plain; charset=utf-8";
    }
    size_t blen = strlen(body);
    size_t cap = blen + 300;
    char *out = malloc(cap);
    if (!out) return NULL;
    int n = snprintf(out, cap,
                     "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-store\r\n%s"
                     "Connection: close\r\n\r\n",
                     code, reason_phrase(code), type, blen, code == 405 ? "Allow: GET, HEAD\r\n" : "");
    if (n < 0 || (size_t)n >= cap) {
        free(out);
        return NULL;
    }
    if (!head_only) memcpy(out + n, body, blen);
    *len = (size_t)n + (head_only ? 0 : blen);
    return out;
}

static char *route(const http_request *rq, size_t *len)
{
    int is_status = strcmp(rq->path, "/status") == 0, is_metrics = strcmp(rq->path, "/metrics") == 0;
    if (!is_status && !is_metrics) return answer(404, NULL, NULL, 0, len);
    int head = strcmp(rq->method, "HEAD") == 0;
    if (!head && strcmp(rq->method, "GET") != 0) return answer(405, NULL, NULL, 0, len);
    mon_snapshot *s = malloc(sizeof *s);
    if (!s) return NULL;
    char *out = NULL;
    if (mon_read(s) != 0) {
        out = answer(503, NULL, NULL, head, len); /* mining has not started yet */
    } else {
        char *body = is_status ? status_json(s, cli_now()) : status_metrics(s, cli_now());
        if (body)
            out = answer(200, is_status ? "application/json" : "text/plain; version=0.0.4; charset=utf-8", body, head,
                         len);
        else
            out = answer(500, NULL, NULL, head, len); /* out of memory */
        free(body);
    }
    free(s);
    return out;
}

static void drop(conn *c)
{
    close(c->fd);
    free(c->out);
    c->fd = -1;
    c->out = NULL;
}

/* The answer is out: the slot is free, the socket lingers. */
static void finish(conn *c)
{
    linger_add(c->fd, cli_now());
    free(c->out);
    c->fd = -1;
    c->out = NULL;
}

/* Switches the connection to writing `code`'s answer (or drops it when memory runs out). */
static void respond(conn *c, char *out, size_t len)
{
    if (!out) {
        drop(c);
        return;
    }
    c->out = out;
    c->out_len = len;
    c->out_off = 0; /* nothing more is read: a body or a pipelined request is discarded */
}

static void on_readable(conn *c)
{
    ssize_t n = recv(c->fd, c->in + c->in_len, sizeof c->in - c->in_len, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        drop(c);
        return;
    }
    if (n < 0) return;
    c->in_len += (size_t)n;
    http_request rq;
    int r = http_parse(c->in, c->in_len, &rq);
    size_t len = 0;
    char *out = r < 0 ? answer(-r, NULL, NULL, 0, &len) : r > 0 ? route(&rq, &len) : NULL;
    if (r != 0) respond(c, out, len);
}

static void on_writable(conn *c)
{
    ssize_t n = send(c->fd, c->out + c->out_off, c->out_len - c->out_off, MSG_NOSIGNAL);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
        drop(c);
        return;
    }
    c->out_off += (size_t)n;
    if (c->out_off == c->out_len) finish(c);
}

static void on_accept(double now)
{
    for (;;) {
        int fd = accept(S.listen_fd, NULL, NULL);
        if (fd < 0) return; /* EAGAIN, or a connection reset before we took it */
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        conn *c = NULL;
        for (int i = 0; i < API_MAX_CONNS && !c; i++)
            if (S.conns[i].fd < 0) c = &S.conns[i];
        if (!c) { /* every slot taken: a short answer, never a wait */
            size_t len;
            char *out = answer(503, NULL, NULL, 0, &len);
            if (out) (void)!send(fd, out, len, MSG_NOSIGNAL);
            free(out);
            linger_add(fd, now);
            continue;
        }
        memset(c, 0, sizeof *c);
        c->fd = fd;
        c->since = now;
    }
}

static void *serve(void *arg)
{
    (void)arg;
    struct pollfd p[API_MAX_CONNS + API_MAX_LINGER + 2];
    for (;;) {
        double now = cli_now();
        int n = 0;
        p[n++] = (struct pollfd){.fd = S.wake[0], .events = POLLIN};
        p[n++] = (struct pollfd){.fd = S.listen_fd, .events = POLLIN};
        double soonest = now + 1;
        for (int i = 0; i < API_MAX_CONNS; i++) {
            conn *c = &S.conns[i];
            if (c->fd < 0) continue;
            double due = c->since + (c->out ? API_HEAD_DEADLINE_S + API_WRITE_DEADLINE_S : API_HEAD_DEADLINE_S);
            if (now >= due) { /* a slow client: its slot goes back */
                if (c->out) {
                    drop(c);
                    continue;
                }
                size_t len = 0;
                char *out = answer(408, NULL, NULL, 0, &len);
                respond(c, out, len);
                c->since = now - API_HEAD_DEADLINE_S; /* the 408 gets the write deadline */
                due = now + API_WRITE_DEADLINE_S;
                if (c->fd < 0) continue;
            }
            if (due < soonest) soonest = due;
            p[n++] = (struct pollfd){.fd = c->fd, .events = c->out ? POLLOUT : POLLIN};
        }
        int first_linger = n;
        for (int i = 0; i < API_MAX_LINGER; i++) {
            parked *l = &S.lingering[i];
            if (l->fd < 0) continue;
            if (now >= l->until) {
                close(l->fd);
                l->fd = -1;
                continue;
            }
            if (l->until < soonest) soonest = l->until;
            p[n++] = (struct pollfd){.fd = l->fd, .events = POLLIN};
        }
        int ms = (int)((soonest - now) * 1000) + 1;
        if (poll(p, (nfds_t)n, ms < 0 ? 0 : ms) < 0 && errno != EINTR) break;
        if (p[0].revents) break; /* api_stop */
        now = cli_now();
        for (int k = first_linger; k < n; k++) {
            if (!p[k].revents) continue;
            for (int i = 0; i < API_MAX_LINGER; i++)
                if (S.lingering[i].fd == p[k].fd) linger_read(&S.lingering[i]);
        }
        for (int k = 2; k < first_linger; k++) {
            if (!p[k].revents) continue;
            for (int i = 0; i < API_MAX_CONNS; i++) {
                conn *c = &S.conns[i];
                if (c->fd != p[k].fd) continue;
                if (c->out) on_writable(c);
                else on_readable(c);
                break;
            }
        }
        if (p[1].revents) on_accept(now);
    }
    return NULL;
}

/* spec -> host and port text; 0, or -1 when it is not HOST:PORT, [V6]:PORT or PORT. */
static int split(const char *spec, char *host, size_t hn, char *port, size_t pn)
{
    const char *colon;
    if (spec[0] == '[') {
        const char *close = strchr(spec, ']');
        if (!close || close[1] != ':' || (size_t)(close - spec - 1) >= hn) return -1;
        memcpy(host, spec + 1, (size_t)(close - spec - 1));
        host[close - spec - 1] = '\0';
        colon = close + 1;
    } else if ((colon = strrchr(spec, ':')) != NULL) {
        if (strchr(spec, ':') != colon || (size_t)(colon - spec) >= hn) return -1;
        memcpy(host, spec, (size_t)(colon - spec));
        host[colon - spec] = '\0';
    } else {
        snprintf(host, hn, "127.0.0.1");
        colon = spec - 1;
    }
    const char *ps = colon + 1;
    size_t len = strlen(ps);
    if (!host[0] || len == 0 || len >= pn || strspn(ps, "0123456789") != len || atol(ps) > 65535) return -1;
    memcpy(port, ps, len + 1);
    return 0;
}

int api_start(const char *cmd, const char *spec)
{
    char host[256], port[8];
    if (split(spec, host, sizeof host, port, sizeof port) != 0)
        return cli_error(EXIT_USAGE, cmd, "--api-listen %s: give PORT, HOST:PORT or [IPv6]:PORT (port 0..65535)", spec);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int gai = getaddrinfo(host, port, &hints, &res);
    if (gai != 0) return cli_error(EXIT_USAGE, cmd, "--api-listen %s: %s", spec, gai_strerror(gai));
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, API_BACKLOG) != 0) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) return cli_error(EXIT_DEVICE, cmd, "--api-listen %s: cannot listen: %s", spec, strerror(err));
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    char addr[INET6_ADDRSTRLEN] = "?", bound[INET6_ADDRSTRLEN + 16];
    int bport = 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
        if (ss.ss_family == AF_INET6) {
            struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
            inet_ntop(AF_INET6, &s6->sin6_addr, addr, sizeof addr);
            bport = ntohs(s6->sin6_port);
        } else {
            struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
            inet_ntop(AF_INET, &s4->sin_addr, addr, sizeof addr);
            bport = ntohs(s4->sin_port);
        }
    }
    snprintf(bound, sizeof bound, ss.ss_family == AF_INET6 ? "[%s]:%d" : "%s:%d", addr, bport);
    if (pipe(S.wake) != 0) {
        close(fd);
        return cli_error(EXIT_DEVICE, cmd, "--api-listen: %s", strerror(errno));
    }
    for (int i = 0; i < API_MAX_CONNS; i++) S.conns[i].fd = -1;
    for (int i = 0; i < API_MAX_LINGER; i++) S.lingering[i].fd = -1;
    S.listen_fd = fd;
    /* the thread takes no signal: SIGINT and SIGTERM stay with the mining loop's handler */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&S.thread, NULL, serve, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        api_stop();
        return cli_error(EXIT_DEVICE, cmd, "--api-listen: cannot start its thread: %s", strerror(rc));
    }
    S.running = 1;
    fprintf(stderr, "kiln %s: monitoring endpoint on http://%s/ (GET /status, /metrics)\n", cmd, bound);
    fflush(stderr);
    return 0;
}

void api_stop(void)
{
    if (S.running) {
        (void)!write(S.wake[1], "x", 1);
        pthread_join(S.thread, NULL);
        S.running = 0;
    }
    for (int i = 0; i < API_MAX_CONNS; i++)
        if (S.conns[i].fd >= 0 && S.listen_fd >= 0) drop(&S.conns[i]);
    for (int i = 0; i < API_MAX_LINGER; i++)
        if (S.lingering[i].fd >= 0 && S.listen_fd >= 0) close(S.lingering[i].fd);
    if (S.listen_fd >= 0) close(S.listen_fd);
    for (int i = 0; i < 2; i++)
        if (S.wake[i] >= 0) close(S.wake[i]);
    S.listen_fd = S.wake[0] = S.wake[1] = -1;
}
