#include "client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/progress.h"
#include "kiln.h"
#include "log.h"
#include "stratum.h"

#define RESOLVE_TIMEOUT_S 10.0 /* the resolver thread may go on; the client stops waiting */
#define CONNECT_TIMEOUT_S 10.0
#define HANDSHAKE_TIMEOUT_S 15.0
#define SILENCE_TIMEOUT_S 300.0 /* pools send a job at least every minute or two */
#define BACKOFF_FIRST_S 0.5
#define BACKOFF_CAP_S 30.0
#define TRIES_PER_POOL 3 /* consecutive failures before failing over to the next pool */
#define STABLE_SESSION_S 30.0 /* a session this long resets the failure count */
#define FLUSH_WAIT_S 3.0 /* after authorizing, how long to wait for a job before judging queued shares */
#define DRAIN_WAIT_S 3.0 /* how long a connection left with unanswered shares is kept for their answers */
#define FAILBACK_FIRST_S 2.0 /* after failing over, the first check of the first pool; doubling */
#define FAILBACK_CAP_S 300.0
/* a client.reconnect wait longer than this, with another pool configured, fails over to it at once
 * instead of mining a job the pool has left for the whole wait */
#define RECONNECT_WAIT_MAX_S 10
#define AGENT "kiln/" KILN_VERSION

/* Pool i's worker and password (pool_opts: each pool's own, else the one for all). */
static const char *user_at(const pool_client *c, int i) { return c->opts->users[i] ? c->opts->users[i] : c->opts->user; }
static const char *pass_at(const pool_client *c, int i) { return c->opts->passes[i] ? c->opts->passes[i] : c->opts->pass; }

/* The worker every pool has, for messages about them all; NULL when the pools have their own. */
static const char *common_user(const pool_client *c)
{
    for (int i = 1; i < c->opts->nurls; i++)
        if (strcmp(user_at(c, i), user_at(c, 0)) != 0) return NULL;
    return user_at(c, 0);
}

/* The wait before the next try: --retry-pause when given (cpuminer's fixed pause), else d. */
static double pause_or(const pool_client *c, double d) { return c->opts->retry_pause > 0 ? c->opts->retry_pause : d; }

static double backoff(int failures)
{
    double d = BACKOFF_FIRST_S;
    for (int i = 1; i < failures && d < BACKOFF_CAP_S; i++) d *= 2;
    return d < BACKOFF_CAP_S ? d : BACKOFF_CAP_S;
}

static void url_text(const pool_url *u, char *out, size_t n) { pool_url_format(u, out, n); }

int client_init(pool_client *c, const pool_opts *opts, pool_stats *stats)
{
    memset(c, 0, sizeof *c);
    c->opts = opts;
    c->stats = stats;
    c->addr = opts->urls[0];
    c->difficulty = 1; /* Stratum's default until mining.set_difficulty */
    c->next_id = 1;
    c->next_attempt = cli_now();
    for (int i = 0; i < POOL_PENDING; i++) c->pending[i].id = -1;
    c->tokens = POOL_SHARE_BURST;
    c->tokens_at = cli_now();
    if (conn_init(&c->conn) != 0 || conn_init(&c->old) != 0 || conn_init(&c->probe) != 0) return -1;
    c->conn.tls_cfg = c->old.tls_cfg = c->probe.tls_cfg = opts->tls;
    return 0;
}

void client_free(pool_client *c)
{
    conn_free(&c->conn);
    conn_free(&c->old);
    conn_free(&c->probe);
    pool_job_free(&c->job);
}

int client_online(const pool_client *c) { return c->state == CONN_UP && c->authorized; }

int client_job_valid(const pool_client *c, const char *job_id)
{
    for (int i = 0; i < c->nvalid; i++)
        if (strcmp(c->valid[i].id, job_id) == 0) return 1;
    return 0;
}

static void share_desc(const pool_share *s, char *out, size_t n)
{
    char en2[2 * POOL_EN2_MAX + 1], job[POOL_JOB_ID_MAX + 1];
    kiln_hex_encode(s->en2, s->en2_len, 0, en2);
    log_clean(s->job_id, strlen(s->job_id), job, sizeof job);
    snprintf(out, n, "job %s extranonce2 %s nonce %08x%s", job, en2, s->nonce, s->block ? " (BLOCK)" : "");
}

static void stale(pool_client *c, const pool_share *s, const char *why)
{
    char d[200];
    share_desc(s, d, sizeof d);
    c->stats->stale++;
    mon_reason_add(c->stats->stale_why, why);
    plog("stale share not sent (%s): %s", why, d);
}

/* ---------------------------------------------------------------- sending */

static void disconnect(pool_client *c, const char *why, int failure);

