/* The statistics a mining loop publishes for the monitoring endpoint (cli/mine/monitor/server.c).
 *
 * The loop fills its own mon_snapshot as it goes and copies it out with mon_publish, about ten
 * times a second; the endpoint's thread copies the latest with mon_read. Both hold one mutex for
 * the length of a memcpy of a few KiB, so neither side ever waits on the other's work: a slow
 * client or a busy device cannot stall the other. */
#ifndef KILN_CLI_MON_H
#define KILN_CLI_MON_H

#include <stdint.h>

#include "kiln.h"

#define MON_MAX_DEVICES 16
#define MON_REASONS 8 /* distinct reasons kept per table; later ones count under the last, "other" */
#define MON_RATE_SAMPLES 64 /* one a second: covers the 60 s window */

/* Counts by reason: a rejection's error text from the pool, or why a share went stale. */
typedef struct mon_reason {
    char text[96];
    uint64_t count;
} mon_reason;
void mon_reason_add(mon_reason tab[MON_REASONS], const char *text);

/* Hash rates over the last 5 s and 60 s from a sample of the hash count per second. */
typedef struct mon_rates {
    double t[MON_RATE_SAMPLES];
    uint64_t h[MON_RATE_SAMPLES];
    int n, head; /* samples held; the next slot */
} mon_rates;
void mon_rates_add(mon_rates *r, double now, uint64_t hashes);
/* Hashes per second over the last `window` seconds (over what there is when the run is younger). */
double mon_rates_get(const mon_rates *r, double now, uint64_t hashes, double window);

typedef struct mon_device {
    char id[16]; /* "cpu", "cuda:0", "opencl:0" */
    char name[128];
    int ordinal; /* the ordinal in its backend (cuda:N, opencl:N); -1 for the CPU */
    uint64_t hashes;
    double seconds; /* busy: the wall time of its own launches (kiln_scan_devices) */
    double rate_5s, rate_60s;
    int paused; /* by --temp-limit */
    kiln_health health;
} mon_device;

typedef struct mon_snapshot {
    double started; /* cli_now() when mining started */
    char mode[8]; /* "pool" or "solo" */
    char algo[32];
    char source[300]; /* the pool's URL, the node's, or "header" for solo mining of a given header */
    int online; /* connected to the pool or node (solo mining of a header: 1) */
    char job[72];
    double difficulty, local_difficulty; /* the pool's (0 in solo mode); what kiln mines at */
    uint64_t hashes;
    double rate_5s, rate_60s;
    uint64_t found, sent, accepted, rejected, stale, blocks;
    mon_reason rejected_why[MON_REASONS], stale_why[MON_REASONS];
    double temp_limit; /* 0: none */
    int ndev;
    mon_device dev[MON_MAX_DEVICES];
} mon_snapshot;

void mon_publish(const mon_snapshot *s);
/* 0 and *out, or -1 while nothing has been published yet. */
int mon_read(mon_snapshot *out);

#endif
