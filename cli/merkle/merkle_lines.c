#include "merkle_lines.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/thread.h"
#include "merkle_input.h"

#define NODE 32
/* A hash's line at its shortest: 64 digits and the LF. */
#define MIN_HASH_LINE (2 * NODE + 1)
/* Enough threads for a 4 GiB file to parse in a fraction of the time the page cache takes to
 * hand it over (some 1.5 GB/s a core); more would only wait on the reader. */
#define MAX_THREADS 16
/* Less text than this a thread is not worth waking. */
#define PIECE_MIN ((size_t)64 << 10)

int merkle_line(const char *p, size_t len, int reversed, uint8_t node[NODE])
{
    const char *e = p + len;
    if (len > MERKLE_MAX_LINE + 1 || (len == MERKLE_MAX_LINE + 1 && e[-1] != '\r')) return MERKLE_LINE_LONG;
    while (e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    if (p == e || *p == '#') return MERKLE_LINE_SKIP;
    if ((size_t)(e - p) != 2 * NODE) return MERKLE_LINE_DIGITS;
    return merkle_parse_hash(p, 2 * NODE, reversed, node) == 0 ? MERKLE_LINE_HASH : MERKLE_LINE_HEX;
}

/* A thread's share of a block: whole lines, its hashes written from node `at` of the output (at
 * most its bytes / 65 of them, so the shares never overlap). */
typedef struct piece {
    const char *p;
    size_t len;
    uint64_t at, lines;
    int64_t count; /* -1: a line that is no hash, blank or comment */
} piece;

typedef struct worker {
    struct merkle_lines *m;
    int index;
} worker;

struct merkle_lines {
    int n; /* threads, the caller's included */
    pthread_t th[MAX_THREADS];
    worker w[MAX_THREADS];
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned gen; /* bumped for each block */
    int pending, stop;
    piece pc[MAX_THREADS];
    int reversed;
    uint8_t *out;
};

static void parse_piece(piece *pc, int reversed, uint8_t *out)
{
    const char *p = pc->p, *end = p + pc->len;
    uint8_t *o = out + NODE * pc->at;
    int64_t count = 0;
    uint64_t lines = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)); /* a piece ends with a LF */
        int kind = merkle_line(p, (size_t)(nl - p), reversed, o + NODE * count);
        lines++;
        if (kind == MERKLE_LINE_HASH) {
            count++;
        } else if (kind != MERKLE_LINE_SKIP) {
            count = -1;
            break;
        }
        p = nl + 1;
    }
    pc->count = count;
    pc->lines = lines;
}

static void *work(void *arg)
{
    worker *w = arg;
    struct merkle_lines *m = w->m;
    unsigned seen = 0;
    pthread_mutex_lock(&m->mu);
    for (;;) {
        while (m->gen == seen && !m->stop) pthread_cond_wait(&m->go, &m->mu);
        if (m->stop) break;
        seen = m->gen;
        pthread_mutex_unlock(&m->mu);
        parse_piece(&m->pc[w->index], m->reversed, m->out);
        pthread_mutex_lock(&m->mu);
        if (--m->pending == 0) pthread_cond_signal(&m->done);
    }
    pthread_mutex_unlock(&m->mu);
    return NULL;
}

merkle_lines *merkle_lines_start(unsigned threads)
{
    long cores = threads ? (long)threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 2) return NULL;
    merkle_lines *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->n = cores > MAX_THREADS ? MAX_THREADS : (int)cores;
    pthread_mutex_init(&m->mu, NULL);
    pthread_cond_init(&m->go, NULL);
    pthread_cond_init(&m->done, NULL);
    /* a small stack each (they need a few hundred bytes): 16 default ones would take 128 MiB of
     * the address space that `ulimit -v` gives the leaves and their tree */
    int started = 1; /* thread 0 is the caller */
    for (; started < m->n; started++) {
        m->w[started] = (worker){m, started};
        if (cli_thread_start(&m->th[started], (size_t)256 << 10, work, &m->w[started]) != 0) break;
    }
    m->n = started;
    if (m->n < 2) {
        merkle_lines_stop(m);
        return NULL;
    }
    return m;
}

int64_t merkle_lines_parse(merkle_lines *m, const char *text, size_t len, int reversed, uint8_t *out, uint64_t *lines)
{
    int n = (int)(len / PIECE_MIN);
    if (n > m->n) n = m->n;
    if (n < 1) n = 1;
    /* shares of about len / n bytes, each ended at a LF */
    const char *end = text + len, *p = text;
    for (int i = 0; i < n; i++) {
        const char *cut = i == n - 1 ? end : text + len / (size_t)n * (size_t)(i + 1);
        if (cut < p) cut = p;
        if (cut < end) {
            const char *nl = memchr(cut, '\n', (size_t)(end - cut));
            cut = nl ? nl + 1 : end;
        }
        m->pc[i] = (piece){p, (size_t)(cut - p), (uint64_t)(p - text) / MIN_HASH_LINE, 0, 0};
        p = cut;
    }
    m->reversed = reversed;
    m->out = out;
    if (n > 1) {
        pthread_mutex_lock(&m->mu);
        /* workers past n find empty pieces */
        for (int i = n; i < m->n; i++) m->pc[i] = (piece){end, 0, 0, 0, 0};
        m->gen++;
        m->pending = m->n - 1;
        pthread_cond_broadcast(&m->go);
        pthread_mutex_unlock(&m->mu);
    }
    parse_piece(&m->pc[0], reversed, out);
    if (n > 1) {
        pthread_mutex_lock(&m->mu);
        while (m->pending) pthread_cond_wait(&m->done, &m->mu);
        pthread_mutex_unlock(&m->mu);
    }
    /* the shares' hashes moved down to follow each other (in place for lines of exactly 65 bytes) */
    uint64_t count = 0, all_lines = 0;
    for (int i = 0; i < n; i++) {
        if (m->pc[i].count < 0) return -1;
        if (count != m->pc[i].at)
            memmove(out + NODE * count, out + NODE * m->pc[i].at, NODE * (size_t)m->pc[i].count);
        count += (uint64_t)m->pc[i].count;
        all_lines += m->pc[i].lines;
    }
    *lines = all_lines;
    return (int64_t)count;
}

void merkle_lines_stop(merkle_lines *m)
{
    if (!m) return;
    pthread_mutex_lock(&m->mu);
    m->stop = 1;
    pthread_cond_broadcast(&m->go);
    pthread_mutex_unlock(&m->mu);
    for (int i = 1; i < m->n; i++) pthread_join(m->th[i], NULL);
    pthread_cond_destroy(&m->go);
    pthread_cond_destroy(&m->done);
    pthread_mutex_destroy(&m->mu);
    free(m);
}