/* Sends a request line (taking it); a failure ends the session, saying why. 0 or -1. */
static int send_line(pool_client *c, char *line)
{
    if (!line) {
        plog("out of memory building a request");
        disconnect(c, "out of memory", 1);
        return -1;
    }
    int rc = conn_send(&c->conn, line);
    free(line);
    if (rc == -2) disconnect(c, "the pool stopped reading (1 MiB of requests unsent)", 1);
    else if (rc != 0) {
        char why[300];
        snprintf(why, sizeof why, "cannot write to the pool: %s", c->conn.err);
        disconnect(c, why, 1);
    }
    return rc ? -1 : 0;
}

static void forget_pending(pool_client *c, struct pending *p, const char *why)
{
    char d[200];
    share_desc(&p->share, d, sizeof d);
    c->stats->unanswered++;
    plog("%s: %s", why, d);
    p->id = -1;
    c->npending--;
}

/* Submits a share unless every pending slot awaits an answer (then 1: the caller keeps it). A
 * slot is found by its id, so the next id skips slots still taken: nothing is overwritten. */
static int submit(pool_client *c, const pool_share *s)
{
    if (c->npending >= POOL_PENDING) return 1;
    while (c->pending[c->next_id % POOL_PENDING].id >= 0) c->next_id++;
    int64_t id = c->next_id++;
    struct pending *p = &c->pending[id % POOL_PENDING];
    p->id = id;
    p->gen = c->conn_gen;
    p->share = *s;
    c->npending++;
    c->stats->sent++;
    send_line(c, stratum_submit(id, user_at(c, c->cur), s->job_id, s->en2, s->en2_len, s->ntime, s->nonce, s->with_version,
                                s->version_bits));
    return 0;
}

/* The token bucket behind POOL_MAX_SHARE_RATE: 1 when a share may go now. */
static int share_allowed(pool_client *c)
{
    double now = cli_now();
    c->tokens += (now - c->tokens_at) * 2 * POOL_MAX_SHARE_RATE;
    if (c->tokens > POOL_SHARE_BURST) c->tokens = POOL_SHARE_BURST;
    c->tokens_at = now;
    if (c->tokens < 1) return 0;
    c->tokens -= 1;
    return 1;
}

static int seen_before(pool_client *c, const uint8_t hash[32])
{
    for (int i = 0; i < c->nseen; i++)
        if (memcmp(c->seen[i], hash, 8) == 0) return 1;
    memcpy(c->seen[c->seen_pos], hash, 8);
    c->seen_pos = (c->seen_pos + 1) % POOL_SEEN;
    if (c->nseen < POOL_SEEN) c->nseen++;
    return 0;
}

void client_share(pool_client *c, const pool_share *s)
{
    client_service(c, 0); /* a clean_jobs notify may be waiting: then the share is stale */
    if (seen_before(c, s->hash)) {
        char d[200];
        share_desc(s, d, sizeof d);
        c->stats->duplicate_local++;
        plog("duplicate share not sent: %s", d);
        return;
    }
    if (!client_job_valid(c, s->job_id)) {
        stale(c, s, "job replaced by a clean_jobs notify");
        return;
    }
    if (s->with_version && (s->version_bits & ~c->mask)) {
        stale(c, s, "version bits outside the pool's new mask");
        return;
    }
    if (!share_allowed(c)) {
        stale(c, s, "over the share-rate bound");
        return;
    }
    /* queued shares go first, in order */
    if (client_online(c) && c->nqueue == 0 && submit(c, s) == 0) return;
    if (c->nqueue == POOL_QUEUE) {
        stale(c, s, "offline queue full");
        return;
    }
    c->queue[c->nqueue] = *s;
    c->queue[c->nqueue++].found_offline = !client_online(c);
}

/* Queued shares, after a reconnect or once answers free pending slots: sent when their session
 * and job survived. */
static void flush_queue(pool_client *c)
{
    int n = c->nqueue, i;
    for (i = 0; i < n && c->state == CONN_UP && c->npending < POOL_PENDING; i++) {
        const pool_share *s = &c->queue[i];
        if (s->en1_len != c->en1_len || memcmp(s->en1, c->en1, s->en1_len) != 0) stale(c, s, "session not resumed");
        else if (!client_job_valid(c, s->job_id)) stale(c, s, "job replaced while offline");
        else if (s->with_version && (!c->rolling || (s->version_bits & ~c->mask))) stale(c, s, "version mask changed");
        else {
            if (s->found_offline) c->stats->resubmitted++;
            submit(c, s);
        }
    }
    /* the rest (the write failed or every slot is taken) wait, in order */
    memmove(c->queue, c->queue + i, (size_t)(n - i) * sizeof *c->queue);
    c->nqueue = n - i;
}

/* ---------------------------------------------------------------- connection lifecycle */

static void forget_session(pool_client *c)
{
    c->session[0] = '\0';
    c->en1_len = 0;
    c->have_job = 0;
    c->nvalid = 0;
    c->job_serial++;
}

static double failback_delay(int checks)
{
    double d = FAILBACK_FIRST_S;
    for (int i = 0; i < checks && d < FAILBACK_CAP_S; i++) d *= 2;
    return d < FAILBACK_CAP_S ? d : FAILBACK_CAP_S;
}

