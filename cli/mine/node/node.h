/* kiln mine --rpc: node mining, solo mining against a node's getblocktemplate (docs/MINING.md). */
#ifndef KILN_CLI_NODE_H
#define KILN_CLI_NODE_H

#include <stdint.h>

#include "mine/mine.h"

/* What node mining alone takes; the device and the run are mine_run's. */
typedef struct node_args {
    const char *url, *user, *pass, *cookie, *addr;
    uint64_t max_blocks; /* 0: no limit */
    double poll_s; /* seconds between template polls without longpoll */
} node_args;

/* Runs node mining; returns the exit code. Built without libcurl or libjansson it says so and
 * returns 2. */
int node_main(const mine_run *run, const node_args *a);

#endif
