/* The mining loop: builds work from the client's job (extranonce2 and version rolling), scans
 * it with kiln_scan on the context's device, checks every hit on the CPU and hands it to the
 * client; polls the pool between launches so a new job stops old work within one launch.
 *
 * The share target is the pool's unless that would give more than POOL_MAX_SHARE_RATE shares a
 * second at the measured hash rate: then kiln mines at a higher local difficulty (every share
 * still meets the pool's target) and logs once that and why it did. */
#ifndef KILN_POOL_MINER_H
#define KILN_POOL_MINER_H

#include <stdint.h>

#include "client.h"
#include "kiln.h"
#include "mine/monitor/dev_stats.h"
#include "mine/monitor/mon.h"

#define MINER_EN2_SLOTS 32 /* jobs whose extranonce2 counter we remember */
/* When a job's extranonce2 (and version) space is used up, ntime goes up a second at a time and
 * the space starts again, at most this far past the job's ntime: well inside what pools accept
 * (ckpool 7000 s, Bitcoin's two hours ahead of network time), so no share is refused for it. */
#define MINER_NTIME_ROLL_MAX 600
/* Each kiln_scan call covers about this long, so even its first launch (which the library sizes
 * before it knows the device's speed) ends soon and a new job is picked up in time. */
#define MINER_CALL_S 0.2

typedef struct miner_opts {
    kiln_algo algo;
    uint64_t work_nonces; /* nonces per (extranonce2, version) unit, at most 2^32 */
    double duration; /* 0 = until a signal */
    double stats_interval;
    double offline_mining_s; /* keep mining the last job this long after losing the pool */
    double temp_limit; /* --temp-limit; 0: none */
} miner_opts;

typedef struct en2_slot {
    char job_id[POOL_JOB_ID_MAX + 1];
    uint8_t en1[POOL_EN1_MAX];
    size_t en1_len;
    uint64_t next; /* next extranonce2 counter value for this job and extranonce1 */
    uint32_t ntime_roll; /* seconds added to the job's ntime once its extranonce2 space ran out */
    uint64_t used; /* last use, for replacement */
} en2_slot;

typedef struct miner {
    pool_client *c;
    kiln_ctx *ctx;
    pool_stats *st;
    const miner_opts *mo;

    /* the work unit being scanned: everything a share needs, copied from the job */
    int have_work, exhausted;
    uint64_t job_serial, diff_serial, mask_serial;
    char job_id[POOL_JOB_ID_MAX + 1];
    uint8_t en1[POOL_EN1_MAX];
    size_t en1_len, en2_size;
    uint8_t en2[POOL_EN2_MAX];
    uint32_t ntime, nbits, version, mask;
    int rolling;
    uint64_t roll, roll_count;
    uint64_t next_nonce, end_nonce;
    uint8_t header[80];
    uint8_t share_target[32], block_target[32];
    int block_target_ok;
    double share_difficulty; /* the local one: the pool's, or higher to bound the share rate */
    int raised; /* share_difficulty is above the pool's (logged when it starts) */
    double raised_for; /* the pool difficulty it was raised from */
    int target_zero_logged;
    double rate; /* hashes per second, measured before mining and after every call */
    en2_slot slots[MINER_EN2_SLOTS];
    en2_slot *slot;
    uint64_t slot_clock;

    uint64_t call_nonces; /* nonces per kiln_scan call, sized to about MINER_CALL_S */

    /* accounting */
    uint64_t scan_start, scan_done;
    double t0, first_work, end_work, scan_seconds, deadline, next_stats, last_stats_t;
    uint64_t last_stats_hashes;
    int device_failed;

    /* the monitoring endpoint's view (cli/mine/monitor/mon.h), each device's counts and health */
    dev_stats ds;
    mon_rates rates;
    mon_snapshot snap;
    double next_publish;
} miner;

/* The device's hash rate now, from a few short scans (about 20 ms): the share-rate bound holds
 * from the first call. KILN_OK or the scan's failure. */
kiln_status miner_measure_rate(kiln_ctx *ctx, kiln_algo algo, double *rate);
/* Runs until the duration ends, a signal arrives (cli_interrupted), the client gives up or the
 * device fails. */
void miner_run(miner *m);
/* The statistics line: rate since the last line, or the run's average when final. */
void miner_print_stats(miner *m, double now, int final);
/* Hands the endpoint the run's statistics now (mon_publish). */
void miner_publish(miner *m, double now);

#endif
