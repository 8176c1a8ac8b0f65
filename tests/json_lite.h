/* Just enough JSON reading for the test-vector files in tests/data: flat arrays of flat objects
 * whose values are strings, integers or booleans. Not a product parser: the files are fixed. */
#ifndef KILN_TEST_JSON_LITE_H
#define KILN_TEST_JSON_LITE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jspan {
    const char *p, *end;
} jspan;

/* The whole file, NUL-terminated; NULL if unreadable. */
static inline char *json_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = '\0';
    fclose(f);
    return s;
}

/* The array value of "name": [...] (arrays of objects hold no nested arrays). */
static inline int json_array(const char *doc, const char *name, jspan *arr)
{
    char key[128];
    arr->p = arr->end = doc;
    snprintf(key, sizeof key, "\"%s\"", name);
    const char *k = strstr(doc, key);
    if (!k) return -1;
    const char *open = strchr(k, '['), *close = open ? strchr(open, ']') : NULL;
    if (!open || !close) return -1;
    arr->p = open + 1;
    arr->end = close;
    return 0;
}

/* Next {...} of the array; advances arr. */
static inline int json_next(jspan *arr, jspan *obj)
{
    const char *open = arr->p;
    while (open < arr->end && *open != '{') open++;
    if (open >= arr->end) return -1;
    const char *close = open;
    while (close < arr->end && *close != '}') close++;
    if (close >= arr->end) return -1;
    obj->p = open;
    obj->end = close;
    arr->p = close + 1;
    return 0;
}

/* Start of key's value inside obj, or NULL. */
static inline const char *json_value(jspan obj, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = obj.p; p + n + 2 < obj.end; p++) {
        if (p[0] == '"' && strncmp(p + 1, key, n) == 0 && p[n + 1] == '"') {
            p += n + 2;
            while (p < obj.end && (*p == ' ' || *p == ':')) p++;
            return p;
        }
    }
    return NULL;
}

static inline int json_str(jspan obj, const char *key, char *out, size_t cap)
{
    const char *v = json_value(obj, key);
    if (!v || *v != '"') return -1;
    const char *e = strchr(v + 1, '"');
    if (!e || (size_t)(e - v - 1) >= cap) return -1;
    memcpy(out, v + 1, (size_t)(e - v - 1));
    out[e - v - 1] = '\0';
    return 0;
}

static inline int json_u64(jspan obj, const char *key, uint64_t *out)
{
    const char *v = json_value(obj, key);
    if (!v || *v < '0' || *v > '9') return -1;
    *out = strtoull(v, NULL, 10);
    return 0;
}

static inline int json_true(jspan obj, const char *key)
{
    const char *v = json_value(obj, key);
    return v && strncmp(v, "true", 4) == 0;
}

/* Hex string to bytes; returns the byte count or -1. */
static inline long json_unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (uint8_t)v;
    }
    return (long)(n / 2);
}

#endif
