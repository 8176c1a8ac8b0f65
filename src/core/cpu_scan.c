#include "cpu_scan.h"

#include <pthread.h>
#include <stdlib.h>

#include "par.h"

/* The pieces run on kiln_par_for (par.h): a scan is called again and again (every bench pass,
 * every mining round), and an OpenMP region per call made each wait for a thread the scheduler
 * had not run when the cores were busy. Each slot (a thread running pieces) has its own
 * candidate buffer and scratch, allocated when it takes its first piece. */
typedef struct scan {
    kiln_cpu_piece_fn fn;
    const void *impl, *job;
    uint32_t piece, start;
    uint64_t count;
    size_t scratch_bytes;
    uint32_t *cand, cap;
    uint64_t total;
    int oom;
    pthread_mutex_t lock; /* total, cand and oom */
    uint32_t **local; /* per slot: a buffer as large as a piece, so no candidate of a piece is lost */
    void **scratch; /* per slot: 64-byte aligned so vector rows never split cache lines */
} scan;

static void scan_piece(void *arg, uint64_t p, int slot)
{
    scan *s = arg;
    if (!s->local[slot]) {
        s->local[slot] = malloc(s->piece * sizeof *s->local[slot]);
        if (s->scratch_bytes && posix_memalign(&s->scratch[slot], 64, s->scratch_bytes) != 0) s->scratch[slot] = NULL;
    }
    uint32_t *local = s->local[slot];
    if (!local || (s->scratch_bytes && !s->scratch[slot])) {
        pthread_mutex_lock(&s->lock);
        s->oom = 1;
        pthread_mutex_unlock(&s->lock);
        return;
    }
    const uint64_t off = p * s->piece;
    const uint32_t n = (uint32_t)(s->count - off < s->piece ? s->count - off : s->piece);
    const uint64_t hits = s->fn(s->impl, s->job, s->start + (uint32_t)off, n, local, s->piece, s->scratch[slot]);
    if (hits == 0) return;
    pthread_mutex_lock(&s->lock);
    for (uint64_t i = 0; i < hits && i < s->piece; i++)
        if (s->total + i < s->cap) s->cand[s->total + i] = local[i];
    s->total += hits;
    pthread_mutex_unlock(&s->lock);
}

uint64_t kiln_cpu_scan_pieces(kiln_cpu_piece_fn fn, const void *impl, const void *job, uint32_t piece,
                              size_t scratch_bytes, int threads, uint32_t start, uint64_t count, uint32_t *cand,
                              uint32_t cap)
{
    const uint64_t pieces = (count + piece - 1) / piece;
    threads = kiln_threads_auto(threads);
    if ((uint64_t)threads > pieces) threads = pieces > 0 ? (int)pieces : 1;
    scan s = {fn, impl, job, piece, start, count, scratch_bytes, cand, cap, 0, 0, PTHREAD_MUTEX_INITIALIZER, NULL, NULL};
    s.local = calloc((size_t)threads, sizeof *s.local);
    s.scratch = calloc((size_t)threads, sizeof *s.scratch);
    if (s.local && s.scratch) kiln_par_for(threads, pieces, scan_piece, &s);
    else s.oom = 1;
    for (int t = 0; s.local && s.scratch && t < threads; t++) {
        free(s.local[t]);
        free(s.scratch[t]);
    }
    free(s.local);
    free(s.scratch);
    pthread_mutex_destroy(&s.lock);
    return s.oom ? UINT64_MAX : s.total;
}
