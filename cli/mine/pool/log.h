/* Pool-mode log lines on stderr: "kiln pool [  12.3s] message". Text that comes from a pool is
 * passed through log_clean first so it cannot drive the terminal.
 *
 * A pool decides how often most lines are logged (a share answer, a job, a malformed line), so
 * the volume is bounded: each call site (its format string) may print LOG_BURST lines per
 * LOG_WINDOW_S seconds; the rest are counted and reported as one "N similar lines suppressed"
 * line when the window ends (log_tick) or at exit (log_flush). */
#ifndef KILN_POOL_LOG_H
#define KILN_POOL_LOG_H

#include <stddef.h>

#include "common/printf_attr.h"

#define LOG_WINDOW_S 10.0
#define LOG_BURST 20

void log_start(double t0);
void plog(const char *fmt, ...) CLI_PRINTF(1, 2);
/* Reports the suppressed lines of every call site whose window has ended (all of them: log_flush). */
void log_tick(void);
void log_flush(void);
/* 1: drop every line (the fuzz harness drives the client without a terminal to spare). */
void log_quiet(int quiet);
/* Copies at most n-1 bytes of s with control and non-ASCII bytes shown as '?'. Returns out. */
const char *log_clean(const char *s, size_t len, char *out, size_t n);

#endif
