/* kiln mine: search a header's nonce range for hashes meeting a target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cli.h"
#include "common/interrupt.h"
#include "common/json_out.h"
#include "common/opts.h"
#include "common/progress.h"
#include "demo_block.h"
#include "mine/monitor/dev_stats.h"
#include "mine/monitor/health_out.h"
#include "mine/monitor/health_watch.h"
#include "mine/monitor/mon.h"
#include "mine/monitor/server.h"
#include "mine/node/solo.h"
#include "mine/pool/pool.h"
#include "tune/tune_cache.h"

typedef struct mine_state {
    int json;
    double deadline; /* 0 = none */
    /* the monitoring endpoint's view and the devices' counts and health (cli/mine/monitor/) */
    dev_stats ds;
    mon_rates rates;
    mon_snapshot snap;
    double next_publish;
} mine_state;

static void solo_publish(mine_state *m, uint64_t done, double now)
{
    dev_stats_publish(&m->ds, &m->snap, &m->rates, done, now);
    m->next_publish = now + 0.1;
}

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    mine_state *m = user;
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
    mine_state *m = user;
    double now = cli_now();
    /* --temp-limit: the device rests here, between launches, until it has cooled */
    while (dev_stats_poll(&m->ds, now) && !cli_interrupted() && !(m->deadline > 0 && now >= m->deadline)) {
        solo_publish(m, done, now);
        nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
        now = cli_now();
    }
    if (now >= m->next_publish) solo_publish(m, done, now);
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

enum { SOLO = 1, POOL = 2, RPC = 4 };

#define CONFIG_MAX 64 /* settings a -c FILE may hold */

/* -c FILE (cpuminer's and cgminer's JSON configuration): its settings go before the command line's
 * arguments, so that the command line wins, and the table parses them all again; a setting whose
 * option the command line gives is left out (so --pool on the command line replaces the file's
 * pools). 0, or the exit code after one line. *merged and *hold: freed by the caller. */
static int apply_config(cli_command *c, int argc, char **argv, const char *path, char ***merged, void **hold)
{
    const char *keys[CONFIG_MAX], *vals[CONFIG_MAX];
    int n = pool_config_read(c->name, path, keys, vals, CONFIG_MAX, hold);
    if (n < 0) return EXIT_USAGE;
    char **m = calloc((size_t)(2 * n + argc + 1), sizeof *m);
    if (!m) return cli_error(EXIT_DEVICE, c->name, "out of memory");
    *merged = m;
    int k = 0;
    for (int i = 0; i < n; i++) {
        char name[64];
        /* cpuminer names the pool url; the rest are kiln's long option names */
        snprintf(name, sizeof name, "--%s", strcmp(keys[i], "url") == 0 ? "pool" : keys[i]);
        cli_option *o = cli_find(c, name);
        if (!o || strcmp(name, "--config") == 0 || strcmp(name, "--json") == 0)
            return cli_error(EXIT_USAGE, c->name, "%s: unknown setting \"%s\" (the keys are kiln mine's long option names, and url)",
                             path, keys[i]);
        if ((o->kind == OPT_FLAG) != (vals[i] == NULL))
            return cli_error(EXIT_USAGE, c->name, "%s: \"%s\" %s", path, keys[i],
                             o->kind == OPT_FLAG ? "is a switch: give it true or false" : "needs a value, not true");
        if (cli_peek(c, argc, argv, o->name, NULL)) continue;
        m[k++] = (char *)o->name;
        if (vals[i]) m[k++] = (char *)vals[i];
    }
    for (int i = 0; i < argc; i++) m[k++] = argv[i];
    for (size_t i = 0; i < c->nopts; i++) c->opts[i].given = 0;
    int code = cli_parse(c, k, m);
    return code == CLI_HELP ? EXIT_USAGE : code;
}

/* kiln mine; *merged and *hold keep what -c FILE read (the parsed values point into them) until
 * the caller frees them. */
