/* kiln mine: the one option table of the three mining modes (mine/mine.h: header, pool, node),
 * cpuminer's -c FILE, which mode the options ask for, and that mode's run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/json_out.h"
#include "common/opts.h"
#include "mine.h"
#include "mine/monitor/server.h"
#include "mine/node/node.h"
#include "mine/pool/pool.h"

/* The modes, as option-table bits. */
enum { HEADER = 1, POOL = 2, NODE = 4 };

typedef struct mine_args {
    unsigned mode;
    mine_run run;
    header_args header;
    pool_args pool;
    node_args node;
    const char *algo;
    cli_output out;
} mine_args;

/* Whether the command line gives any of names (a NULL-ended list). */
static int cmdline_gives(cli_command *c, int argc, char **argv, const char *const *names)
{
    for (; *names; names++)
        if (cli_peek(c, argc, argv, *names, NULL)) return 1;
    return 0;
}

static int listed(const char *name, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(name, *names) == 0) return 1;
    return 0;
}

/* -c FILE (cpuminer's and cgminer's JSON configuration, pool/config.c): its settings go before the
 * command line's arguments, and the table parses them all again. The command line wins: a setting
 * whose option it gives is left out, its pools (--pool, --url) replace the file's pools with their
 * credentials, and its credentials (--user, --pass, --userpass) the file's. 0, or the exit code
 * after one line. *merged and *hold: freed by the caller. */
static int apply_config(cli_command *c, int argc, char **argv, const char *path, char ***merged, void **hold)
{
    static const char *const pools[] = {"--pool", "--url", NULL}, *const creds[] = {"--user", "--pass", "--userpass", NULL};
    pool_setting set[POOL_CONFIG_MAX];
    int n = pool_config_read(c->name, path, set, POOL_CONFIG_MAX, hold);
    if (n < 0) return -n;
    char **m = calloc((size_t)(2 * n + argc + 1), sizeof *m);
    if (!m) return cli_error(EXIT_DEVICE, c->name, "out of memory");
    *merged = m;
    const int cl_pools = cmdline_gives(c, argc, argv, pools), cl_creds = cmdline_gives(c, argc, argv, creds);
    int k = 0;
    for (int i = 0; i < n; i++) {
        const pool_setting *s = &set[i];
        cli_option *o = cli_find(c, s->opt);
        if (!o || strcmp(s->opt, "--config") == 0)
            return cli_error(EXIT_USAGE, c->name,
                             "%s: unknown setting \"%s\" (the keys are kiln mine's long option names, and cpuminer's "
                             "and cgminer's that docs/MINING.md maps)",
                             path, s->key);
        if ((o->kind == OPT_FLAG) != (s->val == NULL))
            return cli_error(EXIT_USAGE, c->name, "%s: \"%s\" %s", path, s->key,
                             o->kind == OPT_FLAG ? "is a switch: give it true or false" : "needs a value, not true");
        if (cli_peek(c, argc, argv, o->name, NULL) || (cl_pools && (s->from_pools || listed(o->name, pools))) ||
            (cl_creds && listed(o->name, creds)))
            continue;
        m[k++] = (char *)o->name;
        if (s->val) m[k++] = (char *)s->val;
    }
    for (int i = 0; i < argc; i++) m[k++] = argv[i];
    for (size_t i = 0; i < c->nopts; i++) c->opts[i].given = 0;
    int code = cli_parse(c, k, m);
    return code == CLI_HELP ? EXIT_USAGE : code;
}

/* The mode the parsed options ask for, the options that do not apply to it refused, and what the
 * mode needs besides. 0 or the exit code. */
