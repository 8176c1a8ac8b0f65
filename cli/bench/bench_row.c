/* The rows of `kiln bench`: every kind prints its measurement through bench_row_print. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "common/json_out.h"
#include "common/progress.h"

#define RATE_WIDTH 16 /* "999.99 Mperm/s" and the like, right-aligned */

void bench_label(const kiln_workload *w, kiln_kind kind, const bench_args *a, int gpu, char *out, size_t n)
{
    if (kind == KILN_KIND_PERMUTATION)
        snprintf(out, n, "%s/%s%s", w->name, gpu ? kiln_keccak_layout_name(a->layout) : "cpu",
                 gpu && a->in_registers ? "/regs" : "");
    else if (kind == KILN_KIND_HASH) snprintf(out, n, "%s/%lluB", w->name, (unsigned long long)a->size);
    else if (kind == KILN_KIND_KDF)
        snprintf(out, n, "%s N=%llu r=%u p=%u", w->name, (unsigned long long)a->sp.N, a->sp.r, a->sp.p);
    else snprintf(out, n, "%s", w->name);
}

static int max_int(int a, int b) { return a > b ? a : b; }

void bench_fit(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, bench_args *a)
{
    char label[128];
    bench_label(w, kind, a, kiln_ctx_backend(ctx) != KILN_BACKEND_CPU, label, sizeof label);
    a->name_width = max_int(max_int(a->name_width, (int)strlen("algo")), (int)strlen(label));
    a->device_width = max_int((int)strlen("device"), (int)strlen(kiln_ctx_device_name(ctx)));
}

void bench_header(const bench_args *a)
{
    printf("%-*s %-*s %*s\n", a->name_width, "algo", a->device_width, "device", RATE_WIDTH, "rate");
}

void bench_row_print(kiln_ctx *ctx, const bench_row *r, const bench_args *a)
{
    progress_clear();
    if (a->json) {
        json_object(NULL);
        json_str("algo", r->name);
        json_str("device", kiln_ctx_device_name(ctx));
        json_num("rate", r->rate, "%.0f");
        json_str("unit", r->unit);
        json_raw(r->json);
        json_close();
        return;
    }
    char rate[32];
    format_rate(r->rate, r->unit, rate, sizeof rate);
    printf("%-*s %-*s %*s%s\n", a->name_width, r->label ? r->label : r->name, a->device_width, kiln_ctx_device_name(ctx),
           RATE_WIDTH, rate, r->text);
}
