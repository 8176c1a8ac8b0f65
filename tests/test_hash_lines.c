/* The text formats of `kiln hash`: check-line parsing (a table of what GNU coreutils 9.1's
 * sha256sum -c accepts and refuses, and random lines), output escaping, the algorithm tags, the
 * round trip of hostile names, and the bounded line reader (long lines, a last line without a
 * newline). tests/test_hash_check_*.sh compare the command itself with sha256sum. */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "hash/hash_lines.h"

typedef struct line_case {
    const char *line;
    int st; /* CHECK_LINE_* */
    const char *tag, *hex, *name;
} line_case;

#define OK CHECK_LINE_OK
#define BAD CHECK_LINE_BAD
#define SKIP CHECK_LINE_SKIP

/* Each parsed from a fresh list (separator unknown). */
static const line_case cases[] = {
    {"abcd  file", OK, NULL, "abcd", "file"},
    {"ABCD *file", OK, NULL, "ABCD", "file"},
    {"abcd  name with  spaces ", OK, NULL, "abcd", "name with  spaces "},
    {"abcd  file\r", OK, NULL, "abcd", "file"},
    {"abcd  -", OK, NULL, "abcd", "-"},
    {"abcd   lead", OK, NULL, "abcd", " lead"},
    {"abcd  *star", OK, NULL, "abcd", "*star"},
    {"  abcd  file", OK, NULL, "abcd", "file"}, /* sha256sum skips leading blanks */
    {"\tabcd  file", OK, NULL, "abcd", "file"},
    {"\\abcd  a\\\\b\\nc\\rd", OK, NULL, "abcd", "a\\b\nc\rd"},
    {"\\abcd  plain", OK, NULL, "abcd", "plain"},
    {" \\abcd  x\\r", OK, NULL, "abcd", "x\r"},
    {"abcd  a\\b", OK, NULL, "abcd", "a\\b"}, /* no leading backslash: taken as is */
    {"abcd file", OK, NULL, "abcd", "file"}, /* one separator: BSD md5 -r */
    {"abcd\tfile", OK, NULL, "abcd", "file"},
    {"abcd  ", OK, NULL, "abcd", " "}, /* sha256sum reads the name " " */
    {"SHA256 (file) = abcd", OK, "SHA256", "abcd", "file"},
    {"SHA256(file)= abcd", OK, "SHA256", "abcd", "file"}, /* OpenSSL's spelling */
    {"SHA256 (file)=abcd", OK, "SHA256", "abcd", "file"},
    {" SHA256 (file) = ABCD", OK, "SHA256", "ABCD", "file"},
    {"SHA3-256 (a) b) = 00ff", OK, "SHA3-256", "00ff", "a) b"}, /* the name ends at the last ')' */
    {"\\SHA256 (b\\\\s\\n) = abcd", OK, "SHA256", "abcd", "b\\s\n"},
    {"MD5 (file) = abcd", OK, "MD5", "abcd", "file"}, /* the caller refuses tags it does not know */
    {"", SKIP, NULL, NULL, NULL},
    {"\r", SKIP, NULL, NULL, NULL},
    {"# comment", SKIP, NULL, NULL, NULL},
    {"#abcd  file", SKIP, NULL, NULL, NULL},
    {" # comment", BAD, NULL, NULL, NULL},
    {"\\abcd  bad\\q", BAD, NULL, NULL, NULL},
    {"\\abcd  trailing\\", BAD, NULL, NULL, NULL},
    {"abc  file", BAD, NULL, NULL, NULL},
    {"  file", BAD, NULL, NULL, NULL},
    {"abcd ", BAD, NULL, NULL, NULL},
    {"abcd", BAD, NULL, NULL, NULL},
    {"abcg  file", BAD, NULL, NULL, NULL},
    {"SHA256  (file) = abcd", BAD, NULL, NULL, NULL},
    {"SHA256 (file) = abcd ", BAD, NULL, NULL, NULL},
    {"SHA256 (file) = abc", BAD, NULL, NULL, NULL},
    {"SHA256 (file) abcd", BAD, NULL, NULL, NULL},
    {"SHA256 (file = abcd", BAD, NULL, NULL, NULL},
    {"SHA256 () = abcd", BAD, NULL, NULL, NULL},
    {"SHA256 file = abcd", BAD, NULL, NULL, NULL},
};

static void parse_table(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", cases[i].line);
        check_line c;
        int sep = CHECK_SEP_UNKNOWN;
        int got = check_line_parse(buf, strlen(buf), &sep, &c);
        CHECK(got == cases[i].st, "case %zu '%s': %d, want %d", i, cases[i].line, got, cases[i].st);
        if (got != OK || cases[i].st != OK) continue;
        CHECK(c.hex_len == strlen(cases[i].hex) && memcmp(c.hex, cases[i].hex, c.hex_len) == 0, "case %zu hex", i);
        CHECK_STR(c.name, cases[i].name);
        if (cases[i].tag) CHECK(c.tag && c.tag_len == strlen(cases[i].tag) && !memcmp(c.tag, cases[i].tag, c.tag_len), "case %zu tag", i);
        else CHECK(c.tag == NULL, "case %zu has no tag", i);
    }
    /* a NUL inside a line is never part of a name */
    char nul[] = "abcd  a\0b";
    check_line c;
    int sep = CHECK_SEP_UNKNOWN;
    CHECK(check_line_parse(nul, sizeof nul - 1, &sep, &c) == BAD, "NUL in a line");
    uint8_t b[3];
    CHECK(hex_to_bytes("00fFa5", 3, b) == 0 && b[0] == 0 && b[1] == 0xff && b[2] == 0xa5, "hex");
    CHECK(hex_to_bytes("0x", 1, b) == -1, "bad hex");
}

