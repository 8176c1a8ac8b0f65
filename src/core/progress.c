/* Progress reports to the context's hook. The hook may be reached from several worker threads at
 * once; a try-lock (not a lock) keeps it to one at a time without making any thread wait, since a
 * report dropped is replaced by the next one a few milliseconds later. */
#include <math.h>

#include "ctx.h"

int kiln_ctx_has_progress(const kiln_ctx *ctx) { return ctx && ctx->progress; }

void kiln_ctx_report_residual(const kiln_ctx *ctx, const char *stage, const char *unit, uint64_t done, uint64_t total,
                              double residual)
{
    if (!ctx || !ctx->progress) return;
    /* the flag is the one field a report changes, through a const context: reports come from
     * calls that take the context as read-only */
    int *busy = (int *)&ctx->progress_busy;
    if (__atomic_exchange_n(busy, 1, __ATOMIC_ACQUIRE)) return;
    kiln_progress p = {stage, unit, done, total, residual};
    ctx->progress(ctx->progress_user, &p);
    __atomic_store_n(busy, 0, __ATOMIC_RELEASE);
}

void kiln_ctx_report(const kiln_ctx *ctx, const char *stage, const char *unit, uint64_t done, uint64_t total)
{
    kiln_ctx_report_residual(ctx, stage, unit, done, total, NAN);
}
