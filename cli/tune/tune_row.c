/* The rows and the progress line of `kiln tune`'s sweeps. */
#include <stdarg.h>
#include <stdio.h>

#include "common/progress.h"
#include "tune.h"

static void add(tune_row *r, const char *fmt, va_list ap)
{
    int room = (int)sizeof r->text - r->used;
    int n = vsnprintf(r->text + r->used, (size_t)room, fmt, ap);
    if (n > 0) r->used += n < room ? n : room - 1;
    if (!progress_enabled()) { /* no line to share the terminal with: the cell appears at once */
        fputs(r->text, stdout);
        fflush(stdout);
        r->used = 0;
        r->text[0] = '\0';
    }
}

void tune_row_start(tune_row *r, const char *fmt, ...)
{
    r->used = 0;
    r->text[0] = '\0';
    va_list ap;
    va_start(ap, fmt);
    add(r, fmt, ap);
    va_end(ap);
}

void tune_row_add(tune_row *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add(r, fmt, ap);
    va_end(ap);
}

void tune_row_print(tune_row *r)
{
    progress_clear();
    printf("%s\n", r->text);
    fflush(stdout);
    r->used = 0;
    r->text[0] = '\0';
}

void tune_shape(int i, int n, const char *fmt, ...)
{
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    progress_task(0, "tune: shape %d of %d, %s", i, n, what);
}
