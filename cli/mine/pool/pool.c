/* kiln mine --pool: options, the run, the summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "common/cli.h"
#include "common/interrupt.h"
#include "common/progress.h"
#include "log.h"
#include "mine/monitor/status.h"
#include "miner.h"
#include "pool.h"
#include "stratum.h"
#include "tls.h"
#include "tune/tune_cache.h"

/* How long, after mining ends, kiln waits for the answers to its last shares: short, so the
 * run ends within a second of --duration whatever the pool does. */
#define FINISH_WAIT_S 0.5

static void log_line(const char *msg) { plog("%s", msg); }

static int utf8_ok(const char *s)
{
    json_t *j = json_string(s);
    if (!j) return 0;
    json_decref(j);
    return 1;
}

/* "devices" of the --json summary: as dev_stats_json_out writes it for header and node mining. */
/* Each pool's user and password from --userpass, or --user and --pass: one for every pool, or one
 * per pool in their order (cgminer's -o A -u a -p x -o B -u b -p y). 0 or the exit code. */
static int credentials(const char *cmd, const pool_args *a, pool_opts *po)
{
    static char *split[POOL_MAX_URLS][2]; /* --userpass's halves, kept for the run */
    const char *users[POOL_MAX_URLS], *passes[POOL_MAX_URLS];
    int nu = a->nusers, np = a->npasses, n = po->nurls;
    memcpy(users, a->users, sizeof users);
    memcpy(passes, a->passes, sizeof passes);
    if (a->nuserpass && (nu || np)) return cli_error(EXIT_USAGE, cmd, "give --userpass, or --user and --pass, not both");
    for (int i = 0; i < a->nuserpass; i++) {
        const char *up = a->userpass[i], *colon = strchr(up, ':');
        if (!colon) return cli_error(EXIT_USAGE, cmd, "--userpass '%s': expected USER:PASS, with a colon", up);
        free(split[i][0]);
        free(split[i][1]);
        split[i][0] = strndup(up, (size_t)(colon - up));
        split[i][1] = strdup(colon + 1);
        if (!split[i][0] || !split[i][1]) return cli_error(EXIT_DEVICE, cmd, "out of memory");
        users[i] = split[i][0];
        passes[i] = split[i][1];
    }
    if (a->nuserpass) nu = np = a->nuserpass;
    if (nu == 0 || !*users[0]) return cli_error(EXIT_USAGE, cmd, "pool mining needs --user (the pool's worker name)");
    if ((nu != 1 && nu != n) || (np > 1 && np != n))
        return cli_error(EXIT_USAGE, cmd,
                         "%d pools, %d --user and %d --pass: give one of each for every pool, or one per pool in their order",
                         n, nu, np);
    for (int i = 0; i < n; i++) {
        po->users[i] = users[nu == 1 ? 0 : i];
        po->passes[i] = np == 0 ? "x" : passes[np == 1 ? 0 : i];
        if (!*po->users[i]) return cli_error(EXIT_USAGE, cmd, "pool %d has an empty --user", i + 1);
        if (!utf8_ok(po->users[i]) || !utf8_ok(po->passes[i]))
            return cli_error(EXIT_USAGE, cmd, "--user and --pass must be UTF-8");
    }
    po->user = po->users[0];
    po->pass = po->passes[0];
    return EXIT_OK;
}

static json_t *devices_json(const dev_stats *ds, uint64_t total)
{
    json_t *a = json_pack("[]"); /* not json_array(): cli/common/json_out.c takes that name in this program */
    for (int i = 0; a && i < ds->n; i++) {
        double t = dev_stats_seconds(ds, i);
        uint64_t h = dev_stats_shown(ds, i, total);
        json_array_append_new(a, json_pack("{s:s, s:i, s:s, s:I, s:f, s:f, s:o}", "id", ds->d[i].id, "ordinal",
                                           ds->d[i].ordinal, "name", ds->d[i].name, "hashes", (json_int_t)h, "seconds",
                                           t, "rate", t > 0 ? (double)h / t : 0.0, "health",
                                           status_health_json(&ds->d[i].hw.h)));
    }
    return a;
}

/* The run's summary; with --json one object, which names the failure (error, exit) when code is not
 * 0 and the signal (interrupted, signal) when one ended the run (docs/JSON.md). */
