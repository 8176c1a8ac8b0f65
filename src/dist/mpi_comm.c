/* Starting MPI, and agreeing on failures so that no process waits for one that gave up. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/clock.h"
#include "dist.h"

/* The exit status of a process whose finalize is given up (kiln_dist_close). */
static int finalize_exit;

static void *finalize_watch(void *arg)
{
    (void)arg;
    const struct timespec t = {0, (long)(KILN_DIST_FINALIZE_S * 1e9)};
    nanosleep(&t, NULL);
    /* MPI_Finalize has not returned: the launcher is ending the job and will serve none */
    fflush(stdout);
    fflush(stderr);
    _exit(finalize_exit);
}

int kiln_dist_launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (getenv(vars[i])) return 1;
    return 0;
}

kiln_status kiln_dist_open(kiln_ctx *ctx, kiln_dist **out)
{
    if (!out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing output");
    *out = NULL;
    int inited = 0, provided;
    MPI_Initialized(&inited);
    /* OpenMP threads compute; only the thread that called MPI_Init talks to MPI */
    if (!inited && MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "MPI_Init failed");
    kiln_dist *d = calloc(1, sizeof *d);
    if (!d) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    d->comm = MPI_COMM_WORLD;
    MPI_Comm_rank(d->comm, &d->rank);
    MPI_Comm_size(d->comm, &d->size);
    /* the processes sharing this host, numbered: each drives the GPU of its number */
    MPI_Comm host;
    d->local_rank = 0;
    if (MPI_Comm_split_type(d->comm, MPI_COMM_TYPE_SHARED, d->rank, MPI_INFO_NULL, &host) == MPI_SUCCESS) {
        MPI_Comm_rank(host, &d->local_rank);
        MPI_Comm_free(&host);
    }
    *out = d;
    return KILN_OK;
}

int kiln_dist_rank(const kiln_dist *d) { return d ? d->rank : 0; }
int kiln_dist_size(const kiln_dist *d) { return d ? d->size : 1; }
int kiln_dist_local_rank(const kiln_dist *d) { return d ? d->local_rank : 0; }

void kiln_dist_close(kiln_dist *d)
{
    if (!d) return;
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin) {
        /* after an interrupt the finalize gets KILN_DIST_FINALIZE_S: it is quick when only this
         * run stopped (a signal to one process), and never comes while mpirun ends the job */
        pthread_t watch;
        finalize_exit = d->last;
        const int watched = d->stopped && pthread_create(&watch, NULL, finalize_watch, NULL) == 0;
        MPI_Finalize();
        if (watched) {
            pthread_cancel(watch); /* its sleep is a cancellation point */
            pthread_join(watch, NULL);
        }
    }
    free(d);
}

int kiln_dist_wait(kiln_ctx *ctx, kiln_dist *d, MPI_Request *req, double patience)
{
    const double t0 = kiln_now();
    for (unsigned spin = 0;; spin++) {
        int done = 0;
        if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return -1;
        if (done) return 0;
        if ((spin & 255) != 255) continue;
        if (kiln_now() - t0 > patience && kiln_ctx_interrupt_requested(ctx)) {
            d->stopped = 1;
            return -2;
        }
        sched_yield();
    }
}

#define DIST_MSG 512

kiln_status kiln_dist_agree(kiln_dist *d, kiln_status st, const char *why, char *msg, size_t cap)
{
    if (msg && cap) msg[0] = '\0';
    if (d) d->last = (int)st;
    /* after an interrupt no collective more: a process may have given up on the others */
    if (!d || d->stopped) return st;
    /* the lowest failing process, then its status and message from it */
    int mine = st != KILN_OK ? d->rank : d->size, first;
    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, d->comm) != MPI_SUCCESS) MPI_Abort(d->comm, 3);
    if (first == d->size) return KILN_OK;
    struct {
        int st;
        char why[DIST_MSG];
    } m = {(int)st, ""};
    if (first == d->rank) snprintf(m.why, sizeof m.why, "%s", why ? why : "failed");
    if (MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, first, d->comm) != MPI_SUCCESS) MPI_Abort(d->comm, 3);
    if (msg && cap) snprintf(msg, cap, "process %d: %s", first, m.why);
    if (m.st == KILN_STOPPED) d->stopped = 1;
    return (kiln_status)m.st;
}

kiln_status kiln_dist_agree_ctx(kiln_ctx *ctx, kiln_dist *d, kiln_status st)
{
    char msg[DIST_MSG + 32];
    kiln_status all = kiln_dist_agree(d, st, st != KILN_OK ? kiln_last_error(ctx) : NULL, msg, sizeof msg);
    /* the failing process keeps its own message */
    if (all != KILN_OK && st == KILN_OK) return kiln_fail(ctx, all, "%s", msg);
    return all;
}

int kiln_dist_allreduce(kiln_dist *d, void *buf, uint64_t n, MPI_Datatype t, MPI_Op op)
{
    int size;
    MPI_Type_size(t, &size);
    char *p = buf;
    const uint64_t piece = UINT64_C(1) << 28;
    for (uint64_t i = 0; i < n; i += piece) {
        int k = (int)(n - i < piece ? n - i : piece);
        if (MPI_Allreduce(MPI_IN_PLACE, p + i * (uint64_t)size, k, t, op, d->comm) != MPI_SUCCESS) return -1;
    }
    return 0;
}

void kiln_dist_bounds(const kiln_dist *d, const uint64_t *indeg, uint64_t n, uint64_t *bounds)
{
    uint64_t total = n;
    for (uint64_t v = 0; v < n; v++) total += indeg[v];
    /* bounds[r]: the first row at which the cost so far reaches r/size of the total */
    uint64_t v = 0, acc = 0;
    bounds[0] = 0;
    for (int r = 1; r < d->size; r++) {
        long double goal = (long double)total * r / d->size;
        while (v < n && (long double)acc < goal) acc += indeg[v++] + 1;
        bounds[r] = v;
    }
    bounds[d->size] = n;
}
