#include "progress.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define LINE_MAX_CHARS 512

static struct {
    int on, registered;
    int drawn; /* characters of the line up now, 0: none */
    double t0, last; /* start, last drawing */
    char task[128];
    int detail;
    double task_t0;
    /* the library stage reported last, its clock and the count it started from */
    char stage[32];
    double stage_t0;
    uint64_t done0, last_done;
} D;

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

void format_bytes(double bytes, char *out, int n)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    while (bytes >= 1024 && i < 5) {
        bytes /= 1024;
        i++;
    }
    if (i == 0) snprintf(out, (size_t)n, "%.0f B", bytes);
    else snprintf(out, (size_t)n, "%.*f %s", bytes < 10 ? 2 : bytes < 100 ? 1 : 0, bytes, unit[i]);
}

void format_count(double count, char *out, int n)
{
    if (count < 1000) {
        snprintf(out, (size_t)n, "%.0f", count);
        return;
    }
    char r[32];
    format_rate(count, "", r, sizeof r);
    snprintf(out, (size_t)n, "%s", r);
}

void format_eta(double s, char *out, int n)
{
    if (!(s >= 0) || s > 1e7) snprintf(out, (size_t)n, "ETA ?");
    else if (s < 60) snprintf(out, (size_t)n, "ETA %.0f s", ceil(s));
    else if (s < 3600) snprintf(out, (size_t)n, "ETA %d min %02d s", (int)s / 60, (int)s % 60);
    else snprintf(out, (size_t)n, "ETA %d h %02d min", (int)s / 3600, (int)s % 3600 / 60);
}

void format_bytes_done(uint64_t done, uint64_t total, double seconds, int with_rate, char *out, int n)
{
    char d[32], t[32], eta[32] = "", r[32];
    format_bytes((double)done, d, sizeof d);
    int k = snprintf(out, (size_t)n, "%s", d);
    if (total && done <= total) {
        format_bytes((double)total, t, sizeof t);
        if (seconds > 0 && done) format_eta((double)(total - done) * seconds / (double)done, eta, sizeof eta);
        k += snprintf(out + k, (size_t)(n - k), "/%s (%.0f%%)%s%s", t, floor(100.0 * (double)done / (double)total),
                      eta[0] ? ", " : "", eta);
    }
    if (with_rate && seconds > 0 && done) {
        format_bytes((double)done / seconds, r, sizeof r);
        snprintf(out + k, (size_t)(n - k), ", %s/s", r);
    }
}

static int width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1) return ws.ws_col < LINE_MAX_CHARS ? ws.ws_col : LINE_MAX_CHARS;
    return 80;
}

/* Writes text over the line up now, in one write so that the terminal never shows half of it. The
 * text is cut to the terminal's width: a line that wrapped could not be rewritten with '\r'. */
static void draw(const char *text)
{
    char buf[2 * LINE_MAX_CHARS + 4];
    int w = width() - 1, len = (int)strlen(text);
    if (len > w) len = w;
    int pad = D.drawn > len ? D.drawn - len : 0;
    int n = snprintf(buf, sizeof buf, "\r%.*s%*s", len, text, pad, "");
    if (pad) n += snprintf(buf + n, sizeof buf - (size_t)n, "\r%.*s", len, text);
    fwrite(buf, 1, (size_t)n, stderr);
    fflush(stderr);
    D.drawn = len;
}

void progress_clear(void)
{
    if (!D.drawn) return;
    fprintf(stderr, "\r%*s\r", D.drawn, "");
    fflush(stderr);
    D.drawn = 0;
}

void progress_end(void)
{
    progress_clear();
    D.on = 0;
}

static void end_at_exit(void) { progress_end(); }

void progress_init(int mode)
{
    D.on = mode == PROGRESS_AUTO ? isatty(STDERR_FILENO) : mode == PROGRESS_ON;
    D.t0 = D.task_t0 = D.stage_t0 = cli_now();
    D.last = 0;
    D.task[0] = D.stage[0] = '\0';
    /* a command that ends early (an error, a signal) still leaves a clean terminal */
    if (D.on && !D.registered) D.registered = atexit(end_at_exit) == 0;
}

int progress_enabled(void) { return D.on; }

int progress_due(void)
{
    if (!D.on) return 0;
    double now = cli_now();
    return now - D.t0 >= PROGRESS_DELAY_S && now - D.last >= PROGRESS_PERIOD_S;
}

void progress_task(int detail, const char *fmt, ...)
{
    D.task[0] = '\0';
    D.detail = detail;
    D.task_t0 = cli_now();
    if (!fmt) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(D.task, sizeof D.task, fmt, ap);
    va_end(ap);
}

