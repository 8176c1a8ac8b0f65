/* The devices of a mining loop: each one's nonces and busy time (kiln_scan_devices), rates, health
 * and --temp-limit, as the statistics line, the --json summaries and the endpoint show them
 * (docs/MONITOR.md). A context of one device has one entry, whose counts are the totals.
 *
 * Ids: "cpu", "cuda:N", "opencl:N" as kiln_device_spec names them; an ordinal given twice in a set
 * (logical devices on one GPU, a testing aid) makes "cuda:N#K", K counting its logical devices from
 * 0, so that every id (a Prometheus label) is distinct. */
#ifndef KILN_CLI_DEV_STATS_H
#define KILN_CLI_DEV_STATS_H

#include <stddef.h>

#include "health_watch.h"
#include "kiln.h"
#include "mon.h"

typedef struct dev_stat {
    char id[16];
    char name[128];
    int ordinal; /* the device's ordinal in its backend (cuda:N, opencl:N); -1 for the CPU */
    uint64_t hashes; /* of the searches done */
    double seconds; /* busy, likewise */
    uint64_t mark_hashes; /* at the last statistics line */
    double mark_seconds;
    health_watch hw;
    mon_rates rates; /* the endpoint's 5 s / 60 s windows */
} dev_stat;

typedef struct dev_stats {
    int n;
    int paused; /* a device is above --temp-limit: all rest (one search drives them all) */
    kiln_scan_device scan[MON_MAX_DEVICES]; /* the search under way */
    dev_stat d[MON_MAX_DEVICES];
} dev_stats;

void dev_stats_init(dev_stats *s, const kiln_ctx *ctx, double temp_limit, health_log_fn log);
/* The id of device i of a context of backend whose devices have these ordinals (-1: the CPU). */
void dev_stats_id_on(kiln_backend backend, const int *ordinals, int n, int i, char *out, size_t len);
/* kiln_scan with each device's part counted (readable from the job's callbacks through
 * dev_stats_hashes). */
kiln_status dev_stats_scan(dev_stats *s, kiln_ctx *ctx, const kiln_scan_job *job, kiln_scan_result *res);
/* Device i's nonces and busy seconds so far, the search under way included. */
uint64_t dev_stats_hashes(const dev_stats *s, int i);
double dev_stats_seconds(const dev_stats *s, int i);
/* Reads each device's health when due and applies the limit; 1 while the devices must rest. */
int dev_stats_poll(dev_stats *s, double now);
/* Fills the snapshot's totals (hashes: the loop's count; rates from `total`) and its devices, then
 * publishes it (mon_publish). */
void dev_stats_publish(dev_stats *s, mon_snapshot *p, mon_rates *total, uint64_t hashes, double now);
/* "cuda:0 4.36 GH/s, cuda:1 4.35 GH/s": each device's rate, its nonces over its busy time, and its
 * health where known (with_health); "" for a context of one device. since_mark: since the last
 * such call (the previous statistics line), which this one then marks; else since the start. */
void dev_stats_rates(dev_stats *s, int since_mark, int with_health, char *out, size_t n);
/* The text summaries' lines after the total's, for a set only: "device=ID hashes=N seconds=S
 * rate=R" on stdout. */
void dev_stats_print(const dev_stats *s);
/* The --json summaries' "devices": [{"id", "ordinal", "name", "hashes", "seconds", "rate",
 * "health"}] (json_out.h); one device's hashes are the loop's `total`. */
void dev_stats_json_out(const dev_stats *s, const char *key, uint64_t total);
/* Device i's hashes as the documents show them: one device's are the loop's total. */
uint64_t dev_stats_shown(const dev_stats *s, int i, uint64_t total);

#endif
