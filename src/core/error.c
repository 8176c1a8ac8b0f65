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
