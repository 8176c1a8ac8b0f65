#include <stdarg.h>
#include <stdio.h>

#include "ctx.h"

kiln_status kiln_fail(kiln_ctx *ctx, kiln_status st, const char *fmt, ...)
{
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
        va_end(ap);
    }
    return st;
}

int kiln_ctx_interrupt_requested(const kiln_ctx *ctx)
{
    return ctx && ctx->interrupt && ctx->interrupt(ctx->interrupt_user);
}

kiln_status kiln_interrupted(kiln_ctx *ctx) { return kiln_fail(ctx, KILN_STOPPED, "interrupted"); }

kiln_status kiln_ctx_poll(kiln_ctx *ctx) { return kiln_ctx_interrupt_requested(ctx) ? kiln_interrupted(ctx) : KILN_OK; }
