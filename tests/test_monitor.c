/* The monitoring endpoint's pieces without a socket: the request-head parser on RFC 9112's own
 * examples and on what it must refuse, the --temp-limit rule (pause above C, resume 5 below), the
 * 5 s / 60 s rate windows on a known hash count, the reason tables, and kiln_device_health through
 * the KILN_HEALTH_FAKE file and without NVML. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "mine/monitor/health_watch.h"
#include "mine/monitor/http_request.h"
#include "mine/monitor/mon.h"

static int parse(const char *s, http_request *rq) { return http_parse(s, strlen(s), rq); }

static void test_http(void)
{
    http_request rq;
    /* RFC 9112 section 3.2.1 and 2.1's examples */
    const char *a = "GET /where?q=now HTTP/1.1\r\nHost: www.example.com\r\n\r\n";
    CHECK(parse(a, &rq) == (int)strlen(a), "origin-form request");
    CHECK_STR(rq.method, "GET");
    CHECK_STR(rq.path, "/where");
    const char *b = "GET /hello.txt HTTP/1.1\r\nUser-Agent: curl/7.64.1\r\nHost: www.example.com\r\n"
                    "Accept-Language: en, mi\r\n\r\n";
    CHECK(parse(b, &rq) == (int)strlen(b), "RFC 9112 2.1 example");
    CHECK_STR(rq.path, "/hello.txt");
    /* a head arriving in pieces is incomplete until its blank line, whatever the cut */
    for (size_t k = 0; k < strlen(b); k++) CHECK(http_parse(b, k, &rq) == 0, "prefix of %zu bytes", k);
    CHECK(parse("GET /status HTTP/1.0\n\n", &rq) == 22, "bare LF line ends (RFC 9112 2.2 lets a recipient accept them)");
    CHECK(parse("POST /status HTTP/1.1\r\n\r\n", &rq) > 0 && strcmp(rq.method, "POST") == 0, "POST parses; the server answers 405");
    CHECK(parse("GET /status HTTP/2.0\r\n\r\n", &rq) == -505, "HTTP/2.0 refused 505");
    CHECK(parse("GET status HTTP/1.1\r\n\r\n", &rq) == -400, "no leading slash: 400");
    CHECK(parse("GET  /status HTTP/1.1\r\n\r\n", &rq) == -400, "two spaces: 400");
    CHECK(parse("GET /status HTTP/1.1\r\nHost localhost\r\n\r\n", &rq) == -400, "header without a colon: 400");
    CHECK(parse("GET /status HTTP/1.1\r\nX: a\x01" "b\r\n\r\n", &rq) == -400, "control byte in a value: 400");
    CHECK(parse("G\x80T /status HTTP/1.1\r\n\r\n", &rq) == -400, "non-token method: 400");
    char *big = malloc(HTTP_MAX_HEAD + 64);
    memset(big, 'a', HTTP_MAX_HEAD + 63);
    memcpy(big, "GET /", 5);
    big[HTTP_MAX_HEAD + 63] = '\0';
    CHECK(parse(big, &rq) == -414, "a request line past the bound: 414");
    memcpy(big, "GET /x HTTP/1.1\r\nX-Pad: ", 24);
    CHECK(parse(big, &rq) == -431, "headers past the bound: 431");
    for (int len = HTTP_MAX_PATH; len <= HTTP_MAX_PATH + 1; len++) { /* the path '/' at 4 .. 4 + len */
        memset(big, 'a', HTTP_MAX_HEAD + 63);
        memcpy(big, "GET /", 5);
        big[4 + len] = ' ';
        memcpy(big + 5 + len, "HTTP/1.1\r\n\r\n", 13);
        int r = parse(big, &rq);
        if (len == HTTP_MAX_PATH) CHECK(r > 0 && strlen(rq.path) == HTTP_MAX_PATH, "a path of %d bytes: accepted", len);
        else CHECK(r == -414, "a path of %d bytes: 414", len);
    }
    free(big);
}

static void test_temp_guard(void)
{
    /* --temp-limit 80: pauses above 80, stays paused down to 75 exclusive, resumes at 75 */
    CHECK(temp_guard_step(0, 80, 80) == 0, "at the limit: runs");
    CHECK(temp_guard_step(0, 80, 81) == 1, "above: pauses");
    CHECK(temp_guard_step(1, 80, 76) == 1, "76: still paused");
    CHECK(temp_guard_step(1, 80, 75) == 0, "75 (5 under): resumes");
    CHECK(temp_guard_step(0, 80, 79) == 0, "79 while running: runs");
    CHECK(temp_guard_step(1, 80, -1) == 1 && temp_guard_step(0, 80, -1) == 0, "no reading: no change");
    CHECK(temp_guard_step(0, 0, 200) == 0, "no limit: never pauses");
}

