/* kiln selftest: known-answer checks on one device. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_selftest(int argc, char **argv)
{
    const char *device = "auto";
    for (int i = 0; i < argc; i++) {
        const char *v;
        int r = cli_opt(argc, argv, &i, "--device", &v);
        if (r < 0) return cli_error(EXIT_USAGE, "selftest", "option --device needs a value");
        if (r > 0) device = v;
        else if (strcmp(argv[i], "--help") == 0) {
            puts("usage: kiln selftest [--device auto|cpu|cuda|cuda:I]");
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, "selftest", "unknown option '%s'", argv[i]);
    }
    int code;
    kiln_ctx *ctx = cli_open("selftest", device, 0, &code);
    if (!ctx) return code;
    kiln_status st = kiln_selftest(ctx);
    if (st == KILN_OK) printf("selftest on %s: ok (sha256 %s)\n", kiln_ctx_device_name(ctx), kiln_sha256_impl());
    else code = cli_fail("selftest", ctx, st);
    kiln_ctx_free(ctx);
    return st == KILN_OK ? EXIT_OK : code;
}
