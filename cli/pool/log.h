/* Pool-mode log lines on stderr: "kiln pool [  12.3s] message". Text that comes from a pool is
 * passed through log_clean first so it cannot drive the terminal. */
#ifndef KILN_POOL_LOG_H
#define KILN_POOL_LOG_H

#include <stddef.h>

void log_start(double t0);
void plog(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Copies at most n-1 bytes of s with control and non-ASCII bytes shown as '?'. Returns out. */
const char *log_clean(const char *s, size_t len, char *out, size_t n);

#endif
