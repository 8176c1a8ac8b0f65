/* kiln mine --rpc: solo mining against a node's getblocktemplate (docs/MINING.md). */
#ifndef KILN_SOLO_H
#define KILN_SOLO_H

#include <stdint.h>

#include "kiln.h"

typedef struct solo_args {
    const char *url, *user, *pass, *cookie, *addr;
    const kiln_workload *algo;
    const char *device;
    uint64_t threads, max_blocks; /* max_blocks 0: no limit */
    double duration, poll_s, stats_interval; /* duration 0: until a signal */
    double temp_limit; /* --temp-limit (degrees C); 0: none */
    int json;
} solo_args;

/* Runs solo mining; returns the exit code. Built without libcurl or libjansson it says so and
 * returns 2. */
int solo_main(const solo_args *a);

#endif
