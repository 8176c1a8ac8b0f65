#include "merkle_rows.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"

/* Appends the elements of one line; -1 for a token that is no number of elem_size bytes. */
static int parse_line(char *p, size_t elem_size, uint8_t **buf, size_t *len, size_t *cap, size_t *count)
{
    *count = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (!*p) return 0;
        if (*p < '0' || *p > '9') return -1;
        errno = 0;
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno || (*end && *end != ' ' && *end != '\t' && *end != '\r' && *end != '\n') ||
            (elem_size == 4 && v > UINT32_MAX))
            return -1;
        if (*len + elem_size > *cap) {
            size_t c = *cap ? 2 * *cap : 4096;
            uint8_t *b = realloc(*buf, c);
            if (!b) return -2;
            *buf = b, *cap = c;
        }
        for (size_t i = 0; i < elem_size; i++) (*buf)[*len + i] = (uint8_t)(v >> (8 * i));
        *len += elem_size;
        ++*count;
        p = end;
    }
}

int merkle_read_rows(const char *cmd, const char *path, size_t elem_size, uint8_t **rows, uint64_t *n,
                     size_t *row_elems)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) return cli_error(EXIT_USAGE, cmd, "cannot open %s: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, width = 0, lcap = 0;
    char *line = NULL;
    uint64_t lineno = 0, count = 0;
    int code = 0;
    ssize_t got;
    while ((got = getline(&line, &lcap, f)) >= 0) {
        lineno++;
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '#' || *s == '\n' || *s == '\r' || !*s) continue;
        size_t k = 0;
        int r = parse_line(line, elem_size, &buf, &len, &cap, &k);
        if (r == -2) {
            code = cli_error(EXIT_DEVICE, cmd, "out of memory for the rows of %s", path);
            break;
        }
        if (r < 0) {
            code = cli_error(EXIT_USAGE, cmd, "%s line %llu: elements must be decimal numbers below 2^%d", path,
                             (unsigned long long)lineno, (int)(8 * elem_size));
            break;
        }
        if (count == 0) width = k;
        else if (k != width) {
            code = cli_error(EXIT_USAGE, cmd, "%s line %llu: %zu elements, the first row has %zu", path,
                             (unsigned long long)lineno, k, width);
            break;
        }
        count++;
    }
    free(line);
    if (f != stdin) fclose(f);
    if (code) {
        free(buf);
        return code;
    }
    *rows = buf, *n = count, *row_elems = width;
    return 0;
}
