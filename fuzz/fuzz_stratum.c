/* Bytes from a pool, split into lines, through the client's line handler (the path every line
 * read from the socket takes), with a share submitted whenever a job is set and the session is
 * up, over a socket pair whose far end is drained. Nothing here reaches the network: the client
 * starts a connect (and a resolver thread) only from client_service while down, and shares are
 * only handed over while up. Whatever the pool sends, nothing crashes or leaks and the client's
 * invariants hold after every line: extranonce sizes within their limits, a finite positive
 * difficulty, the pending table's count equal to its taken slots and every sent share either
 * answered, reported unanswered or still pending. */
#include "fuzz_util.h"

#include <fcntl.h>
#include <math.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/progress.h"
#include "mine/pool/client.h"
#include "mine/pool/log.h"

static void drain(int fd)
{
    char buf[65536];
    while (read(fd, buf, sizeof buf) > 0) {
    }
}

static void check_invariants(const pool_client *c, const pool_stats *st)
{
    int taken = 0;
    for (int i = 0; i < POOL_PENDING; i++) taken += c->pending[i].id >= 0;
    FUZZ_CHECK(taken == c->npending && c->npending <= POOL_PENDING);
    FUZZ_CHECK(c->nqueue >= 0 && c->nqueue <= POOL_QUEUE);
    FUZZ_CHECK(c->nvalid >= 0 && c->nvalid <= POOL_VALID_JOBS);
    FUZZ_CHECK(c->en1_len <= POOL_EN1_MAX && c->en2_size >= 0 && c->en2_size <= POOL_EN2_MAX);
    FUZZ_CHECK(c->difficulty > 0 && isfinite(c->difficulty));
    FUZZ_CHECK(st->sent == st->accepted + st->rejected + st->unanswered + (uint64_t)c->npending);
}

/* A share on the current job, as the miner would hand over: distinct per call. */
static void share(pool_client *c, uint32_t n)
{
    pool_share s;
    memset(&s, 0, sizeof s);
    snprintf(s.job_id, sizeof s.job_id, "%s", c->job.id);
    memcpy(s.en1, c->job_en1, c->job_en1_len);
    s.en1_len = c->job_en1_len;
    s.en2_len = (size_t)c->job_en2_size;
    s.nonce = n;
    s.with_version = c->rolling;
    s.version_bits = 0;
    s.difficulty = c->job_difficulty;
    memcpy(s.hash, &n, sizeof n);
    c->tokens = POOL_SHARE_BURST; /* the bucket's refill depends on the clock: keep runs deterministic */
    client_share(c, &s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pool_opts opts;
    static pool_client c;
    static pool_stats st;
    if (!opts.nurls) {
        char err[200];
        log_quiet(1);
        if (pool_url_parse("stratum+tcp://127.0.0.1:1", &opts.urls[0], err, sizeof err) != 0) abort();
        opts.nurls = 1;
        opts.user = "worker";
        opts.pass = "x";
        opts.version_rolling = 1;
        opts.rolling_mask = 0x1fffe000u;
    }
    memset(&st, 0, sizeof st);
    if (client_init(&c, &opts, &st) != 0) abort();
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) abort();
    fcntl(sv[0], F_SETFL, O_NONBLOCK);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    /* just connected, with configure (id 1), subscribe (2) and authorize (3) awaiting answers */
    c.conn.fd = sv[0];
    c.state = CONN_UP;
    c.conf_id = 1;
    c.sub_id = 2;
    c.auth_id = 3;
    c.next_id = 4;
    c.state_since = c.last_rx = cli_now(); /* no handshake or silence timeout during a run */

    uint32_t shares = 0;
    for (size_t off = 0; off < size;) {
        const uint8_t *nl = memchr(data + off, '\n', size - off);
        size_t len = nl ? (size_t)(nl - (data + off)) : size - off;
        char *line = malloc(len ? len : 1); /* exactly the line: an over-read shows */
        if (!line) abort();
        memcpy(line, data + off, len);
        client_handle_line(&c, line, len);
        free(line);
        off += len + 1;
        if (c.state == CONN_UP && c.have_job && client_job_valid(&c, c.job.id)) share(&c, shares++);
        drain(sv[1]);
        check_invariants(&c, &st);
    }
    client_free(&c); /* closes sv[0] unless a disconnect did */
    close(sv[1]);
    return 0;
}
