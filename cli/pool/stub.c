/* pool_main when kiln is built without libjansson: pool mining is left out. */
#include "../cli.h"
#include "pool.h"

int pool_main(const pool_args *a)
{
    (void)a;
    return cli_error(EXIT_USAGE, "mine", "built without pool support (install libjansson-dev and rebuild)");
}
