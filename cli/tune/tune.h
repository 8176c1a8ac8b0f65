/* `kiln tune`: what it parsed and one sweep routine per kind of workload. Each prints its table and
 * its best shape into *best; cmd_tune.c caches that under the workload's bench name. */
#ifndef KILN_CLI_TUNE_H
#define KILN_CLI_TUNE_H

#include <stdint.h>

#include "common/printf_attr.h"
#include "kiln.h"
#include "tune_cache.h"

typedef struct tune_args {
    double seconds; /* per shape; 0: the kind's default */
    kiln_scrypt_params sp; /* KDF */
    uint64_t leaves, reps; /* tree; 0: the default */
} tune_args;

/* axes: kiln_workload_tune_axes of (w, kind). Returns the exit code. */
typedef int (*tune_fn)(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
                       const tune_args *a, tune_entry *best);
int tune_grid_search(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
                     const tune_args *a, tune_entry *best);
int tune_scrypt_search(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
                       const tune_args *a, tune_entry *best);
int tune_kdf(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
             const tune_args *a, tune_entry *best);
int tune_tree(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
              const tune_args *a, tune_entry *best);

/* One row of a sweep's table. With the progress line on, the row is printed whole at its end (the
 * line cannot share a terminal line with half a row); without it each cell appears as measured. */
typedef struct tune_row {
    char text[512];
    int used;
} tune_row;
void tune_row_start(tune_row *r, const char *fmt, ...) CLI_PRINTF(2, 3);
void tune_row_add(tune_row *r, const char *fmt, ...) CLI_PRINTF(2, 3);
/* Ends the row with its newline. */
void tune_row_print(tune_row *r);
/* Names the shape measured next on the progress line: "tune: shape i of n, <what>". */
void tune_shape(int i, int n, const char *fmt, ...) CLI_PRINTF(3, 4);

#endif