/* The separator is the list's, as with sha256sum -c: the first untagged line decides. */
static void separator_state(void)
{
    const char *two_then_one[] = {"abcd  f", "SHA256 (g) = abcd", "abcd f"};
    const char *one_then_two[] = {"abcd f", "abcd  f"};
    int sep = CHECK_SEP_UNKNOWN;
    check_line c;
    char buf[64];
    for (int i = 0; i < 3; i++) {
        snprintf(buf, sizeof buf, "%s", two_then_one[i]);
        CHECK(check_line_parse(buf, strlen(buf), &sep, &c) == (i < 2 ? OK : BAD), "two then one, line %d", i);
    }
    sep = CHECK_SEP_UNKNOWN;
    snprintf(buf, sizeof buf, "%s", one_then_two[0]);
    CHECK(check_line_parse(buf, strlen(buf), &sep, &c) == OK && sep == CHECK_SEP_ONE, "one-space list");
    snprintf(buf, sizeof buf, "%s", one_then_two[1]);
    /* sha256sum then reads the second space as the name's first character */
    CHECK(check_line_parse(buf, strlen(buf), &sep, &c) == OK && strcmp(c.name, " f") == 0, "one then two");
}

static void format_table(void)
{
    char buf[128];
    CHECK(hash_line_format(buf, sizeof buf, NULL, "ab", "f") == 6, "length");
    CHECK_STR(buf, "ab  f\n");
    hash_line_format(buf, sizeof buf, NULL, "ab", "a\\b\nc\rd");
    CHECK_STR(buf, "\\ab  a\\\\b\\nc\\rd\n");
    hash_line_format(buf, sizeof buf, NULL, "ab", "cr\r");
    CHECK_STR(buf, "\\ab  cr\\r\n"); /* sha256sum 9.1 escapes a carriage return too */
    hash_line_format(buf, sizeof buf, "SHA256", "ab", "f");
    CHECK_STR(buf, "SHA256 (f) = ab\n");
    hash_line_format(buf, sizeof buf, "SHA256", "ab", "b\\s");
    CHECK_STR(buf, "\\SHA256 (b\\\\s) = ab\n");
    /* truncation reports the length needed, as snprintf */
    CHECK(hash_line_format(buf, 4, NULL, "abcd", "file") == 11 && strcmp(buf, "abc") == 0, "truncated: %s", buf);
    CHECK(hash_line_format(NULL, 0, "SHA3-256", "abcd", "x") == 20, "measure only");
    /* verdicts escape only a name with a newline, as sha256sum -c prints them */
    check_name_format(buf, sizeof buf, "b\\s\r");
    CHECK_STR(buf, "b\\s\r");
    check_name_format(buf, sizeof buf, "a\r\nb\\");
    CHECK_STR(buf, "\\a\\r\\nb\\\\");
}

/* What is written parses back to the same tag, digest and name. */
static void round_trip(void)
{
    const char *names[] = {"plain", "a\\b", "new\nline", "\\\\", "x\n", " sp ", "cr\r", "\r", "\n", "*star",
                           " ", "  two", "a) = ff", ")", "(", "#hash", "\\n", "tab\there", "-"};
    const char *tags[] = {NULL, "SHA256", "SHA3-512", "KECCAK-256", "SHAKE128"};
    for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++)
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            char buf[128];
            size_t n = hash_line_format(buf, sizeof buf, tags[t], "00fF", names[i]);
            CHECK(n < sizeof buf && buf[n - 1] == '\n' && memchr(buf, '\n', n) == buf + n - 1, "one line");
            check_line c;
            int sep = CHECK_SEP_UNKNOWN;
            int st = check_line_parse(buf, n - 1, &sep, &c);
            CHECK(st == OK && strcmp(c.name, names[i]) == 0 && c.hex_len == 4 && !memcmp(c.hex, "00fF", 4) &&
                      (tags[t] ? c.tag && c.tag_len == strlen(tags[t]) && !memcmp(c.tag, tags[t], c.tag_len) : !c.tag),
                  "round trip of name %zu with tag %zu", i, t);
        }
}

