#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/progress.h"

#define LOG_SITES 128 /* more than the call sites of plog */

typedef struct site {
    const char *fmt; /* the key: one call site, or a few sharing a format */
    double window_start;
    unsigned printed;
    unsigned long long suppressed;
    char last[200]; /* the last line suppressed, to show what was left out */
} site;

static double start;
static int quiet;
static site sites[LOG_SITES];
static int nsites;

void log_start(double t0) { start = t0; }

void log_quiet(int q) { quiet = q; }

static void emit(double now, const char *msg) { fprintf(stderr, "kiln pool [%7.1fs] %s\n", now - start, msg); }

static void report(site *s, double now)
{
    if (!s->suppressed) return;
    char msg[400];
    snprintf(msg, sizeof msg, "%llu similar lines suppressed in %.0f s (the last: %s)", s->suppressed,
             now - s->window_start, s->last);
    s->suppressed = 0;
    emit(now, msg);
}

static site *site_of(const char *fmt)
{
    for (int i = 0; i < nsites; i++)
        if (sites[i].fmt == fmt) return &sites[i];
    if (nsites == LOG_SITES) return NULL; /* cannot happen with today's call sites: print unlimited */
    site *s = &sites[nsites++];
    memset(s, 0, sizeof *s);
    s->fmt = fmt;
    s->window_start = cli_now();
    return s;
}

void plog(const char *fmt, ...)
{
    if (quiet) return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    double now = cli_now();
    site *s = site_of(fmt);
    if (s && now - s->window_start >= LOG_WINDOW_S) {
        report(s, now);
        s->window_start = now;
        s->printed = 0;
    }
    if (s && s->printed >= LOG_BURST) {
        s->suppressed++;
        size_t n = strlen(msg) < sizeof s->last ? strlen(msg) : sizeof s->last - 1;
        memcpy(s->last, msg, n); /* cut: it only shows what kind of line was left out */
        s->last[n] = '\0';
        return;
    }
    if (s) s->printed++;
    emit(now, msg);
}

void log_tick(void)
{
    double now = cli_now();
    for (int i = 0; i < nsites; i++)
        if (sites[i].suppressed && now - sites[i].window_start >= LOG_WINDOW_S) {
            report(&sites[i], now);
            sites[i].window_start = now;
            sites[i].printed = 0;
        }
}

void log_flush(void)
{
    double now = cli_now();
    for (int i = 0; i < nsites; i++) report(&sites[i], now);
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
