/* kiln mine --pool: mining for a Stratum v1 pool. */
#ifndef KILN_POOL_H
#define KILN_POOL_H

#include <stdint.h>

#include "mine/mine.h"

#define POOL_ARGS_MAX_URLS 8

/* What pool mining alone takes; the device and the run are mine_run's (mine/mine.h). */
typedef struct pool_args {
    const char *urls[POOL_ARGS_MAX_URLS]; /* tried in order (failover) */
    int nurls;
    const char *user, *pass;
    uint64_t work_nonces;
    int no_version_rolling;
    const char *cafile; /* TLS pools: CA certificates to trust instead of the system's */
    int no_verify; /* TLS pools: accept any certificate (warned about) */
    int retries; /* --retries N; -1 (not given): a pool that does not answer is retried for the whole run */
} pool_args;

/* kiln mine -c FILE: the JSON configuration file cpuminer and cgminer read, as option names and
 * values: {"url": ..., "user": ..., "threads": 4, "benchmark": true}, cgminer's "pools" array of
 * {"url", "user", "pass"}. Each key becomes "--key" and its value (a number as written, true a
 * flag, false nothing, an array one option per element); keys[i] / vals[i] (NULL for a flag), at
 * most max. Returns the count, or -1 after printing one line (exit 2). *hold keeps the strings:
 * pool_config_free(*hold) once parsed. Built without libjansson it refuses in one line. */
int pool_config_read(const char *cmd, const char *path, const char **keys, const char **vals, int max, void **hold);
void pool_config_free(void *hold);

/* Runs pool mining; returns the exit code. Built without libjansson it says so and returns 2. */
int pool_main(const mine_run *run, const pool_args *a);

#endif
