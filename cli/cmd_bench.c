/* kiln bench: measured hash rates, as a table or JSON. */
#include <stdio.h>
#include <string.h>

#include "bench_hash.h"
#include "cli.h"
#include "merkle_cli.h"
#include "progress.h"
#include "tune_cache.h"

int cmd_bench(int argc, char **argv)
{
    const char *cmd = "bench", *algo_s = "all", *device = "auto", *seconds_s = NULL;
    const char *size_s = NULL, *layout_s = NULL, *threads_s = NULL;
    int json = 0, offsets = 0, in_registers = 0;
    if (merkle_cli_requested(argc, argv)) return cmd_bench_merkle(argc, argv);
    if (bench_scrypt_kdf_wanted(argc, argv)) return cmd_bench_scrypt_kdf(argc, argv);
    for (int i = 0; i < argc; i++) {
        const char *v;
        int r;
        if ((r = cli_opt(argc, argv, &i, "--algo", &v)) != 0) algo_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--device", &v)) != 0) device = v;
        else if ((r = cli_opt(argc, argv, &i, "--seconds", &v)) != 0) seconds_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--size", &v)) != 0) size_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--layout", &v)) != 0) layout_s = v;
        else if ((r = cli_opt(argc, argv, &i, "--threads", &v)) != 0) threads_s = v;
        else if (strcmp(argv[i], "--offsets") == 0) offsets = 1;
        else if (strcmp(argv[i], "--in-registers") == 0) in_registers = 1;
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            puts("usage: kiln bench [--algo sha256d|scrypt|scrypt-kdf|sha256|sha3-256|keccak256|keccakf1600|<hash algo>|\n"
                 "                  pagerank|merkle-sha256d|merkle-rp64|all]\n"
                 "                  [--device auto|cpu|cuda|cuda:I] [--threads N] [--seconds S] [--json]\n"
                 "                  [--size BYTES (hash message size, default 32)] [--offsets]\n"
                 "                  [--layout auto|thread|unrolled|lane] [--in-registers] (keccakf1600 on a GPU)");
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s'", argv[i]);
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", argv[i]);
    }
    if (strcmp(algo_s, "pagerank") == 0) return bench_pagerank(device, json);
    double seconds = 2;
    if (seconds_s && cli_parse_seconds(seconds_s, 600, &seconds) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --seconds '%s'", seconds_s);
    bench_hash_opts ho = {32, offsets, in_registers, KILN_KECCAK_LAYOUT_AUTO, seconds};
    uint64_t u = 0;
    if (size_s && cli_parse_u64(size_s, UINT64_C(1) << 24, &u) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --size '%s' (expected 0..16777216 bytes)", size_s);
    if (size_s) ho.size = (size_t)u;
    if (layout_s && kiln_keccak_layout_from_name(NULL, layout_s, &ho.layout) != KILN_OK)
        return cli_error(EXIT_USAGE, cmd, "unknown --layout '%s' (expected auto, thread, unrolled or lane)", layout_s);
    uint64_t threads = 0;
    if (threads_s && cli_parse_u64(threads_s, 4096, &threads) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --threads '%s'", threads_s);
    static const char *const hash_all[] = {"sha256", "sha3-256", "keccak256", "keccakf1600"};
    const char *hash_names[4];
    int nhash = 0;
    kiln_algo algos[KILN_ALGO_SCRYPT + 1];
    int nalgo = 0;
    if (strcmp(algo_s, "all") == 0) {
        algos[nalgo++] = KILN_ALGO_SHA256D;
        algos[nalgo++] = KILN_ALGO_SCRYPT;
        for (int i = 0; i < 4; i++) hash_names[nhash++] = hash_all[i];
    } else if (kiln_algo_from_name(NULL, algo_s, &algos[0]) == KILN_OK) nalgo = 1;
    else if (bench_hash_is_name(algo_s)) hash_names[nhash++] = algo_s;
    else
        return cli_error(EXIT_USAGE, cmd,
                         "unknown algorithm '%s' (expected sha256d, scrypt, scrypt-kdf, a kiln hash algorithm, "
                         "keccakf1600 or all)",
                         algo_s);

    int code;
    kiln_ctx *ctx = cli_open(cmd, device, (int)threads, &code);
    if (!ctx) return code;
    if (!json) printf("%-10s %-44s %16s\n", "algo", "device", "rate");
    if (json && nalgo + nhash > 1) printf("{\"results\": [");
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
    for (int i = 0; i < nhash && code == EXIT_OK; i++) {
        kiln_status st = bench_hash_row(ctx, hash_names[i], &ho, json, nalgo + i == 0);
        if (st != KILN_OK) code = cli_fail(cmd, ctx, st);
    }
    if (json) printf(nalgo + nhash > 1 ? "]}\n" : "\n");
    kiln_ctx_free(ctx);
    return code;
}
