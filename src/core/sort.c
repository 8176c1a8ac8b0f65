#include "sort.h"

#include <stdlib.h>

#define INSERTION_MAX 32 /* most graph rows are shorter */

/* One definition for both widths: the comparison and the sort over type T. */
#define KILN_SORT_DEFINE(T, name)                                     \
    static int cmp_##name(const void *a, const void *b)               \
    {                                                                 \
        const T x = *(const T *)a, y = *(const T *)b;                 \
        return (x > y) - (x < y);                                     \
    }                                                                 \
    void kiln_sort_##name(T *a, uint64_t n)                           \
    {                                                                 \
        if (n > INSERTION_MAX) {                                      \
            qsort(a, (size_t)n, sizeof *a, cmp_##name);               \
            return;                                                   \
        }                                                             \
        for (uint64_t i = 1; i < n; i++) {                            \
            const T v = a[i];                                         \
            uint64_t j = i;                                           \
            for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];       \
            a[j] = v;                                                 \
        }                                                             \
    }

KILN_SORT_DEFINE(uint32_t, u32)
KILN_SORT_DEFINE(uint64_t, u64)
