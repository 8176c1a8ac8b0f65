#include "resolve.h"

#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "url.h"

struct resolve_req {
    pthread_mutex_t mu;
    int refs; /* the caller's and the thread's */
    int done, rc;
    struct addrinfo *addrs; /* until the caller takes it */
    char host[POOL_HOST_MAX + 1], port[8];
};

static void unref(resolve_req *r)
{
    pthread_mutex_lock(&r->mu);
    int last = --r->refs == 0;
    pthread_mutex_unlock(&r->mu);
    if (!last) return;
    if (r->addrs) freeaddrinfo(r->addrs);
    pthread_mutex_destroy(&r->mu);
    free(r);
}

static void *run(void *arg)
{
    resolve_req *r = arg;
    struct addrinfo hints, *addrs = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    int rc = getaddrinfo(r->host, r->port, &hints, &addrs);
    pthread_mutex_lock(&r->mu);
    r->rc = rc;
    r->addrs = rc == 0 ? addrs : NULL;
    r->done = 1;
    pthread_mutex_unlock(&r->mu);
    unref(r);
    return NULL;
}

resolve_req *resolve_start(const char *host, const char *port, char *err, size_t errlen)
{
    resolve_req *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(r->host, sizeof r->host, "%s", host);
    snprintf(r->port, sizeof r->port, "%s", port);
    r->refs = 2;
    pthread_mutex_init(&r->mu, NULL);
    pthread_attr_t attr;
    pthread_t t;
    int rc = pthread_attr_init(&attr);
    if (rc == 0) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        rc = pthread_create(&t, &attr, run, r);
        pthread_attr_destroy(&attr);
    }
    if (rc != 0) {
        snprintf(err, errlen, "cannot start a resolver thread: %s", strerror(rc));
        pthread_mutex_destroy(&r->mu);
        free(r);
        return NULL;
    }
    return r;
}

int resolve_poll(resolve_req *r, struct addrinfo **addrs, char *err, size_t errlen)
{
    pthread_mutex_lock(&r->mu);
    int done = r->done, rc = r->rc;
    if (done && rc == 0) {
        *addrs = r->addrs;
        r->addrs = NULL;
    }
    pthread_mutex_unlock(&r->mu);
    if (!done) return 0;
    if (rc != 0) {
        snprintf(err, errlen, "cannot resolve %s: %s", r->host, gai_strerror(rc));
        return -1;
    }
    return 1;
}

void resolve_release(resolve_req *r)
{
    if (r) unref(r);
}
