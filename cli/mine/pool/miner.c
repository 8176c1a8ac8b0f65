#include "miner.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/interrupt.h"
#include "common/progress.h"
#include "log.h"

kiln_status miner_measure_rate(kiln_ctx *ctx, kiln_algo algo, double *rate)
{
    kiln_scan_job job;
    memset(&job, 0, sizeof job); /* an all-zero target: nothing is found, every nonce is hashed */
    job.algo = algo;
    job.find_all = 1;
    *rate = 0;
    for (uint64_t count = 256;; count *= 4) {
        kiln_scan_result res;
        memset(&res, 0, sizeof res);
        job.count = count;
        kiln_status st = kiln_scan(ctx, &job, &res);
        if (st != KILN_OK && st != KILN_NOT_FOUND) return st;
        if (res.seconds > 0) *rate = (double)res.hashes / res.seconds;
        if (res.seconds >= 0.02 || count >= (UINT64_C(1) << 24)) return KILN_OK;
    }
}

/* Shares per hash at difficulty 1: the difficulty-1 target over 2^256. */
/* Hashes a share may need before kiln says no share will be found: 2^100, decades at the whole
 * Bitcoin network's 10^21 H/s. */
#define POOL_HOPELESS_HASHES 1.2676506002282294e30

static double diff1_share_odds(kiln_algo algo)
{
    uint8_t t[32];
    if (kiln_algo_diff1_target(algo, t) != KILN_OK) return 0;
    double v = 0;
    for (int i = 31; i >= 0; i--) v = v * 256 + t[i];
    return ldexp(v, -256);
}

static void set_targets(miner *m)
{
    pool_client *c = m->c;
    /* stratum binds a difficulty to the jobs after it; the stricter of the job's and the
     * current one is accepted by a pool under either reading */
    double d = c->difficulty > c->job_difficulty ? c->difficulty : c->job_difficulty;
    double odds = diff1_share_odds(m->mo->algo);
    double floor = m->rate * odds / POOL_MAX_SHARE_RATE; /* the difficulty giving the bound's rate */
    double local = d < floor ? floor : d;
    if (kiln_target_from_difficulty(m->ctx, m->mo->algo, local, m->share_target) != KILN_OK)
        memset(m->share_target, 0, 32); /* cannot happen (the client keeps d finite and > 0): find nothing */
    m->share_difficulty = local;
    if (local > d && (!m->raised || m->raised_for != d)) {
        char r[32];
        format_rate(m->rate, "H/s", r, sizeof r);
        plog("pool difficulty %g would give about %.3g shares/s at %s; mining at local difficulty %.6g instead (at "
             "most %g shares/s; every share still meets the pool's target)",
             d, m->rate * odds / d, r, local, POOL_MAX_SHARE_RATE);
    } else if (local == d && m->raised) {
        plog("mining at the pool's difficulty %g again", d);
    }
    m->raised = local > d;
    m->raised_for = d;
    static const uint8_t zero[32];
    if (memcmp(m->share_target, zero, 32) == 0 && !m->target_zero_logged) {
        plog("pool difficulty %g leaves no hash that can meet its target: no share will be found", d);
        m->target_zero_logged = 1;
    } else if (odds > 0 && local / odds > POOL_HOPELESS_HASHES && !m->target_zero_logged) {
        /* a target above zero that no device can meet (set_difficulty 1e30): said as for zero */
        plog("pool difficulty %g needs about %.3g hashes a share, more than every miner on earth tries in years: no "
             "share will be found",
             d, local / odds);
        m->target_zero_logged = 1;
    }
    m->block_target_ok = kiln_target_from_bits(NULL, m->nbits, m->block_target) == KILN_OK;
}

/* After a call measured the rate: a new bound when the old one is off by half or more. */
static void rate_measured(miner *m, double rate)
{
    m->rate = rate > m->rate ? rate : 0.8 * m->rate + 0.2 * rate; /* quick to tighten, slow to relax */
    if (!m->have_work) return;
    double floor = m->rate * diff1_share_odds(m->mo->algo) / POOL_MAX_SHARE_RATE;
    if (floor > 1.5 * m->share_difficulty || (m->raised && floor < m->share_difficulty / 1.5)) set_targets(m);
}

