/* Header mining (kiln mine --header, --demo, --benchmark): the nonces of one header searched on
 * the device for hashes meeting a target, each found nonce printed as it is verified, then the
 * summary. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/cli.h"
#include "common/interrupt.h"
#include "common/json_out.h"
#include "common/progress.h"
#include "demo_block.h"
#include "mine.h"
#include "mine/monitor/dev_stats.h"
#include "mine/monitor/health_out.h"
#include "mine/monitor/health_watch.h"
#include "mine/monitor/mon.h"
#include "mine/monitor/server.h"
#include "tune/tune_cache.h"

static const char *const CMD = "mine";

typedef struct header_state {
    int json;
    double deadline; /* 0 = none */
    /* the monitoring endpoint's view and the devices' counts and health (cli/mine/monitor/) */
    dev_stats ds;
    mon_rates rates;
    mon_snapshot snap;
    double next_publish;
} header_state;

static void publish(header_state *m, uint64_t done, double now)
{
    dev_stats_publish(&m->ds, &m->snap, &m->rates, done, now);
    m->next_publish = now + 0.1;
}

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    header_state *m = user;
    m->snap.found++;
    char hex[65];
    kiln_hex_encode(hash, 32, 1, hex);
    progress_clear();
    if (m->json) {
        json_object(NULL);
        json_u64("nonce", nonce);
        json_str("hash", hex);
        json_close();
    } else {
        printf("nonce=%u hash=%s\n", nonce, hex);
    }
    fflush(stdout);
    return 0;
}

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    header_state *m = user;
    double now = cli_now();
    /* --temp-limit: the device rests here, between launches, until it has cooled */
    while (dev_stats_poll(&m->ds, now) && !cli_interrupted() && !(m->deadline > 0 && now >= m->deadline)) {
        publish(m, done, now);
        nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
        now = cli_now();
    }
    if (now >= m->next_publish) publish(m, done, now);
    if (m->ds.n > 1 && progress_due()) { /* a set: the total and each device (one device: the library's line) */
        char nd[32], nt[32], r[32], devs[600];
        format_count((double)done, nd, sizeof nd);
        format_count((double)total, nt, sizeof nt);
        double el = now - m->snap.started;
        format_rate(el > 0 ? (double)done / el : 0, "H/s", r, sizeof r);
        dev_stats_rates(&m->ds, 0, 0, devs, sizeof devs);
        progress_show("scan: %s/%s nonces (%.0f%%), %s: %s", nd, nt, total ? 100.0 * (double)done / (double)total : 0,
                      r, devs);
    }
    return m->deadline > 0 && now >= m->deadline;
}

/* The options that go together and those that exclude each other. 0 or the exit code. */
static int check_args(const mine_run *run, const header_args *a)
{
    if (a->benchmark && (a->demo || a->header_hex || a->bits_hex || a->target_hex || a->all))
        return cli_error(EXIT_USAGE, CMD, "--benchmark hashes a built-in header for the rate: not with "
                                          "--header, --demo, --bits, --target or --all");
    if (!a->benchmark && a->demo == (a->header_hex != NULL))
        return cli_error(EXIT_USAGE, CMD, "give exactly one of --benchmark, --header or --demo (see kiln mine --help)");
    if (a->bits_hex && a->target_hex) return cli_error(EXIT_USAGE, CMD, "give --bits or --target, not both");
    if (a->demo && run->algo->search_algo != KILN_ALGO_SHA256D)
        return cli_error(EXIT_USAGE, CMD, "--demo mines a Bitcoin block: use it with --algo %s",
                         kiln_algo_name(KILN_ALGO_SHA256D));
    return EXIT_OK;
}

/* The header and the target of the job: --demo's and --benchmark's built-in header, or the given
 * one; the target given, or the header's nBits. 0 or the exit code. */
