/* The thread counts of CPU calls and kiln_par_for's pool (par.h says why it is not OpenMP).
 *
 * The pool: workers started on demand (as many as the largest loop asked for, less the caller),
 * each waiting on a condition variable for the next loop. A loop is published under the lock with
 * a new generation number; its chunks are claimed by compare-and-swap on one word holding the
 * generation and the next chunk, so a worker that wakes after its loop has ended (or while the
 * next one runs) can claim nothing of it: it reads the loop it joins under the lock, and a claim
 * succeeds only while the word still carries that loop's generation. The caller, after it finds
 * no chunk left to claim, waits for the count of finished chunks to reach the loop's size: only
 * chunks some thread has claimed are still out. */
#include "par.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "cpu_features.h"

int kiln_threads_auto(int requested) { return requested > 0 ? requested : kiln_cpu_cores(); }

int kiln_threads_for(int requested, uint64_t items, uint64_t per_thread)
{
    const int t = kiln_threads_auto(requested);
    const uint64_t cap = per_thread ? items / per_thread : (uint64_t)t;
    return cap < 1 ? 1 : cap < (uint64_t)t ? (int)cap : t;
}

uint64_t kiln_par_chunk(uint64_t n, uint64_t per_chunk, uint64_t max_chunks)
{
    if (per_chunk < 1) per_chunk = 1;
    if (max_chunks < 1) max_chunks = 1;
    uint64_t chunks = (n + per_chunk - 1) / per_chunk;
    if (chunks <= max_chunks) return per_chunk;
    uint64_t size = (n + max_chunks - 1) / max_chunks;
    return (size + per_chunk - 1) / per_chunk * per_chunk;
}

#define MAX_WORKERS 511
#define CALLER_SPINS 2000 /* polls of the finished count before the caller sleeps: a few microseconds */

static struct {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* workers: a new loop */
    pthread_cond_t done; /* the caller: the loop's last chunk finished; the destructor: a worker left */
    int workers, quit, busy; /* busy: a loop is under way */
    uint32_t gen; /* the current (or last) loop's generation */
    /* the loop of generation gen, all under the lock */
    kiln_par_fn fn;
    void *arg;
    uint64_t chunks;
    int threads, joined;
    _Atomic uint64_t next; /* gen << 32 | the next chunk to claim */
    _Atomic uint64_t finished; /* chunks of the current loop that have run */
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .done = PTHREAD_COND_INITIALIZER};

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* A child of fork has the caller's thread only: no workers, no loop under way. */
static void after_fork_child(void)
{
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.workers = 0;
    pool.busy = 0;
    pool.quit = 0;
}

static void register_atfork(void) { pthread_atfork(NULL, NULL, after_fork_child); }

/* Claims the next chunk of loop `gen` into *c; 0 when it has none left (or is over). */
static int claim(uint32_t gen, uint64_t chunks, uint64_t *c)
{
    uint64_t w = atomic_load_explicit(&pool.next, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(w >> 32) != gen) return 0;
        uint64_t i = w & 0xFFFFFFFFu;
        if (i >= chunks) return 0;
        if (atomic_compare_exchange_weak_explicit(&pool.next, &w, w + 1, memory_order_acq_rel,
                                                  memory_order_acquire)) {
            *c = i;
            return 1;
        }
    }
}

/* Runs the chunks this thread can claim of loop gen; a worker that finishes the loop's last chunk
 * wakes the caller. */
static void run_chunks(uint32_t gen, kiln_par_fn fn, void *arg, uint64_t chunks, int slot, int caller)
{
    uint64_t c;
    while (claim(gen, chunks, &c)) {
        fn(arg, c, slot);
        uint64_t f = atomic_fetch_add_explicit(&pool.finished, 1, memory_order_acq_rel) + 1;
        if (f == chunks && !caller) {
            pthread_mutex_lock(&pool.lock);
            pthread_cond_broadcast(&pool.done);
            pthread_mutex_unlock(&pool.lock);
        }
    }
}