static en2_slot *find_slot(miner *m)
{
    en2_slot *oldest = &m->slots[0];
    for (int i = 0; i < MINER_EN2_SLOTS; i++) {
        en2_slot *s = &m->slots[i];
        if (s->used && strcmp(s->job_id, m->job_id) == 0 && s->en1_len == m->en1_len &&
            memcmp(s->en1, m->en1, m->en1_len) == 0) {
            s->used = ++m->slot_clock;
            return s;
        }
        if (s->used < oldest->used) oldest = s;
    }
    memset(oldest, 0, sizeof *oldest);
    snprintf(oldest->job_id, sizeof oldest->job_id, "%s", m->job_id);
    memcpy(oldest->en1, m->en1, m->en1_len);
    oldest->en1_len = m->en1_len;
    oldest->used = ++m->slot_clock;
    return oldest;
}

/* Bits of r spread over the set bits of mask, lowest first. */
static uint32_t deposit(uint64_t r, uint32_t mask)
{
    uint32_t out = 0;
    for (int bit = 0, k = 0; bit < 32; bit++) {
        if (!(mask >> bit & 1)) continue;
        if (r >> k & 1) out |= 1u << bit;
        k++;
    }
    return out;
}

static void build_header(miner *m)
{
    pool_client *c = m->c;
    uint32_t v = c->job.version;
    if (m->rolling) v ^= deposit(m->roll, m->mask);
    m->version = v;
    pool_en2_encode(m->slot->next - 1, m->en2_size, m->en2);
    pool_job_header(&c->job, m->en1, m->en1_len, m->en2, m->en2_size, v, m->header);
    m->ntime = c->job.ntime + m->slot->ntime_roll;
    for (int i = 0; i < 4; i++) m->header[68 + i] = (uint8_t)(m->ntime >> (8 * i));
    m->next_nonce = 0;
    m->end_nonce = m->mo->work_nonces;
}

/* Moves to the next unit: the next version, or a fresh extranonce2. 0, or -1 when this job
 * has no space left. */
static int advance(miner *m)
{
    if (++m->roll < m->roll_count) {
        build_header(m);
        return 0;
    }
    uint64_t limit = m->en2_size >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * m->en2_size));
    if (m->slot->next >= limit) {
        if (m->slot->ntime_roll >= MINER_NTIME_ROLL_MAX) {
            if (!m->exhausted)
                plog("job %s: extranonce2 space used up and ntime rolled %d s; waiting for a new job", m->job_id,
                     MINER_NTIME_ROLL_MAX);
            m->exhausted = 1;
            return -1;
        }
        /* a new ntime makes every extranonce2 new again */
        if (m->slot->ntime_roll == 0) plog("job %s: extranonce2 space used up; rolling ntime", m->job_id);
        m->slot->ntime_roll++;
        m->slot->next = 0;
    }
    m->slot->next++;
    m->roll = 0;
    build_header(m);
    return 0;
}

static void set_rolling(miner *m)
{
    pool_client *c = m->c;
    m->rolling = c->rolling; /* negotiated: every submit carries version_bits, even with an empty mask */
    m->mask = m->rolling ? c->mask : 0;
    int bits = 0;
    for (uint32_t x = m->mask; x; x &= x - 1) bits++;
    m->roll_count = bits >= 63 ? UINT64_MAX : (UINT64_C(1) << bits);
    m->mask_serial = c->mask_serial;
}

static void start_job(miner *m)
{
    pool_client *c = m->c;
    m->job_serial = c->job_serial;
    m->diff_serial = c->diff_serial;
    snprintf(m->job_id, sizeof m->job_id, "%s", c->job.id);
    memcpy(m->en1, c->job_en1, c->job_en1_len);
    m->en1_len = c->job_en1_len;
    m->en2_size = (size_t)c->job_en2_size;
    m->nbits = c->job.nbits;
    m->exhausted = 0;
    m->slot = find_slot(m);
    set_rolling(m);
    set_targets(m);
    m->roll = m->roll_count - 1; /* advance() starts a fresh extranonce2 */
    m->have_work = 1;
    if (m->first_work == 0) m->first_work = cli_now();
    advance(m);
}

/* 1 when there is a unit to scan. */
static int prepare(miner *m)
{
    pool_client *c = m->c;
    if (!c->have_job) {
        m->have_work = 0;
        return 0;
    }
    if (!m->have_work || m->job_serial != c->job_serial) {
        start_job(m);
    } else {
        if (m->mask_serial != c->mask_serial) { /* the rolled versions change: a fresh unit */
            set_rolling(m);
            m->roll = m->roll_count - 1;
            m->exhausted = 0;
            advance(m);
        }
        if (m->diff_serial != c->diff_serial) {
            m->diff_serial = c->diff_serial;
            set_targets(m);
        }
        if (!m->exhausted && m->next_nonce >= m->end_nonce) advance(m);
    }
    return !m->exhausted;
}

