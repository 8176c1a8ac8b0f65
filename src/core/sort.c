#include "sort.h"

#define INSERTION_MAX 32 /* most graph rows are shorter */

/* One definition for both widths. Insertion sort for short arrays; past that an introsort
 * (quicksort with the median of three and Hoare's partition, which splits runs of equal keys
 * evenly; heapsort below a depth of 2 log2 n, so that no input is quadratic), comparisons inline:
 * qsort's indirect comparison made a CSR build's row sorts a sixth of its time (16 copies of each
 * edge, the duplicates a row sort merges). */
#define KILN_SORT_DEFINE(T, name)                                                                  \
    static void insertion_##name(T *a, uint64_t n)                                                 \
    {                                                                                              \
        for (uint64_t i = 1; i < n; i++) {                                                         \
            const T v = a[i];                                                                      \
            uint64_t j = i;                                                                        \
            for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];                                    \
            a[j] = v;                                                                              \
        }                                                                                          \
    }                                                                                              \
    static void sift_##name(T *a, uint64_t root, uint64_t n)                                       \
    {                                                                                              \
        const T v = a[root];                                                                       \
        for (uint64_t c; (c = 2 * root + 1) < n; root = c) {                                       \
            if (c + 1 < n && a[c + 1] > a[c]) c++;                                                 \
            if (a[c] <= v) break;                                                                  \
            a[root] = a[c];                                                                        \
        }                                                                                          \
        a[root] = v;                                                                               \
    }                                                                                              \
    static void heapsort_##name(T *a, uint64_t n)                                                  \
    {                                                                                              \
        for (uint64_t i = n / 2; i-- > 0;) sift_##name(a, i, n);                                   \
        for (uint64_t e = n; e-- > 1;) {                                                           \
            const T t = a[0];                                                                      \
            a[0] = a[e];                                                                           \
            a[e] = t;                                                                              \
            sift_##name(a, 0, e);                                                                  \
        }                                                                                          \
    }                                                                                              \
    static void intro_##name(T *a, uint64_t n, int depth)                                          \
    {                                                                                              \
        while (n > INSERTION_MAX) {                                                                \
            if (depth-- == 0) {                                                                    \
                heapsort_##name(a, n);                                                             \
                return;                                                                            \
            }                                                                                      \
            T x = a[0], y = a[n / 2], z = a[n - 1], t;                                             \
            if (x > y) t = x, x = y, y = t;                                                        \
            if (y > z) t = y, y = z, z = t;                                                        \
            if (x > y) t = x, x = y, y = t;                                                        \
            const T p = y;                                                                         \
            uint64_t i = 0, j = n - 1;                                                             \
            for (;;) { /* a[0..i) <= p <= a(j..n); the median stops both scans in range */          \
                while (a[i] < p) i++;                                                              \
                while (a[j] > p) j--;                                                              \
                if (i >= j) break;                                                                 \
                t = a[i], a[i] = a[j], a[j] = t;                                                   \
                i++, j--;                                                                          \
            }                                                                                      \
            const uint64_t left = j + 1; /* [0, left) <= p <= [left, n) */                         \
            if (left < n - left) {                                                                 \
                intro_##name(a, left, depth);                                                      \
                a += left, n -= left;                                                              \
            } else {                                                                               \
                intro_##name(a + left, n - left, depth);                                           \
                n = left;                                                                          \
            }                                                                                      \
        }                                                                                          \
        insertion_##name(a, n);                                                                    \
    }                                                                                              \
    void kiln_sort_##name(T *a, uint64_t n)                                                        \
    {                                                                                              \
        int depth = 0;                                                                             \
        for (uint64_t m = n; m > 1; m >>= 1) depth += 2;                                           \
        intro_##name(a, n, depth);                                                                 \
    }

KILN_SORT_DEFINE(uint32_t, u32)
KILN_SORT_DEFINE(uint64_t, u64)
