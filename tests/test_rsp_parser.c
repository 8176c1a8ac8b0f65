/* The known-answer file reader (tests/rsp.h) that every Keccak test trusts: table tests of what
 * it accepts and rejects, and a fuzz loop of mutated inputs (run under ASan in CI). */
#include "check.h"
#include "rsp.h"

typedef struct rsp_case {
    const char *text;
    int entries; /* entries before the end or the error */
    int ok; /* 1: ends cleanly; 0: an error */
    const char *err; /* substring of the error */
} rsp_case;

static const rsp_case cases[] = {
    {"", 0, 1, NULL},
    {"\n\n# only a comment\n[L = 256]\n\n", 0, 1, NULL},
    {"Len = 8\nMsg = e9\nMD = f0d0\n", 1, 1, NULL},
    {"Len = 8\r\nMsg = E9\r\nMD = F0D0\r\n\r\n", 1, 1, NULL},
    {"  Len=8 \n\tMsg =e9\nMD= f0d0  \n\nLen = 0\nMsg = 00\nMD = 00\n", 2, 1, NULL},
    {"COUNT = 3\nOutputlen = 16\nMsg = 84\nOutput = 8599\n", 1, 1, NULL},
    {"Repeat = 2\nText = abc\nMD = 00\n", 1, 1, NULL},
    {"Len = 8\nMsg = e9\n", 0, 0, "without a message or a digest"},
    {"Len = 8\nMD = e9\n", 0, 0, "without a message"},
    {"Len = 8\nMsg = e\nMD = 00\n", 0, 0, "bad hex in Msg"},
    {"Len = 8\nMsg = zz\nMD = 00\n", 0, 0, "bad hex in Msg"},
    {"Len = 8\nMsg = e9\nMD = 0g\n", 0, 0, "bad hex in digest"},
    {"Len = x\nMsg = e9\nMD = 00\n", 0, 0, "bad or repeated number"},
    {"Len = -8\nMsg = e9\nMD = 00\n", 0, 0, "bad or repeated number"},
    {"Len = 8\nLen = 8\nMsg = e9\nMD = 00\n", 0, 0, "repeated number"},
    {"Len = 16\nMsg = e9\nMD = 00\n", 0, 0, "Len longer than Msg"},
    {"Outputlen = 8\nMsg = e9\nOutput = 0000\n", 0, 0, "Outputlen does not match"},
    {"Len = 8\nMsg = e9\nMsg = e9\nMD = 00\n", 0, 0, "repeated message"},
    {"Len = 8\nMsg = e9\nMD = 00\nMD = 00\n", 0, 0, "repeated digest"},
    {"Lenn = 8\nMsg = e9\nMD = 00\n", 0, 0, "unknown key"},
    {"Len 8\nMsg = e9\nMD = 00\n", 0, 0, "expected 'Key = Value'"},
    {"Len = 8\nMsg = e9\nMD = 00\n\nLen = 8\nMsg = e9\n", 1, 0, "line 6"},
    {"COUNT = 1\nCOUNT = 2\nMsg = 00\nMD = 00\n", 0, 0, "repeated COUNT"},
    {"Len = 99999999999999999999\nMsg = 00\nMD = 00\n", 0, 0, "bad or repeated number"},
};

static void table(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const rsp_case *c = &cases[i];
        rsp_reader r;
        rsp_entry e;
        rsp_init(&r, c->text, strlen(c->text));
        int n = 0, got;
        while ((got = rsp_next(&r, &e)) == 1) {
            n++;
            rsp_entry_free(&e);
        }
        CHECK(n == c->entries, "case %zu: %d entries, want %d", i, n, c->entries);
        CHECK((got == 0) == c->ok, "case %zu: %s", i, got == 0 ? "accepted" : r.err);
        if (c->err) CHECK(strstr(r.err, c->err) != NULL, "case %zu: error '%s' lacks '%s'", i, r.err, c->err);
    }
    /* fields of a parsed entry */
    const char *t = "# c\n[x]\nCOUNT = 7\nLen = 16\nMsg = 00ff\nMD = a0B1\n";
    rsp_reader r;
    rsp_entry e;
    rsp_init(&r, t, strlen(t));
    CHECK(rsp_next(&r, &e) == 1 && e.line == 3 && e.len_bits == 16 && e.msg_len == 2 && e.msg[1] == 0xff &&
              e.md_len == 2 && e.md[0] == 0xa0 && e.md[1] == 0xb1 && e.outputlen_bits == -1,
          "entry fields");
    rsp_entry_free(&e);
    CHECK(rsp_next(&r, &e) == 0, "end");
    /* a NUL inside a line */
    const char nul[] = "Len = 8\nMsg = e\0\nMD = 00\n";
    rsp_init(&r, nul, sizeof nul - 1);
    CHECK(rsp_next(&r, &e) == -1 && strstr(r.err, "NUL"), "%s", r.err);
}

/* Mutations of a valid file: every outcome must be a clean entry, the end, or an error. */
static void fuzz(void)
{
    static const char base[] = "# header\n[L = 256]\n\nLen = 16\nMsg = d477\nMD = 9427\n\nCOUNT = 1\n"
                               "Outputlen = 16\nMsg = 84e9\nOutput = 8599\n\nRepeat = 3\nText = ab\nMD = 5f\n";
    static const char alphabet[] = "0123456789abcdefABCDEF =\n\r#[]LenMsgMDOutputCOUNTxz\t";
    unsigned long long seed = 0x72737066757a7aull;
    char buf[256];
    int accepted = 0, rejected = 0;
    for (int iter = 0; iter < 200000; iter++) {
        size_t n = sizeof base - 1;
        memcpy(buf, base, n);
        int edits = 1 + (int)(test_rand(&seed) % 4);
        for (int k = 0; k < edits; k++) {
            unsigned long long z = test_rand(&seed);
            size_t pos = (size_t)(z % n);
            switch ((z >> 32) % 3) {
            case 0: buf[pos] = alphabet[(z >> 40) % (sizeof alphabet - 1)]; break;
            case 1: memmove(buf + pos, buf + pos + 1, n - pos - 1), n--; break;
            default:
                if (n < sizeof buf - 1) {
                    memmove(buf + pos + 1, buf + pos, n - pos);
                    buf[pos] = alphabet[(z >> 40) % (sizeof alphabet - 1)];
                    n++;
                }
            }
        }
        rsp_reader r;
        rsp_entry e;
        rsp_init(&r, buf, n);
        int got, entries = 0;
        while ((got = rsp_next(&r, &e)) == 1) {
            if (!(e.msg && e.md)) CHECK(0, "entry without fields, seed state %llu", seed);
            rsp_entry_free(&e);
            if (++entries > 10) break;
        }
        if (got == 0) accepted++;
        else if (got == -1) {
            rejected++;
            if (r.err[0] == '\0') CHECK(0, "error without a message");
        }
    }
    CHECK(accepted > 1000 && rejected > 1000, "fuzz outcomes: %d accepted, %d rejected", accepted, rejected);
    printf("fuzz: %d accepted, %d rejected\n", accepted, rejected);
}

int main(void)
{
    table();
    fuzz();
    return check_summary();
}