static void tags(void)
{
    for (int a = 0; a < (int)kiln_hash_algo_count(); a++) {
        const char *t = hash_tag_name((kiln_hash_algo)a);
        CHECK(hash_tag_algo(t, strlen(t)) == a, "tag %s names algorithm %d", t, a);
    }
    CHECK(hash_tag_algo("SHA256", 6) == KILN_HASH_SHA256, "coreutils");
    CHECK(hash_tag_algo("SHA2-256", 8) == KILN_HASH_SHA256, "OpenSSL 3");
    CHECK(hash_tag_algo("SHAKE-128", 9) == KILN_HASH_SHAKE128, "OpenSSL SHAKE");
    CHECK(hash_tag_algo("sha256", 6) == -1, "case as written, as sha256sum");
    CHECK(hash_tag_algo("SHA2560", 7) == -1 && hash_tag_algo("SHA25", 5) == -1, "whole tag");
    CHECK(hash_tag_algo("MD4", 3) == -1, "unknown");
}

/* A reader over the given bytes with max_line. */
static int reader_over(line_reader *lr, const char *bytes, size_t n, size_t max_line)
{
    FILE *f = tmpfile();
    if (!f || fwrite(bytes, 1, n, f) != n || fflush(f) != 0) return -1;
    int fd = dup(fileno(f));
    fclose(f);
    if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0) return -1;
    return line_reader_init(lr, fd, max_line);
}

static void reader(void)
{
    /* max_line 8: "12345678" fits, "123456789" does not; a long line ending the input too */
    const char text[] = "a\n12345678\n123456789\n\nzz\nxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\nlast";
    const struct {
        int st;
        const char *line;
    } want[] = {{LINE_OK, "a"},  {LINE_OK, "12345678"}, {LINE_TOO_LONG, NULL}, {LINE_OK, ""},
                {LINE_OK, "zz"}, {LINE_TOO_LONG, NULL}, {LINE_OK, "last"},     {LINE_END, NULL}};
    line_reader lr;
    CHECK(reader_over(&lr, text, sizeof text - 1, 8) == 0, "reader");
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char *line = NULL;
        size_t len = 0;
        int st = line_reader_next(&lr, &line, &len);
        CHECK(st == want[i].st, "line %zu: %d, want %d", i, st, want[i].st);
        if (st == LINE_OK && want[i].line) CHECK(len == strlen(want[i].line) && strcmp(line, want[i].line) == 0, "line %zu", i);
        if (st != LINE_END) CHECK(lr.lineno == i + 1, "line number %zu", i);
    }
    close(lr.fd);
    line_reader_free(&lr);

    /* a line past the limit at the very end, no newline; then a huge line among short ones,
     * read through a buffer that never grows */
    CHECK(reader_over(&lr, "ok\n0123456789", 13, 4) == 0, "reader");
    char *line;
    size_t len;
    CHECK(line_reader_next(&lr, &line, &len) == LINE_OK && line_reader_next(&lr, &line, &len) == LINE_TOO_LONG &&
              line_reader_next(&lr, &line, &len) == LINE_END,
          "long last line");
    close(lr.fd);
    line_reader_free(&lr);

    size_t big = 3u << 20;
    char *text2 = malloc(big + 16);
    memset(text2, 'x', big + 16);
    memcpy(text2, "head\n", 5);
    memcpy(text2 + big, "\ntail\n", 6);
    CHECK(reader_over(&lr, text2, big + 6, 1024) == 0, "reader");
    int sts[4];
    char got[16] = "";
    for (int i = 0; i < 4; i++) {
        sts[i] = line_reader_next(&lr, &line, &len);
        if (i == 2 && sts[i] == LINE_OK) snprintf(got, sizeof got, "%s", line);
    }
    CHECK(sts[0] == LINE_OK && sts[1] == LINE_TOO_LONG && sts[2] == LINE_OK && sts[3] == LINE_END, "3 MiB line");
    CHECK_STR(got, "tail");
    close(lr.fd);
    line_reader_free(&lr);
    free(text2);
}

static void fuzz(void)
{
    static const char alphabet[] = "0aF9g \\*n\r\t-S(H)=A2#";
    unsigned long long seed = 0x6c696e6573ull;
    int ok = 0, bad = 0;
    for (int iter = 0; iter < 300000; iter++) {
        char buf[24];
        size_t n = (size_t)(test_rand(&seed) % (sizeof buf - 1));
        for (size_t i = 0; i < n; i++) buf[i] = alphabet[test_rand(&seed) % (sizeof alphabet - 1)];
        buf[n] = '\0';
        char copy[24];
        memcpy(copy, buf, n + 1);
        check_line c;
        int sep = (int)(test_rand(&seed) % 3) - 1;
        if (check_line_parse(buf, n, &sep, &c) == OK) {
            ok++;
            /* accepted lines: even nonempty hex, a nonempty name inside the buffer */
            if (c.hex_len == 0 || c.hex_len % 2 || c.name < buf || c.name >= buf + sizeof buf || !c.name[0])
                CHECK(0, "bad accept of '%s'", copy);
        } else {
            bad++;
        }
    }
    CHECK(ok > 100 && bad > 1000, "fuzz outcomes %d / %d", ok, bad);
}

int main(void)
{
    parse_table();
    separator_state();
    format_table();
    round_trip();
    tags();
    reader();
    fuzz();
    return check_summary();
}
