/* kiln bench: measured hash rates, as a table or JSON. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "tune_cache.h"

int cmd_bench(int argc, char **argv)
{
    const char *cmd = "bench", *algo_s = "all", *device = "auto", *seconds_s = NULL;
    int json = 0;
    if (bench_scrypt_kdf_wanted(argc, argv)) return cmd_bench_scrypt_kdf(argc, argv);
    for (int i = 0; i < argc; i++) {
        const char *v;
        int r;
        if ((r = cli_opt(argc, argv, &i, "--algo", &v)) != 0) algo_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--device", &v)) != 0) device = v;
        else if ((r = cli_opt(argc, argv, &i, "--seconds", &v)) != 0) seconds_s = v;
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            puts("usage: kiln bench [--algo sha256d|scrypt|scrypt-kdf|all] [--device auto|cpu|cuda|cuda:I] [--seconds S]"
                 " [--json]");
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s'", argv[i]);
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", argv[i]);
    }
    double seconds = 2;
    if (seconds_s && cli_parse_seconds(seconds_s, 600, &seconds) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --seconds '%s'", seconds_s);
    kiln_algo algos[KILN_ALGO_SCRYPT + 1];
    int nalgo = 0;
    if (strcmp(algo_s, "all") == 0) {
        algos[nalgo++] = KILN_ALGO_SHA256D;
        algos[nalgo++] = KILN_ALGO_SCRYPT;
    } else if (kiln_algo_from_name(NULL, algo_s, &algos[0]) == KILN_OK) nalgo = 1;
    else return cli_error(EXIT_USAGE, cmd, "unknown algorithm '%s' (expected sha256d, scrypt, scrypt-kdf or all)", algo_s);

    int code;
    kiln_ctx *ctx = cli_open(cmd, device, 0, &code);
    if (!ctx) return code;
    if (!json) printf("%-10s %-44s %16s\n", "algo", "device", "rate");
    if (json && nalgo > 1) printf("{\"results\": [");
    code = EXIT_OK;
    for (int i = 0; i < nalgo; i++) {
        tune_cache_apply(ctx, algos[i]);
        double rate = 0;
        kiln_status st = kiln_bench_scan(ctx, algos[i], seconds, &rate);
        if (st != KILN_OK) {
            code = cli_fail(cmd, ctx, st);
            break;
        }
        kiln_launch l = kiln_ctx_launch(ctx, algos[i]);
        if (json) {
            printf("%s{\"algo\": \"%s\", \"device\": \"%s\", \"rate\": %.0f, \"unit\": \"H/s\"", i ? ", " : "",
                   kiln_algo_name(algos[i]), kiln_ctx_device_name(ctx), rate);
            if (kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA)
                printf(", \"threads_per_block\": %d, \"items_per_thread\": %d", l.threads_per_block,
                       l.items_per_thread);
            if (kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA && algos[i] == KILN_ALGO_SCRYPT)
                printf(", \"threads_per_hash\": %d, \"lookup_gap\": %d", kiln_ctx_scrypt_shape(ctx).threads_per_hash,
                       kiln_ctx_scrypt_shape(ctx).lookup_gap);
            printf("}");
        } else {
            char r[32];
            format_rate(rate, "H/s", r, sizeof r);
            printf("%-10s %-44s %16s\n", kiln_algo_name(algos[i]), kiln_ctx_device_name(ctx), r);
        }
    }
    if (json) printf(nalgo > 1 ? "]}\n" : "\n");
    kiln_ctx_free(ctx);
    return code;
}
