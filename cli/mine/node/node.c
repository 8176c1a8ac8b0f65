/* The node-mining loop (solo mining against a node): a template from the node, a coinbase paying
 * the address, a header, and kiln_scan over the template's nonce range on the context's device;
 * each extranonce gives a new Merkle root when the range is exhausted. A second thread keeps a
 * longpoll open (BIP 22) or polls the node and hands any new template over; the scan's progress
 * callback sees it after the launch in flight, so a new block switches work within one launch.
 * Every block found is submitted and the node's answer printed. */
#include "node.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "addr.h"
#include "coinbase.h"
#include "common/cli.h"
#include "common/interrupt.h"
#include "common/json_out.h"
#include "common/progress.h"
#include "gbt.h"
#include "mine/monitor/dev_stats.h"
#include "mine/monitor/health_watch.h"
#include "mine/monitor/mon.h"
#include "rpc.h"

static const char *const CMD = "mine";

typedef struct feed {
    pthread_mutex_t mu;
    char *pending; /* a newer template's JSON text, or NULL */
    uint64_t serial; /* templates handed over so far */
    /* Requests are numbered as they start, so a longpoll answer that left the node before the
     * miner's own fetch after a block (and so holds the old tip) is recognised and dropped. */
    uint64_t requests, pending_request;
    char longpollid[GBT_LONGPOLL_MAX];
    int stop;
    rpc_conn *conn;
    const char *rules_param;
    double poll_s;
} feed;

static void nap(feed *f, double s)
{
    for (double t = 0; t < s; t += 0.05) {
        pthread_mutex_lock(&f->mu);
        int stop = f->stop;
        pthread_mutex_unlock(&f->mu);
        if (stop) return;
        struct timespec ts = {0, 50000000L};
        nanosleep(&ts, NULL);
    }
}

static void *feed_thread(void *arg)
{
    feed *f = arg;
    char last_err[512] = "";
    for (;;) {
        char id[GBT_LONGPOLL_MAX];
        pthread_mutex_lock(&f->mu);
        int stop = f->stop;
        snprintf(id, sizeof id, "%s", f->longpollid);
        pthread_mutex_unlock(&f->mu);
        if (stop) break;
        if (!id[0]) nap(f, f->poll_s);
        char *ids = id[0] ? rpc_quote(id) : NULL;
        char params[GBT_LONGPOLL_MAX * 2 + 256];
        snprintf(params, sizeof params, "[{%s%s%s}]", f->rules_param, id[0] ? ",\"longpollid\":" : "", id[0] && ids ? ids : "");
        free(ids);
        char *res = NULL, err[512];
        pthread_mutex_lock(&f->mu);
        uint64_t request = ++f->requests;
        pthread_mutex_unlock(&f->mu);
        if (rpc_call(f->conn, "getblocktemplate", params, id[0] ? 3600 : 30, &res, err, sizeof err) != 0) {
            pthread_mutex_lock(&f->mu);
            stop = f->stop;
            pthread_mutex_unlock(&f->mu);
            if (stop) break;
            if (strcmp(err, last_err) != 0) {
                progress_clear();
                fprintf(stderr, "kiln mine: %s %s (retrying)\n", id[0] ? "longpoll" : "poll", err);
                snprintf(last_err, sizeof last_err, "%s", err);
            }
            nap(f, 2);
            continue;
        }
        last_err[0] = '\0';
        /* the next longpoll waits on this template's id: with the old one the node would answer at
         * once, again and again, until the miner took this template */
        char next_id[GBT_LONGPOLL_MAX];
        int has_id = rpc_member_string(res, "longpollid", next_id, sizeof next_id) == 0;
        pthread_mutex_lock(&f->mu);
        free(f->pending);
        f->pending = res;
        f->pending_request = request;
        f->serial++;
        if (has_id) snprintf(f->longpollid, sizeof f->longpollid, "%s", next_id);
        pthread_mutex_unlock(&f->mu);
    }
    return NULL;
}

