#include "mem_limit.h"

#include <stdarg.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

/* The words around the size in the message, per limit. */
static const char *const NAMES[4][2] = {
    {"this host's ", " of physical memory"},
    {"the process's address-space limit of ", " (ulimit -v)"},
    {"the process's data limit of ", " (ulimit -d)"},
    {"the context's memory limit of ", ""},
};

/* The smallest of the limits, and which one it is. */
static double host_limit(const kiln_ctx *ctx, int *which)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    double limit = pages > 0 && size > 0 ? (double)pages * (double)size : 1e300;
    *which = 0;
    const int res[2] = {RLIMIT_AS, RLIMIT_DATA};
    for (int i = 0; i < 2; i++) {
        struct rlimit rl;
        if (getrlimit(res[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (double)rl.rlim_cur < limit) {
            limit = (double)rl.rlim_cur;
            *which = i + 1;
        }
    }
    if (ctx && ctx->memory_limit && (double)ctx->memory_limit < limit) {
        limit = (double)ctx->memory_limit;
        *which = 3;
    }
    return limit;
}

uint64_t kiln_memory_limit(const kiln_ctx *ctx)
{
    int which;
    double limit = host_limit(ctx, &which);
    return limit >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)limit;
}

kiln_status kiln_ctx_set_memory_limit(kiln_ctx *ctx, uint64_t bytes)
{
    if (!ctx) return KILN_ERR_INPUT;
    ctx->memory_limit = bytes;
    return KILN_OK;
}

static void show_bytes(double b, char *out, size_t cap)
{
    if (b >= 1024.0 * 1024 * 1024) snprintf(out, cap, "%.1f GiB", b / (1024.0 * 1024 * 1024));
    else snprintf(out, cap, "%.1f MiB", b / (1024.0 * 1024));
}

kiln_status kiln_mem_check(kiln_ctx *ctx, double bytes, const char *fmt, ...)
{
    int which;
    double limit = host_limit(ctx, &which);
    if (bytes <= limit) return KILN_OK;
    char subject[256], need[32], have[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(subject, sizeof subject, fmt, ap);
    va_end(ap);
    show_bytes(bytes, need, sizeof need);
    show_bytes(limit, have, sizeof have);
    return kiln_fail(ctx, KILN_ERR_INPUT, "%s: needs %s, more than %s%s%s", subject, need, NAMES[which][0], have,
                     NAMES[which][1]);
}
