/* Reading the tests' data files: whole files, and the unsigned-integer arrays of the Rescue JSON
 * files (a scanner for exactly the shapes those files use: "key": [n, n, ...]). */
#ifndef KILN_TEST_DATA_FILES_H
#define KILN_TEST_DATA_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, NUL-terminated; NULL when it cannot be read. */
static inline unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap) break;
        unsigned char *bigger = realloc(buf, 2 * cap + 1);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    fclose(f);
    if (buf) buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

/* Finds "key" at or after *pos and parses the array of decimal integers after it into out (at
 * most cap); *pos moves past the array. Returns the count, or -1 when there is no such array. */
static inline int json_u64s(const char **pos, const char *key, uint64_t *out, int cap)
{
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *p = strstr(*pos, quoted);
    if (!p) return -1;
    p = strchr(p + strlen(quoted), '[');
    if (!p) return -1;
    p++;
    int n = 0;
    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t' || *p == ',') p++;
        if (*p == ']') break;
        if (*p < '0' || *p > '9' || n >= cap) return -1;
        char *end;
        out[n++] = strtoull(p, &end, 10);
        p = end;
    }
    *pos = p + 1;
    return n;
}

/* "key": [[...], [...], ...]: rows arrays of cols integers each, row-major into out. Returns the
 * number of integers read. */
static inline int json_u64_matrix(const char *json, const char *key, uint64_t *out, int rows, int cols)
{
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *p = strstr(json, quoted);
    if (!p || !(p = strchr(p, '['))) return 0;
    p++; /* inside the outer array; each row is read by json_u64s with an empty key search */
    int n = 0;
    for (int r = 0; r < rows; r++) {
        const char *row = strchr(p, '[');
        if (!row) break;
        const char *q = row + 1;
        int got = 0;
        for (;;) {
            while (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t' || *q == ',') q++;
            if (*q == ']' || *q < '0' || *q > '9' || got >= cols) break;
            char *end;
            out[n++] = strtoull(q, &end, 10);
            got++;
            q = end;
        }
        p = q + 1;
    }
    return n;
}

#endif
