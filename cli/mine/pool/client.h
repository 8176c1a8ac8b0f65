/* The pool side of the miner: one Stratum session at a time over the configured pools, with
 * reconnect (capped exponential backoff, session resume), failover, the jobs and difficulty the
 * pool sent, and the path of every share found: submit, queue while offline, or log as stale. */
#ifndef KILN_POOL_CLIENT_H
#define KILN_POOL_CLIENT_H

#include <stdint.h>

#include "job.h"
#include "mine/monitor/mon.h"
#include "net.h"
#include "url.h"

#define POOL_MAX_URLS 8
#define POOL_PENDING 1024 /* submits awaiting an answer: when all are taken, shares wait in the queue */
#define POOL_QUEUE 256 /* shares found while offline or while POOL_PENDING answers are awaited */
/* The most shares a second kiln sends. The miner raises its local target so it finds about
 * this many at most (miner.c); the client also refuses bursts above it (a token bucket of
 * POOL_SHARE_BURST shares refilled at twice this rate), so no difficulty a pool sets can make kiln
 * flood it, its own log or its send queue. */
#define POOL_MAX_SHARE_RATE 20.0
#define POOL_SHARE_BURST 60.0
#define POOL_VALID_JOBS 16 /* job ids still valid since the last clean_jobs */
#define POOL_SEEN 4096 /* recent share hashes: the last guard against a duplicate */

typedef struct pool_opts {
    pool_url urls[POOL_MAX_URLS];
    int nurls;
    const char *user, *pass; /* every pool's, where users[i] / passes[i] is NULL */
    const char *users[POOL_MAX_URLS], *passes[POOL_MAX_URLS]; /* pool i's own (cgminer's -o A -u a -o B -u b) */
    double timeout; /* a pool silent this long is taken for gone (cpuminer's -T); 0: 300 s */
    double retry_pause; /* the wait between tries (cpuminer's -R); 0: backoff from 0.5 s doubling to 30 s */
    int version_rolling; /* ask for BIP 310 version rolling */
    uint32_t rolling_mask; /* the bits we ask for */
    pool_tls *tls; /* TLS settings for stratum+ssl:// URLs (NULL when none is given) */
    int retries; /* --retries: tries of a pool after its first before the next, and a failed round
                    over the pools ends the run (exit 3); -1: retried with backoff for the whole run */
} pool_opts;

typedef struct pool_stats {
    uint64_t hashes;
    uint64_t found; /* shares that passed the CPU check */
    uint64_t sent, accepted, rejected, unanswered;
    uint64_t stale; /* found but not sent: the job or session was gone (each logged) */
    uint64_t resubmitted; /* sent after a reconnect, found while offline */
    uint64_t blocks; /* shares whose hash also met the network target */
    uint64_t invalid_local, duplicate_local; /* caught before sending (0 unless kiln has a bug) */
    uint64_t connects, reconnects, disconnects, jobs, malformed, unknown;
    uint64_t unknown_answers; /* answers to no request of ours (ignored, each logged) */
    double accepted_work; /* sum of accepted shares' difficulties */
    mon_reason rejected_why[MON_REASONS], stale_why[MON_REASONS]; /* for the monitoring endpoint */
} pool_stats;

typedef struct pool_share {
    char job_id[POOL_JOB_ID_MAX + 1];
    uint8_t en1[POOL_EN1_MAX];
    size_t en1_len;
    uint8_t en2[POOL_EN2_MAX];
    size_t en2_len;
    uint32_t ntime, nonce, version, version_bits;
    int with_version; /* version rolling was active: submit version_bits */
    double difficulty;
    uint8_t hash[32]; /* PoW hash, raw bytes */
    int block;
    int found_offline; /* queued while offline (not for want of a free pending slot) */
} pool_share;

typedef enum { CONN_DOWN, CONN_RESOLVING, CONN_CONNECTING, CONN_HANDSHAKE, CONN_UP } conn_state;

/* Why a session attempt failed, for the final message when no pool could be used. */
typedef enum { FAIL_NONE, FAIL_CONNECT, FAIL_PROTOCOL } fail_kind;

typedef struct valid_job {
    char id[POOL_JOB_ID_MAX + 1];
} valid_job;

