/* kiln tune --algo scrypt | scrypt-kdf: sweeps scrypt's GPU shapes, prints the table, caches the
 * best.
 *   scrypt (Litecoin search): layout (threads per hash 1 or 4) x lookup gap at the default launch,
 *     then threads per block and waves per launch (hashes per launch = waves x resident hashes)
 *     for the best of those. Each row shows the scratchpad bytes a hash moves (N/gap rows written,
 *     N rows read, 128 bytes each, plus B and the pad states) and the bandwidth that makes.
 *   scrypt-kdf (batch KDF, N=16384 r=8 p=1 unless -N/-r/-p): ROMix kernel (CUDA only; kept in the
 *     launch's items_per_thread) x lookup gap, then threads per block.
 * The values tried are the registry's tune axes. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "common/progress.h"
#include "tune.h"

typedef struct point {
    kiln_launch launch;
    kiln_scrypt_shape shape;
    double rate;
} point;

/* Litecoin scratchpad traffic per hash: N/gap rows written, N read, 128 bytes each; B in and
 * out of ROMix and the pad states (640 bytes). */
static double ltc_bytes(int gap) { return 131072.0 + 131072.0 / gap + 640.0; }

static int measure_mine(kiln_ctx *ctx, point *pt, double seconds, const char *cmd)
{
    kiln_status st = kiln_ctx_set_launch(ctx, KILN_ALGO_SCRYPT, pt->launch);
    if (st == KILN_OK) st = kiln_ctx_set_scrypt_shape(ctx, pt->shape);
    if (st == KILN_OK) st = kiln_bench_scan(ctx, KILN_ALGO_SCRYPT, seconds, &pt->rate);
    if (st != KILN_OK) return cli_fail(cmd, ctx, st);
    char r[32];
    format_rate(pt->rate, "H/s", r, sizeof r);
    double b = ltc_bytes(pt->shape.lookup_gap);
    progress_clear();
    printf("%-16s %4d %5d %6d %14s %12.0f %10.1f\n", pt->shape.threads_per_hash == 1 ? "1 thread/hash" : "4 threads/hash",
           pt->shape.lookup_gap, pt->launch.threads_per_block, pt->launch.items_per_thread, r, b, pt->rate * b / 1e9);
    fflush(stdout);
    return EXIT_OK;
}

/* Measures one point (its rate lands in pt->rate); an exit code. */
typedef int (*measure_fn)(kiln_ctx *ctx, point *pt, const tune_args *a);

/* After a line naming it, one refining step: the best point so far with the int at `field` set to
 * each other value of the axis; *best keeps the fastest. */
static int refine(kiln_ctx *ctx, const char *title, const kiln_tune_axis *axis, size_t field, const tune_args *a,
                  measure_fn measure, point *best)
{
    progress_clear();
    printf("-- %s\n", title);
    const point base = *best;
    int own, n = 0, k = 0;
    memcpy(&own, (const char *)&base + field, sizeof own);
    for (int i = 0; i < axis->count; i++) n += axis->values[i] != own;
    for (int i = 0; i < axis->count; i++) {
        if (axis->values[i] == own) continue;
        point pt = base;
        memcpy((char *)&pt + field, &axis->values[i], sizeof own);
        tune_shape(++k, n, "%s: %d", title, axis->values[i]);
        int code = measure(ctx, &pt, a);
        if (code != EXIT_OK) return code;
        if (pt.rate > best->rate) *best = pt;
    }
    return EXIT_OK;
}

/* Measures each of n starting points and keeps the fastest in *best. */
static int measure_each(kiln_ctx *ctx, point *pts, int n, const tune_args *a, measure_fn measure, point *best)
{
    best->rate = -1;
    for (int i = 0; i < n; i++) {
        tune_shape(i + 1, n, "lookup gap %d, %d threads per hash", pts[i].shape.lookup_gap,
                   pts[i].shape.threads_per_hash);
        int code = measure(ctx, &pts[i], a);
        if (code != EXIT_OK) return code;
        if (pts[i].rate > best->rate) *best = pts[i];
    }
    return EXIT_OK;
}

static int measure_search(kiln_ctx *ctx, point *pt, const tune_args *a)
{
    return measure_mine(ctx, pt, a->seconds > 0 ? a->seconds : 0.3, "tune");
}

/* Prints the best shape and hands it to the cache. */
static void report(const point *best, tune_entry *e)
{
    char rs[32];
    format_rate(best->rate, "H/s", rs, sizeof rs);
    progress_clear();
    printf("best: %d threads per hash, lookup gap %d, %d threads per block, %d wave(s) per launch: %s\n",
           best->shape.threads_per_hash, best->shape.lookup_gap, best->launch.threads_per_block,
           best->launch.items_per_thread, rs);
    e->launch = best->launch;
    e->shape = best->shape;
    e->rate = best->rate;
}

