#include "file_ahead.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "thread.h"

/* 4 blocks: 3 ahead keep a disk busy while the consumer is held up a moment; a block (2 MiB and
 * up) is large enough that the hand-over costs nothing beside its copy. */
#define SLOTS 4

struct file_ahead {
    int fd;
    size_t block;
    uint64_t size, done;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t filled, freed;
    uint8_t *buf[SLOTS];
    size_t len[SLOTS];
    unsigned head, count; /* the oldest filled slot, and how many are filled (the held one too) */
    int held; /* the consumer holds slot head */
    int stop; /* file_ahead_stop: the reader ends */
    int ended, result; /* the reader saw the end (result: 0, FILE_AHEAD_SHRANK or an errno) */
};

/* Fills free slots in turn until the end of the file, an error, or stop. */
static void *reader(void *arg)
{
    file_ahead *fa = arg;
    uint64_t pos = 0;
    for (;;) {
        pthread_mutex_lock(&fa->mu);
        while (fa->count == SLOTS && !fa->stop) pthread_cond_wait(&fa->freed, &fa->mu);
        int stop = fa->stop;
        unsigned slot = (fa->head + fa->count) % SLOTS;
        pthread_mutex_unlock(&fa->mu);
        if (stop) return NULL;
        size_t n = 0;
        int err = 0, eof = 0;
        while (n < fa->block) {
            ssize_t k = read(fa->fd, fa->buf[slot] + n, fa->block - n);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) {
                err = errno;
                break;
            }
            if (k == 0) {
                eof = 1;
                break;
            }
            n += (size_t)k;
        }
        pos += n;
        pthread_mutex_lock(&fa->mu);
        if (n) {
            fa->len[slot] = n;
            fa->count++;
        }
        if (err || eof) {
            fa->ended = 1;
            /* growing is fine (the file is read to its end, as before); shrinking means a writer
             * cut it under us, and what was read is no longer the file */
            fa->result = err ? err : pos < fa->size ? FILE_AHEAD_SHRANK : 0;
        }
        pthread_cond_signal(&fa->filled);
        pthread_mutex_unlock(&fa->mu);
        if (err || eof) return NULL;
    }
}

static void free_all(file_ahead *fa)
{
    for (int i = 0; i < SLOTS; i++) free(fa->buf[i]);
    free(fa);
}

file_ahead *file_ahead_start(int fd, uint64_t size, size_t block)
{
    file_ahead *fa = calloc(1, sizeof *fa);
    if (!fa) return NULL;
    fa->fd = fd;
    fa->block = block;
    fa->size = size;
    for (int i = 0; i < SLOTS; i++)
        if (!(fa->buf[i] = malloc(block))) {
            free_all(fa);
            return NULL;
        }
    /* the kernel's read-ahead window doubled, as GNU tools ask for (a hint: failure is harmless) */
    (void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&fa->mu, NULL);
    pthread_cond_init(&fa->filled, &ca);
    pthread_cond_init(&fa->freed, &ca);
    pthread_condattr_destroy(&ca);
    /* a small stack: the reader needs little, and `ulimit -v` counts it */
    int rc = cli_thread_start(&fa->thread, (size_t)256 << 10, reader, fa);
    if (rc != 0) {
        pthread_cond_destroy(&fa->filled);
        pthread_cond_destroy(&fa->freed);
        pthread_mutex_destroy(&fa->mu);
        free_all(fa);
        return NULL;
    }
    return fa;
}

int file_ahead_next(file_ahead *fa, const uint8_t **data, size_t *len)
{
    *len = 0;
    pthread_mutex_lock(&fa->mu);
    if (fa->held) { /* the block handed out last is done with: the reader may refill it */
        fa->head = (fa->head + 1) % SLOTS;
        fa->count--;
        fa->held = 0;
        pthread_cond_signal(&fa->freed);
    }
    int code = 0;
    for (;;) {
        if (cli_interrupted()) {
            code = EINTR;
            break;
        }
        if (fa->count) {
            *data = fa->buf[fa->head];
            *len = fa->len[fa->head];
            fa->held = 1;
            fa->done += *len;
            break;
        }
        if (fa->ended) {
            code = fa->result;
            break;
        }
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        t.tv_nsec += 100000000;
        if (t.tv_nsec >= 1000000000) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&fa->filled, &fa->mu, &t);
    }
    pthread_mutex_unlock(&fa->mu);
    return code;
}

uint64_t file_ahead_size(const file_ahead *fa) { return fa->size; }

uint64_t file_ahead_done(const file_ahead *fa) { return fa->done; }

void file_ahead_stop(file_ahead *fa)
{
    if (!fa) return;
    pthread_mutex_lock(&fa->mu);
    fa->stop = 1;
    pthread_cond_signal(&fa->freed);
    pthread_mutex_unlock(&fa->mu);
    pthread_join(fa->thread, NULL);
    pthread_cond_destroy(&fa->filled);
    pthread_cond_destroy(&fa->freed);
    pthread_mutex_destroy(&fa->mu);
    free_all(fa);
}
