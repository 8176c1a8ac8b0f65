/* Shared pieces of the Merkle commands, and `kiln bench` / `kiln tune` for merkle-* algorithms. */
#include "merkle_cli.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "tune_cache.h"

int merkle_cli_algo(const char *name, kiln_merkle_algo *algo)
{
    if (!name || strncmp(name, "merkle-", 7) != 0) return -1;
    if (strcmp(name + 7, "rp64") == 0) {
        *algo = KILN_MERKLE_RP64_256;
        return 0;
    }
    return kiln_merkle_algo_from_name(NULL, name + 7, algo) == KILN_OK ? 0 : -1;
}

const char *merkle_cli_cache_name(kiln_merkle_algo algo)
{
    switch (algo) {
    case KILN_MERKLE_SHA256D: return "merkle-sha256d";
    case KILN_MERKLE_SHA256: return "merkle-sha256";
    case KILN_MERKLE_SHA3_256: return "merkle-sha3-256";
    case KILN_MERKLE_KECCAK256: return "merkle-keccak256";
    case KILN_MERKLE_RP64_256: return "merkle-rp64";
    }
    return "merkle-unknown";
}

int merkle_cli_requested(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "--algo=merkle-", 14) == 0) return 1;
        if (strcmp(argv[i], "--algo") == 0 && i + 1 < argc && strncmp(argv[i + 1], "merkle-", 7) == 0) return 1;
    }
    return 0;
}

int merkle_cli_leaves(const char *s, uint64_t *n)
{
    uint64_t v;
    if (s && strncmp(s, "2^", 2) == 0) {
        if (cli_parse_u64(s + 2, 40, &v) != 0) return -1;
        *n = UINT64_C(1) << v;
        return 0;
    }
    if (cli_parse_u64(s, UINT64_C(1) << 40, &v) != 0 || v == 0) return -1;
    *n = v;
    return 0;
}

int merkle_cli_method(const char *s, kiln_merkle_method *m)
{
    if (strcmp(s, "levels") == 0) *m = KILN_MERKLE_LEVELS;
    else if (strcmp(s, "subtrees") == 0) *m = KILN_MERKLE_SUBTREES;
    else if (strcmp(s, "auto") == 0) *m = KILN_MERKLE_AUTO;
    else return -1;
    return 0;
}

void merkle_cli_apply_cache(kiln_ctx *ctx, kiln_merkle_algo algo, kiln_merkle_opts *o)
{
    char path[4096];
    tune_entry e;
    if (kiln_ctx_backend(ctx) != KILN_BACKEND_CUDA || tune_cache_path(path, sizeof path) != 0) return;
    if (tune_cache_lookup(path, merkle_cli_cache_name(algo), kiln_ctx_device_name(ctx), &e) != 0) return;
    if (!o->threads_per_block) o->threads_per_block = e.launch.threads_per_block;
    if (!o->subtree_log2) o->subtree_log2 = e.launch.items_per_thread;
}

/* ---------------------------------------------------------------- kiln bench --algo merkle-* */

typedef struct bench_row {
    const char *method;
    kiln_merkle_opts opts;
    kiln_merkle_bench_result r;
} bench_row;

static const char bench_usage[] =
    "usage: kiln bench --algo merkle-sha256d|merkle-sha256|merkle-rp64 [--leaves 2^N|N] [--device auto|cpu|cuda|cuda:I]\n"
    "                  [--method levels|subtrees|all] [--k K] [--threads-per-block T] [--graph] [--reps R] [--json]\n";

