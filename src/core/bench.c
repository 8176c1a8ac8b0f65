#include <stdlib.h>

#include "bench.h"
#include "clock.h"
#include "ctx.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

double kiln_median(double *v, size_t n)
{
    if (n == 0) return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

float kiln_median_f(float *v, size_t n)
{
    if (n == 0) return 0;
    qsort(v, n, sizeof *v, cmp_float);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

kiln_status kiln_bench_median(const kiln_bench_spec *spec, double *median, int *runs)
{
    double values[KILN_BENCH_MAX_RUNS];
    int max = spec->max_runs < 1 || spec->max_runs > KILN_BENCH_MAX_RUNS ? KILN_BENCH_MAX_RUNS : spec->max_runs;
    int min = spec->min_runs < 1 ? 1 : spec->min_runs > max ? max : spec->min_runs;
    kiln_status st = KILN_OK;
    double scratch;
    /* the runs are counted as they start: a bench lasts a time (spec->seconds), not a count */
    for (int i = 0; i < spec->warmup && st == KILN_OK; i++) {
        kiln_ctx_report(spec->ctx, "bench", "runs", 0, 0);
        st = kiln_ctx_poll(spec->ctx);
        if (st == KILN_OK) st = spec->run(spec->user, -1 - i, &scratch);
    }
    int n = 0;
    double t0 = kiln_now();
    while (st == KILN_OK && n < max && (n < min || kiln_now() - t0 < spec->seconds)) {
        kiln_ctx_report(spec->ctx, "bench", "runs", (uint64_t)n, 0);
        st = kiln_ctx_poll(spec->ctx);
        if (st == KILN_OK) st = spec->run(spec->user, n, &values[n]);
        if (st == KILN_OK) n++;
    }
    if (st == KILN_OK && spec->verify) st = spec->verify(spec->user);
    if (runs) *runs = n;
    *median = st == KILN_OK ? kiln_median(values, (size_t)n) : 0;
    return st;
}