static int can_mine(const miner *m, double now)
{
    const pool_client *c = m->c;
    if (!c->have_job) return 0;
    if (client_online(c) || c->offline_since == 0) return 1;
    return now - c->offline_since < m->mo->offline_mining_s;
}

void miner_print_stats(miner *m, double now, int final)
{
    pool_stats *s = m->st;
    double dt = now - m->last_stats_t;
    double recent = dt > 0 ? (double)(s->hashes - m->last_stats_hashes) / dt : 0;
    if (final) { /* the whole run's average */
        dt = m->first_work > 0 ? now - m->first_work : 0;
        recent = dt > 0 ? (double)s->hashes / dt : 0;
    }
    double up = now - m->t0;
    char r[32], u[300];
    format_rate(recent, "H/s", r, sizeof r);
    pool_url_format(&m->c->addr, u, sizeof u);
    int h = (int)(up / 3600), mi = (int)(up / 60) % 60, se = (int)up % 60;
    char hl[96] = "", devs[800];
    /* a set: each device's rate since the last line, the run's at the end (and its health); one
     * device: its health */
    dev_stats_rates(&m->ds, !final, 1, devs, sizeof devs);
    if (m->ds.n == 1) health_format(&m->ds.d[0].hw.h, hl, sizeof hl);
    plog("%s%s%s%s | accepted %llu rejected %llu stale %llu | difficulty %g | uptime %d:%02d:%02d | %s %s%s%s%s", r,
         devs[0] ? " [" : "", devs, devs[0] ? "]" : "", (unsigned long long)s->accepted, (unsigned long long)s->rejected,
         (unsigned long long)s->stale, m->c->difficulty, h, mi, se, u, client_online(m->c) ? "online" : "offline",
         hl[0] ? " | " : "", hl, m->ds.paused ? " | PAUSED (--temp-limit)" : "");
    m->last_stats_t = now;
    m->last_stats_hashes = s->hashes;
}

void miner_publish(miner *m, double now)
{
    mon_snapshot *p = &m->snap;
    const pool_stats *s = m->st;
    p->started = m->t0;
    snprintf(p->mode, sizeof p->mode, "pool");
    snprintf(p->algo, sizeof p->algo, "%s", kiln_algo_name(m->mo->algo));
    char url[300];
    pool_url_format(&m->c->addr, url, sizeof url); /* client.reconnect's host is the pool's text */
    log_clean(url, strlen(url), p->source, sizeof p->source);
    p->online = client_online(m->c);
    log_clean(m->job_id, strlen(m->job_id), p->job, sizeof p->job); /* pool text: ASCII for JSON */
    p->difficulty = m->c->difficulty;
    p->local_difficulty = m->share_difficulty;
    p->found = s->found;
    p->sent = s->sent;
    p->accepted = s->accepted;
    p->rejected = s->rejected;
    p->stale = s->stale;
    p->blocks = s->blocks;
    memcpy(p->rejected_why, s->rejected_why, sizeof p->rejected_why);
    memcpy(p->stale_why, s->stale_why, sizeof p->stale_why);
    p->temp_limit = m->mo->temp_limit;
    dev_stats_publish(&m->ds, p, &m->rates, s->hashes, now);
    m->next_publish = now + 0.1;
}

static void tick(miner *m, double now)
{
    dev_stats_poll(&m->ds, now);
    if (now >= m->next_publish) miner_publish(m, now);
    log_tick();
    if (m->mo->stats_interval > 0 && now >= m->next_stats) {
        miner_print_stats(m, now, 0);
        m->next_stats = now + m->mo->stats_interval;
    }
}

