/* The Stratum message layer: a table of pool lines (real-world shapes and broken ones) with the
 * kind or failure expected, the fields decoded, the requests built, and a mutation fuzz. */
#include <math.h>

#include "check.h"
#include "mine/pool/stratum.h"

#define PREV "c6c5ce115bd3005e4e0e86083ff6c64729b12b520542b54d0000000000000000"
#define NOTIFY(id, prev, c1, c2, br, ver, bits, time, clean)                                              \
    "{\"id\":null,\"method\":\"mining.notify\",\"params\":[" id "," prev "," c1 "," c2 "," br "," ver "," bits "," time "," clean "]}"

static const struct {
    const char *line;
    int ok; /* 0: must be refused */
    stratum_kind kind;
} table[] = {
    {NOTIFY("\"bf\"", "\"" PREV "\"", "\"01000000\"", "\"ffffffff\"", "[]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 1, ST_NOTIFY},
    {NOTIFY("\"bf\"", "\"" PREV "\"", "\"\"", "\"\"", "[\"" PREV "\"]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "false"), 1, ST_NOTIFY},
    {NOTIFY("\"bf\"", "\"" PREV "\"", "\"01\"", "\"02\"", "[]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "1"), 1, ST_NOTIFY},
    {NOTIFY("7", "\"" PREV "\"", "\"01\"", "\"02\"", "[]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"\"", "\"" PREV "\"", "\"01\"", "\"02\"", "[]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"a\"", "\"00\"", "\"01\"", "\"02\"", "[]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"a\"", "\"" PREV "\"", "\"012\"", "\"02\"", "[]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"a\"", "\"" PREV "\"", "\"0g\"", "\"02\"", "[]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"a\"", "\"" PREV "\"", "\"01\"", "\"02\"", "[\"00\"]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"a\"", "\"" PREV "\"", "\"01\"", "\"02\"", "{}", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"a\"", "\"" PREV "\"", "\"01\"", "\"02\"", "[]", "\"2000000\"", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"a\"", "\"" PREV "\"", "\"01\"", "\"02\"", "[]", "536870912", "\"1d00ffff\"", "\"5747d438\"", "true"), 0, ST_NOTIFY},
    {NOTIFY("\"a\"", "\"" PREV "\"", "\"01\"", "\"02\"", "[]", "\"20000000\"", "\"1d00ffff\"", "\"5747d438\"", "\"yes\""), 0, ST_NOTIFY},
    {"{\"id\":null,\"method\":\"mining.notify\",\"params\":[\"a\"]}", 0, ST_NOTIFY},
    {"{\"id\":null,\"method\":\"mining.set_difficulty\",\"params\":[2048]}", 1, ST_SET_DIFFICULTY},
    {"{\"id\":null,\"method\":\"mining.set_difficulty\",\"params\":[0.0001220703125]}", 1, ST_SET_DIFFICULTY},
    {"{\"id\":null,\"method\":\"mining.set_difficulty\",\"params\":[0]}", 0, ST_SET_DIFFICULTY},
    {"{\"id\":null,\"method\":\"mining.set_difficulty\",\"params\":[-3]}", 0, ST_SET_DIFFICULTY},
    {"{\"id\":null,\"method\":\"mining.set_difficulty\",\"params\":[\"16\"]}", 0, ST_SET_DIFFICULTY},
    {"{\"id\":null,\"method\":\"mining.set_difficulty\",\"params\":[]}", 0, ST_SET_DIFFICULTY},
    {"{\"id\":null,\"method\":\"mining.set_extranonce\",\"params\":[\"08000002\",4]}", 1, ST_SET_EXTRANONCE},
    {"{\"id\":null,\"method\":\"mining.set_extranonce\",\"params\":[\"08000002\",17]}", 0, ST_SET_EXTRANONCE},
    {"{\"id\":null,\"method\":\"mining.set_extranonce\",\"params\":[\"0800000\",4]}", 0, ST_SET_EXTRANONCE},
    {"{\"id\":null,\"method\":\"client.reconnect\",\"params\":[]}", 1, ST_RECONNECT},
    {"{\"id\":null,\"method\":\"client.reconnect\"}", 1, ST_RECONNECT},
    {"{\"id\":null,\"method\":\"client.reconnect\",\"params\":[\"pool2.example\",3334,5]}", 1, ST_RECONNECT},
    {"{\"id\":null,\"method\":\"client.reconnect\",\"params\":[\"pool2.example\",\"3334\"]}", 1, ST_RECONNECT},
    {"{\"id\":null,\"method\":\"client.reconnect\",\"params\":[\"h\",70000]}", 0, ST_RECONNECT},
    {"{\"id\":null,\"method\":\"client.reconnect\",\"params\":[\"h\",1,-1]}", 0, ST_RECONNECT},
    {"{\"id\":null,\"method\":\"mining.set_version_mask\",\"params\":[\"1fffe000\"]}", 1, ST_SET_VERSION_MASK},
    {"{\"id\":null,\"method\":\"mining.set_version_mask\",\"params\":[\"1fffe0\"]}", 0, ST_SET_VERSION_MASK},
    {"{\"id\":9,\"method\":\"client.get_version\",\"params\":[]}", 1, ST_GET_VERSION},
    {"{\"id\":null,\"method\":\"client.show_message\",\"params\":[\"maintenance at 12:00\"]}", 1, ST_SHOW_MESSAGE},
    {"{\"id\":null,\"method\":\"mining.ping\",\"params\":[]}", 1, ST_UNKNOWN},
    {"{\"id\":1,\"result\":[[[\"mining.set_difficulty\",\"b4b6693b72a50c7116db18d6497cac52\"],[\"mining.notify\",\"ae6812eb4cd7735a302a8a9dd95cf71f\"]],\"08000002\",4],\"error\":null}", 1, ST_RESPONSE},
    {"{\"id\":2,\"result\":true,\"error\":null}", 1, ST_RESPONSE},
    {"{\"id\":3,\"result\":null,\"error\":[21,\"Job not found\",null]}", 1, ST_RESPONSE},
    {"{\"id\":3,\"error\":\"bad\"}", 1, ST_RESPONSE},
    {"{\"id\":5}", 0, ST_RESPONSE},
    {"{\"method\":5}", 0, ST_UNKNOWN},
    {"{\"method\":\"mining.notify\",\"params\":{}}", 0, ST_NOTIFY},
    {"[1,2]", 0, ST_RESPONSE},
    {"\"str\"", 0, ST_RESPONSE},
    {"{not json", 0, ST_RESPONSE},
    {"{\"id\":1,\"result\":true}garbage", 0, ST_RESPONSE},
    {"", 0, ST_RESPONSE},
};

static int parses(const char *line, stratum_msg *m, char *err)
{
    return stratum_parse(line, strlen(line), m, err, 256) == 0;
}

int main(void)
{
    char err[256];
    stratum_msg m;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        int ok = parses(table[i].line, &m, err);
        CHECK(ok == table[i].ok, "line %zu (%s): parse %d, want %d (%s)", i, table[i].line, ok, table[i].ok,
              ok ? "" : err);
        if (ok) {
            CHECK(m.kind == table[i].kind, "line %zu: kind %d, want %d", i, m.kind, table[i].kind);
            stratum_msg_clear(&m);
        } else {
            CHECK(err[0] != '\0', "line %zu: no reason given", i);
        }
    }

    /* decoded fields */
    CHECK(parses(table[0].line, &m, err), "notify");
    CHECK_STR(m.job.id, "bf");
    CHECK(m.job.version == 0x20000000u && m.job.nbits == 0x1d00ffffu && m.job.ntime == 0x5747d438u, "u32 fields");
    CHECK(m.job.coinb1_len == 4 && m.job.coinb2_len == 4 && m.job.coinb[0] == 1 && m.job.coinb[4] == 0xff, "coinb");
    CHECK(m.job.prevhash[0] == 0x11 && m.job.prevhash[3] == 0xc6 && m.job.prevhash[31] == 0, "prevhash words swapped");
    stratum_msg_clear(&m);
    CHECK(parses("{\"id\":null,\"method\":\"mining.set_difficulty\",\"params\":[0.0001220703125]}", &m, err), "diff");
    CHECK(m.difficulty == 0.0001220703125, "fractional difficulty %g", m.difficulty);
    stratum_msg_clear(&m);
    CHECK(parses("{\"id\":null,\"method\":\"client.reconnect\",\"params\":[\"pool2.example\",3334,5]}", &m, err), "rc");
    CHECK(strcmp(m.host, "pool2.example") == 0 && strcmp(m.port, "3334") == 0 && m.wait_s == 5, "reconnect fields");
    stratum_msg_clear(&m);
    CHECK(parses("{\"id\":3,\"result\":null,\"error\":[21,\"Job not found\",null]}", &m, err), "err");
    CHECK(m.int_id == 3 && strcmp(m.error, "21 Job not found") == 0, "error text '%s'", m.error);
    stratum_msg_clear(&m);

    /* subscribe result (the shape in the Stratum documentation) */
    CHECK(parses(table[34].line, &m, err), "subscribe");
    char session[128];
    uint8_t en1[POOL_EN1_MAX];
    size_t en1_len = 0;
    int en2_size = 0;
    CHECK(stratum_subscribe_result(m.result, session, sizeof session, en1, &en1_len, &en2_size, err, sizeof err) == 0,
          "subscribe result: %s", err);
    CHECK_STR(session, "ae6812eb4cd7735a302a8a9dd95cf71f");
    CHECK(en1_len == 4 && en1[0] == 8 && en1[3] == 2 && en2_size == 4, "extranonce");
    stratum_msg_clear(&m);
    const char *bad_subs[] = {
        "{\"id\":1,\"result\":[[],\"0800000\",4],\"error\":null}",
        "{\"id\":1,\"result\":[[],\"08000002\",17],\"error\":null}",
        "{\"id\":1,\"result\":[[],\"08000002\"],\"error\":null}",
        "{\"id\":1,\"result\":true,\"error\":null}",
    };
    for (size_t i = 0; i < sizeof bad_subs / sizeof bad_subs[0]; i++) {
        CHECK(parses(bad_subs[i], &m, err), "bad sub %zu parse", i);
        CHECK(stratum_subscribe_result(m.result, session, sizeof session, en1, &en1_len, &en2_size, err, sizeof err) != 0,
              "bad subscribe result %zu accepted", i);
        stratum_msg_clear(&m);
    }
    /* a single pair instead of a list of pairs */
    CHECK(parses("{\"id\":1,\"result\":[[\"mining.notify\",\"abc\"],\"\",8],\"error\":null}", &m, err), "pair");
    CHECK(stratum_subscribe_result(m.result, session, sizeof session, en1, &en1_len, &en2_size, err, sizeof err) == 0 &&
              strcmp(session, "abc") == 0 && en1_len == 0 && en2_size == 8,
          "single subscription pair");
    stratum_msg_clear(&m);

    /* configure result (BIP 310) */
    uint32_t mask = 0;
    CHECK(parses("{\"id\":1,\"result\":{\"version-rolling\":true,\"version-rolling.mask\":\"18000000\"},\"error\":null}",
                 &m, err), "configure");
    CHECK(stratum_configure_result(m.result, &mask) == 1 && mask == 0x18000000u, "mask %08x", mask);
    stratum_msg_clear(&m);
    CHECK(parses("{\"id\":1,\"result\":{\"version-rolling\":false},\"error\":null}", &m, err), "configure false");
    CHECK(stratum_configure_result(m.result, &mask) == 0, "not granted");
    stratum_msg_clear(&m);

    /* requests: parse them back and look at the members */
    uint8_t en2[4] = {0, 0, 0, 0x2a};
    json_t *nine = json_integer(9);
    char *lines[5] = {
        stratum_subscribe(2, "kiln/0.1.0", "s1"),
        stratum_authorize(3, "worker.1", "x"),
        stratum_configure(1, 0x1fffe000u),
        stratum_submit(4, "worker.1", "bf", en2, 4, 0x5747d438u, 0x7e5fb903u, 1, 0x00006000u),
        stratum_answer(nine, json_string("kiln/0.1.0"), 0, NULL),
    };
    const char *want[5] = {
        "{\"id\":2,\"method\":\"mining.subscribe\",\"params\":[\"kiln/0.1.0\",\"s1\"]}\n",
        "{\"id\":3,\"method\":\"mining.authorize\",\"params\":[\"worker.1\",\"x\"]}\n",
        "{\"id\":1,\"method\":\"mining.configure\",\"params\":[[\"version-rolling\"],{\"version-rolling.mask\":\"1fffe000\","
        "\"version-rolling.min-bit-count\":2}]}\n",
        "{\"id\":4,\"method\":\"mining.submit\",\"params\":[\"worker.1\",\"bf\",\"0000002a\",\"5747d438\",\"7e5fb903\","
        "\"00006000\"]}\n",
        "{\"id\":9,\"result\":\"kiln/0.1.0\",\"error\":null}\n",
    };
    for (int i = 0; i < 5; i++) {
        CHECK(lines[i] != NULL, "request %d", i);
        if (lines[i]) CHECK(strcmp(lines[i], want[i]) == 0, "request %d: %s", i, lines[i]);
        free(lines[i]);
    }
    json_decref(nine);
    json_t *id = json_string("abc");
    char *ans = stratum_answer(id, NULL, 20, "Unsupported method");
    CHECK(ans && strcmp(ans, "{\"id\":\"abc\",\"result\":null,\"error\":[20,\"Unsupported method\",null]}\n") == 0,
          "error answer %s", ans ? ans : "");
    free(ans);
    json_decref(id);

    /* mutation fuzz: every line of the table with bytes flipped, cut or duplicated must parse
     * or be refused with a reason, never crash (CI runs this under ASan/UBSan) */
    unsigned long long seed = 2024;
    int refused = 0, parsed = 0;
    for (int it = 0; it < 20000; it++) {
        const char *src = table[test_rand(&seed) % (sizeof table / sizeof table[0])].line;
        char buf[2048];
        size_t n = strlen(src);
        memcpy(buf, src, n);
        int edits = 1 + (int)(test_rand(&seed) % 4);
        for (int e = 0; e < edits && n > 0; e++) {
            size_t at = test_rand(&seed) % n;
            switch (test_rand(&seed) % 3) {
            case 0: buf[at] = (char)(test_rand(&seed) & 0xff); break;
            case 1: n = at; break;
            default:
                if (n < sizeof buf - 1) {
                    memmove(buf + at + 1, buf + at, n - at);
                    n++;
                }
            }
        }
        err[0] = '\0';
        if (stratum_parse(buf, n, &m, err, sizeof err) == 0) {
            parsed++;
            if (m.kind == ST_NOTIFY) CHECK(m.job.nbranch <= POOL_BRANCH_MAX, "branch count");
            stratum_msg_clear(&m);
        } else {
            refused++;
            if (err[0] == '\0') CHECK(0, "fuzz: refused without a reason");
        }
    }
    CHECK(parsed > 100 && refused > 100, "fuzz coverage: %d parsed, %d refused", parsed, refused);
    return check_summary();
}