typedef struct miner {
    const mine_run *run;
    const node_args *a;
    kiln_ctx *ctx;
    rpc_conn *conn;
    feed f;
    uint64_t seen_serial, request; /* request: the number of the current template's request */
    gbt_template t;
    double fetched_at, deadline;
    addr_info payout;
    /* per template: the coinbase's Merkle branch and the commitment output (commit_len 0: none) */
    uint8_t branch[32 * MERKLE_BRANCH_MAX], commit[64];
    int branch_len;
    size_t commit_len;
    const char *rules_param;
    int found;
    uint32_t nonce;
    uint64_t blocks, accepted, rejected, hashes;
    double seconds;
    double stats_at; /* when the last rate line was printed */
    uint64_t stats_hashes; /* hashes then */
    /* the monitoring endpoint's view (cli/mine/monitor/mon.h), each device's counts and --temp-limit */
    dev_stats ds;
    mon_rates rates;
    mon_snapshot snap;
    double next_publish;
} miner;

/* The statistics for the endpoint, about ten times a second (in_scan: hashes of the scan under way). */
static void publish(miner *m, uint64_t in_scan, double now)
{
    mon_snapshot *p = &m->snap;
    p->found = p->sent = p->blocks = m->blocks;
    p->accepted = m->accepted;
    p->rejected = m->rejected;
    snprintf(p->job, sizeof p->job, "height %lld", (long long)m->t.height);
    dev_stats_publish(&m->ds, p, &m->rates, m->hashes + in_scan, now);
    m->next_publish = now + 0.1;
}

static int new_work(miner *m)
{
    pthread_mutex_lock(&m->f.mu);
    int yes = m->f.serial != m->seen_serial;
    pthread_mutex_unlock(&m->f.mu);
    return yes;
}

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    (void)hash;
    miner *m = user;
    m->found = 1;
    m->nonce = nonce;
    return 1;
}

/* A rate line on stderr every --stats-interval seconds. */
static void stats(miner *m, uint64_t in_scan)
{
    double now = cli_now();
    if (m->run->stats_interval <= 0 || now - m->stats_at < m->run->stats_interval) return;
    uint64_t total = m->hashes + in_scan;
    char rate[32];
    format_rate((double)(total - m->stats_hashes) / (now - m->stats_at), "H/s", rate, sizeof rate);
    char devs[600];
    dev_stats_rates(&m->ds, 1, 1, devs, sizeof devs); /* a set: each device since the last line */
    progress_clear();
    fprintf(stderr, "kiln mine: %s%s%s%s, height %lld, blocks: %llu accepted, %llu rejected\n", rate, devs[0] ? " (" : "",
            devs, devs[0] ? ")" : "", (long long)m->t.height, (unsigned long long)m->accepted,
            (unsigned long long)m->rejected);
    m->stats_at = now;
    m->stats_hashes = total;
}

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    miner *m = user;
    stats(m, done);
    double now = cli_now();
    /* --temp-limit: the device rests here, between launches, until it has cooled */
    while (dev_stats_poll(&m->ds, now) && !cli_interrupted() && !new_work(m) && !(m->deadline > 0 && now >= m->deadline)) {
        publish(m, done, now);
        nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
        now = cli_now();
    }
    if (now >= m->next_publish) publish(m, done, now);
    return new_work(m) || (m->deadline > 0 && now >= m->deadline);
}

