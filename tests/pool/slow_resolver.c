/* An injected resolver for the pool tests (LD_PRELOAD): a lookup of a name under .invalid (RFC
 * 2606: it never resolves) takes SLOW_RESOLVER_DELAY seconds (default 3) and then fails, as it
 * does behind a dead DNS server; every other lookup, and any numeric-only one, is the real
 * getaddrinfo. The test compiles it at run time. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*gai_fn)(const char *, const char *, const struct addrinfo *, struct addrinfo **);

int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res)
{
    size_t n = node ? strlen(node) : 0;
    int numeric = hints && (hints->ai_flags & AI_NUMERICHOST);
    if (!numeric && n >= 8 && strcmp(node + n - 8, ".invalid") == 0) {
        const char *d = getenv("SLOW_RESOLVER_DELAY");
        double s = d ? atof(d) : 3.0;
        struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        while (nanosleep(&ts, &ts) != 0) {
        }
        return EAI_NONAME;
    }
    gai_fn real = (gai_fn)dlsym(RTLD_NEXT, "getaddrinfo");
    return real ? real(node, service, hints, res) : EAI_FAIL;
}