typedef struct pool_client {
    const pool_opts *opts;
    pool_stats *stats;
    int cur; /* index of the pool in use */
    pool_url addr; /* where we connect: the pool's URL or where client.reconnect sent us */
    pool_conn conn;
    conn_state state;
    double next_attempt, state_since, last_rx, authorized_at;
    int failures; /* consecutive failed connections or short sessions on this pool */
    int rounds; /* rounds over the pools that all failed, no --retries: the next round's backoff */
    int refused[POOL_MAX_URLS]; /* the pool refused our worker */
    fail_kind last_fail[POOL_MAX_URLS]; /* the last failed attempt on each pool */
    char last_reason[POOL_MAX_URLS][200];
    int ever_authorized;
    int ever_worked; /* a pool sent a job kiln could mine: the run is not judged unusable */
    int64_t next_id, conf_id, sub_id, auth_id;
    int offered_session, subscribed, authorized, notified;
    double offline_since; /* when the last session ended (0 while online) */

    /* the session */
    char session[128];
    uint8_t en1[POOL_EN1_MAX];
    size_t en1_len;
    int en2_size;
    double difficulty;
    uint64_t diff_serial;
    int rolling;
    uint32_t mask;
    uint64_t mask_serial;

    /* the job to mine: the last notify, with what it was bound to when it arrived */
    pool_job job;
    int have_job;
    uint64_t job_serial;
    uint8_t job_en1[POOL_EN1_MAX];
    size_t job_en1_len;
    int job_en2_size;
    double job_difficulty;
    valid_job valid[POOL_VALID_JOBS];
    int nvalid;

    /* shares */
    struct pending {
        int64_t id;
        uint64_t gen; /* the connection it was sent on */
        pool_share share;
    } pending[POOL_PENDING]; /* at id % POOL_PENDING; ids skip taken slots, so none is overwritten */
    int npending;
    double tokens, tokens_at; /* the share-rate bucket */
    pool_share queue[POOL_QUEUE];
    int nqueue;
    uint8_t seen[POOL_SEEN][8];
    int nseen, seen_pos;

    /* leaving a connection (client.reconnect, going back to the first pool) with shares still
     * unanswered: it stays open, read for their answers only, until they came or DRAIN_WAIT_S */
    uint64_t conn_gen; /* counts connections; pending shares carry it */
    pool_conn old;
    int draining;
    uint64_t old_gen;
    double drain_until;

    /* on a later pool after a failover: the first pool is tried now and then (a connect and, for
     * TLS, a handshake); once it answers, mining goes back to it over that connection */
    pool_conn probe;
    int probe_state; /* 0 idle, else the conn_state the probe is in */
    double probe_since, primary_check_at;
    int primary_checks; /* checks since the last stable session on the first pool: the backoff */

    int fatal; /* nonzero: give up; the value is the exit code */
    char fatal_msg[900]; /* why, for the command's final error line */
} pool_client;

int client_init(pool_client *c, const pool_opts *opts, pool_stats *stats);
void client_free(pool_client *c);

/* Drives the connection and handles what the pool sent, waiting up to timeout_s seconds for
 * something to happen (0: only what is ready now). */
void client_service(pool_client *c, double timeout_s);

/* A share that passed the CPU check: submitted now, queued while offline, or logged as stale. */
void client_share(pool_client *c, const pool_share *s);

/* One line from the pool (without its newline), as read_lines hands it over: public so the
 * Stratum fuzz harness can drive the client without a socket. */
void client_handle_line(pool_client *c, const char *line, size_t len);

/* 1 while the job id may still take shares (no clean_jobs notify since it came). */
int client_job_valid(const pool_client *c, const char *job_id);

/* Before exit: waits up to max_s for the answers to submitted shares; logs what stays open. */
void client_finish(pool_client *c, double max_s);

int client_online(const pool_client *c);

/* Why no pool could be used, one clause per pool: "cannot connect to any pool" when every
 * failure was a TCP one (resolve, connect), "no pool completed a Stratum session" when some
 * pool answered the connect but failed the protocol (the reason says what it sent). */
void client_failure_text(const pool_client *c, char *out, size_t n);

#endif
