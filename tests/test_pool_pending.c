/* The client never loses track of a request (issue 11, item 11): with the pool answering
 * nothing, at most POOL_PENDING submits are outstanding, later shares wait in the queue (then
 * are logged stale when it is full), no id is reused, and every answer finds its share; the
 * queued shares go out as answers free slots. The client is driven through a socket pair, and
 * the pool's side reads the submits with jansson, not with kiln's parser. */
#include <fcntl.h>
#include <jansson.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "common/progress.h"
#include "mine/pool/client.h"
#include "mine/pool/log.h"

#define SHARES 2000

static json_int_t ids[SHARES];
static int nids;

/* Reads what the client wrote and records the id of every mining.submit in it. */
static void read_submits(int fd)
{
    static char buf[1 << 20];
    static size_t len;
    for (;;) {
        ssize_t n = read(fd, buf + len, sizeof buf - len - 1);
        if (n <= 0) break;
        len += (size_t)n;
    }
    char *p = buf, *nl;
    while ((nl = memchr(p, '\n', len - (size_t)(p - buf)))) {
        json_t *j = json_loadb(p, (size_t)(nl - p), 0, NULL);
        const char *m = j ? json_string_value(json_object_get(j, "method")) : NULL;
        if (m && strcmp(m, "mining.submit") == 0 && nids < SHARES) ids[nids++] = json_integer_value(json_object_get(j, "id"));
        json_decref(j);
        p = nl + 1;
    }
    len -= (size_t)(p - buf);
    memmove(buf, p, len);
}

static void answer(pool_client *c, json_int_t id)
{
    char line[100];
    int n = snprintf(line, sizeof line, "{\"id\":%lld,\"result\":true,\"error\":null}", (long long)id);
    client_handle_line(c, line, (size_t)n);
}

static int distinct(int from, int to)
{
    for (int i = from; i < to; i++)
        for (int k = 0; k < i; k++)
            if (ids[i] == ids[k]) return 0;
    return 1;
}

int main(void)
{
    static pool_opts opts;
    static pool_stats stats;
    static pool_client c;
    char err[200];
    log_quiet(1);
    CHECK(pool_url_parse("stratum+tcp://127.0.0.1:1", &opts.urls[0], err, sizeof err) == 0, "%s", err);
    opts.nurls = 1;
    opts.user = "w";
    opts.pass = "x";
    CHECK(client_init(&c, &opts, &stats) == 0, "client_init");
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
    fcntl(sv[0], F_SETFL, O_NONBLOCK);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    /* a session as after the handshake: up, authorized, job "j" valid */
    c.conn.fd = sv[0];
    c.state = CONN_UP;
    c.subscribed = c.authorized = c.ever_authorized = c.notified = 1;
    c.state_since = c.last_rx = c.authorized_at = cli_now();
    snprintf(c.valid[0].id, sizeof c.valid[0].id, "j");
    c.nvalid = 1;

    for (int i = 0; i < SHARES; i++) {
        pool_share s;
        memset(&s, 0, sizeof s);
        snprintf(s.job_id, sizeof s.job_id, "j");
        s.en2_len = 4;
        s.nonce = (uint32_t)i;
        memcpy(s.hash, &i, sizeof i); /* distinct, so none is a duplicate */
        c.tokens = POOL_SHARE_BURST; /* the rate bound is not what this test is about */
        client_share(&c, &s);
        read_submits(sv[1]);
    }
    CHECK(stats.sent == POOL_PENDING && nids == POOL_PENDING, "sent %llu, submits read %d, want %d",
          (unsigned long long)stats.sent, nids, POOL_PENDING);
    CHECK(c.nqueue == POOL_QUEUE, "queued %d, want %d", c.nqueue, POOL_QUEUE);
    CHECK(stats.stale == SHARES - POOL_PENDING - POOL_QUEUE, "stale %llu", (unsigned long long)stats.stale);
    CHECK(stats.unanswered == 0, "no share dropped as unanswered (%llu)", (unsigned long long)stats.unanswered);
    CHECK(distinct(0, nids), "every outstanding submit has its own id");

    int first = nids;
    for (int i = 0; i < first; i++) answer(&c, ids[i]);
    CHECK(stats.accepted == POOL_PENDING, "accepted %llu, want %d", (unsigned long long)stats.accepted, POOL_PENDING);
    client_service(&c, 0); /* answers freed the slots: the queue goes out */
    read_submits(sv[1]);
    CHECK(nids == POOL_PENDING + POOL_QUEUE && c.nqueue == 0, "queued shares sent (%d submits, %d queued)", nids,
          c.nqueue);
    CHECK(distinct(first, nids), "no id of an earlier submit reused");
    for (int i = first; i < nids; i++) answer(&c, ids[i]);
    answer(&c, ids[0]); /* a second answer to one request: accounted, not matched */
    const char *string_id = "{\"id\":\"abc\",\"result\":true,\"error\":null}";
    client_handle_line(&c, string_id, strlen(string_id));
    CHECK(stats.accepted == POOL_PENDING + POOL_QUEUE, "accepted %llu", (unsigned long long)stats.accepted);
    CHECK(stats.sent == stats.accepted && stats.unanswered == 0, "every submit answered once");
    CHECK(stats.unknown_answers == 2, "unknown answers %llu, want 2", (unsigned long long)stats.unknown_answers);
    CHECK(c.npending == 0, "nothing outstanding (%d)", c.npending);

    client_free(&c); /* closes sv[0] */
    close(sv[1]);
    return check_summary();
}