static void next_pool(pool_client *c)
{
    int n = c->opts->nurls;
    c->cur = (c->cur + 1) % n;
    if (c->cur != 0 && c->probe_state == 0) c->primary_check_at = cli_now() + failback_delay(c->primary_checks);
    if (c->cur == 0 && c->probe_state) { /* round the list again: the check is moot */
        conn_close(&c->probe);
        c->probe_state = 0;
    }
    c->addr = c->opts->urls[c->cur];
    c->failures = 0;
    forget_session(c);
    char u[300];
    url_text(&c->addr, u, sizeof u);
    if (n > 1) plog("failing over to %s", u);
}

void client_failure_text(const pool_client *c, char *out, size_t n)
{
    int connect_only = 1, any = 0;
    for (int i = 0; i < c->opts->nurls; i++) {
        connect_only &= c->last_fail[i] != FAIL_PROTOCOL;
        any |= c->last_fail[i] != FAIL_NONE;
    }
    if (!any) {
        if (common_user(c)) snprintf(out, n, "never got to work for a pool (worker '%s')", common_user(c));
        else snprintf(out, n, "never got to work for a pool");
        return;
    }
    char who[300] = "";
    if (common_user(c)) snprintf(who, sizeof who, " (worker '%s')", common_user(c));
    /* a session that failed after the TCP connect is the pool's fault, not the network's: say so */
    size_t len = (size_t)snprintf(out, n, "%s%s",
                                  connect_only ? "cannot connect to any pool" : "no pool completed a Stratum session", who);
    for (int i = 0; i < c->opts->nurls && len < n; i++) {
        if (c->last_fail[i] == FAIL_NONE) continue;
        char u[300];
        url_text(&c->opts->urls[i], u, sizeof u);
        len += (size_t)snprintf(out + len, n - len, "%s %s: %s", i ? ";" : ":", u, c->last_reason[i]);
    }
}

/* After a failure: when to try again, where, or whether to give up. */
static void schedule_retry(pool_client *c)
{
    double now = cli_now();
    c->failures++;
    int n = c->opts->nurls;
    const pool_url *home = &c->opts->urls[c->cur];
    if (strcmp(c->addr.host, home->host) != 0 || strcmp(c->addr.port, home->port) != 0) {
        /* a client.reconnect target that does not work: back to the pool's own address */
        char u[300];
        url_text(home, u, sizeof u);
        plog("the client.reconnect target failed; back to %s", u);
        c->addr = *home;
    }
    const int retries = c->opts->retries, tries = retries >= 0 ? retries + 1 : TRIES_PER_POOL;
    if (c->refused[c->cur] || c->failures >= tries) {
        int last = c->cur == n - 1;
        int all_refused = 1;
        for (int i = 0; i < n; i++) all_refused &= c->refused[i];
        if (last && !c->ever_worked && !all_refused && retries < 0) {
            /* no --retries: a pool that does not answer is retried for the whole run (--duration or
             * a signal ends it), each round over the pools after a longer wait */
            c->rounds++;
            if (n > 1) next_pool(c);
            c->next_attempt = now + pause_or(c, backoff(TRIES_PER_POOL + c->rounds - 1)); /* 2 s, 4 s, ... 30 s */
            plog("no pool gave work yet; retrying in %.1f s", c->next_attempt - now);
            return;
        }
        if (last && (!c->ever_worked || retries >= 0)) { /* a whole round over the pools failed: one rule
                                          * for refused connects, failed handshakes and sessions dropped
                                          * before their first job (an over-long line) */
            c->fatal = all_refused ? EXIT_USAGE : EXIT_DEVICE;
            if (all_refused && common_user(c))
                snprintf(c->fatal_msg, sizeof c->fatal_msg, "every pool refused worker '%s'", common_user(c));
            else if (all_refused) snprintf(c->fatal_msg, sizeof c->fatal_msg, "every pool refused its worker");
            else client_failure_text(c, c->fatal_msg, sizeof c->fatal_msg);
            return;
        }
        if (n > 1 || c->refused[c->cur]) {
            next_pool(c);
            c->next_attempt = now;
            if (c->refused[c->cur] && c->ever_authorized) c->next_attempt = now + pause_or(c, BACKOFF_CAP_S);
            return;
        }
    }
    c->next_attempt = now + pause_or(c, backoff(c->failures));
    if (c->next_attempt > now + 1) plog("retrying in %.1f s", c->next_attempt - now);
}

static int pending_on(const pool_client *c, uint64_t gen)
{
    int n = 0;
    for (int i = 0; i < POOL_PENDING; i++) n += c->pending[i].id >= 0 && c->pending[i].gen == gen;
    return n;
}

/* Stops waiting on the left connection; what it did not answer is reported unanswered. */
static void end_drain(pool_client *c, const char *why)
{
    if (!c->draining) return;
    for (int i = 0; i < POOL_PENDING; i++)
        if (c->pending[i].id >= 0 && c->pending[i].gen == c->old_gen) forget_pending(c, &c->pending[i], why);
    conn_close(&c->old);
    c->draining = 0;
}

