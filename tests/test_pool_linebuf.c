/* The capped line reader: lines split at any chunk boundary, CRLF, empty lines, and the limit
 * (exactly max bytes pass, one more fails) without the buffer ever growing. */
#include "check.h"
#include "mine/pool/linebuf.h"

/* Feeds text in chunks of random sizes; collects lines joined by '|'. Returns the last
 * linebuf_next result (-1 when over-long). */
static int feed(linebuf *lb, const char *text, size_t n, unsigned long long *seed, char *out, size_t outn)
{
    size_t pos = 0;
    out[0] = '\0';
    int r = 0;
    while (pos < n) {
        size_t avail;
        char *space = linebuf_space(lb, &avail);
        if (avail == 0) return -1;
        size_t k = 1 + test_rand(seed) % 97;
        if (k > avail) k = avail;
        if (k > n - pos) k = n - pos;
        memcpy(space, text + pos, k);
        linebuf_commit(lb, k);
        pos += k;
        char *line;
        size_t len;
        while ((r = linebuf_next(lb, &line, &len)) == 1) {
            if (strlen(line) != len) return -2;
            if (strlen(out) + len + 2 < outn) {
                strcat(out, line);
                strcat(out, "|");
            }
        }
        if (r < 0) return -1;
    }
    return r;
}

int main(void)
{
    static const struct {
        const char *in, *want;
    } table[] = {
        {"a\nb\n", "a|b|"},
        {"a\r\nbc\r\n", "a|bc|"},
        {"\n\n\r\nx\n\n", "x|"},
        {"no newline yet", ""},
        {"one\ntwo", "one|"},
        {"{\"id\":1}\n{\"id\":2}\n", "{\"id\":1}|{\"id\":2}|"},
    };
    unsigned long long seed = 42;
    char out[4096];
    for (int rep = 0; rep < 50; rep++) {
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
            linebuf lb;
            CHECK(linebuf_init(&lb, 64) == 0, "init");
            int r = feed(&lb, table[i].in, strlen(table[i].in), &seed, out, sizeof out);
            CHECK(r >= 0, "case %zu: %d", i, r);
            CHECK(strcmp(out, table[i].want) == 0, "case %zu rep %d: got '%s' want '%s'", i, rep, out, table[i].want);
            linebuf_free(&lb);
        }
    }

    /* the limit: a line of exactly max bytes passes, max + 1 fails, with or without newline */
    enum { MAX = 100 };
    char text[3 * MAX];
    for (int extra = 0; extra <= 1; extra++) {
        for (int nl = 0; nl <= 1; nl++) {
            linebuf lb;
            linebuf_init(&lb, MAX);
            size_t n = MAX + (size_t)extra;
            memset(text, 'x', n);
            size_t total = n;
            if (nl) text[total++] = '\n';
            /* followed by more text so the buffer fills when there is no newline */
            memset(text + total, 'y', MAX);
            total += MAX;
            int r = feed(&lb, text, total, &seed, out, sizeof out);
            if (extra) CHECK(r == -1, "line of max+1 bytes (newline %d) not refused: %d", nl, r);
            else if (nl) CHECK(r == 0 && strlen(out) == MAX + 1, "line of max bytes refused: %d", r);
            else CHECK(r == -1, "max bytes then more without a newline must overflow: %d", r);
            CHECK(lb.cap == MAX + 1, "buffer grew to %zu", lb.cap);
            linebuf_free(&lb);
        }
    }

    /* random traffic against a reference split */
    for (int rep = 0; rep < 300; rep++) {
        char in[2000], want[4096] = "";
        size_t n = 0, cur = 0;
        int ok = 1;
        while (n < sizeof in - 2) {
            unsigned long long x = test_rand(&seed) % 20;
            char ch = x == 0 ? '\n' : x == 1 ? '\r' : (char)('a' + x);
            if (ch == '\r') continue; /* keep the reference simple: no lone CR */
            in[n++] = ch;
            if (ch == '\n') {
                if (cur > 50) ok = 0;
                cur = 0;
            } else cur++;
        }
        in[n++] = '\n';
        if (cur > 50) ok = 0;
        /* reference */
        size_t start = 0;
        for (size_t i = 0; i < n; i++) {
            if (in[i] != '\n') continue;
            if (i > start) {
                strncat(want, in + start, i - start);
                strcat(want, "|");
            }
            start = i + 1;
        }
        linebuf lb;
        linebuf_init(&lb, 50);
        int r = feed(&lb, in, n, &seed, out, sizeof out);
        if (ok) CHECK(r >= 0 && strcmp(out, want) == 0, "random case %d differs", rep);
        else CHECK(r == -1, "random case %d: over-long line not refused", rep);
        linebuf_free(&lb);
    }
    /* linebuf_has_line: a complete line among the unread bytes, as linebuf_next would give it */
    {
        linebuf lb;
        CHECK(linebuf_init(&lb, 64) == 0, "init");
        CHECK(!linebuf_has_line(&lb), "empty buffer has a line");
        const char *two = "{\"method\": \"client.reconnect\"}\n{\"id\": 7}\npart";
        size_t avail;
        char *space = linebuf_space(&lb, &avail);
        memcpy(space, two, strlen(two));
        linebuf_commit(&lb, strlen(two));
        char *line;
        size_t len;
        CHECK(linebuf_has_line(&lb), "two lines read: none found");
        CHECK(linebuf_next(&lb, &line, &len) == 1, "first line");
        CHECK(linebuf_has_line(&lb), "the line left after the first: not found");
        CHECK(linebuf_next(&lb, &line, &len) == 1 && strcmp(line, "{\"id\": 7}") == 0, "second line");
        CHECK(!linebuf_has_line(&lb), "an unfinished line counted as a line");
        linebuf_free(&lb);
    }
    return check_summary();
}
