/* kiln bench: measured rates, as a table or JSON. The algorithm names a (workload, kind) pair of
 * the registry; the kind picks the routine, and --algo all runs every workload's bench_all_kinds. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "common/cli.h"
#include "common/interrupt.h"
#include "common/json_out.h"
#include "common/opts.h"
#include "common/progress.h"
#include "merkle/merkle_cli.h"

#define ROWS (KILN_KIND_SEARCH | KILN_KIND_HASH | KILN_KIND_PERMUTATION) /* kinds printed as table rows */

static bench_fn routine(kiln_kind kind)
{
    switch (kind) {
    case KILN_KIND_SEARCH: return bench_search;
    case KILN_KIND_HASH:
    case KILN_KIND_PERMUTATION: return bench_hash;
    case KILN_KIND_KDF: return bench_kdf;
    case KILN_KIND_TREE: return bench_tree_devices;
    case KILN_KIND_GRAPH: return bench_graph;
    }
    return NULL;
}

int cmd_bench(int argc, char **argv)
{
    const char *cmd = "bench", *algo_s = "all", *device = "auto", *layout_s = NULL, *leaves_s = "2^20";
    int method = -1; /* -1: all */
    bench_args a;
    memset(&a, 0, sizeof a);
    a.size = 32;
    uint64_t threads = 0;
    cli_scrypt_cost cost = CLI_SCRYPT_COST_DEFAULT;
    const unsigned KDF = KILN_KIND_KDF, TREE = KILN_KIND_TREE;
    cli_output out = {0, 0, 0};
    cli_option opts[] = {
        {"--algo", OPT_ALGO, &algo_s, "A", "what to measure, or all (the default)", .kinds = KILN_KIND_ALL, .bench = 1},
        CLI_OPT_DEVICE(&device, CLI_DEVICE_VALUES, "where to measure (default auto); a set measures all its GPUs together", 0),
        {"--threads", OPT_U64, &threads, "N", "CPU threads (0: one per core)", .modes = ROWS, .hi = 4096},
        {"--seconds", OPT_SECONDS, &a.seconds, "S", "time per measurement (default 2; key derivation 4)",
         .modes = ROWS | KDF, .hi = 600},
        CLI_OPT_JSON(&out, 0),
        CLI_OPT_PROGRESS(&out, 0),
        {"--size", OPT_U64, &a.size, "BYTES", "hash message size (default 32)", .modes = KILN_KIND_HASH,
         .hi = UINT64_C(1) << 24},
        {"--offsets", OPT_FLAG, &a.offsets, NULL, "hash: read an offsets array (the general batch path)",
         .modes = KILN_KIND_HASH},
        {"--layout", OPT_STR, &layout_s, "auto|thread|unrolled|lane", "permutation GPU layout",
         .modes = KILN_KIND_PERMUTATION, .gpu_only = 1},
        {"--in-registers", OPT_FLAG, &a.in_registers, NULL, "permutation: 16 per state load and store",
         .modes = KILN_KIND_PERMUTATION, .gpu_only = 1},
        CLI_OPT_SCRYPT_COST(&cost, KDF),
        {"--leaves", OPT_STR, &leaves_s, "2^N|N", "tree leaves (default 2^20)", .modes = TREE},
        {"--method", OPT_CHOICE, &method, "levels|subtrees|auto|all", "tree build methods (default all)", .modes = TREE,
         .gpu_only = 1, .choices = (const int[]){KILN_MERKLE_LEVELS, KILN_MERKLE_SUBTREES, KILN_MERKLE_AUTO, -1}},
        {"--k", OPT_U64, &a.k, "K", "tree levels per subtree launch", .modes = TREE, .lo = 1, .hi = 12, .gpu_only = 1},
        {"--threads-per-block", OPT_U64, &a.tpb, "T", "tree GPU threads per block", .modes = TREE, .hi = 1024,
         .gpu_only = 1},
        {"--graph", OPT_FLAG, &a.graph_only, NULL, "tree: only the CUDA graph launches", .modes = TREE, .gpu_only = 1},
        {"--reps", OPT_U64, &a.reps, "R", "trees built per measurement (default 10; 3 on the CPU)", .modes = TREE,
         .lo = 1, .hi = 1000},
        {"--whole-build", OPT_FLAG, &a.whole_build, NULL,
         "tree: time the whole build from host memory and print its root (always on a device set)", .modes = TREE},
    };
    cli_command c = CLI_COMMAND(cmd, "[--algo A] [options]", NULL, opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return json_end(code == CLI_HELP ? EXIT_OK : code);
    if ((code = cli_output_start(&c, &out)) != 0) return json_end(code);
    a.json = out.json;

    const kiln_workload *w = NULL;
    kiln_kind kind = KILN_KIND_SEARCH;
    int all = strcmp(algo_s, "all") == 0;
    unsigned mode = 0;
    for (size_t i = 0; all && i < kiln_workload_count(); i++) mode |= kiln_workload_at(i)->bench_all_kinds;
    if (!all && !(w = cli_bench_workload(cmd, algo_s, 0, &kind, &code))) return json_end(code);
    if (!all) mode = kind;
    char what[80];
    snprintf(what, sizeof what, "--algo %s", algo_s);
    if ((code = cli_check_mode(&c, mode, what)) != 0) return json_end(code);
    a.sp = cli_scrypt_params(&cost);
    if (layout_s && kiln_keccak_layout_from_name(NULL, layout_s, &a.layout) != KILN_OK)
        return json_end(
            cli_error(EXIT_USAGE, cmd, "unknown --layout '%s' (expected auto, thread, unrolled or lane)", layout_s));
    if ((mode & TREE) && (code = merkle_cli_leaves_opt(cmd, leaves_s, &a.leaves)) != 0) return json_end(code);
    a.method_all = method < 0;
    if (!a.method_all) a.method = (kiln_merkle_method)method;

    kiln_ctx *ctx = cli_open(cmd, device, (int)threads, &code);
    if (!ctx) return json_end(code);
    if ((code = cli_check_gpu(&c, ctx)) != 0) {
        kiln_ctx_free(ctx);
        return json_end(code);
    }
    progress_attach(ctx);
    int rows = 0; /* measurements */
    for (size_t i = 0; i < (all ? kiln_workload_count() : 1); i++)
        for (unsigned k = 1; k <= KILN_KIND_PERMUTATION; k <<= 1)
            rows += !!((all ? kiln_workload_at(i)->bench_all_kinds : (unsigned)kind) & k);
    for (size_t i = 0; i < (all ? kiln_workload_count() : 1); i++)
        for (unsigned k = 1; k <= KILN_KIND_PERMUTATION; k <<= 1)
            if ((all ? kiln_workload_at(i)->bench_all_kinds : (unsigned)kind) & k & (ROWS | KDF | KILN_KIND_GRAPH))
                bench_fit(ctx, all ? kiln_workload_at(i) : w, (kiln_kind)k, &a);
    if (!a.json && (mode & (ROWS | KDF | KILN_KIND_GRAPH))) bench_header(&a);
    if (rows > 1) { /* one row is the document; several are its "results" */
        json_object(NULL);
        json_array("results");
    }
    int done = 0;
    for (size_t i = 0; i < (all ? kiln_workload_count() : 1) && code == EXIT_OK; i++) {
        const kiln_workload *wi = all ? kiln_workload_at(i) : w;
        for (unsigned k = 1; k <= KILN_KIND_PERMUTATION && code == EXIT_OK; k <<= 1) {
            if (!((all ? wi->bench_all_kinds : (unsigned)kind) & k)) continue;
            if (cli_interrupted()) { /* between two measurements */
                code = cli_interrupt_exit(cmd);
                break;
            }
            char name[48];
            kiln_workload_bench_name(wi, (kiln_kind)k, name, sizeof name);
            progress_task(0, "bench: %d of %d, %s", ++done, rows, name);
            kiln_status st = routine((kiln_kind)k)(ctx, wi, (kiln_kind)k, &a);
            if (st != KILN_OK) code = cli_fail(cmd, ctx, st);
        }
    }
    progress_end();
    kiln_ctx_free(ctx);
    return json_end(code);
}
