/* A one-line progress display on stderr (rate, percent, ETA), only when stderr is a terminal. */
#ifndef KILN_CLI_PROGRESS_H
#define KILN_CLI_PROGRESS_H

#include <stdint.h>

typedef struct cli_progress {
    int enabled;
    double t0, last;
    const char *unit;
} cli_progress;

/* enabled: -1 = decide by isatty(stderr), 0 = off, 1 = on. */
void progress_start(cli_progress *p, int enabled, const char *unit);
void progress_update(cli_progress *p, uint64_t done, uint64_t total);
void progress_end(cli_progress *p);
double cli_now(void);
/* Formats a rate with an SI prefix, e.g. "9.12 GH/s". */
void format_rate(double rate, const char *unit, char *out, int n);

#endif
