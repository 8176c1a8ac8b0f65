/* Built without libcurl or libjansson: node mining is refused with the reason. */
#include "node.h"

#include "common/cli.h"

int node_main(const mine_run *run, const node_args *a)
{
    (void)run, (void)a;
    return cli_error(EXIT_USAGE, "mine", "--rpc needs libcurl and libjansson, and kiln was built without them "
                                         "(install libcurl4-openssl-dev and libjansson-dev, then rebuild)");
}
