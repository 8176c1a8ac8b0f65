/* kiln tune --algo scrypt | scrypt-kdf: sweeps scrypt's GPU shapes, prints the table, caches the
 * best.
 *   scrypt (Litecoin search): layout (threads per hash 1 or 4) x lookup gap at the default launch,
 *     then threads per block and waves per launch (hashes per launch = waves x resident hashes)
 *     for the best of those. Each row shows the scratchpad bytes a hash moves (N/gap rows written,
 *     N rows read, 128 bytes each, plus B and the pad states) and the bandwidth that makes.
 *   scrypt-kdf (batch KDF, N=16384 r=8 p=1 unless -N/-r/-p): lookup gap, then threads per block. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "tune_cache.h"

int tune_scrypt_wanted(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--algo=scrypt") == 0 || strcmp(a, "--algo=scrypt-kdf") == 0) return 1;
        if (strcmp(a, "--algo") == 0 && i + 1 < argc &&
            (strcmp(argv[i + 1], "scrypt") == 0 || strcmp(argv[i + 1], "scrypt-kdf") == 0))
            return 1;
    }
    return 0;
}

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
    printf("%-16s %4d %5d %6d %14s %12.0f %10.1f\n", pt->shape.threads_per_hash == 1 ? "1 thread/hash" : "4 threads/hash",
           pt->shape.lookup_gap, pt->launch.threads_per_block, pt->launch.items_per_thread, r, b, pt->rate * b / 1e9);
    fflush(stdout);
    return EXIT_OK;
}

static int tune_mine(kiln_ctx *ctx, double seconds, const char *cmd, point *best)
{
    printf("tuning scrypt (Litecoin: N=1024, r=1, p=1) on %s\n", kiln_ctx_device_name(ctx));
    printf("%-16s %4s %5s %6s %14s %12s %10s\n", "layout", "gap", "tpb", "waves", "rate", "bytes/hash", "GB/s");
    static const int tphs[] = {1, 4}, gaps[] = {1, 2, 4, 8};
    best->rate = -1;
    for (size_t i = 0; i < 2; i++) {
        for (size_t j = 0; j < sizeof gaps / sizeof gaps[0]; j++) {
            point pt = {{tphs[i] == 4 ? 128 : 64, 1}, {tphs[i], gaps[j]}, 0};
            int code = measure_mine(ctx, &pt, seconds, cmd);
            if (code != EXIT_OK) return code;
            if (pt.rate > best->rate) *best = pt;
        }
    }
    printf("-- threads per block for the best layout and gap\n");
    static const int tpbs[] = {32, 64, 128, 256};
    point base = *best;
    for (size_t i = 0; i < sizeof tpbs / sizeof tpbs[0]; i++) {
        if (tpbs[i] == base.launch.threads_per_block) continue;
        point pt = base;
        pt.launch.threads_per_block = tpbs[i];
        int code = measure_mine(ctx, &pt, seconds, cmd);
        if (code != EXIT_OK) return code;
        if (pt.rate > best->rate) *best = pt;
    }
    printf("-- waves of resident hashes per launch\n");
    base = *best;
    for (int w = 2; w <= 4; w *= 2) {
        point pt = base;
        pt.launch.items_per_thread = w;
        int code = measure_mine(ctx, &pt, seconds, cmd);
        if (code != EXIT_OK) return code;
        if (pt.rate > best->rate) *best = pt;
    }
    return EXIT_OK;
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
    printf("%4d %5d %14s %14.0f %10.1f\n", pt->shape.lookup_gap, pt->launch.threads_per_block, r, b, pt->rate * b / 1e9);
    fflush(stdout);
    return EXIT_OK;
}

static int tune_kdf(kiln_ctx *ctx, kiln_scrypt_params sp, double seconds, const char *cmd, point *best)
{
    printf("tuning scrypt-kdf (batch KDF: N=%llu, r=%u, p=%u) on %s\n", (unsigned long long)sp.N, sp.r, sp.p,
           kiln_ctx_device_name(ctx));
    printf("%4s %5s %14s %14s %10s\n", "gap", "tpb", "rate", "bytes/hash", "GB/s");
    best->rate = -1;
    for (int g = 1; g <= 8; g *= 2) {
        point pt = {{128, 1}, {4, g}, 0};
        int code = measure_kdf(ctx, &pt, sp, seconds, cmd);
        if (code != EXIT_OK) return code;
        if (pt.rate > best->rate) *best = pt;
    }
    printf("-- threads per block for the best gap\n");
    point base = *best;
    for (int tpb = 64; tpb <= 256; tpb *= 4) {
        point pt = base;
        pt.launch.threads_per_block = tpb;
        int code = measure_kdf(ctx, &pt, sp, seconds, cmd);
        if (code != EXIT_OK) return code;
        if (pt.rate > best->rate) *best = pt;
    }
    return EXIT_OK;
}

int cmd_tune_scrypt(int argc, char **argv)
{
    const char *cmd = "tune", *algo_s = "scrypt", *device = "auto", *seconds_s = NULL, *v;
    const char *n_s = NULL, *r_s = NULL, *p_s = NULL;
    for (int i = 0; i < argc; i++) {
        int r;
        if ((r = cli_opt(argc, argv, &i, "--algo", &v)) != 0) algo_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--device", &v)) != 0) device = v;
        else if ((r = cli_opt(argc, argv, &i, "--seconds", &v)) != 0) seconds_s = v;
        else if ((r = cli_opt(argc, argv, &i, "-N", &v)) != 0) n_s = v;
        else if ((r = cli_opt(argc, argv, &i, "-r", &v)) != 0) r_s = v;
        else if ((r = cli_opt(argc, argv, &i, "-p", &v)) != 0) p_s = v;
        else if (strcmp(argv[i], "--help") == 0) {
            puts("usage: kiln tune --algo scrypt|scrypt-kdf [-N n -r r -p p (scrypt-kdf)] [--device auto|cuda|cuda:I] "
                 "[--seconds S per shape]");
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s'", argv[i]);
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", argv[i]);
    }
    int kdf = strcmp(algo_s, "scrypt-kdf") == 0;
    uint64_t N = 16384, r = 8, p = 1;
    if (n_s && cli_parse_u64(n_s, UINT64_MAX, &N) != 0) return cli_error(EXIT_USAGE, cmd, "bad -N '%s'", n_s);
    if (r_s && cli_parse_u64(r_s, UINT32_MAX, &r) != 0) return cli_error(EXIT_USAGE, cmd, "bad -r '%s'", r_s);
    if (p_s && cli_parse_u64(p_s, UINT32_MAX, &p) != 0) return cli_error(EXIT_USAGE, cmd, "bad -p '%s'", p_s);
    if (!kdf && (n_s || r_s || p_s)) return cli_error(EXIT_USAGE, cmd, "-N, -r and -p apply to --algo scrypt-kdf");
    double seconds = kdf ? 3 : 0.3;
    if (seconds_s && cli_parse_seconds(seconds_s, 60, &seconds) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --seconds '%s'", seconds_s);
    kiln_scrypt_params sp = {N, (uint32_t)r, (uint32_t)p};
    int code;
    kiln_ctx *ctx = cli_open_tune_gpu(cmd, device, &code);
    if (!ctx) return code;
    point best;
    code = kdf ? tune_kdf(ctx, sp, seconds, cmd, &best) : tune_mine(ctx, seconds, cmd, &best);
    if (code == EXIT_OK) {
        char rs[32];
        format_rate(best.rate, "H/s", rs, sizeof rs);
        printf("best: %d threads per hash, lookup gap %d, %d threads per block, %d wave(s) per launch: %s\n",
               best.shape.threads_per_hash, best.shape.lookup_gap, best.launch.threads_per_block,
               best.launch.items_per_thread, rs);
        tune_entry e;
        memset(&e, 0, sizeof e);
        e.launch = best.launch;
        e.shape = best.shape;
        e.rate = best.rate;
        if (kdf && (n_s || r_s || p_s))
            printf("not cached: the cache holds the batch KDF's shape for N=16384, r=8, p=1\n");
        else tune_cache_save(ctx, kdf ? "scrypt-kdf" : "scrypt", &e);
    }
    kiln_ctx_free(ctx);
    return code;
}
