#include "log.h"

#include <stdarg.h>
#include <stdio.h>

#include "../progress.h"

static double start;

void log_start(double t0) { start = t0; }

void plog(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "kiln pool [%7.1fs] %s\n", cli_now() - start, msg);
}

const char *log_clean(const char *s, size_t len, char *out, size_t n)
{
    size_t j = 0;
    for (size_t i = 0; i < len && j + 1 < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[j++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    if (n) out[j] = '\0';
    return out;
}