/* Makes text the current template; 0, or -1 with why in err (the old one stays). */
static int take(miner *m, const char *text, const char *how, char *err, size_t errlen)
{
    gbt_template t;
    if (gbt_parse(text, strlen(text), &t, err, errlen) != 0) return -1;
    uint8_t branch[32 * MERKLE_BRANCH_MAX];
    int branch_len = 0;
    uint8_t commit[38];
    if (merkle_branch0(t.txids, t.ntx, branch, &branch_len) != 0 ||
        (t.segwit && !t.commit_len && witness_commitment(t.wtxids, t.ntx, (const uint8_t[32]){0}, commit) != 0)) {
        gbt_free(&t);
        snprintf(err, errlen, "out of memory for the Merkle trees");
        return -1;
    }
    int changed = memcmp(t.prev, m->t.prev, 32) != 0 || t.height != m->t.height;
    gbt_free(&m->t);
    m->t = t;
    m->fetched_at = cli_now();
    memcpy(m->branch, branch, sizeof branch);
    m->branch_len = branch_len;
    m->commit_len = t.commit_len;
    if (t.commit_len) {
        memcpy(m->commit, t.commit, t.commit_len);
    } else if (t.segwit) { /* no default_witness_commitment: computed, the reserved value 32 zero bytes */
        memcpy(m->commit, commit, sizeof commit);
        m->commit_len = sizeof commit;
    }
    pthread_mutex_lock(&m->f.mu);
    snprintf(m->f.longpollid, sizeof m->f.longpollid, "%s", t.longpollid);
    pthread_mutex_unlock(&m->f.mu);
    if (changed) {
        progress_clear();
        fprintf(stderr, "kiln mine: template height %lld, %zu transactions, reward %lld, bits %08x, rules %s (%s)\n",
                (long long)t.height, t.ntx, (long long)t.coinbasevalue, (unsigned)t.bits, t.rules[0] ? t.rules : "none",
                how);
    }
    return 0;
}

/* Asks for a template now. 0, or -1 with the error printed: as the command's error (its exit code
 * in *code) when code is not NULL, else as a line after which mining goes on (the longpoll brings
 * the next template). */
static int fetch(miner *m, const char *how, int *code)
{
    char params[256], *res = NULL, err[600];
    snprintf(params, sizeof params, "[{%s}]", m->rules_param);
    pthread_mutex_lock(&m->f.mu);
    uint64_t request = ++m->f.requests;
    pthread_mutex_unlock(&m->f.mu);
    int r = rpc_call(m->conn, "getblocktemplate", params, 60, &res, err, sizeof err);
    const char *note = r != 0 && m->run->algo->search_algo == KILN_ALGO_SCRYPT && strstr(err, "mweb")
                           ? " (Litecoin with MWEB active: kiln cannot build MWEB blocks, see docs/MINING.md)"
                           : "";
    if (r == 0) {
        char why[512];
        r = take(m, res, how, why, sizeof why);
        if (r == 0) m->request = request;
        else snprintf(err, sizeof err, "getblocktemplate: %s", why);
        free(res);
    }
    if (r == 0) return 0;
    if (code) {
        *code = cli_error(EXIT_DEVICE, CMD, "%s%s", err, note);
    } else {
        progress_clear();
        fprintf(stderr, "kiln mine: %s (the longpoll or the next poll brings the next template)\n", err);
    }
    return -1;
}

static void le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i);
}

/* The header and coinbase for extranonce en of the current template. */
static int build(miner *m, uint64_t en, uint8_t header[80], uint8_t *cb, size_t *cb_len)
{
    const gbt_template *t = &m->t;
    cb_params p = {t->height, t->aux, t->aux_len, en, m->payout.script, m->payout.script_len, t->coinbasevalue,
                   m->commit_len ? m->commit : NULL, m->commit_len};
    uint8_t legacy[CB_MAX], txid[32], root[32];
    size_t ll = coinbase_build(&p, 0, legacy, sizeof legacy);
    *cb_len = coinbase_build(&p, 1, cb, CB_MAX);
    if (!ll || !*cb_len) return -1;
    kiln_sha256d(legacy, ll, txid);
    merkle_root_from_branch(txid, m->branch, m->branch_len, root);
    uint32_t now = t->curtime;
    if (t->time_mutable) now += (uint32_t)(cli_now() - m->fetched_at);
    if (now < t->mintime) now = t->mintime;
    le32(header, t->version);
    memcpy(header + 4, t->prev, 32);
    memcpy(header + 36, root, 32);
    le32(header + 68, now);
    le32(header + 72, t->bits);
    le32(header + 76, 0);
    return 0;
}