/* Ends the session. drain: a deliberate move (client.reconnect, back to the first pool), so the
 * connection stays open a while for the answers to shares already sent on it. */
static void disconnect_ex(pool_client *c, const char *why, int failure, int drain)
{
    double now = cli_now();
    if (c->state == CONN_DOWN) return;
    int was_up = c->state == CONN_UP;
    char u[300];
    url_text(&c->addr, u, sizeof u);
    plog("%s %s: %s", was_up ? "disconnected from" : "cannot connect to", u, why);
    if (failure && (!c->authorized || !c->notified)) { /* remembered for the final message if no pool works */
        c->last_fail[c->cur] = was_up ? FAIL_PROTOCOL : FAIL_CONNECT;
        snprintf(c->last_reason[c->cur], sizeof c->last_reason[0], "%s", why);
    }
    int waiting = drain && was_up ? pending_on(c, c->conn_gen) : 0;
    if (waiting > 0) {
        end_drain(c, "share sent but not answered before the disconnect");
        pool_conn t = c->old; /* closed: it becomes the next connection */
        c->old = c->conn;
        c->conn = t;
        c->draining = 1;
        c->old_gen = c->conn_gen;
        c->drain_until = now + DRAIN_WAIT_S;
        plog("waiting up to %.0f s for the answers to %d share%s sent to %s", DRAIN_WAIT_S, waiting,
             waiting == 1 ? "" : "s", u);
    } else {
        conn_close(&c->conn);
    }
    c->state = CONN_DOWN;
    if (was_up) c->stats->disconnects++;
    if (c->authorized && now - c->authorized_at >= STABLE_SESSION_S) c->failures = 0;
    if (c->authorized) c->offline_since = now;
    for (int i = 0; i < POOL_PENDING; i++)
        if (c->pending[i].id >= 0 && !(c->draining && c->pending[i].gen == c->old_gen))
            forget_pending(c, &c->pending[i], "share sent but not answered before the disconnect");
    c->subscribed = c->authorized = c->notified = 0;
    c->state_since = now;
    if (failure) schedule_retry(c);
}

static void disconnect(pool_client *c, const char *why, int failure) { disconnect_ex(c, why, failure, 0); }

static void start_connect(pool_client *c)
{
    char err[256];
    c->state = CONN_RESOLVING;
    c->state_since = cli_now();
    if (conn_start(&c->conn, &c->addr, err, sizeof err) != 0) disconnect(c, err, 1);
}

/* While resolving: the answer, if there is one yet, starts the TCP connect. */
static void check_resolved(pool_client *c)
{
    char err[300];
    int r = conn_resolved(&c->conn, err, sizeof err);
    if (r == 1) {
        c->state = CONN_CONNECTING;
        c->state_since = cli_now();
    } else if (r < 0) disconnect(c, err, 1);
    else if (cli_now() - c->state_since > RESOLVE_TIMEOUT_S) {
        snprintf(err, sizeof err, "cannot resolve %s: no answer within %.0f s", c->addr.host, RESOLVE_TIMEOUT_S);
        disconnect(c, err, 1);
    }
}

static void on_connected(pool_client *c)
{
    char u[300];
    url_text(&c->addr, u, sizeof u);
    c->state = CONN_UP;
    c->state_since = c->last_rx = cli_now();
    c->subscribed = c->authorized = c->notified = 0;
    c->conn_gen++;
    plog("connected to %s", u);
    c->conf_id = c->sub_id = c->auth_id = -1;
    if (c->opts->version_rolling) {
        c->conf_id = c->next_id++;
        if (send_line(c, stratum_configure(c->conf_id, c->opts->rolling_mask)) != 0) return;
    }
    c->sub_id = c->next_id++;
    c->offered_session = c->session[0] != '\0';
    send_line(c, stratum_subscribe(c->sub_id, AGENT, c->offered_session ? c->session : NULL));
}

/* ---------------------------------------------------------------- messages */

