/* kiln mine: search a header's nonce range for hashes meeting a target. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "demo_block.h"
#include "pool/pool.h"
#include "progress.h"
#include "tune_cache.h"

static const char usage[] =
    "usage: kiln mine (--header HEX160 | --demo) [--bits HEX8 | --target HEX64] [--start N] [--count N]\n"
    "                 [--all] [--algo sha256d|scrypt] [--device auto|cpu|cuda|cuda:I] [--threads N] [--json]\n"
    "                 [--duration S]\n";

typedef struct mine_state {
    int json;
    int printed; /* JSON array entries written */
    double deadline; /* 0 = none */
    cli_progress progress;
} mine_state;

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    mine_state *m = user;
    char hex[65];
    kiln_hex_encode(hash, 32, 1, hex);
    if (m->json) printf("%s{\"nonce\": %u, \"hash\": \"%s\"}", m->printed++ ? ", " : "", nonce, hex);
    else printf("nonce=%u hash=%s\n", nonce, hex);
    fflush(stdout);
    return 0;
}

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    mine_state *m = user;
    progress_update(&m->progress, done, total);
    return m->deadline > 0 && cli_now() >= m->deadline;
}

int cmd_mine(int argc, char **argv)
{
    const char *cmd = "mine", *header_hex = NULL, *bits_hex = NULL, *target_hex = NULL, *device = "auto";
    const char *start_s = NULL, *count_s = NULL, *algo_s = "sha256d", *threads_s = NULL, *duration_s = NULL;
    const char *pool = NULL;
    int demo = 0, all = 0, json = 0;
    for (int i = 0; i < argc; i++) /* pool mining has options of its own */
        if (strcmp(argv[i], "--pool") == 0 || strncmp(argv[i], "--pool=", 7) == 0) return pool_main(argc, argv);
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        int r = 0;
#define OPT(name, var)                                                                                    \
    if ((r = cli_opt(argc, argv, &i, name, &v)) != 0) {                                                   \
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", name);                     \
        var = v;                                                                                          \
        continue;                                                                                         \
    }
        OPT("--header", header_hex)
        OPT("--bits", bits_hex)
        OPT("--target", target_hex)
        OPT("--start", start_s)
        OPT("--count", count_s)
        OPT("--algo", algo_s)
        OPT("--device", device)
        OPT("--threads", threads_s)
        OPT("--duration", duration_s)
        OPT("--pool", pool)
#undef OPT
        if (strcmp(argv[i], "--demo") == 0) demo = 1;
        else if (strcmp(argv[i], "--all") == 0) all = 1;
        else if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return EXIT_OK;
        } else return cli_error(EXIT_USAGE, cmd, "unknown option '%s' (see kiln mine --help)", argv[i]);
    }
    if (pool) return pool_main(argc, argv);
    if (demo == (header_hex != NULL))
        return cli_error(EXIT_USAGE, cmd, "give exactly one of --header or --demo (see kiln mine --help)");
    if (bits_hex && target_hex) return cli_error(EXIT_USAGE, cmd, "give --bits or --target, not both");

    kiln_scan_job job;
    memset(&job, 0, sizeof job);
    kiln_status st = kiln_algo_from_name(NULL, algo_s, &job.algo);
    if (st != KILN_OK) return cli_error(EXIT_USAGE, cmd, "unknown algorithm '%s' (expected sha256d or scrypt)", algo_s);
    if (demo && job.algo != KILN_ALGO_SHA256D)
        return cli_error(EXIT_USAGE, cmd, "--demo mines a Bitcoin block: use it with --algo sha256d");

    uint64_t threads = 0;
    if (threads_s && cli_parse_u64(threads_s, 4096, &threads) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --threads '%s' (expected 0..4096)", threads_s);
    double duration = 0;
    if (duration_s && cli_parse_seconds(duration_s, 1e7, &duration) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --duration '%s' (expected seconds > 0)", duration_s);

    /* everything the user typed is checked before a device is opened */
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) return cli_error(EXIT_DEVICE, cmd, "out of memory");
    int code = EXIT_OK;
#define CHECK(call)                                                                                       \
    do {                                                                                                  \
        kiln_status s_ = (call);                                                                          \
        if (s_ != KILN_OK) {                                                                              \
            code = cli_fail(cmd, ctx, s_);                                                                \
            goto done;                                                                                    \
        }                                                                                                 \
    } while (0)
    CHECK(kiln_header_from_hex(ctx, demo ? DEMO_HEADER_HEX : header_hex, job.header));
    if (demo) kiln_header_set_nonce(job.header, 0);
    if (target_hex) {
        CHECK(kiln_target_from_hex(ctx, target_hex, job.target));
    } else {
        uint32_t bits = kiln_header_bits(job.header);
        if (bits_hex) CHECK(kiln_bits_from_hex(ctx, bits_hex, &bits));
        CHECK(kiln_target_from_bits(ctx, bits, job.target));
    }
    uint64_t start = 0, count = 0, space = UINT64_C(1) << 32;
    if (start_s && cli_parse_u64(start_s, space - 1, &start) != 0) {
        code = cli_error(EXIT_USAGE, cmd, "bad --start '%s' (expected a nonce 0..4294967295)", start_s);
        goto done;
    }
    if (count_s && (cli_parse_u64(count_s, space, &count) != 0 || count == 0)) {
        code = cli_error(EXIT_USAGE, cmd, "bad --count '%s' (expected 1..4294967296)", count_s);
        goto done;
    }
    CHECK(kiln_ctx_set_threads(ctx, (int)threads));
    CHECK(kiln_ctx_set_device(ctx, device));
    if (demo && !start_s && !count_s && kiln_ctx_backend(ctx) == KILN_BACKEND_CPU) {
        start = DEMO_NONCE - DEMO_CPU_WINDOW / 4 * 3;
        count = DEMO_CPU_WINDOW;
    }
    if (!count_s && !(demo && count)) count = space - start;
    if (count > space - start) {
        code = cli_error(EXIT_USAGE, cmd, "--start %llu + --count %llu runs past the 2^32 nonce space",
                         (unsigned long long)start, (unsigned long long)count);
        goto done;
    }
    job.start = start;
    job.count = count;
    job.find_all = all;
    tune_cache_apply(ctx, job.algo);

    mine_state m;
    memset(&m, 0, sizeof m);
    m.json = json;
    if (duration > 0) m.deadline = cli_now() + duration;
    job.on_found = on_found;
    job.on_progress = on_progress;
    job.user = &m;
    if (demo)
        fprintf(stderr, "kiln: mining Bitcoin block %d (nonce cleared), nonces %llu..%llu on %s\n", DEMO_HEIGHT,
                (unsigned long long)start, (unsigned long long)(start + count - 1), kiln_ctx_device_name(ctx));
    if (json) printf("{\"algo\": \"%s\", \"device\": \"%s\", \"found\": [", algo_s, kiln_ctx_device_name(ctx));
    progress_start(&m.progress, json ? 0 : -1, "H/s");
    kiln_scan_result res;
    st = kiln_scan(ctx, &job, &res);
    progress_end(&m.progress);
    double rate = res.seconds > 0 ? (double)res.hashes / res.seconds : 0;
    if (json)
        printf("], \"hashes\": %llu, \"seconds\": %.6f, \"rate\": %.0f, \"exhausted\": %s}\n",
               (unsigned long long)res.hashes, res.seconds, rate, st == KILN_NOT_FOUND ? "true" : "false");
    else if (st == KILN_OK || st == KILN_NOT_FOUND || st == KILN_STOPPED)
        printf("hashes=%llu seconds=%.3f rate=%.0f\n", (unsigned long long)res.hashes, res.seconds, rate);
    if (res.false_candidates)
        fprintf(stderr, "kiln mine: warning: %llu device candidates failed the CPU re-check\n",
                (unsigned long long)res.false_candidates);
    if (st == KILN_NOT_FOUND) fprintf(stderr, "kiln mine: no nonce in the range meets the target\n");
    else if (st != KILN_OK && st != KILN_STOPPED) code = cli_fail(cmd, ctx, st);
    else code = EXIT_OK;
    if (st == KILN_NOT_FOUND) code = EXIT_NOT_FOUND;
done:
#undef CHECK
    kiln_ctx_free(ctx);
    return code;
}
