/* The one benchmark harness: untimed warm-up runs, then timed runs until both a minimum count and
 * a time budget are reached, the median of them, and an optional CPU check of what the last run
 * produced. Every bench and tune path, host and device, reports through it. */
#ifndef KILN_CORE_BENCH_H
#define KILN_CORE_BENCH_H

#include <stddef.h>

#include "kiln.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_BENCH_MAX_RUNS 256

typedef struct kiln_bench_spec {
    int warmup; /* untimed runs first */
    int min_runs; /* timed runs at least (>= 1) */
    int max_runs; /* timed runs at most (<= KILN_BENCH_MAX_RUNS) */
    double seconds; /* keep running past min_runs while the timed runs took less than this */
    /* One run; *value receives what it measured (a rate or a time, as the caller chooses). */
    kiln_status (*run)(void *user, int index, double *value);
    /* Optional: checks the last run's output on the CPU; its status is the bench's. */
    kiln_status (*verify)(void *user);
    void *user;
    kiln_ctx *ctx; /* its interrupt poll is read before every run (NULL: none) */
} kiln_bench_spec;

/* Runs spec and writes the median of the timed runs' values to *median (and their count to
 * *runs when not NULL). Stops at the first run or check that fails and returns its status, or
 * KILN_STOPPED ("interrupted") when the context's interrupt poll asks to stop. */
kiln_status kiln_bench_median(const kiln_bench_spec *spec, double *median, int *runs);

/* Median of n values (sorts them in place); 0 for n == 0. */
double kiln_median(double *values, size_t n);
/* The same for float samples (device event times). */
float kiln_median_f(float *values, size_t n);

#ifdef __cplusplus
}
#endif

#endif