static int choose_mode(cli_command *c, mine_args *a)
{
    const node_args *n = &a->node;
    if (a->pool.nurls && n->url) return cli_error(EXIT_USAGE, c->name, "--pool and --rpc exclude each other");
    a->mode = n->url ? NODE : a->pool.nurls ? POOL : HEADER;
    const char *what = a->mode == NODE   ? "solo mining against a node (--rpc)"
                       : a->mode == POOL ? "pool mining (--pool)"
                                         : "header mining (--header, --demo, --benchmark)";
    int code = cli_check_mode(c, a->mode, what);
    if (code || a->mode != NODE) return code;
    if (!n->addr) return cli_error(EXIT_USAGE, c->name, "--rpc needs --coinbase-addr (the address the reward is paid to)");
    if (n->cookie && (n->user || n->pass))
        return cli_error(EXIT_USAGE, c->name, "--rpc-cookie and --rpc-user/--rpc-pass exclude each other");
    if (!n->user != !n->pass) return cli_error(EXIT_USAGE, c->name, "give --rpc-user and --rpc-pass together");
    return EXIT_OK;
}

/* Parses argv (and -c FILE) into a and chooses the mode. 0, CLI_HELP, or the exit code. *merged
 * and *hold keep what -c FILE read (the parsed values point into them) until the caller frees them. */
