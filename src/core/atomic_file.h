/* A file written whole or not at all. The data goes to a temporary file beside the target (in the
 * same directory, so that the final rename is atomic); it replaces the target only once every
 * write, the flush, fsync and close have succeeded. On any failure the temporary file is removed
 * and the target, if there was one, is left as it was: a reader never sees a cut file under the
 * final name, and a failed save never destroys the previous one. */
#ifndef KILN_CORE_ATOMIC_FILE_H
#define KILN_CORE_ATOMIC_FILE_H

#include <stdio.h>

#include "kiln.h"

typedef struct kiln_atomic_file {
    FILE *fp; /* write here */
    const char *path; /* the target */
    char tmp[4096]; /* the temporary file beside it */
} kiln_atomic_file;

/* Creates the temporary file (mode 0644, or the target's mode when it exists). KILN_ERR_INPUT
 * naming the path and the reason when it cannot be created. */
kiln_status kiln_atomic_open(kiln_ctx *ctx, const char *path, kiln_atomic_file *f);
/* Finishes the file: written says whether every write succeeded (with write_errno the reason
 * when not). Renames it over the target, or removes it and returns KILN_ERR_DEVICE naming the
 * first failure's reason. */
kiln_status kiln_atomic_commit(kiln_ctx *ctx, kiln_atomic_file *f, int written, int write_errno);

#endif
