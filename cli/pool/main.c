/* kiln mine --pool: options, the run, the summary. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cli.h"
#include "../progress.h"
#include "../tune_cache.h"
#include "client.h"
#include "log.h"
#include "miner.h"
#include "pool.h"
#include "stratum.h"

static const char usage[] =
    "usage: kiln mine --pool stratum+tcp://HOST:PORT [--pool URL2 ...] --user U [--pass P]\n"
    "                 [--algo sha256d] [--device auto|cpu|cuda|cuda:I] [--threads N] [--duration S]\n"
    "                 [--json] [--stats-interval S] [--no-version-rolling] [--work-nonces N]\n"
    "  several --pool are tried in order (failover); --duration stops after S seconds;\n"
    "  --work-nonces: nonces per extranonce2/version unit (default 4294967296; small values for tests)\n";

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static void install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static int utf8_ok(const char *s)
{
    json_t *j = json_string(s);
    if (!j) return 0;
    json_decref(j);
    return 1;
}

static void summary(const miner *m, const pool_client *c, const pool_stats *s, const char *algo, kiln_ctx *ctx,
                    int json)
{
    double end = cli_now();
    double mining = m->first_work > 0 ? m->end_work - m->first_work : 0;
    double rate = mining > 0 ? (double)s->hashes / mining : 0;
    double device_rate = m->scan_seconds > 0 ? (double)s->hashes / m->scan_seconds : 0;
    char url[300];
    pool_url_format(&c->addr, url, sizeof url);
    if (json) {
        json_t *o = json_pack(
            "{s:s, s:s, s:s, s:f, s:f, s:I, s:f, s:f, s:f, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}, "
            "s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f}",
            "pool", url, "algo", algo, "device", kiln_ctx_device_name(ctx), "seconds", end - m->t0, "mining_seconds",
            mining, "hashes", (json_int_t)s->hashes, "rate", rate, "device_rate", device_rate, "difficulty",
            c->difficulty, "shares", "found", (json_int_t)s->found, "sent", (json_int_t)s->sent, "accepted",
            (json_int_t)s->accepted, "rejected", (json_int_t)s->rejected, "stale", (json_int_t)s->stale, "unanswered",
            (json_int_t)s->unanswered, "resubmitted", (json_int_t)s->resubmitted, "blocks", (json_int_t)s->blocks,
            "invalid_local", (json_int_t)s->invalid_local, "duplicate_local", (json_int_t)s->duplicate_local,
            "connects", (json_int_t)s->connects, "reconnects", (json_int_t)s->reconnects, "disconnects",
            (json_int_t)s->disconnects, "jobs", (json_int_t)s->jobs, "malformed", (json_int_t)s->malformed,
            "unknown_methods", (json_int_t)s->unknown, "accepted_work", s->accepted_work, "share_rate",
            mining > 0 ? s->accepted_work * 4294967296.0 / mining : 0.0);
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

int pool_main(int argc, char **argv)
{
    const char *cmd = "mine";
    static pool_opts po;
    miner_opts mo;
    memset(&po, 0, sizeof po);
    memset(&mo, 0, sizeof mo);
    const char *algo_s = "sha256d", *device = "auto", *threads_s = NULL, *duration_s = NULL, *stats_s = NULL;
    const char *work_s = NULL;
    int json = 0;
    po.pass = "x";
    po.version_rolling = 1;
    po.rolling_mask = 0x1fffe000u; /* BIP 320's general-purpose bits */
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        int r = 0;
#define OPT(name)                                                                                         \
    if ((r = cli_opt(argc, argv, &i, name, &v)) != 0) {                                                   \
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", name);                     \
    }                                                                                                     \
    if (r > 0)
        OPT("--pool")
        {
            char err[400];
            if (po.nurls == POOL_MAX_URLS) return cli_error(EXIT_USAGE, cmd, "at most %d --pool options", POOL_MAX_URLS);
            if (pool_url_parse(v, &po.urls[po.nurls], err, sizeof err) != 0) return cli_error(EXIT_USAGE, cmd, "%s", err);
            po.nurls++;
            continue;
        }
        OPT("--user") { po.user = v; continue; }
        OPT("--pass") { po.pass = v; continue; }
        OPT("--algo") { algo_s = v; continue; }
        OPT("--device") { device = v; continue; }
        OPT("--threads") { threads_s = v; continue; }
        OPT("--duration") { duration_s = v; continue; }
        OPT("--stats-interval") { stats_s = v; continue; }
        OPT("--work-nonces") { work_s = v; continue; }
#undef OPT
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--no-version-rolling") == 0) po.version_rolling = 0;
        else if (strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s' in pool mode\n%s", argv[i], usage);
    }
    if (!po.user || !*po.user) return cli_error(EXIT_USAGE, cmd, "pool mining needs --user (the pool's worker name)");
    if (!utf8_ok(po.user) || !utf8_ok(po.pass)) return cli_error(EXIT_USAGE, cmd, "--user and --pass must be UTF-8");
    if (kiln_algo_from_name(NULL, algo_s, &mo.algo) != KILN_OK)
        return cli_error(EXIT_USAGE, cmd, "unknown algorithm '%s' (expected sha256d)", algo_s);
    uint64_t threads = 0, work = UINT64_C(1) << 32;
    if (threads_s && cli_parse_u64(threads_s, 4096, &threads) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --threads '%s' (expected 0..4096)", threads_s);
    if (duration_s && cli_parse_seconds(duration_s, 1e7, &mo.duration) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --duration '%s' (expected seconds > 0)", duration_s);
    mo.stats_interval = 30;
    if (stats_s && cli_parse_seconds(stats_s, 1e6, &mo.stats_interval) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --stats-interval '%s' (expected seconds > 0)", stats_s);
    if (work_s && (cli_parse_u64(work_s, UINT64_C(1) << 32, &work) != 0 || work == 0))
        return cli_error(EXIT_USAGE, cmd, "bad --work-nonces '%s' (expected 1..4294967296)", work_s);
    mo.work_nonces = work;
    mo.offline_mining_s = 120;

    int code;
    kiln_ctx *ctx = cli_open(cmd, device, (int)threads, &code);
    if (!ctx) return code;
    tune_cache_apply(ctx, mo.algo);
    {   /* open the device now: a failure shows before any pool is contacted, and the
         * start-up time does not count as mining time */
        kiln_scan_job warm;
        memset(&warm, 0, sizeof warm);
        warm.algo = mo.algo;
        warm.count = 1;
        kiln_status st = kiln_scan(ctx, &warm, NULL);
        if (st != KILN_OK && st != KILN_NOT_FOUND) {
            code = cli_fail(cmd, ctx, st);
            kiln_ctx_free(ctx);
            return code;
        }
    }

    static pool_client client;
    pool_stats stats;
    memset(&stats, 0, sizeof stats);
    if (client_init(&client, &po, &stats) != 0) {
        kiln_ctx_free(ctx);
        return cli_error(EXIT_DEVICE, cmd, "out of memory");
    }
    install_signals();
    log_start(cli_now());
    char url[300];
    pool_url_format(&po.urls[0], url, sizeof url);
    plog("mining %s on %s for %s as '%s'", algo_s, kiln_ctx_device_name(ctx), url, po.user);

    static miner m;
    memset(&m, 0, sizeof m);
    m.c = &client;
    m.ctx = ctx;
    m.st = &stats;
    m.mo = &mo;
    m.stop = &stop_flag;
    miner_run(&m);
    miner_print_stats(&m, m.end_work, 1);
    if (!client.fatal) client_finish(&client, 2.0);
    summary(&m, &client, &stats, algo_s, ctx, json);

    code = EXIT_OK;
    if (m.device_failed) code = EXIT_DEVICE;
    else if (client.fatal) code = client.fatal;
    else if (!client.ever_authorized) {
        plog("never got to work for a pool");
        code = EXIT_DEVICE;
    }
    client_free(&client);
    kiln_ctx_free(ctx);
    return code;
}