static void *worker(void *start_gen)
{
    uint32_t seen = (uint32_t)(uintptr_t)start_gen;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (!pool.quit && pool.gen == seen) pthread_cond_wait(&pool.wake, &pool.lock);
        if (pool.quit) break;
        seen = pool.gen;
        if (!pool.busy || pool.joined >= pool.threads) continue; /* over, or it has its threads */
        const int slot = pool.joined++;
        kiln_par_fn fn = pool.fn;
        void *arg = pool.arg;
        const uint64_t chunks = pool.chunks;
        pthread_mutex_unlock(&pool.lock);
        run_chunks(seen, fn, arg, chunks, slot, 0);
        pthread_mutex_lock(&pool.lock);
    }
    pool.workers--;
    pthread_cond_broadcast(&pool.done);
    pthread_mutex_unlock(&pool.lock);
    return NULL;
}

/* Starts workers until there are `want` (under the lock); they block every signal, so that a
 * signal goes to one of the application's threads. */
static void grow(int want)
{
    if (want > MAX_WORKERS) want = MAX_WORKERS;
    if (pool.workers >= want) return;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    while (pool.workers < want) {
        pthread_t t;
        if (pthread_create(&t, &attr, worker, (void *)(uintptr_t)pool.gen) != 0) break; /* fewer, then */
        pool.workers++;
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void kiln_par_for(int threads, uint64_t chunks, kiln_par_fn fn, void *arg)
{
    if (chunks > 0xFFFFFFFFu) chunks = 0xFFFFFFFFu; /* documented bound; callers size their chunks */
    if (threads > 1 && (uint64_t)threads > chunks) threads = (int)chunks;
    int pooled = 0;
    uint32_t gen = 0;
    if (threads > 1) {
        pthread_once(&atfork_once, register_atfork);
        pthread_mutex_lock(&pool.lock);
        if (!pool.busy && !pool.quit) {
            grow(threads - 1);
            if (pool.workers > 0) {
                pooled = 1;
                pool.busy = 1;
                gen = ++pool.gen;
                pool.fn = fn;
                pool.arg = arg;
                pool.chunks = chunks;
                pool.threads = threads;
                pool.joined = 1; /* the caller is slot 0 */
                atomic_store_explicit(&pool.finished, 0, memory_order_relaxed);
                atomic_store_explicit(&pool.next, (uint64_t)gen << 32, memory_order_release);
                pthread_cond_broadcast(&pool.wake);
            }
        }
        pthread_mutex_unlock(&pool.lock);
    }
    if (!pooled) {
        for (uint64_t c = 0; c < chunks; c++) fn(arg, c, 0);
        return;
    }
    run_chunks(gen, fn, arg, chunks, 0, 1);
    /* what is still out was claimed by a thread that was running then */
    for (int i = 0; i < CALLER_SPINS; i++)
        if (atomic_load_explicit(&pool.finished, memory_order_acquire) == chunks) break;
    pthread_mutex_lock(&pool.lock);
    while (atomic_load_explicit(&pool.finished, memory_order_acquire) != chunks)
        pthread_cond_wait(&pool.done, &pool.lock);
    pool.busy = 0;
    pthread_mutex_unlock(&pool.lock);
}

/* When the library is unloaded (or the process ends), the idle workers leave first: none must
 * wake later in code that is no longer mapped. Bounded, in case a loop of another thread is still
 * running at exit. */
__attribute__((destructor)) static void stop_pool(void)
{
    pthread_mutex_lock(&pool.lock);
    pool.quit = 1;
    pthread_cond_broadcast(&pool.wake);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 100 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    while (pool.workers > 0 && pthread_cond_timedwait(&pool.done, &pool.lock, &until) == 0) {
    }
    pthread_mutex_unlock(&pool.lock);
}
