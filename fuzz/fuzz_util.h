/* Pieces the harnesses share: include this first (memfd_create is a GNU extension).
 *
 * Inputs reach parsers that take a path through a memfd (an anonymous in-memory file, opened by
 * its /proc/self/fd name), so a harness never writes to disk and runs as fast as a parse. */
#ifndef KILN_FUZZ_UTIL_H
#define KILN_FUZZ_UTIL_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kiln.h"

/* A property the harness checks failed: libFuzzer saves the input as a crash. */
#define FUZZ_CHECK(cond)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond);          \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

/* One context for the whole run: single-threaded, so a run is deterministic and the OpenMP pool
 * never starts. Reachable until exit, which LeakSanitizer does not count as a leak. */
static inline kiln_ctx *fuzz_ctx(void)
{
    static kiln_ctx *ctx;
    if (!ctx) {
        ctx = kiln_ctx_new();
        /* 1 GiB: an input declaring more (a Matrix Market header of 200,000,000 rows) is refused as
         * the CLI refuses it on a host of that size, within libFuzzer's 2 GB memory limit */
        if (!ctx || kiln_ctx_set_threads(ctx, 1) != KILN_OK || kiln_ctx_set_memory_limit(ctx, UINT64_C(1) << 30) != KILN_OK)
            abort();
    }
    return ctx;
}

/* data as a NUL-terminated string (an embedded NUL ends it early, as it would in argv); free it. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* data in a fresh memfd; *path receives a name open() accepts. Returns the fd to close after. */
static inline int fuzz_memfd(const uint8_t *data, size_t size, char path[64])
{
    int fd = memfd_create("kiln-fuzz", 0);
    if (fd < 0) abort();
    for (size_t off = 0; off < size;) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0) abort();
        off += (size_t)n;
    }
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