static int make_job(kiln_ctx *ctx, const header_args *a, kiln_scan_job *job)
{
    kiln_status st = kiln_header_from_hex(ctx, a->demo || a->benchmark ? DEMO_HEADER_HEX : a->header_hex, job->header);
    if (st != KILN_OK) return cli_fail(CMD, ctx, st);
    if (a->demo || a->benchmark) kiln_header_set_nonce(job->header, 0);
    if (a->benchmark) {
        memset(job->target, 0, 32);
        job->target[0] = 1; /* 1: met by no hash in practice, so every nonce is hashed */
        return EXIT_OK;
    }
    if (a->target_hex) {
        static const uint8_t zero[32];
        if ((st = kiln_target_from_hex(ctx, a->target_hex, job->target)) != KILN_OK) return cli_fail(CMD, ctx, st);
        if (memcmp(job->target, zero, 32) == 0)
            return cli_error(EXIT_USAGE, CMD, "--target %s is zero: no hash can meet it", a->target_hex);
        return EXIT_OK;
    }
    uint32_t bits = kiln_header_bits(job->header);
    if (a->bits_hex && (st = kiln_bits_from_hex(ctx, a->bits_hex, &bits)) != KILN_OK) return cli_fail(CMD, ctx, st);
    if ((st = kiln_target_from_bits(ctx, bits, job->target)) != KILN_OK) return cli_fail(CMD, ctx, st);
    return EXIT_OK;
}

/* The nonce range, once the device is known: --demo on the CPU searches a window around the real
 * nonce; without --count, to the end of the nonce space. 0 or the exit code. */
static int make_range(kiln_ctx *ctx, const header_args *a, kiln_scan_job *job)
{
    const uint64_t space = UINT64_C(1) << 32;
    uint64_t start = a->start, count = a->count;
    if (a->demo && !a->start_given && !a->count_given && kiln_ctx_backend(ctx) == KILN_BACKEND_CPU) {
        start = DEMO_NONCE - DEMO_CPU_WINDOW / 4 * 3;
        count = DEMO_CPU_WINDOW;
    }
    if (!a->count_given && !(a->demo && count)) count = space - start;
    if (count > space - start)
        return cli_error(EXIT_USAGE, CMD, "--start %llu + --count %llu runs past the 2^32 nonce space",
                         (unsigned long long)start, (unsigned long long)count);
    job->start = start;
    job->count = count;
    job->find_all = a->all;
    return EXIT_OK;
}

/* What the run says before it starts, on stderr. */
static void announce(kiln_ctx *ctx, const mine_run *run, const header_args *a, const kiln_scan_job *job)
{
    if (a->benchmark)
        fprintf(stderr, "kiln: benchmark: %s on %s for %g s, no pool\n", run->algo->name, kiln_ctx_device_name(ctx),
                run->duration);
    else if (a->demo)
        fprintf(stderr, "kiln: mining Bitcoin block %d (nonce cleared), nonces %llu..%llu on %s\n", DEMO_HEIGHT,
                (unsigned long long)job->start, (unsigned long long)(job->start + job->count - 1),
                kiln_ctx_device_name(ctx));
}

/* The summary (the JSON document's members after "found", or the text line), the devices' health
 * and the exit code of the search's status. */