static void test_rates(void)
{
    mon_rates r;
    memset(&r, 0, sizeof r);
    /* 1000 H/s for 100 s, then 3000 H/s for 10 s: sampled each second */
    uint64_t h = 0;
    double t = 0;
    for (; t <= 100; t += 1, h += 1000) mon_rates_add(&r, t, h);
    for (; t <= 110; t += 1, h += 3000) mon_rates_add(&r, t, h);
    t -= 1;
    h -= 3000;
    double r5 = mon_rates_get(&r, t, h, 5), r60 = mon_rates_get(&r, t, h, 60);
    CHECK(fabs(r5 - 3000) < 1e-9, "5 s rate %g, want 3000", r5);
    /* the last 60 s, t = 50..110: 51 s at 1000 and 9 s at 3000 (the sample at 101 still counts 1000
     * from 100) = 78,000 hashes */
    CHECK(fabs(r60 - 78000.0 / 60) < 1e-6, "60 s rate %g, want %g", r60, 78000.0 / 60);
    mon_rates y;
    memset(&y, 0, sizeof y);
    mon_rates_add(&y, 10, 0);
    CHECK(fabs(mon_rates_get(&y, 12, 5000, 60) - 2500) < 1e-9, "a young run: the rate since its start");
}

static void test_reasons(void)
{
    mon_reason tab[MON_REASONS];
    memset(tab, 0, sizeof tab);
    mon_reason_add(tab, "low difficulty share");
    mon_reason_add(tab, "job not found");
    mon_reason_add(tab, "low difficulty share");
    CHECK(tab[0].count == 2 && strcmp(tab[0].text, "low difficulty share") == 0, "repeated reason counted once");
    CHECK(tab[1].count == 1, "second reason");
    char t[16];
    for (int i = 0; i < 20; i++) {
        snprintf(t, sizeof t, "reason %d", i);
        mon_reason_add(tab, t);
    }
    uint64_t sum = 0;
    for (int i = 0; i < MON_REASONS; i++) sum += tab[i].count;
    CHECK(sum == 23, "every share counted: %llu", (unsigned long long)sum);
    CHECK(strcmp(tab[MON_REASONS - 1].text, "other") == 0 && tab[MON_REASONS - 1].count == 23 - 3 - (MON_REASONS - 3),
          "the overflow under other");
}

static void test_health(void)
{
    kiln_health h;
    unsetenv("KILN_HEALTH_FAKE");
    CHECK(kiln_device_health(0, &h) == KILN_OK && strcmp(h.source, "unavailable") == 0 && h.temperature_c == -1,
          "the CPU has no reading");
    /* a GPU index on a machine without NVML (or without that GPU): unavailable, not an error */
    CHECK(kiln_device_health(7, &h) == KILN_OK, "absent GPU");
    CHECK(strcmp(h.source, "unavailable") == 0 || strcmp(h.source, "nvml") == 0, "source %s", h.source);
    CHECK(kiln_device_health(-1, &h) == KILN_ERR_INPUT && kiln_device_health(0, NULL) == KILN_ERR_INPUT, "bad arguments");
    char path[] = "/tmp/kiln_health_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f != NULL, "temporary file");
    if (!f) return;
    fputs("# comment\n1 temp=83 power=612.5 power_limit=700 sm_clock=1980 mem_clock=3201 fan=55 util=99\n0 temp=41\n", f);
    fclose(f);
    setenv("KILN_HEALTH_FAKE", path, 1);
    CHECK(kiln_device_health(1, &h) == KILN_OK && strcmp(h.source, "fake") == 0, "fake source");
    CHECK(h.temperature_c == 83 && h.power_w == 612.5 && h.power_limit_w == 700 && h.sm_clock_mhz == 1980 &&
              h.mem_clock_mhz == 3201 && h.fan_percent == 55 && h.utilization_percent == 99,
          "fake readings");
    CHECK(kiln_device_health(0, &h) == KILN_OK && h.temperature_c == 41 && h.power_w == -1 && h.fan_percent == -1,
          "a partial line: the rest absent");
    CHECK(kiln_device_health(2, &h) == KILN_OK && strcmp(h.source, "unavailable") == 0, "no line: unavailable");
    char text[96];
    kiln_device_health(1, &h);
    health_format(&h, text, sizeof text);
    CHECK_STR(text, "83 C 612 W 1980/3201 MHz fan 55%");
    unsetenv("KILN_HEALTH_FAKE");
    remove(path);
}

int main(void)
{
    test_http();
    test_temp_guard();
    test_rates();
    test_reasons();
    test_health();
    return check_summary();
}