/* Serializes and submits the block; prints the node's answer. 0, or -1 when the node could not
 * be asked (the caller goes on: the next template decides). */
static int submit(miner *m, const uint8_t header[80], const uint8_t *cb, size_t cb_len)
{
    const gbt_template *t = &m->t;
    uint8_t cnt[9];
    size_t cn = put_compact(cnt, t->ntx + 1), len = 80 + cn + cb_len + t->txdata_len;
    char *workid = t->workid[0] ? rpc_quote(t->workid) : NULL; /* BIP 22: sent back as given */
    char *hex = malloc(2 * len + 32 + (workid ? strlen(workid) : 0));
    if (!hex) {
        free(workid);
        return -1;
    }
    size_t o = 0;
    memcpy(hex, "[\"", 2);
    o = 2;
    kiln_hex_encode(header, 80, 0, hex + o);
    o += 160;
    kiln_hex_encode(cnt, cn, 0, hex + o);
    o += 2 * cn;
    kiln_hex_encode(cb, cb_len, 0, hex + o);
    o += 2 * cb_len;
    kiln_hex_encode(t->txdata, t->txdata_len, 0, hex + o);
    o += 2 * t->txdata_len;
    if (workid) sprintf(hex + o, "\",{\"workid\":%s}]", workid);
    else memcpy(hex + o, "\"]", 3);
    free(workid);
    uint8_t pow[32];
    char hash_hex[65];
    kiln_header_hash(header, pow);
    kiln_hex_encode(pow, 32, 1, hash_hex);
    char *res = NULL, err[512];
    int rc = rpc_call(m->conn, "submitblock", hex, 60, &res, err, sizeof err);
    free(hex);
    m->blocks++;
    progress_clear();
    char verdict[512];
    int ok = rc == 0 && rpc_result_string(res, verdict, sizeof verdict) == 0;
    if (rc != 0) snprintf(verdict, sizeof verdict, "%s", err);
    if (ok) m->accepted++;
    else m->rejected++;
    if (json_on()) {
        json_object(NULL);
        json_int("height", t->height);
        json_str("hash", hash_hex);
        json_bool("accepted", ok);
        json_str("reason", ok ? NULL : verdict);
        json_close();
    } else {
        printf("block height=%lld hash=%s %s%s\n", (long long)t->height, hash_hex, ok ? "accepted" : "rejected: ",
               ok ? "" : verdict);
        fflush(stdout);
    }
    free(res);
    return rc;
}

/* Waits for the feed thread's next template (or a stop), mining nothing meanwhile. */
static void wait_for_work(miner *m)
{
    while (!new_work(m) && !cli_interrupted() && !(m->deadline > 0 && cli_now() >= m->deadline)) {
        struct timespec ts = {0, 50000000L};
        nanosleep(&ts, NULL);
    }
}

