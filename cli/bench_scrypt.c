/* kiln bench --algo scrypt-kdf: batch scrypt KDF rate (password hashes per second), by default
 * at N=16384, r=8, p=1 (the parameters of hashcat's -m 8900 benchmark). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "tune_cache.h"

int bench_scrypt_kdf_wanted(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--algo=scrypt-kdf") == 0) return 1;
        if (strcmp(argv[i], "--algo") == 0 && i + 1 < argc && strcmp(argv[i + 1], "scrypt-kdf") == 0) return 1;
    }
    return 0;
}

int cmd_bench_scrypt_kdf(int argc, char **argv)
{
    const char *cmd = "bench", *device = "auto", *seconds_s = NULL, *n_s = NULL, *r_s = NULL, *p_s = NULL, *v;
    int json = 0;
    for (int i = 0; i < argc; i++) {
        int r;
        if ((r = cli_opt(argc, argv, &i, "--algo", &v)) != 0) (void)v;
        else if ((r = cli_opt(argc, argv, &i, "--device", &v)) != 0) device = v;
        else if ((r = cli_opt(argc, argv, &i, "--seconds", &v)) != 0) seconds_s = v;
        else if ((r = cli_opt(argc, argv, &i, "-N", &v)) != 0) n_s = v;
        else if ((r = cli_opt(argc, argv, &i, "-r", &v)) != 0) r_s = v;
        else if ((r = cli_opt(argc, argv, &i, "-p", &v)) != 0) p_s = v;
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            puts("usage: kiln bench --algo scrypt-kdf [-N n] [-r r] [-p p] [--device auto|cpu|cuda|cuda:I] [--seconds S] "
                 "[--json]");
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s'", argv[i]);
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", argv[i]);
    }
    uint64_t N = 16384, r = 8, p = 1;
    double seconds = 4;
    if (n_s && cli_parse_u64(n_s, UINT64_MAX, &N) != 0) return cli_error(EXIT_USAGE, cmd, "bad -N '%s'", n_s);
    if (r_s && cli_parse_u64(r_s, UINT32_MAX, &r) != 0) return cli_error(EXIT_USAGE, cmd, "bad -r '%s'", r_s);
    if (p_s && cli_parse_u64(p_s, UINT32_MAX, &p) != 0) return cli_error(EXIT_USAGE, cmd, "bad -p '%s'", p_s);
    if (seconds_s && cli_parse_seconds(seconds_s, 600, &seconds) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --seconds '%s'", seconds_s);
    int code;
    kiln_ctx *ctx = cli_open(cmd, device, 0, &code);
    if (!ctx) return code;
    tune_cache_apply_scrypt_kdf(ctx);
    kiln_scrypt_params sp = {N, (uint32_t)r, (uint32_t)p};
    double rate = 0;
    kiln_status st = kiln_bench_scrypt_kdf(ctx, sp, seconds, &rate);
    if (st != KILN_OK) {
        code = cli_fail(cmd, ctx, st);
        kiln_ctx_free(ctx);
        return code;
    }
    kiln_launch l;
    kiln_scrypt_shape sh;
    kiln_ctx_scrypt_kdf_launch(ctx, &l, &sh);
    if (json) {
        printf("{\"algo\": \"scrypt-kdf\", \"device\": \"%s\", \"rate\": %.0f, \"unit\": \"H/s\", \"N\": %llu, \"r\": %llu, "
               "\"p\": %llu",
               kiln_ctx_device_name(ctx), rate, (unsigned long long)N, (unsigned long long)r, (unsigned long long)p);
        if (kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA)
            printf(", \"threads_per_block\": %d, \"lookup_gap\": %d", l.threads_per_block, sh.lookup_gap);
        printf("}\n");
    } else {
        char rs[32], label[64];
        format_rate(rate, "H/s", rs, sizeof rs);
        snprintf(label, sizeof label, "scrypt-kdf N=%llu r=%llu p=%llu", (unsigned long long)N, (unsigned long long)r,
                 (unsigned long long)p);
        printf("%-30s %-44s %16s\n", "algo", "device", "rate");
        printf("%-30s %-44s %16s\n", label, kiln_ctx_device_name(ctx), rs);
    }
    kiln_ctx_free(ctx);
    return EXIT_OK;
}