int tune_scrypt_search(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
                       const tune_args *a, tune_entry *e)
{
    (void)kind;
    (void)naxes;
    printf("tuning %s (Litecoin: N=1024, r=1, p=1) on %s\n", w->name, kiln_ctx_device_name(ctx));
    printf("%-16s %4s %5s %6s %14s %12s %10s\n", "layout", "gap", "tpb", "waves", "rate", "bytes/hash", "GB/s");
    point pts[64], best;
    int n = 0;
    for (int i = 0; i < axes[0].count; i++)
        for (int j = 0; j < axes[1].count && n < 64; j++) {
            int tph = axes[0].values[i];
            pts[n++] = (point){{tph == 4 ? 128 : 64, 1}, {tph, axes[1].values[j]}, 0};
        }
    int code = measure_each(ctx, pts, n, a, measure_search, &best);
    if (code == EXIT_OK)
        code = refine(ctx, "threads per block for the best layout and gap", &axes[2],
                      offsetof(point, launch.threads_per_block), a, measure_search, &best);
    if (code == EXIT_OK)
        code = refine(ctx, "waves of resident hashes per launch", &axes[3], offsetof(point, launch.items_per_thread),
                      a, measure_search, &best);
    if (code == EXIT_OK) report(&best, e);
    return code;
}

static int measure_kdf(kiln_ctx *ctx, point *pt, kiln_scrypt_params sp, double seconds, const char *cmd)
{
    kiln_status st = kiln_ctx_set_scrypt_kdf_launch(ctx, pt->launch, pt->shape);
    if (st == KILN_OK) st = kiln_bench_scrypt_kdf(ctx, sp, seconds, &pt->rate);
    if (st != KILN_OK) return cli_fail(cmd, ctx, st);
    char r[32];
    format_rate(pt->rate, "H/s", r, sizeof r);
    /* scratchpad traffic per password: p lanes, N/gap rows written and N read, 128 r bytes each */
    double b = 128.0 * sp.r * (double)sp.N * (1.0 + 1.0 / pt->shape.lookup_gap) * sp.p;
    progress_clear();
    printf("%6d %4d %5d %14s %14.0f %10.1f\n", pt->launch.items_per_thread, pt->shape.lookup_gap,
           pt->launch.threads_per_block, r, b, pt->rate * b / 1e9);
    fflush(stdout);
    return EXIT_OK;
}

static int measure_kdf_point(kiln_ctx *ctx, point *pt, const tune_args *a)
{
    return measure_kdf(ctx, pt, a->sp, a->seconds > 0 ? a->seconds : 3, "tune");
}

int tune_kdf(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
             const tune_args *a, tune_entry *e)
{
    (void)kind;
    kiln_scrypt_params sp = a->sp;
    printf("tuning %s (batch KDF: N=%llu, r=%u, p=%u) on %s\n", w->name, (unsigned long long)sp.N, sp.r, sp.p,
           kiln_ctx_device_name(ctx));
    printf("%6s %4s %5s %14s %14s %10s\n", "kernel", "gap", "tpb", "rate", "bytes/hash", "GB/s");
    point pts[32], best;
    int n = 0;
    /* the ROMix kernel axis: CUDA has both kernels for r = 1, 2, 4, 8, OpenCL kernel 2 for r = 8
     * only; another backend or r runs one kernel whatever the value */
    const int both = kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA || (kiln_ctx_backend(ctx) == KILN_BACKEND_OPENCL && sp.r == 8);
    const int kernels = both && naxes > 2 ? axes[2].count : 1;
    for (int k = 0; k < kernels; k++)
        for (int g = 0; g < axes[1].count && n < 32; g++)
            pts[n++] = (point){{128, naxes > 2 ? axes[2].values[k] : 1}, {4, axes[1].values[g]}, 0};
    int code = measure_each(ctx, pts, n, a, measure_kdf_point, &best);
    if (code == EXIT_OK)
        code = refine(ctx, "threads per block for the best kernel and gap", &axes[0],
                      offsetof(point, launch.threads_per_block), a, measure_kdf_point, &best);
    if (code == EXIT_OK) {
        char rs[32];
        format_rate(best.rate, "H/s", rs, sizeof rs);
        progress_clear();
        printf("best: ROMix kernel %d, lookup gap %d, %d threads per block: %s\n", best.launch.items_per_thread,
               best.shape.lookup_gap, best.launch.threads_per_block, rs);
        e->launch = best.launch;
        e->shape = best.shape;
        e->rate = best.rate;
    }
    return code;
}
