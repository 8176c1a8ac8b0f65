/* kiln selftest: known-answer checks on one device. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opts.h"

int cmd_selftest(int argc, char **argv)
{
    const char *device = "auto";
    cli_option opts[] = {{"--device", OPT_DEVICE, &device, "auto|cpu|cuda|cuda:I", "the device to check (default auto)", .modes = 0}};
    cli_command c = CLI_COMMAND("selftest", "[--device D]", NULL, opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return code == CLI_HELP ? EXIT_OK : code;
    kiln_ctx *ctx = cli_open("selftest", device, 0, &code);
    if (!ctx) return code;
    kiln_status st = kiln_selftest(ctx);
    if (st == KILN_OK) printf("selftest on %s: ok (sha256 %s)\n", kiln_ctx_device_name(ctx), kiln_sha256_impl());
    else code = cli_fail("selftest", ctx, st);
    kiln_ctx_free(ctx);
    return st == KILN_OK ? EXIT_OK : code;
}
