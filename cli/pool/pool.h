/* kiln mine --pool: mining for a Stratum v1 pool. */
#ifndef KILN_POOL_H
#define KILN_POOL_H

#include <stdint.h>

#include "kiln.h"

#define POOL_ARGS_MAX_URLS 8

/* What `kiln mine` parsed for pool mode (cli/cmd_mine.c holds the option table). */
typedef struct pool_args {
    const char *urls[POOL_ARGS_MAX_URLS]; /* tried in order (failover) */
    int nurls;
    const char *user, *pass;
    const kiln_workload *algo;
    const char *device;
    uint64_t threads, work_nonces;
    double duration, stats_interval; /* duration 0: until a signal */
    int json, no_version_rolling;
    double temp_limit; /* --temp-limit (degrees C); 0: none */
    const char *cafile; /* TLS pools: CA certificates to trust instead of the system's */
    int no_verify; /* TLS pools: accept any certificate (warned about) */
} pool_args;

/* Runs pool mining; returns the exit code. Built without libjansson it says so and returns 2. */
int pool_main(const pool_args *a);

#endif
