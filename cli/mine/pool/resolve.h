/* Host name resolution off the mining path. getaddrinfo can block for many seconds (a dead DNS
 * server, a name that never resolves) and cannot be interrupted, so it runs in a detached thread:
 * the client polls for the answer from its loop and, past its own deadline, abandons the request;
 * the thread then frees everything itself when getaddrinfo finally returns. */
#ifndef KILN_POOL_RESOLVE_H
#define KILN_POOL_RESOLVE_H

#include <stddef.h>

struct addrinfo;
typedef struct resolve_req resolve_req;

/* Starts resolving host:port (TCP). NULL with err set when no thread could be started. */
resolve_req *resolve_start(const char *host, const char *port, char *err, size_t errlen);
/* 0: still resolving; 1: resolved, *addrs is the caller's (freeaddrinfo); -1: failed, err says
 * why. After 1 or -1 the request is finished: release it with resolve_release. */
int resolve_poll(resolve_req *r, struct addrinfo **addrs, char *err, size_t errlen);
/* The caller's reference: finished or not, r must not be used afterwards. */
void resolve_release(resolve_req *r);

#endif
