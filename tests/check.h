/* A minimal test harness: CHECK records failures without stopping, TEST_MAIN prints the tally
 * as "N passed, N failed" and turns it into the exit code. Tests that need a GPU and find none
 * return TEST_SKIP (CTest's SKIP_RETURN_CODE). */
#ifndef KILN_TEST_CHECK_H
#define KILN_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_SKIP 77

static int check_passed, check_failed;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (cond) {                                                          \
            check_passed++;                                                  \
        } else {                                                             \
            check_failed++;                                                  \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

#define CHECK_STR(got, want) CHECK(strcmp((got), (want)) == 0, "got %s, want %s", (got), (want))

static inline int check_summary(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

/* Deterministic pseudo-random numbers for tests (splitmix64); seeds are printed on failure. */
static inline unsigned long long test_rand(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Path of a file in tests/data. */
static inline const char *test_data(const char *name)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/%s", KILN_TEST_DATA, name);
    return path;
}

#endif
