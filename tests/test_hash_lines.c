/* The text formats of `kiln hash`: check-line parsing (table and fuzz) and output escaping, as
 * coreutils' sha256sum writes and reads them. */
#include <stdlib.h>

#include "check.h"
#include "hash_lines.h"

typedef struct line_case {
    const char *line;
    int ok;
    const char *hex, *name;
} line_case;

static const line_case cases[] = {
    {"abcd  file", 1, "abcd", "file"},
    {"ABCD *file", 1, "ABCD", "file"},
    {"abcd  name with  spaces ", 1, "abcd", "name with  spaces "},
    {"abcd  file\r", 1, "abcd", "file"},
    {"abcd  -", 1, "abcd", "-"},
    {"\\abcd  a\\\\b\\nc", 1, "abcd", "a\\b\nc"},
    {"\\abcd  plain", 1, "abcd", "plain"},
    {"abcd  a\\b", 1, "abcd", "a\\b"}, /* no leading backslash: taken as is */
    {"\\abcd  bad\\q", 0, NULL, NULL},
    {"\\abcd  trailing\\", 0, NULL, NULL},
    {"abc  file", 0, NULL, NULL},
    {"  file", 0, NULL, NULL},
    {"abcd file", 0, NULL, NULL},
    {"abcd  ", 0, NULL, NULL},
    {"abcd\tfile", 0, NULL, NULL},
    {"abcg  file", 0, NULL, NULL},
    {"", 0, NULL, NULL},
    {"SHA256 (file) = abcd", 0, NULL, NULL},
    {"abcd", 0, NULL, NULL},
    {"abcd ", 0, NULL, NULL},
};

static void parse_table(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", cases[i].line);
        check_line c;
        int got = check_line_parse(buf, &c) == 0;
        CHECK(got == cases[i].ok, "case %zu '%s': %s", i, cases[i].line, got ? "accepted" : "rejected");
        if (got && cases[i].ok) {
            CHECK(c.hex_len == strlen(cases[i].hex) && memcmp(c.hex, cases[i].hex, c.hex_len) == 0, "case %zu hex", i);
            CHECK_STR(c.name, cases[i].name);
        }
    }
    uint8_t b[3];
    CHECK(hex_to_bytes("00fFa5", 3, b) == 0 && b[0] == 0 && b[1] == 0xff && b[2] == 0xa5, "hex");
    CHECK(hex_to_bytes("0x", 1, b) == -1, "bad hex");
}

static void format_table(void)
{
    char buf[128];
    CHECK(hash_line_format(buf, sizeof buf, "ab", "f") == 6, "length");
    CHECK_STR(buf, "ab  f\n");
    hash_line_format(buf, sizeof buf, "ab", "a\\b\nc");
    CHECK_STR(buf, "\\ab  a\\\\b\\nc\n");
    /* truncation reports the length needed, as snprintf */
    CHECK(hash_line_format(buf, 4, "abcd", "file") == 11 && strcmp(buf, "abc") == 0, "truncated: %s", buf);
    /* what is written parses back to the same name */
    const char *names[] = {"plain", "a\\b", "new\nline", "\\\\", "x\n", " sp "};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        hash_line_format(buf, sizeof buf, "00ff", names[i]);
        buf[strlen(buf) - 1] = '\0';
        check_line c;
        CHECK(check_line_parse(buf, &c) == 0 && strcmp(c.name, names[i]) == 0, "round trip %zu", i);
    }
}

static void fuzz(void)
{
    static const char alphabet[] = "0aF9g \\*n\r\t-";
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
        if (check_line_parse(buf, &c) == 0) {
            ok++;
            /* accepted lines: even nonempty hex, a name inside the buffer */
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
    format_table();
    fuzz();
    return check_summary();
}
