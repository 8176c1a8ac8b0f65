/* Built without libcurl or libjansson: solo mining is refused with the reason. */
#include "solo.h"

#include "common/cli.h"

int solo_main(const solo_args *a)
{
    (void)a;
    return cli_error(EXIT_USAGE, "mine", "--rpc needs libcurl and libjansson, and kiln was built without them "
                                         "(install libcurl4-openssl-dev and libjansson-dev, then rebuild)");
}