static void on_subscribed(pool_client *c, const stratum_msg *m)
{
    if (m->error[0] || !m->result || json_is_null(m->result)) {
        char e[200];
        log_clean(m->error, strlen(m->error), e, sizeof e);
        if (c->offered_session) { /* some pools refuse an unknown session id: subscribe afresh */
            plog("pool refused to resume the session (%s); subscribing afresh", e);
            forget_session(c);
            c->sub_id = c->next_id++;
            c->offered_session = 0;
            send_line(c, stratum_subscribe(c->sub_id, AGENT, NULL));
            return;
        }
        char why[300];
        snprintf(why, sizeof why, "protocol error: mining.subscribe refused%s%s", e[0] ? ": " : "", e);
        disconnect(c, why, 1);
        return;
    }
    char session[128], err[200];
    uint8_t en1[POOL_EN1_MAX];
    size_t en1_len;
    int en2_size;
    if (stratum_subscribe_result(m->result, session, sizeof session, en1, &en1_len, &en2_size, err, sizeof err) != 0) {
        char why[300];
        snprintf(why, sizeof why, "protocol error: mining.subscribe answer: %s", err);
        disconnect(c, why, 1);
        return;
    }
    int resumed = c->offered_session && en1_len == c->en1_len && memcmp(en1, c->en1, en1_len) == 0;
    if (!resumed && (c->en1_len || c->have_job)) forget_session(c);
    memcpy(c->en1, en1, en1_len);
    c->en1_len = en1_len;
    c->en2_size = en2_size;
    snprintf(c->session, sizeof c->session, "%s", session);
    c->subscribed = 1;
    c->stats->connects++;
    if (c->stats->connects > 1) c->stats->reconnects++;
    char hex[2 * POOL_EN1_MAX + 1];
    kiln_hex_encode(en1, en1_len, 0, hex);
    plog("subscribed: extranonce1 %s, extranonce2 size %d%s", hex, en2_size,
         resumed ? ", session resumed" : (c->offered_session ? ", new session" : ""));
    c->auth_id = c->next_id++;
    send_line(c, stratum_authorize(c->auth_id, user_at(c, c->cur), pass_at(c, c->cur)));
}

static void on_authorized(pool_client *c, const stratum_msg *m)
{
    if (!stratum_result_true(m->result)) {
        char e[200];
        log_clean(m->error, strlen(m->error), e, sizeof e);
        plog("pool refused worker '%s'%s%s", user_at(c, c->cur), e[0] ? ": " : "", e);
        c->refused[c->cur] = 1;
        disconnect(c, "authorization refused", 1);
        return;
    }
    c->authorized = 1;
    c->ever_authorized = 1;
    c->refused[c->cur] = 0;
    c->authorized_at = cli_now();
    c->offline_since = 0;
    plog("authorized as '%s'", user_at(c, c->cur));
}

static void on_configured(pool_client *c, const stratum_msg *m)
{
    uint32_t mask = 0;
    if (!m->error[0] && stratum_configure_result(m->result, &mask)) {
        c->rolling = 1;
        c->mask = mask & c->opts->rolling_mask;
        c->mask_serial++;
        plog("version rolling granted, mask %08x", c->mask);
    } else {
        c->rolling = 0;
        plog("version rolling not granted");
    }
}

static void on_share_answer(pool_client *c, struct pending *p, const stratum_msg *m)
{
    char d[200];
    share_desc(&p->share, d, sizeof d);
    if (stratum_result_true(m->result) && !m->error[0]) {
        c->stats->accepted++;
        c->stats->accepted_work += p->share.difficulty;
        plog("accepted %llu/%llu: %s", (unsigned long long)c->stats->accepted,
             (unsigned long long)(c->stats->accepted + c->stats->rejected), d);
    } else {
        char e[200];
        log_clean(m->error, strlen(m->error), e, sizeof e);
        c->stats->rejected++;
        mon_reason_add(c->stats->rejected_why, e[0] ? e : "result false");
        plog("REJECTED (%s): %s", e[0] ? e : "result false", d);
    }
    p->id = -1;
    c->npending--;
}

static void on_response(pool_client *c, const stratum_msg *m)
{
    int64_t id = m->int_id;
    if (id >= 0 && id == c->sub_id) on_subscribed(c, m);
    else if (id >= 0 && id == c->auth_id) on_authorized(c, m);
    else if (id >= 0 && id == c->conf_id) on_configured(c, m);
    else if (id >= 0 && c->pending[id % POOL_PENDING].id == id) on_share_answer(c, &c->pending[id % POOL_PENDING], m);
    else {
        char text[80];
        c->stats->unknown_answers++;
        plog("answer to an unknown request (id %s) ignored", stratum_id_text(m->id, text, sizeof text));
    }
}

static void on_notify(pool_client *c, stratum_msg *m)
{
    char id[POOL_JOB_ID_MAX + 1];
    log_clean(m->job.id, strlen(m->job.id), id, sizeof id);
    if (!c->subscribed) {
        plog("job %s before the subscription was answered: ignored", id);
        return;
    }
    pool_job_free(&c->job);
    c->job = m->job;
    m->job.coinb = NULL; /* taken */
    memcpy(c->job_en1, c->en1, c->en1_len);
    c->job_en1_len = c->en1_len;
    c->job_en2_size = c->en2_size;
    c->job_difficulty = c->difficulty;
    c->have_job = 1;
    c->ever_worked = 1;
    c->job_serial++;
    c->notified = 1;
    c->stats->jobs++;
    if (c->job.clean) c->nvalid = 0;
    if (!client_job_valid(c, c->job.id)) {
        if (c->nvalid == POOL_VALID_JOBS) {
            memmove(c->valid, c->valid + 1, (POOL_VALID_JOBS - 1) * sizeof *c->valid);
            c->nvalid--;
        }
        snprintf(c->valid[c->nvalid++].id, sizeof c->valid[0].id, "%s", c->job.id);
    }
    plog("new job %s%s (nbits %08x, ntime %08x)", id, c->job.clean ? ", clean" : "", c->job.nbits, c->job.ntime);
}