static void show(const char *text)
{
    char line[LINE_MAX_CHARS + 160];
    snprintf(line, sizeof line, "%s%s%s", D.task, D.task[0] && text[0] ? ": " : "", text);
    D.last = cli_now();
    draw(line);
}

void progress_show(const char *fmt, ...)
{
    if (!progress_due()) return;
    char text[LINE_MAX_CHARS];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    show(text);
}

/* One report of the library as a line: "merkle: 1.05 M/4.19 M merges (25%), 12.30 M merges/s,
 * ETA 1 s", or for PageRank "pagerank: iteration 12 of 100, L1 change 3.2e-05, 84.1 ms/iteration". */
static void describe(const kiln_progress *p, double now, char *out, int n)
{
    double el = now - D.stage_t0, did = p->done > D.done0 ? (double)(p->done - D.done0) : 0;
    double rate = el > 0 && did > 0 ? did / el : 0;
    if (strcmp(p->unit, "iterations") == 0) { /* the residual is NaN where it is not known yet (a GPU run with tol 0) */
        int k = snprintf(out, (size_t)n, "%s: iteration %llu", p->stage, (unsigned long long)p->done);
        if (p->total) k += snprintf(out + k, (size_t)(n - k), " of %llu", (unsigned long long)p->total);
        if (!isnan(p->residual)) k += snprintf(out + k, (size_t)(n - k), ", L1 change %.3g", p->residual);
        if (rate > 0) snprintf(out + k, (size_t)(n - k), ", %.4g ms/iteration", 1e3 / rate);
        return;
    }
    /* counted steps of a few (passes, runs): no rate */
    if (strcmp(p->unit, "passes") == 0 || strcmp(p->unit, "runs") == 0) {
        if (p->total) snprintf(out, (size_t)n, "%s: %llu of %llu %s", p->stage, (unsigned long long)p->done,
                               (unsigned long long)p->total, p->unit);
        else snprintf(out, (size_t)n, "%s: %llu %s", p->stage, (unsigned long long)p->done, p->unit);
        return;
    }
    const int bytes = strcmp(p->unit, "bytes") == 0;
    char done[48], total[48], r[48] = "", eta[32] = "";
    if (bytes) format_bytes((double)p->done, done, sizeof done);
    else format_count((double)p->done, done, sizeof done);
    int k = snprintf(out, (size_t)n, "%s: %s", p->stage, done);
    if (p->total) {
        if (bytes) format_bytes((double)p->total, total, sizeof total);
        else format_count((double)p->total, total, sizeof total);
        k += snprintf(out + k, (size_t)(n - k), "/%s", total);
    }
    if (!bytes) k += snprintf(out + k, (size_t)(n - k), " %s", p->unit);
    if (p->total) k += snprintf(out + k, (size_t)(n - k), " (%.0f%%)", floor(100.0 * (double)p->done / (double)p->total));
    if (rate > 0) {
        if (bytes) {
            format_bytes(rate, r, sizeof r);
            k += snprintf(out + k, (size_t)(n - k), ", %s/s", r);
        } else if (strcmp(p->unit, "nonces") == 0) {
            format_rate(rate, "H/s", r, sizeof r);
            k += snprintf(out + k, (size_t)(n - k), ", %s", r);
        } else {
            format_count(rate, r, sizeof r);
            k += snprintf(out + k, (size_t)(n - k), ", %s %s/s", r, p->unit);
        }
        if (p->total && p->total >= p->done) {
            format_eta((double)(p->total - p->done) / rate, eta, sizeof eta);
            snprintf(out + k, (size_t)(n - k), ", %s", eta);
        }
    }
}

static void hook(void *user, const kiln_progress *p)
{
    (void)user;
    double now = cli_now();
    /* a new stage, or the same one started again (a repeat): its own clock. Reports of worker
     * threads may come a step out of order, so only a count that fell by half is a restart. */
    if (strcmp(p->stage, D.stage) != 0 || p->done < D.last_done / 2) {
        snprintf(D.stage, sizeof D.stage, "%s", p->stage);
        D.stage_t0 = now;
        D.done0 = D.last_done = p->done;
    }
    if (p->done > D.last_done) D.last_done = p->done;
    if (!progress_due()) return;
    char text[LINE_MAX_CHARS];
    if (D.task[0] && !D.detail) snprintf(text, sizeof text, "%.1f s", now - D.task_t0);
    else describe(p, now, text, sizeof text);
    show(text);
}

void progress_attach(kiln_ctx *ctx)
{
    if (D.on) kiln_ctx_set_progress(ctx, hook, NULL);
}
