/* kiln mine has three modes, one name each: "header" searches the nonces of a header given on the
 * command line (--header, --demo, --benchmark; mine/header.c), "pool" mines for a Stratum pool
 * (--pool; mine/pool/) and "node" mines for a node's getblocktemplate (--rpc; mine/node/; the
 * user-facing name is solo mining against a node). cmd_mine.c parses the one option table and
 * hands each mode the settings every mode shares (mine_run) and its own. */
#ifndef KILN_CLI_MINE_H
#define KILN_CLI_MINE_H

#include <stdint.h>

#include "kiln.h"

typedef struct mine_run {
    const kiln_workload *algo; /* --algo */
    const char *device; /* --device */
    uint64_t threads; /* CPU threads, 0: one per core */
    double duration; /* seconds; 0: until a signal */
    double temp_limit; /* --temp-limit (degrees C); 0: none */
    double stats_interval; /* pool and node: seconds between rate lines */
    const char *api_listen; /* --api-listen [ADDR:]PORT, or NULL */
    int json;
} mine_run;

/* What header mining alone takes. */
typedef struct header_args {
    const char *header_hex, *bits_hex, *target_hex; /* NULL where not given */
    uint64_t start, count;
    int start_given, count_given;
    int demo, all, benchmark;
} header_args;

/* Mines a: the summary, exit 0 when a nonce was found (or the run was stopped), 1 when the range
 * holds none. Checks what only header mining checks (the header, the target, the range) before a
 * device is opened. */
int header_main(const mine_run *run, const header_args *a);

#endif