static void on_reconnect(pool_client *c, const stratum_msg *m)
{
    pool_url to = c->addr;
    char err[200], u[300];
    if (m->host[0] || m->port[0]) {
        if (pool_url_from_parts(m->host[0] ? m->host : c->addr.host, m->port[0] ? m->port : c->addr.port, &to, err,
                                sizeof err) != 0) {
            plog("client.reconnect ignored: %s", err);
            return;
        }
        to.scheme = c->addr.scheme; /* a TLS pool's redirect is TLS too, checked against the new host */
    }
    int same_pool = strcmp(to.host, c->addr.host) == 0 && strcmp(to.port, c->addr.port) == 0;
    url_text(&to, u, sizeof u);
    if (m->wait_s > RECONNECT_WAIT_MAX_S && c->opts->nurls > 1) {
        plog("pool asked to reconnect to %s in %d s: too long to wait with another pool configured", u, m->wait_s);
        disconnect_ex(c, "client.reconnect", 0, 1);
        next_pool(c);
        c->next_attempt = cli_now();
        return;
    }
    plog("pool asked to reconnect to %s in %d s", u, m->wait_s);
    disconnect_ex(c, "client.reconnect", 0, 1);
    if (!same_pool) c->session[0] = '\0'; /* a session id means nothing to another server */
    c->addr = to;
    c->next_attempt = cli_now() + m->wait_s;
}

static void answer(pool_client *c, json_t *id, json_t *result, int code, const char *msg)
{
    if (!id || json_is_null(id)) {
        if (result) json_decref(result);
        return;
    }
    send_line(c, stratum_answer(id, result, code, msg));
}

void client_handle_line(pool_client *c, const char *line, size_t len)
{
    stratum_msg m;
    char err[256], excerpt[100];
    c->last_rx = cli_now();
    if (stratum_parse(line, len, &m, err, sizeof err) != 0) {
        c->stats->malformed++;
        if (strcmp(m.method, "mining.set_extranonce") == 0 && c->state == CONN_UP) {
            /* the pool's jobs now assume an extranonce kiln cannot use: no valid share is possible */
            char why[300];
            snprintf(why, sizeof why, "protocol error: %s", err);
            disconnect(c, why, 1);
            return;
        }
        plog("malformed line skipped: %s: %s", err, log_clean(line, len < 80 ? len : 80, excerpt, sizeof excerpt));
        return;
    }
    switch (m.kind) {
    case ST_RESPONSE: on_response(c, &m); break;
    case ST_NOTIFY: on_notify(c, &m); break;
    case ST_SET_DIFFICULTY:
        if (m.difficulty != c->difficulty) {
            c->diff_serial++;
            plog("pool difficulty %g", m.difficulty);
        }
        c->difficulty = m.difficulty;
        break;
    case ST_SET_EXTRANONCE: {
        char hex[2 * POOL_EN1_MAX + 1];
        kiln_hex_encode(m.en1, m.en1_len, 0, hex);
        memcpy(c->en1, m.en1, m.en1_len);
        c->en1_len = m.en1_len;
        c->en2_size = m.en2_size;
        plog("extranonce1 %s, extranonce2 size %d from the next job on", hex, m.en2_size);
        break;
    }
    case ST_RECONNECT: on_reconnect(c, &m); break;
    case ST_SET_VERSION_MASK:
        if (c->rolling) {
            c->mask = m.mask & c->opts->rolling_mask;
            c->mask_serial++;
            plog("version rolling mask %08x", c->mask);
        } else plog("mining.set_version_mask without version rolling: ignored");
        break;
    case ST_GET_VERSION: answer(c, m.id, json_string(AGENT), 0, NULL); break;
    case ST_SHOW_MESSAGE: {
        char text[200];
        plog("message from the pool: %s", log_clean(m.text, strlen(m.text), text, sizeof text));
        break;
    }
    case ST_UNKNOWN: {
        char name[64];
        c->stats->unknown++;
        plog("unknown method '%s' ignored", log_clean(m.method, strlen(m.method), name, sizeof name));
        answer(c, m.id, NULL, 20, "Unsupported method");
        break;
    }
    }
    stratum_msg_clear(&m);
}

