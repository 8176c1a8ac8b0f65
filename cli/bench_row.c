/* The rows of `kiln bench`: every kind prints its measurement through bench_row_print. */
#include <stdio.h>

#include "bench.h"
#include "progress.h"

void bench_header(int width) { printf("%-*s %-44s %16s\n", width, "algo", "device", "rate"); }

void bench_row_print(kiln_ctx *ctx, const bench_row *r, int json, int first, int width)
{
    if (json) {
        printf("%s{\"algo\": \"%s\", \"device\": \"%s\", \"rate\": %.0f, \"unit\": \"%s\"%s}", first ? "" : ", ", r->name,
               kiln_ctx_device_name(ctx), r->rate, r->unit, r->json);
        return;
    }
    char rate[32];
    format_rate(r->rate, r->unit, rate, sizeof rate);
    printf("%-*s %-44s %16s%s\n", width, r->label ? r->label : r->name, kiln_ctx_device_name(ctx), rate, r->text);
}