static int must_stop(miner *m, double now)
{
    const pool_client *c = m->c;
    return cli_interrupted() || c->fatal || m->ds.paused || (m->deadline > 0 && now >= m->deadline) ||
           c->job_serial != m->job_serial ||
           c->mask_serial != m->mask_serial || c->diff_serial != m->diff_serial || !can_mine(m, now);
}

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    miner *m = user;
    uint8_t header[80], pow[32];
    memcpy(header, m->header, 80);
    kiln_header_set_nonce(header, nonce);
    if (kiln_pow_hash(m->mo->algo, header, pow) != KILN_OK || memcmp(pow, hash, 32) != 0 ||
        !kiln_hash_meets_target(pow, m->share_target)) {
        m->st->invalid_local++;
        plog("nonce %08x failed the CPU check of job %s: not sent", nonce, m->job_id);
        return 0;
    }
    pool_share s;
    memset(&s, 0, sizeof s);
    snprintf(s.job_id, sizeof s.job_id, "%s", m->job_id);
    memcpy(s.en1, m->en1, m->en1_len);
    s.en1_len = m->en1_len;
    memcpy(s.en2, m->en2, m->en2_size);
    s.en2_len = m->en2_size;
    s.ntime = m->ntime;
    s.nonce = nonce;
    s.version = m->version;
    s.with_version = m->rolling;
    s.version_bits = m->version & m->mask;
    s.difficulty = m->share_difficulty;
    memcpy(s.hash, pow, 32);
    s.block = m->block_target_ok && kiln_hash_meets_target(pow, m->block_target);
    m->st->found++;
    if (s.block) {
        uint8_t id[32];
        char hex[65];
        kiln_header_hash(header, id);
        kiln_hex_encode(id, 32, 1, hex);
        m->st->blocks++;
        plog("BLOCK-LEVEL share: hash meets the network target of nbits %08x; block %s", m->nbits, hex);
    }
    client_share(m->c, &s);
    return 0;
}

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    miner *m = user;
    m->next_nonce = m->scan_start + done;
    m->st->hashes += done - m->scan_done;
    m->scan_done = done;
    client_service(m->c, 0);
    double now = cli_now();
    tick(m, now);
    return must_stop(m, now);
}

void miner_run(miner *m)
{
    m->t0 = m->last_stats_t = cli_now();
    m->next_stats = m->t0 + m->mo->stats_interval;
    if (m->mo->duration > 0) m->deadline = m->t0 + m->mo->duration;
    m->call_nonces = UINT64_C(1) << 16;
    for (;;) {
        double now = cli_now();
        if (cli_interrupted()) {
            plog("stopping on a signal");
            break;
        }
        if (m->deadline > 0 && now >= m->deadline) break;
        int busy = !m->ds.paused && can_mine(m, now) && prepare(m);
        double wait = 0.1;
        if (m->deadline > 0 && m->deadline - now < wait) wait = m->deadline - now;
        client_service(m->c, busy ? 0 : wait);
        if (m->c->fatal) break;
        now = cli_now();
        tick(m, now);
        if (m->ds.paused || !can_mine(m, now) || !prepare(m) || must_stop(m, now)) continue;

        kiln_scan_job job;
        memset(&job, 0, sizeof job);
        job.algo = m->mo->algo;
        memcpy(job.header, m->header, 80);
        memcpy(job.target, m->share_target, 32);
        job.start = m->next_nonce;
        job.count = m->end_nonce - m->next_nonce;
        if (job.count > m->call_nonces) job.count = m->call_nonces;
        job.find_all = 1;
        job.on_found = on_found;
        job.on_progress = on_progress;
        job.user = m;
        m->scan_start = m->next_nonce;
        m->scan_done = 0;
        kiln_scan_result res;
        kiln_status st = dev_stats_scan(&m->ds, m->ctx, &job, &res);
        m->scan_seconds += res.seconds;
        if (res.false_candidates)
            plog("warning: %llu device candidates failed the CPU re-check", (unsigned long long)res.false_candidates);
        if (st != KILN_OK && st != KILN_NOT_FOUND && st != KILN_STOPPED) {
            plog("device failure: %s", kiln_last_error(m->ctx));
            m->device_failed = 1;
            break;
        }
        if (st != KILN_STOPPED) m->next_nonce = job.start + job.count;
        if (res.hashes > 0 && res.seconds > 0) { /* next call: about MINER_CALL_S at this rate */
            rate_measured(m, (double)res.hashes / res.seconds);
            double want = (double)res.hashes / res.seconds * MINER_CALL_S;
            double lo = (double)m->call_nonces / 2, hi = (double)m->call_nonces * 8;
            want = want < lo ? lo : want > hi ? hi : want;
            m->call_nonces = want < 4096 ? 4096 : want > 4294967296.0 ? (UINT64_C(1) << 32) : (uint64_t)want;
        }
    }
    m->end_work = cli_now();
}
