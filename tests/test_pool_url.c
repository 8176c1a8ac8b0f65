/* Pool URL parsing: a table of accepted and refused addresses. */
#include "check.h"
#include "mine/pool/url.h"

static const struct {
    const char *text, *host, *port; /* host NULL: must be refused */
    int tls;
} table[] = {
    {"stratum+tcp://pool.example.com:3333", "pool.example.com", "3333", 0},
    {"stratum+tcp://127.0.0.1:1", "127.0.0.1", "1", 0},
    {"stratum+tcp://127.0.0.1:65535/", "127.0.0.1", "65535", 0},
    {"stratum+tcp://[::1]:3333", "::1", "3333", 0},
    {"stratum+tcp://[2001:db8::7]:4444", "2001:db8::7", "4444", 0},
    {"stratum+tcp://my_pool-1.example:03333", "my_pool-1.example", "3333", 0},
    {"stratum+tcp://host:0", NULL, NULL, 0},
    {"stratum+tcp://host:65536", NULL, NULL, 0},
    {"stratum+tcp://host:", NULL, NULL, 0},
    {"stratum+tcp://host", NULL, NULL, 0},
    {"stratum+tcp://:3333", NULL, NULL, 0},
    {"stratum+tcp://user:pw@host:3333", NULL, NULL, 0},
    {"stratum+tcp://ho st:3333", NULL, NULL, 0},
    {"stratum+tcp://host:33a3", NULL, NULL, 0},
    {"stratum+tcp://host:-1", NULL, NULL, 0},
    {"stratum+tcp://host:3333/path", NULL, NULL, 0},
    {"stratum+tcp://[::1:3333", NULL, NULL, 0},
    {"stratum+tcp://[zz::1]:3333", NULL, NULL, 0},
    {"stratum+tcp://[127.0.0.1]:3333", NULL, NULL, 0},
    {"stratum+ssl://pool.example.com:443", "pool.example.com", "443", 1},
    {"stratum+tls://[::1]:3334", "::1", "3334", 1},
    {"stratum+tcps://10.0.0.1:3335", "10.0.0.1", "3335", 1},
    {"stratum+ssl://host", NULL, NULL, 0},
    {"stratum+ssl:/host:1", NULL, NULL, 0},
    {"stratum+https://host:1", NULL, NULL, 0},
    {"STRATUM+SSL://host:1", NULL, NULL, 0},
    {"http://host:3333", NULL, NULL, 0},
    {"host:3333", NULL, NULL, 0},
    {"", NULL, NULL, 0},
    {"stratum+tcp://", NULL, NULL, 0},
};

int main(void)
{
    char err[300], out[300];
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        pool_url u;
        int rc = pool_url_parse(table[i].text, &u, err, sizeof err);
        if (table[i].host) {
            CHECK(rc == 0, "'%s' refused: %s", table[i].text, err);
            if (rc == 0) {
                CHECK_STR(u.host, table[i].host);
                CHECK_STR(u.port, table[i].port);
                CHECK(pool_url_tls(&u) == table[i].tls, "'%s': TLS %d", table[i].text, pool_url_tls(&u));
            }
        } else {
            CHECK(rc != 0, "'%s' accepted", table[i].text);
            CHECK(rc != 0 && strstr(err, "pool URL") != NULL, "message for '%s': %s", table[i].text, err);
        }
    }
    pool_url u;
    CHECK(pool_url_parse("stratum+tcp://[::1]:3333", &u, err, sizeof err) == 0, "v6");
    pool_url_format(&u, out, sizeof out);
    CHECK_STR(out, "stratum+tcp://[::1]:3333");
    CHECK(pool_url_parse("stratum+tls://[::1]:3333", &u, err, sizeof err) == 0, "tls v6");
    pool_url_format(&u, out, sizeof out);
    CHECK_STR(out, "stratum+tls://[::1]:3333");
    CHECK(pool_url_parse("stratum+ssl://h:1/", &u, err, sizeof err) == 0, "ssl");
    pool_url_format(&u, out, sizeof out);
    CHECK_STR(out, "stratum+ssl://h:1");
    CHECK(pool_url_from_parts("10.0.0.2", "3334", &u, err, sizeof err) == 0, "parts");
    CHECK_STR(u.host, "10.0.0.2");
    CHECK(pool_url_from_parts("bad host", "1", &u, err, sizeof err) != 0, "parts: bad host");
    CHECK(pool_url_from_parts("h", "99999", &u, err, sizeof err) != 0, "parts: bad port");
    return check_summary();
}