static int report(kiln_ctx *ctx, const mine_run *run, const header_args *a, header_state *m, kiln_status st,
                  const kiln_scan_result *res)
{
    double rate = res->seconds > 0 ? (double)res->hashes / res->seconds : 0;
    /* a signal ends header mining as --duration does: at the launch boundary, with the summary of
     * what was searched, and a normal exit */
    const char *signal_name = st == KILN_STOPPED ? cli_interrupt_name() : NULL;
    json_u64("hashes", res->hashes);
    json_num("seconds", res->seconds, "%.6f");
    json_num("rate", rate, "%.0f");
    json_bool("exhausted", st == KILN_NOT_FOUND);
    json_bool("interrupted", signal_name != NULL);
    health_json_out("health", &m->ds.d[0].hw.h);
    if (signal_name) json_str("signal", signal_name);
    dev_stats_json_out(&m->ds, "devices", res->hashes);
    if (!run->json && (st == KILN_OK || st == KILN_NOT_FOUND || st == KILN_STOPPED)) {
        printf("hashes=%llu seconds=%.3f rate=%.0f\n", (unsigned long long)res->hashes, res->seconds, rate);
        dev_stats_print(&m->ds);
    }
    if (signal_name) fprintf(stderr, "kiln mine: stopped by %s\n", signal_name);
    for (int i = 0; i < m->ds.n; i++) {
        char hl[96];
        health_format(&m->ds.d[i].hw.h, hl, sizeof hl);
        if (hl[0]) fprintf(stderr, "kiln mine: %s health: %s\n", m->ds.d[i].id, hl);
    }
    if (res->false_candidates)
        fprintf(stderr, "kiln mine: warning: %llu device candidates failed the CPU re-check\n",
                (unsigned long long)res->false_candidates);
    if (st == KILN_NOT_FOUND && a->benchmark) return EXIT_OK; /* the whole nonce space hashed: the rate is the result */
    if (st == KILN_NOT_FOUND) return cli_error(EXIT_NOT_FOUND, CMD, "no nonce in the range meets the target");
    if (st != KILN_OK && st != KILN_STOPPED) return cli_fail(CMD, ctx, st);
    return EXIT_OK;
}

/* The search itself on ctx, set to its device: the statistics the endpoint serves, the found
 * nonces as they come, the summary. The exit code. */
static int search(kiln_ctx *ctx, const mine_run *run, const header_args *a, kiln_scan_job *job)
{
    static header_state m; /* every device's statistics: too large for the stack */
    memset(&m, 0, sizeof m);
    m.json = run->json;
    dev_stats_init(&m.ds, ctx, run->temp_limit, health_log_mine);
    m.snap.started = cli_now();
    snprintf(m.snap.mode, sizeof m.snap.mode, "solo"); /* docs/MONITOR.md: "solo" is every mode but the pool */
    snprintf(m.snap.algo, sizeof m.snap.algo, "%s", run->algo->name);
    snprintf(m.snap.source, sizeof m.snap.source, "%s", a->benchmark ? "benchmark" : a->demo ? "demo" : "header");
    m.snap.online = 1;
    m.snap.temp_limit = run->temp_limit;
    publish(&m, 0, m.snap.started);
    int code = run->api_listen ? api_start(CMD, run->api_listen) : EXIT_OK;
    if (code) return code;
    if (run->duration > 0) m.deadline = cli_now() + run->duration;
    job->on_found = on_found;
    job->on_progress = on_progress;
    job->user = &m;
    announce(ctx, run, a, job);
    json_object(NULL);
    json_str("algo", run->algo->name);
    json_str("device", kiln_ctx_device_name(ctx));
    json_array("found");
    if (m.ds.n == 1) progress_attach(ctx); /* a set draws its own line (on_progress) */
    kiln_scan_result res;
    kiln_status st = dev_stats_scan(&m.ds, ctx, job, &res);
    progress_end();
    publish(&m, res.hashes, cli_now());
    json_close();
    return report(ctx, run, a, &m, st, &res);
}

int header_main(const mine_run *run, const header_args *a)
{
    int code = check_args(run, a);
    if (code) return code;
    /* everything the user typed is checked before a device is opened */
    kiln_ctx *ctx = cli_ctx_new(CMD, &code);
    if (!ctx) return code;
    kiln_scan_job job;
    memset(&job, 0, sizeof job);
    job.algo = (kiln_algo)run->algo->search_algo;
    if ((code = make_job(ctx, a, &job)) == EXIT_OK &&
        (code = cli_device(CMD, ctx, run->device, (int)run->threads)) == EXIT_OK &&
        (code = make_range(ctx, a, &job)) == EXIT_OK) {
        tune_cache_apply(ctx, run->algo, KILN_KIND_SEARCH, NULL);
        code = search(ctx, run, a, &job);
    }
    api_stop();
    kiln_ctx_free(ctx);
    return code;
}
