/* kiln mine --api-listen: a read-only HTTP endpoint (GET /status, GET /metrics) served by its own
 * thread from the snapshot the mining loop publishes (mon.h), so no client can slow mining.
 *
 * It holds at most API_MAX_CONNS connections (one more is answered 503 and closed at once); a
 * request head must arrive whole, within HTTP_MAX_HEAD bytes, API_HEAD_DEADLINE_S after the
 * connection (else 408 or 431), and the answer must be taken within API_WRITE_DEADLINE_S; every
 * answer closes the connection. Only GET and HEAD: anything else is 405, other paths 404. */
#ifndef KILN_CLI_MONITOR_SERVER_H
#define KILN_CLI_MONITOR_SERVER_H

#define API_MAX_CONNS 16
#define API_HEAD_DEADLINE_S 2.0
#define API_WRITE_DEADLINE_S 5.0
#define API_MAX_LINGER 32 /* answered sockets waiting for the client's close (server.c) */
#define API_LINGER_S 1.0
/* the kernel's queue of connections not yet accepted: deep enough that a burst of them (while the
 * thread waits for a core) is not met with dropped SYNs and a retry a second later */
#define API_BACKLOG 128

/* Binds spec ("PORT", "HOST:PORT", "[V6ADDR]:PORT"; a bare port means the loopback, port 0 any
 * free one), prints "kiln mine: monitoring endpoint on http://ADDR:PORT/" to stderr and starts
 * the thread. 0, or the exit code after the error line (2: a bad spec, 3: cannot bind). */
int api_start(const char *cmd, const char *spec);
/* Stops the thread and closes every connection (nothing when api_start was not called). */
void api_stop(void);

#endif
