/* kiln tune: sweep a workload's GPU launch shapes (the registry's tune axes), print the table,
 * cache the best under its bench name. The kind picks the sweep. */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "common/interrupt.h"
#include "common/opts.h"
#include "common/progress.h"
#include "merkle/merkle_cli.h"
#include "tune.h"

int tune_grid_search(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes, int naxes,
                     const tune_args *a, tune_entry *best)
{
    (void)kind;
    (void)naxes;
    const kiln_tune_axis *tpbs = &axes[0], *ipts = &axes[1];
    kiln_algo algo = (kiln_algo)w->search_algo;
    double seconds = a->seconds > 0 ? a->seconds : 0.3;
    printf("tuning %s on %s (rate per threads-per-block x nonces-per-thread)\n", w->name, kiln_ctx_device_name(ctx));
    printf("%8s", "tpb\\npt");
    for (int j = 0; j < ipts->count; j++) printf(" %12d", ipts->values[j]);
    printf("\n");
    int code = EXIT_OK;
    for (int i = 0; i < tpbs->count && code == EXIT_OK; i++) {
        tune_row row;
        tune_row_start(&row, "%8d", tpbs->values[i]);
        for (int j = 0; j < ipts->count; j++) {
            kiln_launch l = {tpbs->values[i], ipts->values[j]};
            tune_shape(i * ipts->count + j + 1, tpbs->count * ipts->count, "%d threads per block x %d nonces per thread",
                       l.threads_per_block, l.items_per_thread);
            double rate = 0;
            kiln_status st = kiln_ctx_set_launch(ctx, algo, l);
            if (st == KILN_OK) st = kiln_bench_scan(ctx, algo, seconds, &rate);
            if (st != KILN_OK) {
                tune_row_print(&row);
                code = cli_fail("tune", ctx, st);
                break;
            }
            char r[32];
            format_rate(rate, "H/s", r, sizeof r);
            tune_row_add(&row, " %12s", r);
            if (rate > best->rate) {
                best->rate = rate;
                best->launch = l;
            }
        }
        if (code == EXIT_OK) tune_row_print(&row);
    }
    progress_end();
    if (code == EXIT_OK) {
        char r[32];
        format_rate(best->rate, "H/s", r, sizeof r);
        printf("best: %d threads per block, %d nonces per thread: %s\n", best->launch.threads_per_block,
               best->launch.items_per_thread, r);
    }
    return code;
}

/* One sweep on ctx, cached under its GPU model and backend unless cut short or custom. */
static int tune_one(kiln_ctx *ctx, tune_fn fn, const kiln_workload *w, kiln_kind kind, const kiln_tune_axis *axes,
                    int naxes, const tune_args *a, const char *name, int custom)
{
    const char *cmd = "tune";
    progress_attach(ctx);
    tune_entry best;
    memset(&best, 0, sizeof best);
    int code = fn(ctx, w, kind, axes, naxes, a, &best);
    progress_end();
    /* a sweep cut short caches nothing, even when the signal came after its last measurement */
    if (code == EXIT_OK && cli_interrupted()) code = cli_interrupt_exit(cmd);
    if (code == EXIT_OK && custom)
        printf("not cached: the cache holds the batch KDF's shape for N=%d, r=%d, p=%d\n", CLI_SCRYPT_N, CLI_SCRYPT_R,
               CLI_SCRYPT_P);
    else if (code == EXIT_OK && best.rate > 0) tune_cache_save(ctx, name, &best);
    return code;
}