static void summary(const miner *m, const pool_client *c, const pool_stats *s, const char *algo, kiln_ctx *ctx,
                    int json, int code, const char *error)
{
    double end = cli_now();
    double mining = m->first_work > 0 ? m->end_work - m->first_work : 0;
    double rate = mining > 0 ? (double)s->hashes / mining : 0;
    double device_rate = m->scan_seconds > 0 ? (double)s->hashes / m->scan_seconds : 0;
    char url[300];
    pool_url_format(&c->addr, url, sizeof url);
    if (json) {
        json_t *o = json_pack(
            "{s:s, s:s, s:s, s:f, s:f, s:I, s:f, s:f, s:f, s:f, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}, "
            "s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f}",
            "pool", url, "algo", algo, "device", kiln_ctx_device_name(ctx), "seconds", end - m->t0, "mining_seconds",
            mining, "hashes", (json_int_t)s->hashes, "rate", rate, "device_rate", device_rate, "difficulty",
            c->difficulty, "local_difficulty", m->share_difficulty, "shares", "found", (json_int_t)s->found, "sent", (json_int_t)s->sent, "accepted",
            (json_int_t)s->accepted, "rejected", (json_int_t)s->rejected, "stale", (json_int_t)s->stale, "unanswered",
            (json_int_t)s->unanswered, "resubmitted", (json_int_t)s->resubmitted, "blocks", (json_int_t)s->blocks,
            "invalid_local", (json_int_t)s->invalid_local, "duplicate_local", (json_int_t)s->duplicate_local,
            "connects", (json_int_t)s->connects, "reconnects", (json_int_t)s->reconnects, "disconnects",
            (json_int_t)s->disconnects, "jobs", (json_int_t)s->jobs, "malformed", (json_int_t)s->malformed,
            "unknown_methods", (json_int_t)s->unknown, "unknown_answers", (json_int_t)s->unknown_answers, "accepted_work", s->accepted_work, "share_rate",
            mining > 0 ? s->accepted_work * 4294967296.0 / mining : 0.0);
        if (o) json_object_set_new(o, "health", status_health_json(&m->ds.d[0].hw.h));
        if (o) json_object_set_new(o, "devices", devices_json(&m->ds, s->hashes));
        if (o && code != EXIT_OK) {
            json_object_set_new(o, "error", json_string(error && *error ? error : "failed"));
            json_object_set_new(o, "exit", json_integer(code));
        }
        const char *sig = cli_interrupt_name();
        if (o && sig) {
            json_object_set_new(o, "interrupted", json_true());
            json_object_set_new(o, "signal", json_string(sig));
        }
        char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
        if (text) puts(text);
        free(text);
        json_decref(o);
    } else {
        printf("pool=%s hashes=%llu seconds=%.3f rate=%.0f accepted=%llu rejected=%llu stale=%llu blocks=%llu "
               "reconnects=%llu\n",
               url, (unsigned long long)s->hashes, mining, rate, (unsigned long long)s->accepted,
               (unsigned long long)s->rejected, (unsigned long long)s->stale, (unsigned long long)s->blocks,
               (unsigned long long)s->reconnects);
        dev_stats_print(&m->ds);
    }
    fflush(stdout);
    char r[32];
    format_rate(rate, "H/s", r, sizeof r);
    plog("summary: %s over %.1f s mining, shares found %llu sent %llu accepted %llu rejected %llu stale %llu "
         "unanswered %llu blocks %llu, reconnects %llu",
         r, mining, (unsigned long long)s->found, (unsigned long long)s->sent, (unsigned long long)s->accepted,
         (unsigned long long)s->rejected, (unsigned long long)s->stale, (unsigned long long)s->unanswered,
         (unsigned long long)s->blocks, (unsigned long long)s->reconnects);
}