static int mine(miner *m)
{
    const mine_run *run = m->run;
    const node_args *a = m->a;
    uint64_t en = 0;
    int code = EXIT_OK;
    for (;;) {
        if (cli_interrupted() || (m->deadline > 0 && cli_now() >= m->deadline)) break;
        if (a->max_blocks && m->blocks >= a->max_blocks) break;
        if (new_work(m)) {
            pthread_mutex_lock(&m->f.mu);
            char *text = m->f.pending;
            uint64_t request = m->f.pending_request;
            m->f.pending = NULL;
            m->seen_serial = m->f.serial;
            pthread_mutex_unlock(&m->f.mu);
            char err[512];
            if (text && request > m->request) {
                if (take(m, text, m->f.longpollid[0] ? "longpoll" : "poll", err, sizeof err) == 0) {
                    m->request = request;
                    en = 0;
                } else { /* the template in hand stays: the next one may be usable */
                    progress_clear();
                    fprintf(stderr, "kiln mine: getblocktemplate: %s\n", err);
                }
            }
            free(text);
        }
        uint8_t cb[CB_MAX];
        size_t cb_len = 0;
        kiln_scan_job job;
        memset(&job, 0, sizeof job);
        job.algo = (kiln_algo)run->algo->search_algo;
        if (build(m, en, job.header, cb, &cb_len) != 0) {
            code = cli_error(EXIT_USAGE, CMD, "the coinbase does not fit (coinbaseaux or the address is too long)");
            break;
        }
        memcpy(job.target, m->t.target, 32);
        job.start = m->t.nonce_lo;
        job.count = (uint64_t)m->t.nonce_hi - m->t.nonce_lo + 1;
        job.on_found = on_found;
        job.on_progress = on_progress;
        job.user = m;
        m->found = 0;
        kiln_scan_result res;
        memset(&res, 0, sizeof res);
        kiln_status st = dev_stats_scan(&m->ds, m->ctx, &job, &res);
        m->hashes += res.hashes;
        publish(m, 0, cli_now()); /* a scan that ends on a block never reaches on_progress */
        m->seconds += res.seconds;
        if (res.false_candidates)
            fprintf(stderr, "kiln mine: warning: %llu device candidates failed the CPU re-check\n",
                    (unsigned long long)res.false_candidates);
        if (m->found) {
            kiln_header_set_nonce(job.header, m->nonce);
            const uint64_t accepted_before = m->accepted;
            submit(m, job.header, cb, cb_len);
            publish(m, 0, cli_now());
            /* the node has a new tip (or refused this one): ask now rather than wait for the longpoll */
            if (fetch(m, "after the block", NULL) == 0) en = 0;
            else if (m->accepted > accepted_before) wait_for_work(m); /* the template in hand is stale */
            else en++;
            continue;
        }
        if (st == KILN_NOT_FOUND) {
            en++;
            continue;
        }
        if (st == KILN_STOPPED || st == KILN_OK) continue;
        code = cli_fail(CMD, m->ctx, st);
        break;
    }
    return code;
}

