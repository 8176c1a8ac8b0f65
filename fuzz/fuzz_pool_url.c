/* The pool URL parser over any string: an accepted URL has a host of 1..255 characters and a
 * port of 1..65535 in canonical decimal, formatting it gives a URL that parses back to the same
 * host, port and scheme (TCP or TLS), and the same host and port given separately (client.reconnect)
 * are accepted too;
 * a refused one comes with a message naming the URL's form. */
#include "fuzz_util.h"

#include "mine/pool/url.h"

static int same(const pool_url *a, const pool_url *b)
{
    return strcmp(a->host, b->host) == 0 && strcmp(a->port, b->port) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstr(data, size);
    pool_url u, back;
    char err[400], out[400];
    if (pool_url_parse(text, &u, err, sizeof err) == 0) {
        size_t hl = strlen(u.host);
        FUZZ_CHECK(hl >= 1 && hl <= POOL_HOST_MAX);
        unsigned long port = strtoul(u.port, NULL, 10);
        FUZZ_CHECK(port >= 1 && port <= 65535 && u.port[0] != '0');
        char canon[8];
        snprintf(canon, sizeof canon, "%lu", port);
        FUZZ_CHECK(strcmp(canon, u.port) == 0);
        pool_url_format(&u, out, sizeof out);
        FUZZ_CHECK(pool_url_parse(out, &back, err, sizeof err) == 0 && same(&u, &back) && back.scheme == u.scheme);
        FUZZ_CHECK(pool_url_from_parts(u.host, u.port, &back, err, sizeof err) == 0 && same(&u, &back));
    } else {
        FUZZ_CHECK(strstr(err, "pool URL") != NULL);
    }
    /* the input as client.reconnect's host and port, split at the first newline */
    char *nl = strchr(text, '\n');
    if (nl) {
        *nl = '\0';
        if (pool_url_from_parts(text, nl + 1, &u, err, sizeof err) == 0) {
            pool_url_format(&u, out, sizeof out);
            FUZZ_CHECK(pool_url_parse(out, &back, err, sizeof err) == 0 && same(&u, &back));
        } else {
            FUZZ_CHECK(err[0] != '\0');
        }
    }
    free(text);
    return 0;
}