static int mine(int argc, char **argv, char ***merged, void **hold)
{
    const char *cmd = "mine", *header_hex = NULL, *bits_hex = NULL, *target_hex = NULL;
    const char *algo_s = "sha256d", *api_listen = NULL;
    uint64_t temp_limit = 0;
    uint64_t start = 0, count = 0, space = UINT64_C(1) << 32;
    int demo = 0, all = 0, benchmark = 0;
    const char *config = NULL, *proxy = NULL;
    uint64_t retries = 0;
    pool_args pa;
    memset(&pa, 0, sizeof pa);
    pa.device = "auto";
    pa.stats_interval = 30;
    pa.work_nonces = space;
    solo_args sa;
    memset(&sa, 0, sizeof sa);
    sa.poll_s = 5;
    cli_output out = {0, 0, 0};
    cli_option opts[] = {
        {"--header", OPT_STR, &header_hex, "HEX160", "the 80-byte block header, serialized order", .modes = SOLO},
        {"--demo", OPT_FLAG, &demo, NULL, "mine a real Bitcoin block (its nonce cleared)", .modes = SOLO},
        {"--bits", OPT_STR, &bits_hex, "HEX8", "compact target (default: the header's nBits)", .modes = SOLO},
        {"--target", OPT_STR, &target_hex, "HEX64", "256-bit target, most significant digit first", .modes = SOLO},
        {"--start", OPT_U64, &start, "N", "first nonce", .modes = SOLO, .hi = UINT32_MAX},
        {"--count", OPT_U64, &count, "N", "nonces to try (default: to the end of the nonce space)", .modes = SOLO,
         .lo = 1, .hi = UINT64_C(1) << 32},
        {"--all", OPT_FLAG, &all, NULL, "report every nonce meeting the target, not only the first", .modes = SOLO},
        {"--benchmark", OPT_FLAG, &benchmark, NULL,
         "hash a built-in header without a pool and report the rate, as cpuminer --benchmark (for --duration, default 10 s)",
         .modes = SOLO},
        {"--pool", OPT_LIST, pa.urls, "stratum+tcp://HOST:PORT", "mine for a Stratum pool (stratum+ssl:// for TLS); several are tried in order",
         .modes = POOL, .hi = POOL_ARGS_MAX_URLS, .short_name = 'o'},
        {"--user", OPT_STR, &pa.user, "U", "the pool's worker name", .modes = POOL, .short_name = 'u'},
        {"--pass", OPT_STR, &pa.pass, "P", "the worker's password (default x)", .modes = POOL, .short_name = 'p'},
        {"--retries", OPT_U64, &retries, "N",
         "try a pool that does not answer N more times, then the next; a round over the pools that all failed ends the run "
         "(exit 3) (default: retried with backoff up to 30 s for the whole run)",
         .modes = POOL, .hi = 1000000, .short_name = 'r'},
        {"--proxy", OPT_STR, &proxy, "URL", "refused: kiln connects to the pool itself, through no proxy (cpuminer's -x)",
         .short_name = 'x'},
        {"--config", OPT_STR, &config, "FILE",
         "read settings from a JSON file as cpuminer and cgminer do: {\"url\": ..., \"user\": ..., \"threads\": 4}, kiln's long "
         "option names, cgminer's \"pools\" array; the command line wins",
         .short_name = 'c'},
        {"--stats-interval", OPT_SECONDS, &pa.stats_interval, "S", "seconds between rate lines (default 30)",
         .modes = POOL | RPC, .hi = 1000000},
        {"--no-version-rolling", OPT_FLAG, &pa.no_version_rolling, NULL, "do not ask the pool for BIP 310 version rolling",
         .modes = POOL},
        {"--cafile", OPT_STR, &pa.cafile, "FILE", "TLS pools: trust the CA certificates in FILE (PEM) instead of the system's",
         .modes = POOL},
        {"--no-verify", OPT_FLAG, &pa.no_verify, NULL, "TLS pools: accept any certificate (unsafe; warned about)",
         .modes = POOL},
        {"--work-nonces", OPT_U64, &pa.work_nonces, "N", "nonces per extranonce2/version unit (small values for tests)",
         .modes = POOL, .lo = 1, .hi = UINT64_C(1) << 32},
        {"--rpc", OPT_STR, &sa.url, "http://HOST:PORT", "solo mining: a node's JSON-RPC (getblocktemplate, docs/MINING.md)",
         .modes = RPC},
        {"--rpc-user", OPT_STR, &sa.user, "U", "the node's RPC user", .modes = RPC},
        {"--rpc-pass", OPT_STR, &sa.pass, "P", "the node's RPC password", .modes = RPC},
        {"--rpc-cookie", OPT_STR, &sa.cookie, "FILE", "the node's .cookie file (instead of --rpc-user/--rpc-pass)",
         .modes = RPC},
        {"--coinbase-addr", OPT_STR, &sa.addr, "ADDR", "the address the block reward is paid to", .modes = RPC},
        {"--rpc-poll", OPT_SECONDS, &sa.poll_s, "S", "seconds between template polls when the node has no longpoll (default 5)",
         .modes = RPC, .hi = 3600},
        {"--blocks", OPT_U64, &sa.max_blocks, "N", "stop after submitting N blocks", .modes = RPC, .lo = 1,
         .hi = UINT32_MAX},
        {"--algo", OPT_ALGO, &algo_s, "A", "proof of work (default sha256d)", .kinds = KILN_KIND_SEARCH, .short_name = 'a'},
        {"--device", OPT_DEVICE, &pa.device, "auto|cpu|cuda|cuda:I|cuda:I,J|cuda:all", "where to mine (default auto); a set splits the nonces", .modes = 0},
        {"--threads", OPT_U64, &pa.threads, "N", "CPU threads (0: one per core)", .hi = 4096, .short_name = 't'},
        {"--duration", OPT_SECONDS, &pa.duration, "S", "stop after S seconds", .hi = 10000000},
        {"--api-listen", OPT_STR, &api_listen, "[ADDR:]PORT",
         "serve GET /status (JSON) and /metrics (Prometheus) here, read-only (loopback unless ADDR; port 0: any)",
         .modes = 0},
        {"--temp-limit", OPT_U64, &temp_limit, "C", "pause the device above C degrees Celsius, resume 5 below",
         .lo = 1, .hi = 200},
        CLI_OPT_JSON(&out, 0),
        CLI_OPT_PROGRESS(&out, SOLO),
    };
    cli_command c = CLI_COMMAND(
        cmd, "(--header HEX160 | --demo | --benchmark | --pool URL --user U | --rpc URL --coinbase-addr ADDR) [options]",
        "cpuminer's and cgminer's short options are kiln's: -a ALGO -o URL -u USER -p PASS -t N -r N -c FILE.\n", opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return json_end(code == CLI_HELP ? EXIT_OK : code);
    if (config && (code = apply_config(&c, argc, argv, config, merged, hold)) != 0) return json_end(code);
    if (proxy)
        return json_end(cli_error(EXIT_USAGE, cmd,
                                  "-x/--proxy: kiln has no proxy support; it connects to the pool itself (reach a pool "
                                  "behind a proxy through a tunnel, such as ssh -L, and give that as --pool)"));
    pa.retries = cli_given(&c, "--retries") ? (int)retries : -1;
    pa.json = out.json;
    pa.nurls = cli_given(&c, "--pool");
    if (pa.nurls && sa.url) return json_end(cli_error(EXIT_USAGE, cmd, "--pool and --rpc exclude each other"));
    const unsigned mode = sa.url ? RPC : pa.nurls ? POOL : SOLO;
    const char *mode_name = sa.url ? "solo mining against a node (--rpc)" : pa.nurls ? "pool mining (--pool)" : "solo mining";
    if ((code = cli_check_mode(&c, mode, mode_name)) != 0) return json_end(code);
    if (sa.url) {
        if (!sa.addr)
            return json_end(cli_error(EXIT_USAGE, cmd, "--rpc needs --coinbase-addr (the address the reward is paid to)"));
        if (sa.cookie && (sa.user || sa.pass))
            return json_end(cli_error(EXIT_USAGE, cmd, "--rpc-cookie and --rpc-user/--rpc-pass exclude each other"));
        if (!sa.user != !sa.pass) return json_end(cli_error(EXIT_USAGE, cmd, "give --rpc-user and --rpc-pass together"));
    }
    if (!(pa.algo = cli_workload(cmd, algo_s, KILN_KIND_SEARCH, &code))) return json_end(code);
    pa.temp_limit = (double)temp_limit;
    if (pa.nurls) { /* the pool writes its own summary (docs/POOL.md) */
        if (api_listen && (code = api_start(cmd, api_listen)) != 0) return json_end(code);
        code = pool_main(&pa);
        api_stop();
        return code;
    }
    if (sa.url) { /* so does solo mining against a node (docs/MINING.md) */
        sa.algo = pa.algo;
        sa.temp_limit = pa.temp_limit;
        sa.device = pa.device;
        sa.threads = pa.threads;
        sa.duration = pa.duration;
        sa.stats_interval = pa.stats_interval;
        sa.json = pa.json;
        if (api_listen && (code = api_start(cmd, api_listen)) != 0) return json_end(code);
        code = solo_main(&sa);
        api_stop();
        return json_end(code);
    }
    if ((code = cli_output_start(&c, &out)) != 0) return json_end(code);
    if (benchmark && (demo || header_hex || bits_hex || target_hex || all))
        return json_end(cli_error(EXIT_USAGE, cmd, "--benchmark hashes a built-in header for the rate: not with "
                                                   "--header, --demo, --bits, --target or --all"));
    if (!benchmark && demo == (header_hex != NULL))
        return json_end(cli_error(EXIT_USAGE, cmd, "give exactly one of --benchmark, --header or --demo (see kiln mine --help)"));
    if (benchmark && !cli_given(&c, "--duration")) pa.duration = 10;
    if (bits_hex && target_hex) return json_end(cli_error(EXIT_USAGE, cmd, "give --bits or --target, not both"));

    kiln_scan_job job;
    memset(&job, 0, sizeof job);
    job.algo = (kiln_algo)pa.algo->search_algo;
    if (demo && job.algo != KILN_ALGO_SHA256D)
        return json_end(cli_error(EXIT_USAGE, cmd, "--demo mines a Bitcoin block: use it with --algo %s",
                                  kiln_algo_name(KILN_ALGO_SHA256D)));

    /* everything the user typed is checked before a device is opened */
    kiln_ctx *ctx = cli_ctx_new(cmd, &code);
    if (!ctx) return json_end(code);
    code = EXIT_OK;
    kiln_status st;
#define CHECK(call)                                                                                       \
    do {                                                                                                  \
        kiln_status s_ = (call);                                                                          \
        if (s_ != KILN_OK) {                                                                              \
            code = cli_fail(cmd, ctx, s_);                                                                \
            goto done;                                                                                    \
        }                                                                                                 \
    } while (0)
    CHECK(kiln_header_from_hex(ctx, demo || benchmark ? DEMO_HEADER_HEX : header_hex, job.header));
    if (demo || benchmark) kiln_header_set_nonce(job.header, 0);
    if (benchmark) {
        memset(job.target, 0, 32);
        job.target[0] = 1; /* 1: met by no hash in practice, so every nonce is hashed */
    } else if (target_hex) {
        static const uint8_t zero[32];
        CHECK(kiln_target_from_hex(ctx, target_hex, job.target));
        if (memcmp(job.target, zero, 32) == 0) {
            code = cli_error(EXIT_USAGE, cmd, "--target %s is zero: no hash can meet it", target_hex);
            goto done;
        }
    } else {
        uint32_t bits = kiln_header_bits(job.header);
        if (bits_hex) CHECK(kiln_bits_from_hex(ctx, bits_hex, &bits));
        CHECK(kiln_target_from_bits(ctx, bits, job.target));
    }
    if ((code = cli_device(cmd, ctx, pa.device, (int)pa.threads)) != 0) goto done;
    const int start_given = cli_given(&c, "--start"), count_given = cli_given(&c, "--count");
    if (demo && !start_given && !count_given && kiln_ctx_backend(ctx) == KILN_BACKEND_CPU) {
        start = DEMO_NONCE - DEMO_CPU_WINDOW / 4 * 3;
        count = DEMO_CPU_WINDOW;
    }
    if (!count_given && !(demo && count)) count = space - start;
    if (count > space - start) {
        code = cli_error(EXIT_USAGE, cmd, "--start %llu + --count %llu runs past the 2^32 nonce space",
                         (unsigned long long)start, (unsigned long long)count);
        goto done;
    }
    job.start = start;
    job.count = count;
    job.find_all = all;
    tune_cache_apply(ctx, pa.algo, KILN_KIND_SEARCH, NULL);

    static mine_state m;
    memset(&m, 0, sizeof m);
    m.json = pa.json;
    dev_stats_init(&m.ds, ctx, pa.temp_limit, health_log_mine);
    m.snap.started = cli_now();
    snprintf(m.snap.mode, sizeof m.snap.mode, "solo");
    snprintf(m.snap.algo, sizeof m.snap.algo, "%s", pa.algo->name);
    snprintf(m.snap.source, sizeof m.snap.source, "%s", benchmark ? "benchmark" : demo ? "demo" : "header");
    m.snap.online = 1;
    m.snap.temp_limit = pa.temp_limit;
    solo_publish(&m, 0, m.snap.started);
    if (api_listen && (code = api_start(cmd, api_listen)) != 0) goto done;
    if (pa.duration > 0) m.deadline = cli_now() + pa.duration;
    job.on_found = on_found;
    job.on_progress = on_progress;
    job.user = &m;
    if (benchmark)
        fprintf(stderr, "kiln: benchmark: %s on %s for %g s, no pool\n", pa.algo->name, kiln_ctx_device_name(ctx),
                pa.duration);
    else if (demo)
        fprintf(stderr, "kiln: mining Bitcoin block %d (nonce cleared), nonces %llu..%llu on %s\n", DEMO_HEIGHT,
                (unsigned long long)start, (unsigned long long)(start + count - 1), kiln_ctx_device_name(ctx));
    json_object(NULL);
    json_str("algo", pa.algo->name);
    json_str("device", kiln_ctx_device_name(ctx));
    json_array("found");
    if (m.ds.n == 1) progress_attach(ctx); /* a set draws its own line (on_progress) */
    kiln_scan_result res;
    st = dev_stats_scan(&m.ds, ctx, &job, &res);
    progress_end();
    solo_publish(&m, res.hashes, cli_now());
    json_close();
    double rate = res.seconds > 0 ? (double)res.hashes / res.seconds : 0;
    /* a signal ends solo mining as --duration does: at the launch boundary, with the summary of
     * what was searched, and a normal exit */
    const char *signal_name = st == KILN_STOPPED ? cli_interrupt_name() : NULL;
    json_u64("hashes", res.hashes);
    json_num("seconds", res.seconds, "%.6f");
    json_num("rate", rate, "%.0f");
    json_bool("exhausted", st == KILN_NOT_FOUND);
    json_bool("interrupted", signal_name != NULL);
    health_json_out("health", &m.ds.d[0].hw.h);
    if (signal_name) json_str("signal", signal_name);
    dev_stats_json_out(&m.ds, "devices", res.hashes);
    if (!pa.json && (st == KILN_OK || st == KILN_NOT_FOUND || st == KILN_STOPPED)) {
        printf("hashes=%llu seconds=%.3f rate=%.0f\n", (unsigned long long)res.hashes, res.seconds, rate);
        dev_stats_print(&m.ds);
    }
    if (signal_name) fprintf(stderr, "kiln mine: stopped by %s\n", signal_name);
    for (int i = 0; i < m.ds.n; i++) {
        char hl[96];
        health_format(&m.ds.d[i].hw.h, hl, sizeof hl);
        if (hl[0]) fprintf(stderr, "kiln mine: %s health: %s\n", m.ds.d[i].id, hl);
    }
    if (res.false_candidates)
        fprintf(stderr, "kiln mine: warning: %llu device candidates failed the CPU re-check\n",
                (unsigned long long)res.false_candidates);
    if (st == KILN_NOT_FOUND && benchmark) code = EXIT_OK; /* the whole nonce space hashed: the rate is the result */
    else if (st == KILN_NOT_FOUND) code = cli_error(EXIT_NOT_FOUND, cmd, "no nonce in the range meets the target");
    else if (st != KILN_OK && st != KILN_STOPPED) code = cli_fail(cmd, ctx, st);
    else code = EXIT_OK;
done:
#undef CHECK
    api_stop();
    kiln_ctx_free(ctx);
    return json_end(code);
}

int cmd_mine(int argc, char **argv)
{
    char **merged = NULL;
    void *hold = NULL;
    int code = mine(argc, argv, &merged, &hold);
    free(merged);
    pool_config_free(hold);
    return code;
}
