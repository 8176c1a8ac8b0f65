/* The rows of `kiln bench`: every kind prints its measurement through bench_row_print. */
#include <stdio.h>

#include "bench.h"
#include "common/json_out.h"
#include "common/progress.h"

void bench_header(int width) { printf("%-*s %-44s %16s\n", width, "algo", "device", "rate"); }

void bench_row_print(kiln_ctx *ctx, const bench_row *r, int json, int width)
{
    progress_clear();
    if (json) {
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
    printf("%-*s %-44s %16s%s\n", width, r->label ? r->label : r->name, kiln_ctx_device_name(ctx), rate, r->text);
}
