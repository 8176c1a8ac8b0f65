/* Shared pieces of the Merkle commands, and the tree kind of `kiln bench` and `kiln tune`. */
#include "merkle_cli.h"

#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "common/cli.h"
#include "common/progress.h"
#include "tune/tune.h"
#include "tune/tune_cache.h"

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

int merkle_cli_leaves_opt(const char *cmd, const char *s, uint64_t *n)
{
    if (merkle_cli_leaves(s, n) == 0 && *n >= 2) return 0;
    return cli_error(EXIT_USAGE, cmd, "bad --leaves '%s' (2^N with N <= 40, or a count >= 2)", s);
}

/* ---------------------------------------------------------------- kiln bench --algo merkle-* */

typedef struct tree_row {
    const char *method;
    kiln_merkle_opts opts;
    kiln_merkle_bench_result r;
} tree_row;

kiln_status bench_tree(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a)
{
    kiln_merkle_algo algo = (kiln_merkle_algo)w->tree_algo;
    char name[48];
    kiln_workload_bench_name(w, kind, name, sizeof name);
    uint64_t n = a->leaves, reps = a->reps ? a->reps : 10;
    int all = a->method_all, graph_only = a->graph_only;
    kiln_merkle_method method = a->method;
    kiln_merkle_opts base = {KILN_MERKLE_AUTO, (int)a->k, (int)a->tpb, 0};
    tune_cache_apply(ctx, w, kind, &base);
    tree_row rows[4];
    int nrows = 0;
    if (kiln_ctx_backend(ctx) == KILN_BACKEND_CPU) {
        rows[nrows++] = (tree_row){"cpu", base, {0}};
        if (!a->reps) reps = 3;
    } else {
        for (int m = 0; m < 2; m++) {
            kiln_merkle_method mm = m ? KILN_MERKLE_SUBTREES : KILN_MERKLE_LEVELS;
            if (!all && method != KILN_MERKLE_AUTO && method != mm) continue;
            if (!all && method == KILN_MERKLE_AUTO && mm != KILN_MERKLE_SUBTREES) continue;
            for (int g = graph_only; g < 2; g++) {
                tree_row row = {m ? (g ? "subtrees+graph" : "subtrees") : (g ? "levels+graph" : "levels"), base, {0}};
                row.opts.method = mm;
                row.opts.graph = g;
                rows[nrows++] = row;
            }
        }
    }
    double best = 0;
    for (int i = 0; i < nrows; i++) {
        kiln_status st = kiln_merkle_bench(ctx, algo, n, &rows[i].opts, (int)reps, &rows[i].r);
        if (st != KILN_OK) return st;
        if (rows[i].r.rate > best) best = rows[i].r.rate;
    }
    if (a->json) {
        bench_row row = {name, NULL, "H/s", best, "", ""};
        int used = snprintf(row.json, sizeof row.json, ", \"leaves\": %llu, \"results\": [", (unsigned long long)n);
        for (int i = 0; i < nrows; i++) {
            const tree_row *b = &rows[i];
            used += snprintf(row.json + used, sizeof row.json - (size_t)used, "%s{\"method\": \"%s\", \"k\": %d, \"threads_per_block\": %d, \"launches\": %d, \"seconds\": %.9f, "
                   "\"rate\": %.0f, \"raw_rate\": %.0f}",
                   i ? ", " : "", b->method, b->opts.method == KILN_MERKLE_LEVELS ? 1 : b->opts.subtree_log2,
                   b->opts.threads_per_block, b->r.launches, b->r.seconds, b->r.rate, b->r.raw_rate);
        }
        snprintf(row.json + used, sizeof row.json - (size_t)used, "]");
        bench_row_print(ctx, &row, a);
    } else {
        progress_clear();
        printf("%s on %s, %llu leaves (%llu merges per tree)\n", name, kiln_ctx_device_name(ctx),
               (unsigned long long)n, (unsigned long long)(n - 1));
        printf("%-15s %3s %5s %8s %12s %14s %14s %9s\n", "method", "k", "tpb", "launches", "ms/tree", "tree rate",
               "raw rate", "tree/raw");
        for (int i = 0; i < nrows; i++) {
            const tree_row *b = &rows[i];
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
    return KILN_OK;
}

/* ---------------------------------------------------------------- kiln tune --algo merkle-* */

int tune_tree(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
              const tune_args *a, tune_entry *bestp)
{
    (void)naxes;
    const char *cmd = "tune";
    kiln_merkle_algo algo = (kiln_merkle_algo)w->tree_algo;
    char name[48];
    kiln_workload_bench_name(w, kind, name, sizeof name);
    const int field = algo == KILN_MERKLE_RP64_256 || algo == KILN_MERKLE_RPO256; /* the slow merges */
    uint64_t n = a->leaves ? a->leaves : UINT64_C(1) << (field ? 20 : 22);
    uint64_t reps = a->reps ? a->reps : 5;
    const kiln_tune_axis *tpbs = &axes[0], *ks = &axes[1];
    printf("tuning %s on %s, %llu leaves: tree rate (merges/s, graph launches) per threads per block x k\n"
           "(k = levels per launch of the subtree kernel; k = 1 is one launch per level; the best k >= 2 is cached)\n",
           name, kiln_ctx_device_name(ctx), (unsigned long long)n);
    printf("%6s", "tpb\\k");
    for (int j = 0; j < ks->count; j++) printf(" %9d", ks->values[j]);
    printf("\n");
    tune_entry best, levels;
    memset(&best, 0, sizeof best);
    memset(&levels, 0, sizeof levels);
    int code = EXIT_OK;
    for (int t = 0; t < tpbs->count && code == EXIT_OK; t++) {
        /* a row is printed whole: the progress line cannot share a terminal line with half of it */
        tune_row row;
        tune_row_start(&row, "%6d", tpbs->values[t]);
        for (int j = 0; j < ks->count; j++) {
            int k = ks->values[j];
            tune_shape(t * ks->count + j + 1, tpbs->count * ks->count, "%d threads per block, k = %d", tpbs->values[t], k);
            kiln_merkle_opts o = {k == 1 ? KILN_MERKLE_LEVELS : KILN_MERKLE_SUBTREES, k, tpbs->values[t], 1};
            kiln_merkle_bench_result r;
            kiln_status st = kiln_merkle_bench(ctx, algo, n, &o, (int)reps, &r);
            if (st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "limit")) {
                tune_row_add(&row, " %9s", "-"); /* over the registers' or shared memory's limit */
                continue;
            }
            if (st != KILN_OK) {
                tune_row_print(&row);
                code = cli_fail(cmd, ctx, st);
                break;
            }
            char rs[32];
            format_rate(r.rate, "", rs, sizeof rs);
            tune_row_add(&row, " %9s", rs);
            tune_entry *e = k == 1 ? &levels : &best; /* the cache keeps the best subtree shape */
            if (r.rate > e->rate) {
                e->rate = r.rate;
                e->launch.threads_per_block = tpbs->values[t];
                e->launch.items_per_thread = k;
            }
        }
        if (code == EXIT_OK) tune_row_print(&row);
    }
    progress_end();
    if (code == EXIT_OK && best.rate > 0) {
        char r[32];
        format_rate(levels.rate, "H/s", r, sizeof r);
        printf("best one launch per level: %d threads per block: %s\n", levels.launch.threads_per_block, r);
        format_rate(best.rate, "H/s", r, sizeof r);
        printf("best: subtrees, %d threads per block, k = %d: %s (%.3f x one launch per level)\n",
               best.launch.threads_per_block, best.launch.items_per_thread, r,
               levels.rate > 0 ? best.rate / levels.rate : 0.0);
        *bestp = best;
    }
    return code;
}