static int parse_args(int argc, char **argv, mine_args *a, char ***merged, void **hold)
{
    const char *config = NULL, *proxy = NULL, *url_alias[POOL_ARGS_MAX_URLS];
    uint64_t retries = 0, temp_limit = 0;
    header_args *h = &a->header;
    pool_args *p = &a->pool;
    node_args *n = &a->node;
    mine_run *r = &a->run;
    memset(a, 0, sizeof *a);
    a->algo = "sha256d";
    r->device = "auto";
    r->stats_interval = 30;
    p->work_nonces = UINT64_C(1) << 32;
    n->poll_s = 5;
    cli_option opts[] = {
        {"--header", OPT_STR, &h->header_hex, "HEX160", "the 80-byte block header, serialized order", .modes = HEADER},
        {"--demo", OPT_FLAG, &h->demo, NULL, "mine a real Bitcoin block (its nonce cleared)", .modes = HEADER},
        {"--bits", OPT_STR, &h->bits_hex, "HEX8", "compact target (default: the header's nBits)", .modes = HEADER},
        {"--target", OPT_STR, &h->target_hex, "HEX64", "256-bit target, most significant digit first", .modes = HEADER},
        {"--start", OPT_U64, &h->start, "N", "first nonce", .modes = HEADER, .hi = UINT32_MAX},
        {"--count", OPT_U64, &h->count, "N", "nonces to try (default: to the end of the nonce space)", .modes = HEADER,
         .lo = 1, .hi = UINT64_C(1) << 32},
        {"--all", OPT_FLAG, &h->all, NULL, "report every nonce meeting the target, not only the first", .modes = HEADER},
        {"--benchmark", OPT_FLAG, &h->benchmark, NULL,
         "hash a built-in header without a pool and report the rate, as cpuminer --benchmark (for --duration, default 10 s)",
         .modes = HEADER},
        {"--pool", OPT_LIST, p->urls, "stratum+tcp://HOST:PORT", "mine for a Stratum pool (stratum+ssl:// for TLS); several are tried in order",
         .modes = POOL, .hi = POOL_ARGS_MAX_URLS, .short_name = 'o'},
        {"--url", OPT_LIST, url_alias, "URL", "--pool, as cpuminer and cgminer name it", .modes = POOL,
         .hi = POOL_ARGS_MAX_URLS},
        {"--user", OPT_LIST, p->users, "U",
         "the pool's worker name: one for every pool, or one per --pool in their order (as cgminer)", .modes = POOL,
         .hi = POOL_ARGS_MAX_URLS, .short_name = 'u'},
        {"--pass", OPT_LIST, p->passes, "P", "the worker's password (default x); one, or one per --pool", .modes = POOL,
         .hi = POOL_ARGS_MAX_URLS, .short_name = 'p'},
        {"--userpass", OPT_LIST, p->userpass, "U:P", "--user and --pass in one (cpuminer's and cgminer's -O); one, or one per --pool",
         .modes = POOL, .hi = POOL_ARGS_MAX_URLS, .short_name = 'O'},
        {"--retries", OPT_U64, &retries, "N",
         "try a pool that does not answer N more times, then the next; a round over the pools that all failed ends the run "
         "(exit 3) (default: retried with backoff up to 30 s for the whole run)",
         .modes = POOL, .hi = 1000000, .short_name = 'r'},
        {"--retry-pause", OPT_SECONDS, &p->retry_pause, "S",
         "wait S seconds between tries of a pool, as cpuminer's -R (default: 0.5 s, doubling up to 30 s)", .modes = POOL,
         .hi = 3600, .short_name = 'R'},
        {"--timeout", OPT_SECONDS, &p->timeout, "S",
         "a pool silent for S seconds is taken for gone and reconnected, as cpuminer's -T (default 300)", .modes = POOL,
         .hi = 86400, .short_name = 'T'},
        {"--proxy", OPT_STR, &proxy, "URL", "refused: kiln connects to the pool itself, through no proxy (cpuminer's -x)",
         .short_name = 'x'},
        {"--config", OPT_STR, &config, "FILE",
         "read settings from a JSON file as cpuminer and cgminer do: {\"url\": ..., \"user\": ..., \"threads\": 4}, kiln's long "
         "option names, cgminer's \"pools\" array; the command line wins",
         .short_name = 'c'},
        {"--stats-interval", OPT_SECONDS, &r->stats_interval, "S", "seconds between rate lines (default 30)",
         .modes = POOL | NODE, .hi = 1000000},
        {"--no-version-rolling", OPT_FLAG, &p->no_version_rolling, NULL, "do not ask the pool for BIP 310 version rolling",
         .modes = POOL},
        {"--cafile", OPT_STR, &p->cafile, "FILE", "TLS pools: trust the CA certificates in FILE (PEM) instead of the system's",
         .modes = POOL},
        {"--no-verify", OPT_FLAG, &p->no_verify, NULL, "TLS pools: accept any certificate (unsafe; warned about)",
         .modes = POOL},
        {"--work-nonces", OPT_U64, &p->work_nonces, "N", "nonces per extranonce2/version unit (small values for tests)",
         .modes = POOL, .lo = 1, .hi = UINT64_C(1) << 32},
        {"--rpc", OPT_STR, &n->url, "http://HOST:PORT", "solo mining: a node's JSON-RPC (getblocktemplate, docs/MINING.md)",
         .modes = NODE},
        {"--rpc-user", OPT_STR, &n->user, "U", "the node's RPC user", .modes = NODE},
        {"--rpc-pass", OPT_STR, &n->pass, "P", "the node's RPC password", .modes = NODE},
        {"--rpc-cookie", OPT_STR, &n->cookie, "FILE", "the node's .cookie file (instead of --rpc-user/--rpc-pass)",
         .modes = NODE},
        {"--coinbase-addr", OPT_STR, &n->addr, "ADDR", "the address the block reward is paid to", .modes = NODE},
        {"--rpc-poll", OPT_SECONDS, &n->poll_s, "S", "seconds between template polls when the node has no longpoll (default 5)",
         .modes = NODE, .hi = 3600},
        {"--blocks", OPT_U64, &n->max_blocks, "N", "stop after submitting N blocks", .modes = NODE, .lo = 1,
         .hi = UINT32_MAX},
        {"--algo", OPT_ALGO, &a->algo, "A", "proof of work (default sha256d)", .kinds = KILN_KIND_SEARCH, .short_name = 'a'},
        CLI_OPT_DEVICE(&r->device, CLI_DEVICE_VALUES, "where to mine (default auto); a set splits the nonces", 0),
        {"--threads", OPT_U64, &r->threads, "N", "CPU threads (0: one per core)", .hi = 4096, .short_name = 't'},
        {"--duration", OPT_SECONDS, &r->duration, "S", "stop after S seconds", .hi = 10000000},
        {"--api-listen", OPT_STR, &r->api_listen, "[ADDR:]PORT",
         "serve GET /status (JSON) and /metrics (Prometheus) here, read-only (loopback unless ADDR; port 0: any)",
         .modes = 0},
        {"--temp-limit", OPT_U64, &temp_limit, "C", "pause the device above C degrees Celsius, resume 5 below",
         .lo = 1, .hi = 200},
        CLI_OPT_JSON(&a->out, 0),
        {"--quiet", OPT_FLAG, &a->out.quiet, NULL,
         "no progress line (header mining), no rate lines (pool, node: as cpuminer's and cgminer's -q)", .short_name = 'q'},
        {"--progress", OPT_FLAG, &a->out.progress, NULL, "a progress line on stderr even when it is not a terminal",
         .modes = HEADER},
    };
    cli_command c = CLI_COMMAND(
        "mine", "(--header HEX160 | --demo | --benchmark | --pool URL --user U | --rpc URL --coinbase-addr ADDR) [options]",
        "cpuminer's and cgminer's options are kiln's: -a/--algo, -o/--url, -O/--userpass, -u/--user, -p/--pass,\n"
        "-t/--threads, -r/--retries, -R/--retry-pause, -T/--timeout (cpuminer's; cgminer's -T is a display mode),\n"
        "-q/--quiet, -c/--config, --benchmark. A -c FILE's keys are these long names; also cgminer's \"pools\"\n"
        "array (each pool with its own user), \"api-listen\": true with \"api-port\" (default 4028) and\n"
        "\"api-network\" (--api-listen [0.0.0.0:]PORT), \"api-allow\" of loopback addresses, cpuminer's \"cert\"\n"
        "(--cafile). Keys without a meaning in kiln (proxy, debug, background, scantime, load-balance, ...)\n"
        "are refused with the reason (docs/MINING.md).\n",
        opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return code;
    if (config && (code = apply_config(&c, argc, argv, config, merged, hold)) != 0) return code;
    if (proxy)
        return cli_error(EXIT_USAGE, c.name,
                         "-x/--proxy: kiln has no proxy support; it connects to the pool itself (reach a pool behind a "
                         "proxy through a tunnel, such as ssh -L, and give that as --pool)");
    p->retries = cli_given(&c, "--retries") ? (int)retries : -1;
    if ((code = cli_exclusive(&c, "--pool", "--url")) != 0) return code;
    p->nurls = cli_given(&c, "--pool");
    if (cli_given(&c, "--url")) {
        p->nurls = cli_given(&c, "--url");
        memcpy(p->urls, url_alias, (size_t)p->nurls * sizeof *p->urls);
    }
    p->nusers = cli_given(&c, "--user");
    p->npasses = cli_given(&c, "--pass");
    p->nuserpass = cli_given(&c, "--userpass");
    r->json = a->out.json;
    r->temp_limit = (double)temp_limit;
    if ((code = choose_mode(&c, a)) != 0) return code;
    if (a->mode != HEADER) {
        /* cpuminer's -q: no hash meter; kiln's is the rate line */
        if (a->out.quiet && (code = cli_exclusive(&c, "--quiet", "--stats-interval")) != 0) return code;
        if (a->out.quiet) r->stats_interval = 0;
        return EXIT_OK;
    }
    h->start_given = cli_given(&c, "--start");
    h->count_given = cli_given(&c, "--count");
    if (h->benchmark && !cli_given(&c, "--duration")) r->duration = 10;
    return cli_output_start(&c, &a->out);
}

/* The pool and the node write their own summaries (docs/POOL.md, docs/MINING.md), with the
 * monitoring endpoint serving while they run; header mining starts it once its job is checked.
 * The exit code, the JSON document completed (json_end) but the pool's, which writes its own. */
static int run_mode(const mine_args *a)
{
    if (a->mode == HEADER) return json_end(header_main(&a->run, &a->header));
    int code = a->run.api_listen ? api_start("mine", a->run.api_listen) : EXIT_OK;
    if (code) return json_end(code);
    if (a->mode == POOL) {
        code = pool_main(&a->run, &a->pool);
        api_stop();
        return code;
    }
    code = node_main(&a->run, &a->node);
    api_stop();
    return json_end(code);
}

int cmd_mine(int argc, char **argv)
{
    char **merged = NULL;
    void *hold = NULL;
    mine_args a;
    int code = parse_args(argc, argv, &a, &merged, &hold);
    if (code == CLI_HELP) code = json_end(EXIT_OK);
    else if (code || !(a.run.algo = cli_workload("mine", a.algo, KILN_KIND_SEARCH, &code))) code = json_end(code);
    else code = run_mode(&a);
    free(merged);
    pool_config_free(hold);
    return code;
}