int cmd_tune(int argc, char **argv)
{
    const char *cmd = "tune", *algo_s = "sha256d", *device = "auto", *leaves_s = NULL;
    tune_args a;
    memset(&a, 0, sizeof a);
    cli_scrypt_cost cost = CLI_SCRYPT_COST_DEFAULT;
    const unsigned KDF = KILN_KIND_KDF, TREE = KILN_KIND_TREE;
    cli_output out = {0, 0, 0};
    cli_option opts[] = {
        {"--algo", OPT_ALGO, &algo_s, "A", "what to tune (default sha256d)", .kinds = KILN_KIND_ALL, .bench = 2},
        CLI_OPT_DEVICE(&device, CLI_DEVICE_GPU_VALUES, "the GPU (default auto: the first CUDA GPU); a set: each GPU model "
                       "in it once; an OpenCL device's shapes are cached apart from its CUDA ones", 0),
        {"--seconds", OPT_SECONDS, &a.seconds, "S", "time per shape (default 0.3; key derivation 3)",
         .modes = KILN_KIND_SEARCH | KDF, .hi = 60},
        CLI_OPT_SCRYPT_COST(&cost, KDF),
        {"--leaves", OPT_STR, &leaves_s, "2^N|N", "tree leaves (default 2^22; Rescue Prime 2^20)", .modes = TREE},
        {"--reps", OPT_U64, &a.reps, "R", "trees built per shape (default 5)", .modes = TREE, .lo = 1, .hi = 100},
        CLI_OPT_PROGRESS(&out, 0),
    };
    cli_command c = CLI_COMMAND(cmd, "[--algo A] [options]",
                                "A key derivation cost other than the defaults is measured, not cached.\n", opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return code == CLI_HELP ? EXIT_OK : code;
    if ((code = cli_output_start(&c, &out)) != 0) return code;
    kiln_kind kind;
    const kiln_workload *w = cli_bench_workload(cmd, algo_s, 1, &kind, &code);
    if (!w) return code;
    char name[48], what[80];
    kiln_workload_bench_name(w, kind, name, sizeof name);
    snprintf(what, sizeof what, "--algo %s", name);
    if ((code = cli_check_mode(&c, kind, what)) != 0) return code;
    if (leaves_s && (code = merkle_cli_leaves_opt(cmd, leaves_s, &a.leaves)) != 0) return code;
    a.sp = cli_scrypt_params(&cost);
    kiln_tune_axis axes[4];
    int naxes = kiln_workload_tune_axes(w, kind, axes);
    tune_fn fn = NULL;
    switch (kind) {
    case KILN_KIND_SEARCH: fn = naxes == 4 ? tune_scrypt_search : tune_grid_search; break;
    case KILN_KIND_KDF: fn = tune_kdf; break;
    case KILN_KIND_TREE: fn = tune_tree; break;
    default: break;
    }
    if (!fn || naxes < 2) return cli_error(EXIT_USAGE, cmd, "%s has no launch shape to tune", name);

    kiln_ctx *ctx = cli_open_tune_gpu(cmd, device, &code);
    if (!ctx) return code;
    int custom = kind == KILN_KIND_KDF && (cli_given(&c, "-N") || cli_given(&c, "-r") || cli_given(&c, "-p"));
    const int n = kiln_ctx_device_count(ctx);
    if (n == 1) {
        code = tune_one(ctx, fn, w, kind, axes, naxes, &a, name, custom);
        kiln_ctx_free(ctx);
        return code;
    }
    /* a set: the cache holds a shape per GPU model (every device of a set runs the context's one
     * shape), so each model of the set is swept once, alone on its first device (a set is of one
     * backend). */
    const kiln_backend b = kiln_ctx_backend(ctx);
    int ordinals[KILN_MAX_DEVICES], nord = 0;
    char models[KILN_MAX_DEVICES][128];
    for (int i = 0; i < n && nord < KILN_MAX_DEVICES; i++) {
        kiln_device_info info;
        int ord = kiln_ctx_device_ordinal(ctx, i), seen = 0;
        if (kiln_device_get(kiln_device_index(b, ord), &info) != KILN_OK)
            kiln_device_spec(b, ord, info.name, sizeof info.name);
        for (int j = 0; j < nord; j++) seen |= strcmp(models[j], info.name) == 0;
        if (seen) continue;
        ordinals[nord] = ord;
        snprintf(models[nord++], sizeof models[0], "%s", info.name);
    }
    kiln_ctx_free(ctx);
    printf("a set of %d devices, %d GPU model%s: each tuned once, on its first device\n", n, nord, nord > 1 ? "s" : "");
    code = EXIT_OK;
    for (int j = 0; j < nord && code == EXIT_OK; j++) {
        char spec[32];
        kiln_device_spec(b, ordinals[j], spec, sizeof spec);
        printf("%s%s (%s)\n", j ? "\n" : "", spec, models[j]);
        if (!(ctx = cli_open_tune_gpu(cmd, spec, &code))) break;
        code = tune_one(ctx, fn, w, kind, axes, naxes, &a, name, custom);
        kiln_ctx_free(ctx);
    }
    return code;
}
