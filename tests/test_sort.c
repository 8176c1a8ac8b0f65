/* kiln_sort_u32/u64 (src/core/sort.c) against the C library's qsort, on the inputs a hand-written
 * quicksort gets wrong or slow: every length up to 300, runs of equal keys, sorted, reversed,
 * organ pipe, all equal, few distinct values, and long random arrays; the heapsort fallback is
 * reached by a median-of-three adversary. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/sort.h"

static uint64_t rnd(uint64_t *s)
{
    *s += 0x9E3779B97F4A7C15ull;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int cmp32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int cmp64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* pattern p of length n into a (64-bit keys; the 32-bit test takes their low words) */
static void fill(uint64_t *a, uint64_t n, int p, uint64_t *s)
{
    for (uint64_t i = 0; i < n; i++) {
        switch (p) {
        case 0: a[i] = rnd(s); break; /* random */
        case 1: a[i] = rnd(s) % 4; break; /* few distinct */
        case 2: a[i] = i; break; /* sorted */
        case 3: a[i] = n - i; break; /* reversed */
        case 4: a[i] = i < n / 2 ? i : n - i; break; /* organ pipe */
        case 5: a[i] = 7; break; /* all equal */
        case 6: a[i] = (i / 16) * 3 + 0xFFFFFFFF00000000ull * (i & 1); break; /* runs, high bits */
        default: a[i] = rnd(s) % (n / 8 + 1); break; /* duplicates, as a CSR row of copied edges */
        }
    }
}

/* The median-of-three adversary (Musser): a permutation that makes every partition one sided for
 * a quicksort that takes the median of the first, middle and last keys. */
static void killer(uint64_t *a, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) a[i] = i;
    for (uint64_t k = n; k > 2; k--) { /* undo, from the inside out, what the partition would do */
        uint64_t t = a[k / 2];
        a[k / 2] = a[k - 1];
        a[k - 1] = t;
    }
}

static void check_one(const uint64_t *src, uint64_t n, const char *what)
{
    uint64_t *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
    uint32_t *c = malloc((n + 1) * sizeof *c), *d = malloc((n + 1) * sizeof *d);
    for (uint64_t i = 0; i < n; i++) a[i] = b[i] = src[i], c[i] = d[i] = (uint32_t)src[i];
    kiln_sort_u64(a, n);
    qsort(b, n, sizeof *b, cmp64);
    kiln_sort_u32(c, n);
    qsort(d, n, sizeof *d, cmp32);
    CHECK(memcmp(a, b, n * sizeof *a) == 0, "u64 %s n=%llu differs from qsort", what, (unsigned long long)n);
    CHECK(memcmp(c, d, n * sizeof *c) == 0, "u32 %s n=%llu differs from qsort", what, (unsigned long long)n);
    free(a), free(b), free(c), free(d);
}

int main(void)
{
    uint64_t s = 1, buf[300];
    for (int p = 0; p < 8; p++)
        for (uint64_t n = 0; n <= 300; n++) {
            fill(buf, n, p, &s);
            char what[16];
            snprintf(what, sizeof what, "pattern %d", p);
            check_one(buf, n, what);
        }
    const uint64_t big = 1u << 20;
    uint64_t *a = malloc(big * sizeof *a);
    for (int p = 0; p < 8; p++) {
        fill(a, big, p, &s);
        check_one(a, big, "large");
    }
    killer(a, big);
    check_one(a, big, "median-of-3 killer");
    free(a);
    return check_summary();
}
