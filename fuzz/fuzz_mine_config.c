/* kiln mine -c FILE's reader (cli/mine/pool/config.c) over any bytes, read from a file as the CLI
 * reads it: a refusal is an exit code of bad input (2) or a failed allocation (3), never a crash;
 * what it accepts is at most POOL_CONFIG_MAX settings, each a kiln long option ("--name") with
 * the file's key, and those of cgminer's "pools" array are only pools, users and passwords, with
 * no more users and passwords than pools. */
#include "fuzz_util.h"

#include "mine/pool/pool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_memfd(data, size, path);
    pool_setting set[POOL_CONFIG_MAX];
    void *hold = NULL;
    int n = pool_config_read("mine", path, set, POOL_CONFIG_MAX, &hold);
    close(fd);
    FUZZ_CHECK(n == -2 || n == -3 || (n >= 0 && n <= POOL_CONFIG_MAX));
    int pools = 0, users = 0, passes = 0;
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(set[i].opt && strncmp(set[i].opt, "--", 2) == 0 && set[i].key);
        if (!set[i].from_pools) continue;
        pools += strcmp(set[i].opt, "--pool") == 0;
        users += strcmp(set[i].opt, "--user") == 0;
        passes += strcmp(set[i].opt, "--pass") == 0;
        FUZZ_CHECK(set[i].val && (strcmp(set[i].opt, "--pool") == 0 || strcmp(set[i].opt, "--user") == 0 ||
                                  strcmp(set[i].opt, "--pass") == 0));
    }
    FUZZ_CHECK(users <= pools && passes <= pools);
    pool_config_free(hold);
    return 0;
}