int cmd_bench_merkle(int argc, char **argv)
{
    const char *cmd = "bench", *algo_s = NULL, *device = "auto", *leaves_s = "2^20", *method_s = "all";
    const char *k_s = NULL, *tpb_s = NULL, *reps_s = NULL;
    int json = 0, graph_only = 0;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int r;
        if ((r = cli_opt(argc, argv, &i, "--algo", &v)) != 0) algo_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--device", &v)) != 0) device = v;
        else if ((r = cli_opt(argc, argv, &i, "--leaves", &v)) != 0) leaves_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--method", &v)) != 0) method_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--k", &v)) != 0) k_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--threads-per-block", &v)) != 0) tpb_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--reps", &v)) != 0) reps_s = v;
        else if (strcmp(argv[i], "--graph") == 0) graph_only = 1;
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            fputs(bench_usage, stdout);
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s'", argv[i]);
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", argv[i]);
    }
    kiln_merkle_algo algo;
    uint64_t n, k = 0, tpb = 0, reps = 10;
    if (merkle_cli_algo(algo_s, &algo) != 0)
        return cli_error(EXIT_USAGE, cmd, "unknown algorithm '%s' (expected merkle-sha256d, merkle-sha256 or merkle-rp64)",
                         algo_s ? algo_s : "");
    if (merkle_cli_leaves(leaves_s, &n) != 0 || n < 2)
        return cli_error(EXIT_USAGE, cmd, "bad --leaves '%s' (2^N with N <= 40, or a count >= 2)", leaves_s);
    if (k_s && (cli_parse_u64(k_s, 12, &k) != 0 || k == 0)) return cli_error(EXIT_USAGE, cmd, "bad --k '%s' (1..12)", k_s);
    if (tpb_s && cli_parse_u64(tpb_s, 1024, &tpb) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --threads-per-block '%s'", tpb_s);
    if (reps_s && (cli_parse_u64(reps_s, 1000, &reps) != 0 || reps == 0))
        return cli_error(EXIT_USAGE, cmd, "bad --reps '%s' (1..1000)", reps_s);
    int all = strcmp(method_s, "all") == 0;
    kiln_merkle_method method = KILN_MERKLE_AUTO;
    if (!all && merkle_cli_method(method_s, &method) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --method '%s' (levels, subtrees, auto or all)", method_s);

    int code;
    kiln_ctx *ctx = cli_open(cmd, device, 0, &code);
    if (!ctx) return code;
    kiln_merkle_opts base = {KILN_MERKLE_AUTO, (int)k, (int)tpb, 0};
    merkle_cli_apply_cache(ctx, algo, &base);
    bench_row rows[4];
    int nrows = 0;
    if (kiln_ctx_backend(ctx) == KILN_BACKEND_CPU) {
        rows[nrows++] = (bench_row){"cpu", base, {0}};
        if (!reps_s) reps = 3;
    } else {
        for (int m = 0; m < 2; m++) {
            kiln_merkle_method mm = m ? KILN_MERKLE_SUBTREES : KILN_MERKLE_LEVELS;
            if (!all && method != KILN_MERKLE_AUTO && method != mm) continue;
            if (!all && method == KILN_MERKLE_AUTO && mm != KILN_MERKLE_SUBTREES) continue;
            for (int g = graph_only; g < 2; g++) {
                bench_row row = {m ? (g ? "subtrees+graph" : "subtrees") : (g ? "levels+graph" : "levels"), base, {0}};
                row.opts.method = mm;
                row.opts.graph = g;
                rows[nrows++] = row;
            }
        }
    }
    code = EXIT_OK;
    double best = 0;
    for (int i = 0; i < nrows && code == EXIT_OK; i++) {
        kiln_status st = kiln_merkle_bench(ctx, algo, n, &rows[i].opts, (int)reps, &rows[i].r);
        if (st != KILN_OK) code = cli_fail(cmd, ctx, st);
        else if (rows[i].r.rate > best) best = rows[i].r.rate;
    }
    if (code == EXIT_OK && json) {
        printf("{\"algo\": \"%s\", \"device\": \"%s\", \"rate\": %.0f, \"unit\": \"H/s\", \"leaves\": %llu, \"results\": [",
               merkle_cli_cache_name(algo), kiln_ctx_device_name(ctx), best, (unsigned long long)n);
        for (int i = 0; i < nrows; i++) {
            const bench_row *b = &rows[i];
            printf("%s{\"method\": \"%s\", \"k\": %d, \"threads_per_block\": %d, \"launches\": %d, \"seconds\": %.9f, "
                   "\"rate\": %.0f, \"raw_rate\": %.0f}",
                   i ? ", " : "", b->method, b->opts.method == KILN_MERKLE_LEVELS ? 1 : b->opts.subtree_log2,
                   b->opts.threads_per_block, b->r.launches, b->r.seconds, b->r.rate, b->r.raw_rate);
        }
        printf("]}\n");
    } else if (code == EXIT_OK) {
        printf("%s on %s, %llu leaves (%llu merges per tree)\n", merkle_cli_cache_name(algo), kiln_ctx_device_name(ctx),
               (unsigned long long)n, (unsigned long long)(n - 1));
        printf("%-15s %3s %5s %8s %12s %14s %14s %9s\n", "method", "k", "tpb", "launches", "ms/tree", "tree rate",
               "raw rate", "tree/raw");
        for (int i = 0; i < nrows; i++) {
            const bench_row *b = &rows[i];
            char tr[32], rr[32] = "-", ratio[16] = "-", ks[8] = "-", ts[8] = "-";
            format_rate(b->r.rate, "H/s", tr, sizeof tr);
            if (b->r.raw_rate > 0) {
                format_rate(b->r.raw_rate, "H/s", rr, sizeof rr);
                snprintf(ratio, sizeof ratio, "%.3f", b->r.rate / b->r.raw_rate);
            }
            if (b->opts.method == KILN_MERKLE_SUBTREES) snprintf(ks, sizeof ks, "%d", b->opts.subtree_log2);
            if (strcmp(b->method, "cpu") != 0) snprintf(ts, sizeof ts, "%d", b->opts.threads_per_block);
            printf("%-15s %3s %5s %8d %12.3f %14s %14s %9s\n", b->method, ks, ts, b->r.launches, b->r.seconds * 1e3, tr,
                   rr, ratio);
        }
    }
    kiln_ctx_free(ctx);
    return code;
}

/* ---------------------------------------------------------------- kiln tune --algo merkle-* */

int cmd_tune_merkle(int argc, char **argv)
{
    const char *cmd = "tune", *algo_s = NULL, *device = "auto", *leaves_s = NULL, *reps_s = NULL;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int r;
        if ((r = cli_opt(argc, argv, &i, "--algo", &v)) != 0) algo_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--device", &v)) != 0) device = v;
        else if ((r = cli_opt(argc, argv, &i, "--leaves", &v)) != 0) leaves_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--reps", &v)) != 0) reps_s = v;
        else if (strcmp(argv[i], "--help") == 0) {
            puts("usage: kiln tune --algo merkle-sha256d|merkle-sha256|merkle-rp64 [--leaves 2^N|N] [--reps R]\n"
                 "                 [--device auto|cuda|cuda:I]");
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s'", argv[i]);
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", argv[i]);
    }
    kiln_merkle_algo algo;
    uint64_t n, reps = 5;
    if (merkle_cli_algo(algo_s, &algo) != 0)
        return cli_error(EXIT_USAGE, cmd, "unknown algorithm '%s' (expected merkle-sha256d, merkle-sha256 or merkle-rp64)",
                         algo_s ? algo_s : "");
    if (!leaves_s) leaves_s = algo == KILN_MERKLE_RP64_256 ? "2^20" : "2^22";
    if (merkle_cli_leaves(leaves_s, &n) != 0 || n < 2)
        return cli_error(EXIT_USAGE, cmd, "bad --leaves '%s' (2^N with N <= 40, or a count >= 2)", leaves_s);
    if (reps_s && (cli_parse_u64(reps_s, 100, &reps) != 0 || reps == 0))
        return cli_error(EXIT_USAGE, cmd, "bad --reps '%s' (1..100)", reps_s);
    int code;
    kiln_ctx *ctx = cli_open_tune_gpu(cmd, device, &code);
    if (!ctx) return code;
    static const int tpbs[] = {32, 64, 128, 256, 512, 1024};
    printf("tuning %s on %s, %llu leaves: tree rate (merges/s, graph launches) per threads per block x k\n"
           "(k = levels per launch of the subtree kernel; k = 1 is one launch per level; the best k >= 2 is cached)\n",
           merkle_cli_cache_name(algo), kiln_ctx_device_name(ctx), (unsigned long long)n);
    printf("%6s", "tpb\\k");
    for (int k = 1; k <= 8; k++) printf(" %9d", k);
    printf("\n");
    tune_entry best, levels;
    memset(&best, 0, sizeof best);
    memset(&levels, 0, sizeof levels);
    code = EXIT_OK;
    for (size_t t = 0; t < sizeof tpbs / sizeof tpbs[0] && code == EXIT_OK; t++) {
        printf("%6d", tpbs[t]);
        for (int k = 1; k <= 8; k++) {
            kiln_merkle_opts o = {k == 1 ? KILN_MERKLE_LEVELS : KILN_MERKLE_SUBTREES, k, tpbs[t], 1};
            kiln_merkle_bench_result r;
            kiln_status st = kiln_merkle_bench(ctx, algo, n, &o, (int)reps, &r);
            if (st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "limit")) {
                printf(" %9s", "-"); /* over the registers' or shared memory's limit */
                continue;
            }
            if (st != KILN_OK) {
                printf("\n");
                code = cli_fail(cmd, ctx, st);
                break;
            }
            char rs[32];
            format_rate(r.rate, "", rs, sizeof rs);
            printf(" %9s", rs);
            fflush(stdout);
            tune_entry *e = k == 1 ? &levels : &best; /* the cache keeps the best subtree shape */
            if (r.rate > e->rate) {
                e->rate = r.rate;
                e->launch.threads_per_block = tpbs[t];
                e->launch.items_per_thread = k;
            }
        }
        if (code == EXIT_OK) printf("\n");
    }
    if (code == EXIT_OK && best.rate > 0) {
        char r[32];
        format_rate(levels.rate, "H/s", r, sizeof r);
        printf("best one launch per level: %d threads per block: %s\n", levels.launch.threads_per_block, r);
        format_rate(best.rate, "H/s", r, sizeof r);
        printf("best: subtrees, %d threads per block, k = %d: %s (%.3f x one launch per level)\n",
               best.launch.threads_per_block, best.launch.items_per_thread, r,
               levels.rate > 0 ? best.rate / levels.rate : 0.0);
        tune_cache_save(ctx, merkle_cli_cache_name(algo), &best);
    }
    kiln_ctx_free(ctx);
    return code;
}
