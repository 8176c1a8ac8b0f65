/* The CPU threads of a call: how many, and a parallel loop that never waits on a thread that
 * cannot run.
 *
 * Why not an OpenMP team for a loop that runs again and again (a PageRank iteration, a batch of
 * nonces): at the end of a parallel region every member of the team must arrive, and libgomp's
 * default wait spins for about 3 ms before it sleeps (GOMP_SPINCOUNT=300000). On a machine whose
 * cores are busy with other work, the spinning members use up their share of the CPU, a member
 * the scheduler has taken off its core holds the region's end for a time slice, and each region
 * paid that: with two busy loops on 2 cores, a 0.8 ms region of 2 threads took a median 24 ms
 * (OMP_WAIT_POLICY=passive: 0.84 ms), a PageRank of 4039 nodes 40-150 ms instead of 0.7, the
 * hash bench half its single-thread rate. The wait policy is read from the environment once, when
 * libgomp starts, which is before any code of a library that links it; libgomp has no call that
 * changes it later. So the loops that repeat run on kiln_par_for, whose threads sleep in the
 * kernel between loops, and whose caller waits only for work a thread has begun.
 *
 * One-pass bulk work (graph builds, key derivation) keeps OpenMP with a thread count sized by the
 * work (kiln_threads_for): one thread below the size where a team pays for itself. */
#ifndef KILN_CORE_PAR_H
#define KILN_CORE_PAR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The threads a call uses: `requested` when it is > 0, else one per CPU this process may run on
 * (its affinity mask: `taskset -c 0 kiln ...` runs one thread). */
int kiln_threads_auto(int requested);

/* kiln_threads_auto(requested), but at most one thread per `per_thread` items of work, and at
 * least one: work of fewer than 2 * per_thread items runs on the calling thread alone. */
int kiln_threads_for(int requested, uint64_t items, uint64_t per_thread);

/* Chunk `chunk` of a loop; `slot` (0 .. threads-1) is distinct among the threads that run the
 * loop's chunks at the same time (the index of per-thread scratch), 0 on the calling thread. */
typedef void (*kiln_par_fn)(void *arg, uint64_t chunk, int slot);

/* Runs fn(arg, c, slot) once for every c in [0, chunks) (chunks < 2^32) on up to `threads`
 * threads, and returns when all have run. The calling thread runs chunks too, and claims them one
 * at a time as do the others (so a chunk's order and thread are not fixed); it waits only for
 * chunks another thread has begun. A thread of the pool that the scheduler does not run in time
 * claims nothing, and nobody waits for it: on busy cores the loop runs on the threads that do run,
 * as fast as on one thread at the least. The pool's threads sleep in the kernel between loops
 * (no spinning), block every signal and live for the process; one loop runs on the pool at a
 * time: a second one at the same time (another caller, or fn itself) runs on its own caller's
 * thread. threads <= 1 or chunks <= 1: every chunk on the calling thread, in order. */
void kiln_par_for(int threads, uint64_t chunks, kiln_par_fn fn, void *arg);

/* Chunks of `per_chunk` items for n items, at most max_chunks of them (larger chunks then): the
 * chunk size a loop over n items uses, rounded up to a multiple of per_chunk. */
uint64_t kiln_par_chunk(uint64_t n, uint64_t per_chunk, uint64_t max_chunks);

#ifdef __cplusplus
}
#endif

#endif
