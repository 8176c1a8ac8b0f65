/* kiln_par_for (src/core/par.h), the loop PageRank iterations, nonce scans, Merkle levels and the
 * hash bench run on: every chunk runs exactly once; slots are distinct among the threads running at
 * once and below the thread count; the calling thread takes part; a loop started while another
 * runs (from fn itself, or from another thread) runs whole on its own caller; loops of several
 * caller threads at once all complete; a child of fork runs loops (on its one thread). And the
 * thread counts: kiln_threads_for sizes by the work, kiln_par_chunk keeps the chunk count bounded. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/par.h"

#define MAX_SLOTS 64

static _Atomic int caller_ran; /* loops whose calling thread ran a chunk */

typedef struct loop {
    uint64_t chunks;
    int threads;
    _Atomic int *runs; /* per chunk */
    _Atomic int busy[MAX_SLOTS]; /* a slot in use right now */
    _Atomic int clash, bad_slot, on_caller, nested_bad;
    pthread_t caller;
    int nest; /* run a small loop of its own inside every 16th chunk */
    _Atomic uint64_t sink;
} loop;

typedef struct inner {
    _Atomic int runs[8];
    pthread_t thread;
    _Atomic int elsewhere;
} inner;

static void inner_chunk(void *arg, uint64_t c, int slot)
{
    inner *in = arg;
    atomic_fetch_add(&in->runs[c], 1);
    if (slot != 0 || !pthread_equal(pthread_self(), in->thread)) atomic_store(&in->elsewhere, 1);
}

static void chunk(void *arg, uint64_t c, int slot)
{
    loop *l = arg;
    if (slot < 0 || slot >= l->threads || slot >= MAX_SLOTS) {
        atomic_store(&l->bad_slot, 1);
        return;
    }
    if (atomic_exchange(&l->busy[slot], 1)) atomic_store(&l->clash, 1);
    if (pthread_equal(pthread_self(), l->caller)) atomic_store(&l->on_caller, 1);
    uint64_t x = c;
    for (int i = 0; i < 2000; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
    atomic_store_explicit(&l->sink, x, memory_order_relaxed);
    if (l->nest && c % 16 == 0) {
        /* a loop inside a loop: the pool is taken, so it runs here, in order, slot 0 */
        inner in = {.thread = pthread_self()};
        kiln_par_for(4, 8, inner_chunk, &in);
        for (int i = 0; i < 8; i++)
            if (atomic_load(&in.runs[i]) != 1) atomic_store(&l->nested_bad, 1);
        if (atomic_load(&in.elsewhere)) atomic_store(&l->nested_bad, 1);
    }
    atomic_fetch_add(&l->runs[c], 1);
    atomic_store(&l->busy[slot], 0);
}

/* Runs one loop and checks it; returns nonzero (and says why on stderr) when it went wrong. */
static int run_loop(int threads, uint64_t chunks, int nest, const char *what)
{
    loop *l = calloc(1, sizeof *l);
    l->chunks = chunks;
    l->threads = threads < 1 ? 1 : threads;
    l->runs = calloc(chunks ? chunks : 1, sizeof *l->runs);
    l->caller = pthread_self();
    l->nest = nest;
    kiln_par_for(threads, chunks, chunk, l);
    int wrong = 0;
    for (uint64_t c = 0; c < chunks; c++) wrong += atomic_load(&l->runs[c]) != 1;
    if (atomic_load(&l->on_caller)) atomic_fetch_add(&caller_ran, 1);
    int bad = wrong || l->bad_slot || l->clash || l->nested_bad;
    if (bad) /* CHECK's counters belong to the main thread: here only the message */
        fprintf(stderr, "%s (%d threads, %llu chunks): %d chunks not run exactly once, bad slot %d, slot clash %d, "
                "nested loop wrong %d\n", what, threads, (unsigned long long)chunks, wrong, atomic_load(&l->bad_slot),
                atomic_load(&l->clash), atomic_load(&l->nested_bad));
    free(l->runs);
    free(l);
    return bad;
}

static void *caller_thread(void *arg)
{
    intptr_t k = (intptr_t)arg;
    int bad = 0;
    for (int i = 0; i < 50; i++) bad |= run_loop(2 + (int)(k % 3), 64 + (uint64_t)k * 7 + (uint64_t)i, 0, "concurrent");
    return (void *)(intptr_t)bad;
}

int main(void)
{
    /* thread counts */
    CHECK(kiln_threads_auto(3) == 3, "an explicit count is kept");
    CHECK(kiln_threads_auto(0) >= 1, "the default is at least one thread");
    CHECK(kiln_threads_for(8, 100, 1000) == 1, "small work: one thread");
    CHECK(kiln_threads_for(8, 1999, 1000) == 1, "under twice the work a thread: one");
    CHECK(kiln_threads_for(8, 3000, 1000) == 3, "one thread a share");
    CHECK(kiln_threads_for(8, 1000000, 1000) == 8, "at most the threads asked for");
    CHECK(kiln_par_chunk(10000, 2048, 1000) == 2048, "the chunk as asked when the count is in bounds");
    uint64_t big = kiln_par_chunk(UINT64_C(1) << 30, 2048, 1 << 16);
    CHECK(big % 2048 == 0 && ((UINT64_C(1) << 30) + big - 1) / big <= (1 << 16), "a bounded chunk count (%llu)",
          (unsigned long long)big);

    /* single loops of every shape, the pool growing and shrinking its share */
    CHECK(!run_loop(1, 100, 0, "one thread"), "one thread");
    CHECK(!run_loop(4, 0, 0, "no chunks"), "no chunks");
    CHECK(!run_loop(4, 1, 0, "one chunk"), "one chunk");
    CHECK(!run_loop(2, 2, 0, "two chunks, two threads"), "two chunks");
    for (int t = 2; t <= 16; t *= 2) CHECK(!run_loop(t, 1000, 0, "many chunks"), "%d threads", t);
    CHECK(!run_loop(64, 10, 0, "more threads than chunks"), "more threads than chunks");
    int bad = 0;
    for (int i = 0; i < 2000; i++) bad |= run_loop(4, 1 + (uint64_t)(i % 37), 0, "back to back");
    CHECK(!bad, "loops back to back");
    CHECK(!run_loop(4, 256, 1, "nested"), "loops inside a loop");
    /* the caller claims chunks as the others do: on a busy machine the others may take all of a
     * small loop's, but over thousands of loops it runs some */
    CHECK(atomic_load(&caller_ran) > 0, "the calling thread ran no chunk of any loop");

    /* several callers at once: one has the pool, the others run theirs alone; all complete */
    pthread_t th[6];
    for (intptr_t k = 0; k < 6; k++) pthread_create(&th[k], NULL, caller_thread, (void *)k);
    bad = 0;
    for (int k = 0; k < 6; k++) {
        void *r;
        pthread_join(th[k], &r);
        bad |= (int)(intptr_t)r;
    }
    CHECK(!bad, "a loop of concurrent callers went wrong");

    /* a child of fork has no workers: its loops still run every chunk */
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) _exit(run_loop(4, 500, 0, "after fork") ? 1 : 0);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a loop in a child of fork (status %d)", status);
    return check_summary();
}