int pool_main(const mine_run *run, const pool_args *a)
{
    const char *cmd = "mine";
    static pool_opts po;
    miner_opts mo;
    memset(&po, 0, sizeof po);
    memset(&mo, 0, sizeof mo);
    _Static_assert(POOL_ARGS_MAX_URLS == POOL_MAX_URLS, "one limit on --pool");
    for (int i = 0; i < a->nurls; i++) {
        char err[400];
        if (pool_url_parse(a->urls[i], &po.urls[po.nurls], err, sizeof err) != 0)
            return cli_error(EXIT_USAGE, cmd, "%s", err);
        po.nurls++;
    }
    int any_tls = 0;
    for (int i = 0; i < po.nurls; i++) any_tls |= pool_url_tls(&po.urls[i]);
    if ((a->cafile || a->no_verify) && !any_tls)
        return cli_error(EXIT_USAGE, cmd, "--cafile and --no-verify apply to TLS pools (stratum+ssl://) only");
    if (a->cafile && a->no_verify) return cli_error(EXIT_USAGE, cmd, "give --cafile or --no-verify, not both");
    int code = credentials(cmd, a, &po);
    if (code) return code;
    po.timeout = a->timeout;
    po.retry_pause = a->retry_pause;
    po.version_rolling = !a->no_version_rolling;
    po.retries = a->retries;
    po.rolling_mask = 0x1fffe000u; /* BIP 320's general-purpose bits */
    if (any_tls) {
        char err[400];
        if (!(po.tls = pool_tls_new(a->cafile, !a->no_verify, err, sizeof err)))
            return cli_error(EXIT_USAGE, cmd, "%s", err);
    }
    mo.algo = (kiln_algo)run->algo->search_algo;
    mo.duration = run->duration;
    mo.stats_interval = run->stats_interval;
    mo.work_nonces = a->work_nonces;
    mo.offline_mining_s = 120;
    mo.temp_limit = run->temp_limit;
    const char *algo_s = run->algo->name;
    int json = run->json;

    kiln_ctx *ctx = cli_open(cmd, run->device, (int)run->threads, &code);
    if (!ctx) {
        pool_tls_free(po.tls);
        return code;
    }
    tune_cache_apply(ctx, run->algo, KILN_KIND_SEARCH, NULL);
    /* open the device and measure it now: a failure shows before any pool is contacted, the
     * start-up time does not count as mining time, and the share-rate bound holds from the start */
    double rate = 0;
    kiln_status st = miner_measure_rate(ctx, mo.algo, &rate);
    if (st != KILN_OK) {
        code = cli_fail(cmd, ctx, st);
        kiln_ctx_free(ctx);
        pool_tls_free(po.tls);
        return code;
    }

    static pool_client client;
    pool_stats stats;
    memset(&stats, 0, sizeof stats);
    if (client_init(&client, &po, &stats) != 0) {
        kiln_ctx_free(ctx);
        pool_tls_free(po.tls);
        return cli_error(EXIT_DEVICE, cmd, "out of memory");
    }
    log_start(cli_now());
    if (a->no_verify)
        plog("warning: --no-verify: the pool's certificate is not checked; anyone on the path can read and change "
             "this session");
    char url[300];
    pool_url_format(&po.urls[0], url, sizeof url);
    plog("mining %s on %s for %s as '%s'", algo_s, kiln_ctx_device_name(ctx), url, po.user);

    static miner m;
    memset(&m, 0, sizeof m);
    m.c = &client;
    m.ctx = ctx;
    m.st = &stats;
    m.mo = &mo;
    m.rate = rate;
    dev_stats_init(&m.ds, ctx, mo.temp_limit, log_line);
    miner_run(&m);
    miner_publish(&m, cli_now()); /* the endpoint's last word: the run's final counts */
    miner_print_stats(&m, m.end_work, 1);
    if (!client.fatal) client_finish(&client, FINISH_WAIT_S);
    log_flush();

    /* a signal ends pool mining normally, with its summary (the mining contract), also before any
     * pool answered; otherwise one rule: a run that no pool gave a job to mine failed (exit 3, or 2
     * when every pool refused the worker), whether the pools refused the connect, failed the
     * handshake or dropped every session before its first job */
    code = EXIT_OK;
    char why[900] = "";
    if (m.device_failed) {
        code = EXIT_DEVICE;
        snprintf(why, sizeof why, "the device failed");
    } else if (client.fatal) {
        snprintf(why, sizeof why, "%s", client.fatal_msg);
        code = client.fatal;
    } else if (!client.ever_worked && !cli_interrupted()) {
        client_failure_text(&client, why, sizeof why);
        code = EXIT_DEVICE;
    }
    summary(&m, &client, &stats, algo_s, ctx, json, code, why);
    if (code != EXIT_OK && !m.device_failed) cli_error(code, cmd, "%s", why); /* the last line says why */
    client_free(&client);
    pool_tls_free(po.tls);
    kiln_ctx_free(ctx);
    return code;
}
