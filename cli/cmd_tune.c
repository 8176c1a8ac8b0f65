/* kiln tune: sweep threads per block x items per thread on a GPU, print the table, cache the best. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "merkle_cli.h"
#include "progress.h"
#include "tune_cache.h"

int cmd_tune(int argc, char **argv)
{
    const char *cmd = "tune", *algo_s = "sha256d", *device = "auto", *seconds_s = NULL;
    if (merkle_cli_requested(argc, argv)) return cmd_tune_merkle(argc, argv);
    if (tune_scrypt_wanted(argc, argv)) return cmd_tune_scrypt(argc, argv);
    for (int i = 0; i < argc; i++) {
        const char *v;
        int r;
        if ((r = cli_opt(argc, argv, &i, "--algo", &v)) != 0) algo_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--device", &v)) != 0) device = v;
        else if ((r = cli_opt(argc, argv, &i, "--seconds", &v)) != 0) seconds_s = v;
        else if (strcmp(argv[i], "--help") == 0) {
            puts("usage: kiln tune [--algo sha256d|scrypt|scrypt-kdf|merkle-sha256d|merkle-sha256|merkle-rp64] [--device auto|cuda|cuda:I] [--seconds S per shape]");
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s'", argv[i]);
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", argv[i]);
    }
    kiln_algo algo;
    if (kiln_algo_from_name(NULL, algo_s, &algo) != KILN_OK)
        return cli_error(EXIT_USAGE, cmd, "unknown algorithm '%s' (expected sha256d, scrypt, scrypt-kdf, merkle-sha256d, merkle-sha256 or merkle-rp64)", algo_s);
    double seconds = 0.3;
    if (seconds_s && cli_parse_seconds(seconds_s, 60, &seconds) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --seconds '%s'", seconds_s);
    int code;
    kiln_ctx *ctx = cli_open_tune_gpu(cmd, device, &code);
    if (!ctx) return code;
    static const int tpbs[] = {32, 64, 128, 256, 512, 1024}, ipts[] = {1, 2, 4, 8, 16};
    printf("tuning %s on %s (rate per threads-per-block x nonces-per-thread)\n", algo_s, kiln_ctx_device_name(ctx));
    printf("%8s", "tpb\\npt");
    for (size_t j = 0; j < sizeof ipts / sizeof ipts[0]; j++) printf(" %12d", ipts[j]);
    printf("\n");
    tune_entry best;
    memset(&best, 0, sizeof best);
    code = EXIT_OK;
    for (size_t i = 0; i < sizeof tpbs / sizeof tpbs[0] && code == EXIT_OK; i++) {
        printf("%8d", tpbs[i]);
        for (size_t j = 0; j < sizeof ipts / sizeof ipts[0]; j++) {
            kiln_launch l = {tpbs[i], ipts[j]};
            double rate = 0;
            kiln_status st = kiln_ctx_set_launch(ctx, algo, l);
            if (st == KILN_OK) st = kiln_bench_scan(ctx, algo, seconds, &rate);
            if (st != KILN_OK) {
                printf("\n");
                code = cli_fail(cmd, ctx, st);
                break;
            }
            char r[32];
            format_rate(rate, "H/s", r, sizeof r);
            printf(" %12s", r);
            fflush(stdout);
            if (rate > best.rate) {
                best.rate = rate;
                best.launch = l;
            }
        }
        if (code == EXIT_OK) printf("\n");
    }
    if (code == EXIT_OK) {
        char r[32];
        format_rate(best.rate, "H/s", r, sizeof r);
        printf("best: %d threads per block, %d nonces per thread: %s\n", best.launch.threads_per_block,
               best.launch.items_per_thread, r);
        tune_cache_save(ctx, algo_s, &best);
    }
    kiln_ctx_free(ctx);
    return code;
}