/* Reads and handles what is available; bounded so a flooding pool cannot starve the miner. */
static void read_lines(pool_client *c)
{
    for (int round = 0; round < 64 && c->state == CONN_UP; round++) {
        char *line;
        size_t len;
        int r = 0;
        while (c->state == CONN_UP && (r = linebuf_next(&c->conn.in, &line, &len)) == 1) client_handle_line(c, line, len);
        if (c->state != CONN_UP) return;
        if (r < 0) {
            disconnect(c, "protocol error: line longer than 64 KiB from the pool", 1);
            return;
        }
        long n = conn_read(&c->conn);
        if (n == -2) return;
        if (n == 0) {
            disconnect(c, "connection closed by the pool", 1);
            return;
        }
        if (n < 0) {
            /* a full buffer without a newline is an over-long line */
            if (linebuf_next(&c->conn.in, &line, &len) < 0)
                disconnect(c, "protocol error: line longer than 64 KiB from the pool", 1);
            else disconnect(c, c->conn.err, 1);
            return;
        }
    }
}

/* ---------------------------------------------------------------- leaving and coming back */

/* The left connection: only answers to our shares on it count; anything else is dropped. */
static void drain_read(pool_client *c)
{
    for (int round = 0; round < 64 && c->draining; round++) {
        char *line;
        size_t len;
        int r = 0;
        while (c->draining && (r = linebuf_next(&c->old.in, &line, &len)) == 1) {
            stratum_msg m;
            char err[256];
            if (stratum_parse(line, len, &m, err, sizeof err) != 0) continue;
            int64_t id = m.int_id;
            struct pending *p = id >= 0 ? &c->pending[id % POOL_PENDING] : NULL;
            if (m.kind == ST_RESPONSE && p && p->id == id && p->gen == c->old_gen) on_share_answer(c, p, &m);
            stratum_msg_clear(&m);
        }
        if (!c->draining) return;
        if (pending_on(c, c->old_gen) == 0) {
            end_drain(c, "");
            return;
        }
        if (r < 0) {
            end_drain(c, "share sent but not answered before the disconnect (over-long line)");
            return;
        }
        long n = conn_read(&c->old);
        if (n == -2) return;
        if (n <= 0) {
            end_drain(c, "share sent but not answered before the old connection closed");
            return;
        }
    }
}

static void probe_done(pool_client *c, const char *why)
{
    char u[300];
    url_text(&c->opts->urls[0], u, sizeof u);
    double now = cli_now();
    c->probe_state = 0;
    c->primary_check_at = now + failback_delay(++c->primary_checks);
    if (why) {
        conn_close(&c->probe);
        plog("first pool %s still unreachable (%s); next check in %.0f s", u, why, c->primary_check_at - now);
        return;
    }
    /* the probe's connection becomes the session: no second connect */
    plog("first pool %s reachable again: back to the first pool", u);
    disconnect_ex(c, "going back to the first pool", 0, 1);
    c->cur = 0;
    c->addr = c->opts->urls[0];
    c->failures = 0;
    forget_session(c);
    pool_conn t = c->conn;
    c->conn = c->probe;
    c->probe = t;
    on_connected(c);
}

static void probe_start(pool_client *c)
{
    char err[256];
    c->probe_state = CONN_RESOLVING;
    c->probe_since = cli_now();
    if (conn_start(&c->probe, &c->opts->urls[0], err, sizeof err) != 0) probe_done(c, err);
}

/* One step of the check, after poll said revents for its socket. */
static void probe_step(pool_client *c, short revents)
{
    char err[300];
    int r;
    if (c->probe_state == CONN_RESOLVING) {
        r = conn_resolved(&c->probe, err, sizeof err);
        if (r == 1) c->probe_state = CONN_CONNECTING;
        else if (r < 0) return probe_done(c, err);
    } else if (c->probe_state == CONN_CONNECTING && revents) {
        r = conn_finish(&c->probe, err, sizeof err);
        if (r == 1) return probe_done(c, NULL);
        if (r == 2) c->probe_state = CONN_HANDSHAKE;
        else if (r < 0) return probe_done(c, err);
    } else if (c->probe_state == CONN_HANDSHAKE && revents) {
        r = conn_handshake(&c->probe, err, sizeof err);
        if (r == 1) return probe_done(c, NULL);
        if (r < 0) return probe_done(c, err);
    }
    if (c->probe_state && cli_now() - c->probe_since > CONNECT_TIMEOUT_S) probe_done(c, "no answer within 10 s");
}

