#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void format_rate(double rate, const char *unit, char *out, int n)
{
    static const char *prefix[] = {"", "k", "M", "G", "T", "P"};
    int i = 0;
    while (rate >= 1000 && i < 5) {
        rate /= 1000;
        i++;
    }
    snprintf(out, (size_t)n, "%.2f %s%s", rate, prefix[i], unit);
}

void progress_start(cli_progress *p, int enabled, const char *unit)
{
    p->enabled = enabled < 0 ? isatty(STDERR_FILENO) : enabled;
    p->t0 = p->last = cli_now();
    p->unit = unit;
}

void progress_update(cli_progress *p, uint64_t done, uint64_t total)
{
    if (!p->enabled) return;
    double now = cli_now();
    if (now - p->last < 0.5) return;
    p->last = now;
    double el = now - p->t0, rate = el > 0 ? (double)done / el : 0;
    char r[32];
    format_rate(rate, p->unit, r, sizeof r);
    double pct = total ? 100.0 * (double)done / (double)total : 0;
    double eta = rate > 0 ? (double)(total - done) / rate : 0;
    fprintf(stderr, "\r%s  %5.1f%%  ETA %.0fs   ", r, pct, eta);
    fflush(stderr);
}

void progress_end(cli_progress *p)
{
    if (p->enabled) fprintf(stderr, "\r%60s\r", "");
}
