/* The progress line on stderr, one for the whole process (there is one stderr): where a long job
 * stands, its rate and ETA, rewritten in place with '\r' at most 10 times a second, and erased when
 * the job ends. It is shown when stderr is a terminal, never otherwise, unless --quiet or
 * --progress (cli_output_start in opts.h) says so; nothing of it goes to stdout. A job that ends
 * within PROGRESS_DELAY_S shows nothing at all.
 *
 * Anything else written to the terminal while a line is up must erase it first: cli_error does,
 * and so must a command before printing results that may share the terminal (progress_clear); the
 * next update draws the line again. */
#ifndef KILN_CLI_PROGRESS_H
#define KILN_CLI_PROGRESS_H

#include <stdint.h>

#include "common/printf_attr.h"
#include "kiln.h"

#define PROGRESS_DELAY_S 0.25 /* nothing is drawn before the job has run this long */
#define PROGRESS_PERIOD_S 0.1 /* between two drawings */

enum { PROGRESS_AUTO = -1, PROGRESS_OFF = 0, PROGRESS_ON = 1 };

/* Starts the display: PROGRESS_AUTO shows it when stderr is a terminal. */
void progress_init(int mode);
int progress_enabled(void);
/* The library's long calls on ctx report to the display (kiln_ctx_set_progress), when it is on. */
void progress_attach(kiln_ctx *ctx);
/* The task the line names, printf-style ("bench: 2 of 9, sha256d"), and its clock started; with
 * `detail` the library's reports follow it ("...: scan 1.2 G of 4.3 G nonces, ..."), without it
 * the time spent on the task does. NULL: no task. */
void progress_task(int detail, const char *fmt, ...) CLI_PRINTF(2, 3);
/* Draws the task and this text (printf-style) when a drawing is due; cheap when none is. */
void progress_show(const char *fmt, ...) CLI_PRINTF(1, 2);
/* 1 when progress_show would draw now: lets a caller skip building its text. */
int progress_due(void);
/* Erases the line if one is up (before other output on the terminal). */
void progress_clear(void);
/* Erases the line and stops the display. */
void progress_end(void);

/* Counts and rates for a line: "1.23 GiB", "12.3 M" (SI, no unit), "ETA 1 min 05 s". */
void format_bytes(double bytes, char *out, int n);
void format_count(double count, char *out, int n);
void format_eta(double seconds, char *out, int n);
/* "1.20 GiB/2.00 GiB (60%), ETA 1 s" for done of total bytes (0: not known, or passed: the done
 * alone) in `seconds`, then ", 850 MiB/s" when with_rate. */
void format_bytes_done(uint64_t done, uint64_t total, double seconds, int with_rate, char *out, int n);
/* A rate with an SI prefix, e.g. "9.12 GH/s". */
void format_rate(double rate, const char *unit, char *out, int n);
double cli_now(void);

#endif
