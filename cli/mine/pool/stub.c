/* pool_main when kiln is built without libjansson: pool mining is left out. */
#include "common/cli.h"
#include "pool.h"

int pool_main(const mine_run *run, const pool_args *a)
{
    (void)run, (void)a;
    return cli_error(EXIT_USAGE, "mine", "built without pool support (install libjansson-dev and rebuild)");
}

int pool_config_read(const char *cmd, const char *path, pool_setting *out, int max, void **hold)
{
    (void)path, (void)out, (void)max;
    *hold = NULL;
    return -cli_error(EXIT_USAGE, cmd, "-c/--config needs JSON support: built without libjansson (install libjansson-dev and rebuild)");
}

void pool_config_free(void *hold) { (void)hold; }
