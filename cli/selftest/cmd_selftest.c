/* kiln selftest: known-answer checks on one device. */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "common/json_out.h"
#include "common/opts.h"

int cmd_selftest(int argc, char **argv)
{
    const char *cmd = "selftest", *device = "auto";
    cli_output out = {0, 0, 0};
    cli_option opts[] = {
        CLI_OPT_DEVICE(&device, CLI_DEVICE_ONE_VALUES, "the device to check (default auto)", 0),
        CLI_OPT_JSON(&out, 0),
    };
    cli_command c = CLI_COMMAND(cmd, "[--device D] [--json]", NULL, opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return json_end(code == CLI_HELP ? EXIT_OK : code);
    kiln_ctx *ctx = cli_open(cmd, device, 0, &code);
    if (!ctx) return json_end(code);
    kiln_status st = kiln_selftest(ctx);
    const char *backend = kiln_backend_name(kiln_ctx_backend(ctx));
    if (st == KILN_OK) {
        code = EXIT_OK;
        if (!out.json) printf("selftest on %s: ok (sha256 %s)\n", kiln_ctx_device_name(ctx), kiln_sha256_impl());
    } else {
        code = cli_fail(cmd, ctx, st);
    }
    json_object(NULL);
    json_str("device", kiln_ctx_device_name(ctx));
    json_str("backend", backend);
    json_bool("ok", st == KILN_OK);
    json_str("sha256", kiln_sha256_impl());
    kiln_ctx_free(ctx);
    return json_end(code);
}
