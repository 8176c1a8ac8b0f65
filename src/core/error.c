#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "ctx.h"

/* Devices of one context may fail in several threads at once (kiln_gpu_each): the message is
 * written under a lock, and with err_keep_first only the first one is kept. */
static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local const char *thread_prefix;

void kiln_err_set_thread_prefix(const char *prefix) { thread_prefix = prefix; }

kiln_status kiln_fail(kiln_ctx *ctx, kiln_status st, const char *fmt, ...)
{
    if (ctx) {
        pthread_mutex_lock(&err_lock);
        if (!(ctx->err_keep_first && ctx->err[0])) {
            int k = thread_prefix ? snprintf(ctx->err, sizeof ctx->err, "%s", thread_prefix) : 0;
            if (k < 0 || (size_t)k >= sizeof ctx->err) k = 0;
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(ctx->err + k, sizeof ctx->err - (size_t)k, fmt, ap);
            va_end(ap);
        }
        pthread_mutex_unlock(&err_lock);
    }
    return st;
}

/* The message kiln_fail wrote, read back beside it: any layer may read a context's error (src/dist
 * hands one process's to the others), and no layer below src/api may call into it. */
const char *kiln_last_error(const kiln_ctx *ctx)
{
    if (!ctx) return "no context";
    return ctx->err[0] ? ctx->err : "no error";
}

int kiln_ctx_interrupt_requested(const kiln_ctx *ctx)
{
    return ctx && ctx->interrupt && ctx->interrupt(ctx->interrupt_user);
}

kiln_status kiln_interrupted(kiln_ctx *ctx) { return kiln_fail(ctx, KILN_STOPPED, "interrupted"); }

kiln_status kiln_ctx_poll(kiln_ctx *ctx) { return kiln_ctx_interrupt_requested(ctx) ? kiln_interrupted(ctx) : KILN_OK; }
