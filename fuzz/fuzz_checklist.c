/* The check-list lines of kiln hash (cli/hash/hash_lines.h) over any bytes:
 *  - parsing any line, under each separator state, never reads or writes outside it, and what
 *    it accepts is well formed (an even run of hex digits, a nonempty name) and formats back to
 *    one line that parses to the same tag, digest and name;
 *  - any name (newlines, backslashes, carriage returns, blanks, parentheses) with any tag or
 *    none round-trips through format then parse, and a verdict shows it on one line;
 *  - the line reader cuts the bytes exactly where '\n' is, reports each line longer than its
 *    limit once, and keeps the lines after it. */
#include "fuzz_util.h"

#include "hash/hash_lines.h"

static const char *const tags[] = {NULL, "SHA256", "SHA3-256", "SHAKE-128", "KECCAK-256", "SHA2-256", "MD5"};

static int all_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i]) return 0;
    return 1;
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) abort();
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* Formats (tag, hex, name) and parses the line back: the same three must come out. */
static void round_trip(const char *tag, const char *hex, const char *name)
{
    size_t need = hash_line_format(NULL, 0, tag, hex, name);
    char *line = malloc(need + 1);
    if (!line) abort();
    FUZZ_CHECK(hash_line_format(line, need + 1, tag, hex, name) == need);
    FUZZ_CHECK(need > 0 && line[need - 1] == '\n' && memchr(line, '\n', need) == line + need - 1);
    check_line c;
    int sep = CHECK_SEP_UNKNOWN;
    FUZZ_CHECK(check_line_parse(line, need - 1, &sep, &c) == CHECK_LINE_OK);
    FUZZ_CHECK(strcmp(c.name, name) == 0);
    FUZZ_CHECK(c.hex_len == strlen(hex) && memcmp(c.hex, hex, c.hex_len) == 0);
    FUZZ_CHECK(tag ? c.tag && c.tag_len == strlen(tag) && memcmp(c.tag, tag, c.tag_len) == 0 : c.tag == NULL);
    free(line);

    need = check_name_format(NULL, 0, name);
    char *shown = malloc(need + 1);
    if (!shown) abort();
    FUZZ_CHECK(check_name_format(shown, need + 1, name) == need && strlen(shown) == need);
    FUZZ_CHECK(!strchr(shown, '\n'));
    free(shown);
}

/* The bytes as one line, under each separator state. */
static void parse_any(const uint8_t *data, size_t size)
{
    for (int sep0 = CHECK_SEP_UNKNOWN; sep0 <= CHECK_SEP_ONE; sep0++) {
        char *line = dup_n((const char *)data, size);
        check_line c;
        int sep = sep0;
        int st = check_line_parse(line, size, &sep, &c);
        FUZZ_CHECK(st == CHECK_LINE_OK || st == CHECK_LINE_BAD || st == CHECK_LINE_SKIP);
        if (st == CHECK_LINE_OK) {
            FUZZ_CHECK(c.hex >= line && c.hex + c.hex_len <= line + size);
            FUZZ_CHECK(c.hex_len > 0 && c.hex_len % 2 == 0 && all_hex(c.hex, c.hex_len));
            FUZZ_CHECK(c.name >= line && c.name < line + size && c.name[0] != '\0');
            FUZZ_CHECK(!c.tag || (c.tag >= line && c.tag + c.tag_len <= line + size && c.tag_len > 0));
            char *tag = c.tag ? dup_n(c.tag, c.tag_len) : NULL;
            char *hex = dup_n(c.hex, c.hex_len);
            round_trip(tag, hex, c.name);
            free(tag);
            free(hex);
        }
        free(line);
    }
}

/* A name from the bytes after the first (NULs dropped), a tag and a digest length from the first. */
static void name_any(const uint8_t *data, size_t size)
{
    if (size == 0) return;
    char *name = malloc(size + 1);
    if (!name) abort();
    size_t n = 0;
    for (size_t i = 1; i < size; i++)
        if (data[i]) name[n++] = (char)data[i];
    if (n == 0) name[n++] = 'x';
    name[n] = '\0';
    const char *tag = tags[data[0] % (sizeof tags / sizeof tags[0])];
    char hex[2 * 8 + 1];
    size_t h = 2 * (1 + data[0] / 32u);
    for (size_t i = 0; i < h; i++) hex[i] = "0123456789abcdefABCDEF"[(data[0] + 7 * i) % 22];
    hex[h] = '\0';
    round_trip(tag, hex, name);
    free(name);
}

/* The reader against a plain split of the bytes at '\n'. */
static void read_any(const uint8_t *data, size_t size)
{
    size_t max_line = size ? 1 + data[0] % 48 : 8;
    char path[64];
    int fd = fuzz_memfd(data, size, path);
    if (lseek(fd, 0, SEEK_SET) != 0) abort();
    line_reader lr;
    if (line_reader_init(&lr, fd, max_line) != 0) abort();
    size_t pos = 0;
    uint64_t lines = 0;
    while (pos < size) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;
        char *line;
        size_t got_len;
        int st = line_reader_next(&lr, &line, &got_len);
        if (len > max_line) {
            FUZZ_CHECK(st == LINE_TOO_LONG);
        } else {
            FUZZ_CHECK(st == LINE_OK && got_len == len && memcmp(line, data + pos, len) == 0 && line[len] == '\0');
        }
        FUZZ_CHECK(lr.lineno == ++lines);
        pos += len + (nl != NULL);
    }
    char *line;
    size_t got_len;
    FUZZ_CHECK(line_reader_next(&lr, &line, &got_len) == LINE_END);
    line_reader_free(&lr);
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > HASH_LINE_MAX) return 0;
    parse_any(data, size);
    name_any(data, size);
    read_any(data, size);
    return 0;
}
