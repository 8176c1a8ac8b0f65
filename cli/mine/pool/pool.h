/* kiln mine --pool: mining for a Stratum v1 pool. */
#ifndef KILN_POOL_H
#define KILN_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "mine/mine.h"

#define POOL_ARGS_MAX_URLS 8

/* What pool mining alone takes; the device and the run are mine_run's (mine/mine.h). */
typedef struct pool_args {
    const char *urls[POOL_ARGS_MAX_URLS]; /* tried in order (failover) */
    int nurls;
    /* --user, --pass, --userpass as given: one for every pool, or one per pool in the order of the
     * pools (cgminer's -o A -u a -p x -o B -u b -p y) */
    const char *users[POOL_ARGS_MAX_URLS], *passes[POOL_ARGS_MAX_URLS], *userpass[POOL_ARGS_MAX_URLS];
    int nusers, npasses, nuserpass;
    uint64_t work_nonces;
    int no_version_rolling;
    const char *cafile; /* TLS pools: CA certificates to trust instead of the system's */
    int no_verify; /* TLS pools: accept any certificate (warned about) */
    int retries; /* --retries N; -1 (not given): a pool that does not answer is retried for the whole run */
    double timeout; /* --timeout S: a pool silent this long is taken for gone; 0: the default */
    double retry_pause; /* --retry-pause S: the wait between tries instead of the growing backoff; 0: backoff */
} pool_args;

/* kiln mine -c FILE: the JSON configuration file cpuminer and cgminer read, as kiln mine's
 * options. Each key is kiln's long option name, or cpuminer's or cgminer's (mapped: "url",
 * "userpass", "cert", cgminer's "pools" array and "api-listen"/"api-port"/"api-network"/"api-allow");
 * a number is its text, true a switch, false and null nothing, an array one option per element.
 * A key that means nothing in kiln is refused with the reason. */
typedef struct pool_setting {
    const char *opt; /* the option, "--pool"; one the table may lack (an unknown key: the caller says so) */
    const char *val; /* its value, NULL for a switch */
    const char *key; /* the file's key, for messages */
    int from_pools; /* from cgminer's "pools" array: belongs to those pools (left out with --pool) */
} pool_setting;
#define POOL_CONFIG_MAX 64 /* settings a file may hold */
/* Reads path (a regular file, pipe or FIFO; at most 1 MiB; a signal ends the wait) into out[0..n).
 * Returns n, or minus the exit code after printing one line (130 and the like on a signal).
 * *hold keeps the strings: pool_config_free(*hold) once parsed. Built without libjansson it
 * refuses in one line. */
int pool_config_read(const char *cmd, const char *path, pool_setting *out, int max, void **hold);
/* The same over text[0..len) already read (the fuzz harness's entry); path names it in messages. */
int pool_config_parse(const char *cmd, const char *path, const char *text, size_t len, pool_setting *out, int max,
                      void **hold);
void pool_config_free(void *hold);

/* Runs pool mining; returns the exit code. Built without libjansson it says so and returns 2. */
int pool_main(const mine_run *run, const pool_args *a);

#endif
