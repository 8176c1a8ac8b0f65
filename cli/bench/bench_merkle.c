/* kiln bench --algo merkle-* on a device set, or with --whole-build: the whole kiln_merkle_build
 * timed (kiln_merkle_bench_build), one row with the root of the bench leaves (in `kiln merkle`'s
 * order: sha256d byte-reversed). One device without
 * --whole-build keeps the kernel table of bench_tree (merkle_cli.c), unchanged. */
#include <stdio.h>

#include "bench.h"
#include "common/progress.h"
#include "tune/tune_cache.h"

static kiln_status bench_tree_whole(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a)
{
    kiln_merkle_algo algo = (kiln_merkle_algo)w->tree_algo;
    char name[48], root_hex[2 * KILN_MERKLE_NODE_SIZE + 1];
    kiln_workload_bench_name(w, kind, name, sizeof name);
    kiln_merkle_opts opts = {KILN_MERKLE_AUTO, (int)a->k, (int)a->tpb, a->graph_only};
    tune_cache_apply(ctx, w, kind, &opts);
    if (!a->method_all) opts.method = a->method;
    int cpu = kiln_ctx_backend(ctx) == KILN_BACKEND_CPU, devices = kiln_ctx_device_count(ctx);
    uint64_t reps = a->reps ? a->reps : cpu ? 3 : 10;
    kiln_merkle_bench_result r;
    uint8_t root[KILN_MERKLE_NODE_SIZE];
    kiln_status st = kiln_merkle_bench_build(ctx, algo, a->leaves, &opts, (int)reps, &r, root);
    if (st != KILN_OK) return st;
    kiln_hex_encode(root, KILN_MERKLE_NODE_SIZE, algo == KILN_MERKLE_SHA256D, root_hex); /* as `kiln merkle` prints */
    bench_row row = {name, NULL, "H/s", r.rate, "", ""};
    if (a->json) {
        snprintf(row.json, sizeof row.json,
                 ", \"leaves\": %llu, \"devices\": %d, \"whole_build\": true, \"results\": [{\"method\": \"%s\", "
                 "\"seconds\": %.9f, \"rate\": %.0f}], \"root\": \"%s\"",
                 (unsigned long long)r.leaves, devices, cpu ? "cpu" : "whole-build", r.seconds, r.rate, root_hex);
        bench_row_print(ctx, &row, a);
        return KILN_OK;
    }
    progress_clear();
    char rate[32];
    format_rate(r.rate, "H/s", rate, sizeof rate);
    printf("%s on %s (%d device%s), %llu leaves, the whole build (leaves from host memory)\n", name,
           kiln_ctx_device_name(ctx), devices, devices == 1 ? "" : "s", (unsigned long long)r.leaves);
    printf("%12s %14s  %s\n", "ms/tree", "tree rate", "root");
    printf("%12.3f %14s  %s\n", r.seconds * 1e3, rate, root_hex);
    return KILN_OK;
}

kiln_status bench_tree_devices(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a)
{
    if (a->whole_build || kiln_ctx_device_count(ctx) > 1) return bench_tree_whole(ctx, w, kind, a);
    return bench_tree(ctx, w, kind, a);
}