int node_main(const mine_run *run, const node_args *a)
{
    int code = EXIT_OK;
    miner *m = calloc(1, sizeof *m);
    if (!m) return cli_error(EXIT_DEVICE, CMD, "out of memory");
    m->run = run;
    m->a = a;
    pthread_mutex_init(&m->f.mu, NULL);
    const int scrypt = run->algo->search_algo == KILN_ALGO_SCRYPT;
    /* Litecoin's MWEB rule is not offered: kiln cannot build the extension block */
    m->rules_param = "\"rules\":[\"segwit\"],\"capabilities\":[\"longpoll\"]";
    char err[512];
    rpc_auth auth = {a->url, a->user, a->pass, a->cookie};
    pthread_t th;
    int th_started = 0;
    /* the address is checked before the node is asked anything, and against its chain after */
    if (addr_payout(a->addr, scrypt ? ADDR_LITECOIN : ADDR_BITCOIN, NULL, &m->payout, err, sizeof err)) {
        code = cli_error(EXIT_USAGE, CMD, "%s", err);
        goto out;
    }
    if (!(m->conn = rpc_open(&auth, err, sizeof err))) {
        code = cli_error(EXIT_USAGE, CMD, "%s", err);
        goto out;
    }
    char *res = NULL;
    if (rpc_call(m->conn, "getblockchaininfo", "[]", 30, &res, err, sizeof err) != 0) {
        code = cli_error(strstr(err, "HTTP status 401") ? EXIT_USAGE : EXIT_DEVICE, CMD, "%s", err);
        goto out;
    }
    char chain_s[32];
    int have_chain = rpc_member_string(res, "chain", chain_s, sizeof chain_s) == 0;
    free(res);
    if (!have_chain) snprintf(chain_s, sizeof chain_s, "?");
    if (addr_payout(a->addr, scrypt ? ADDR_LITECOIN : ADDR_BITCOIN, have_chain ? chain_s : NULL, &m->payout, err,
                    sizeof err)) {
        code = cli_error(EXIT_USAGE, CMD, "%s", err);
        goto out;
    }
    if (!(m->ctx = cli_ctx_new(CMD, &code))) goto out;
    if ((code = cli_device(CMD, m->ctx, run->device, (int)run->threads)) != 0) goto out;
    if (fetch(m, "first", &code) != 0) goto out;
    fprintf(stderr, "kiln mine: solo mining %s on %s (chain %s), paying %s (%s), on %s\n", run->algo->name, a->url,
            chain_s, a->addr, addr_type_name(m->payout.type), kiln_ctx_device_name(m->ctx));
    if (!(m->f.conn = rpc_open(&auth, err, sizeof err))) {
        code = cli_error(EXIT_DEVICE, CMD, "%s", err);
        goto out;
    }
    rpc_set_abort(m->f.conn, &m->f.stop);
    m->f.rules_param = m->rules_param;
    m->f.poll_s = a->poll_s > 0 ? a->poll_s : 5;
    snprintf(m->f.longpollid, sizeof m->f.longpollid, "%s", m->t.longpollid);
    if (pthread_create(&th, NULL, feed_thread, &m->f) != 0) {
        code = cli_error(EXIT_DEVICE, CMD, "cannot start the longpoll thread");
        goto out;
    }
    th_started = 1;
    if (run->duration > 0) m->deadline = cli_now() + run->duration;
    m->stats_at = cli_now();
    dev_stats_init(&m->ds, m->ctx, run->temp_limit, health_log_mine);
    m->snap.started = cli_now();
    snprintf(m->snap.mode, sizeof m->snap.mode, "solo");
    snprintf(m->snap.algo, sizeof m->snap.algo, "%s", run->algo->name);
    snprintf(m->snap.source, sizeof m->snap.source, "%s", a->url);
    m->snap.online = 1;
    m->snap.temp_limit = run->temp_limit;
    publish(m, 0, m->snap.started);
    json_object(NULL);
    json_str("algo", run->algo->name);
    json_str("device", kiln_ctx_device_name(m->ctx));
    json_str("node", a->url);
    json_str("chain", chain_s);
    json_str("address", a->addr);
    json_str("address_type", addr_type_name(m->payout.type));
    json_array("blocks");
    code = mine(m);
    json_close();
    double rate = m->seconds > 0 ? (double)m->hashes / m->seconds : 0;
    json_u64("hashes", m->hashes);
    json_num("seconds", m->seconds, "%.6f");
    json_num("rate", rate, "%.0f");
    json_u64("accepted", m->accepted);
    json_u64("rejected", m->rejected);
    json_bool("interrupted", cli_interrupted());
    dev_stats_json_out(&m->ds, "devices", m->hashes);
    if (!json_on())
        printf("hashes=%llu seconds=%.3f rate=%.0f blocks=%llu accepted=%llu rejected=%llu\n",
               (unsigned long long)m->hashes, m->seconds, rate, (unsigned long long)m->blocks,
               (unsigned long long)m->accepted, (unsigned long long)m->rejected);
    if (!json_on()) dev_stats_print(&m->ds);
    if (cli_interrupted()) fprintf(stderr, "kiln mine: stopped by %s\n", cli_interrupt_name());
    if (code == EXIT_OK && m->rejected)
        code = cli_error(EXIT_NOT_FOUND, CMD, "the node rejected %llu of %llu blocks", (unsigned long long)m->rejected,
                         (unsigned long long)m->blocks);
out:
    if (th_started) {
        pthread_mutex_lock(&m->f.mu);
        m->f.stop = 1;
        pthread_mutex_unlock(&m->f.mu);
        pthread_join(th, NULL);
        free(m->f.pending);
    }
    rpc_close(m->f.conn);
    rpc_close(m->conn);
    gbt_free(&m->t);
    kiln_ctx_free(m->ctx);
    pthread_mutex_destroy(&m->f.mu);
    free(m);
    return code;
}