void client_service(pool_client *c, double timeout_s)
{
    if (c->fatal) return;
    double now = cli_now();
    if (c->state == CONN_DOWN && now >= c->next_attempt) start_connect(c);
    if (c->state == CONN_RESOLVING) check_resolved(c);
    if (c->cur == 0 && c->authorized && now - c->authorized_at >= STABLE_SESSION_S) c->primary_checks = 0;
    if (c->cur != 0 && client_online(c) && c->probe_state == 0 && now >= c->primary_check_at) probe_start(c);
    now = cli_now();
    /* the session's socket, the left one being drained, the first pool's check */
    struct pollfd pfd[3];
    int nfds = 0, im = -1, io = -1, ip = -1;
    short ev = 0;
    if (c->state == CONN_CONNECTING) ev = POLLOUT;
    else if (c->state == CONN_HANDSHAKE || c->state == CONN_UP) ev = conn_events(&c->conn);
    if (ev) pfd[im = nfds++] = (struct pollfd){.fd = c->conn.fd, .events = ev, .revents = 0};
    if (c->draining) pfd[io = nfds++] = (struct pollfd){.fd = c->old.fd, .events = conn_events(&c->old), .revents = 0};
    if (c->probe_state == CONN_CONNECTING || c->probe_state == CONN_HANDSHAKE)
        pfd[ip = nfds++] = (struct pollfd){
            .fd = c->probe.fd, .events = c->probe_state == CONN_CONNECTING ? POLLOUT : conn_events(&c->probe), .revents = 0};
    if (c->state == CONN_DOWN && c->next_attempt - now < timeout_s) timeout_s = c->next_attempt - now;
    if (c->draining && c->drain_until - now < timeout_s) timeout_s = c->drain_until - now;
    /* the resolver thread has no fd */
    if ((c->state == CONN_RESOLVING || c->probe_state == CONN_RESOLVING) && timeout_s > 0.05) timeout_s = 0.05;
    int buffered = c->state == CONN_UP && conn_buffered(&c->conn); /* TLS bytes poll cannot see */
    /* the old connection's answers may already be in its buffer: read with the line that moved
     * kiln off it (client.reconnect), they are no news to poll (kiln then waited its whole drain for
     * an answer it held) */
    int old_buffered = c->draining && (conn_buffered(&c->old) || linebuf_has_line(&c->old.in));
    if (timeout_s < 0 || buffered || old_buffered) timeout_s = 0;
    int ms = (int)(timeout_s * 1000);
    int rc = poll(pfd, (nfds_t)nfds, ms);
    if (rc < 0 && errno != EINTR) plog("poll: %s", strerror(errno));
    short rev = rc > 0 && im >= 0 ? pfd[im].revents : 0;
    now = cli_now();
    if (c->draining) {
        if ((rc > 0 && io >= 0 && pfd[io].revents) || old_buffered) drain_read(c);
        if (c->draining && now >= c->drain_until) end_drain(c, "share sent but not answered before the disconnect");
    }
    if (c->probe_state) probe_step(c, rc > 0 && ip >= 0 ? pfd[ip].revents : 0);
    if (c->state == CONN_RESOLVING) check_resolved(c);
    else if (c->state == CONN_CONNECTING) {
        if (rev) {
            char err[256];
            int r = conn_finish(&c->conn, err, sizeof err);
            if (r == 1) on_connected(c);
            else if (r == 2) c->state = CONN_HANDSHAKE; /* the connect timeout covers the handshake */
            else if (r < 0) disconnect(c, err, 1);
        } else if (now - c->state_since > CONNECT_TIMEOUT_S) {
            disconnect(c, "connect timed out", 1);
        }
    } else if (c->state == CONN_HANDSHAKE) {
        char err[300];
        int r = rev ? conn_handshake(&c->conn, err, sizeof err) : 0;
        if (r == 1) on_connected(c);
        else if (r < 0) disconnect(c, err, 1);
        else if (now - c->state_since > CONNECT_TIMEOUT_S) disconnect(c, "TLS handshake timed out", 1);
    } else if (c->state == CONN_UP) {
        /* over TLS either direction may be what a read or a write waits for: try both */
        if (rev && conn_wants_write(&c->conn) && conn_flush(&c->conn) != 0) {
            char why[300];
            snprintf(why, sizeof why, "cannot write to the pool: %s", c->conn.err);
            disconnect(c, why, 1);
        }
        if (c->state == CONN_UP && (rev || buffered)) read_lines(c);
        if (c->state == CONN_UP && !c->authorized && now - c->state_since > HANDSHAKE_TIMEOUT_S)
            disconnect(c, "protocol error: no answer to mining.subscribe/authorize within 15 s", 1);
        if (c->state == CONN_UP && now - c->last_rx > (c->opts->timeout > 0 ? c->opts->timeout : SILENCE_TIMEOUT_S)) disconnect(c, "pool silent too long", 1);
        if (c->state == CONN_UP && c->authorized && c->nqueue > 0 && c->npending < POOL_PENDING &&
            (c->notified || now - c->authorized_at > FLUSH_WAIT_S))
            flush_queue(c);
    }
}

void client_finish(pool_client *c, double max_s)
{
    double end = cli_now() + max_s;
    while (c->npending > 0 && (c->state == CONN_UP || c->draining) && cli_now() < end) client_service(c, 0.05);
    end_drain(c, "no answer before exit");
    conn_close(&c->probe);
    c->probe_state = 0;
    for (int i = 0; i < c->nqueue; i++)
        stale(c, &c->queue[i], c->queue[i].found_offline ? "still offline at exit" : "no free request slot before exit");
    c->nqueue = 0;
    for (int i = 0; i < POOL_PENDING; i++)
        if (c->pending[i].id >= 0) forget_pending(c, &c->pending[i], "no answer before exit");
    conn_close(&c->conn);
    c->state = CONN_DOWN;
}
