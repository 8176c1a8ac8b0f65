/* Without libjansson there is no /status document to write: --api-listen is refused. */
#include "common/cli.h"
#include "server.h"

int api_start(const char *cmd, const char *spec)
{
    (void)spec;
    return cli_error(EXIT_USAGE, cmd, "--api-listen needs kiln built with libjansson (libjansson-dev)");
}

void api_stop(void) {}
