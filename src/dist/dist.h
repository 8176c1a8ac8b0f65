/* PageRank across processes through MPI (include/kiln.h's kiln_dist_*): the handle and the pieces
 * the graph split (mpi_graph.c) and the iterations (mpi_pagerank.c) share. Only the mpi_*.c files
 * include it; without MPI, stub.c stands in for them. */
#ifndef KILN_DIST_DIST_H
#define KILN_DIST_DIST_H

#include <mpi.h>

#include "../graph/graph.h"

struct kiln_dist {
    MPI_Comm comm;
    int rank, size;
    int local_rank; /* among the processes of this host (MPI_COMM_TYPE_SHARED) */
    /* The run was interrupted (KILN_STOPPED agreed, or this process gave up an exchange on a
     * signal): kiln_dist_agree then keeps each process's own status, and kiln_dist_close bounds
     * MPI_Finalize, which waits for the launcher: mpirun, ending the job on SIGINT, SIGTERMs the
     * processes and serves no finalize before its SIGKILL a second later (issue 36.8: 2.1 s).
     * last: the status last passed to kiln_dist_agree (the command line's exit code), the
     * process's exit status when its finalize is given up. */
    int stopped;
    int last;
};

/* An interrupted process's MPI_Finalize gets this long before the process ends without it (with
 * the status last agreed): mpirun ending the job serves none. */
#define KILN_DIST_FINALIZE_S 0.1

/* Waits for *req (a nonblocking collective), reading ctx's interrupt: 0 once it completes, -1 when
 * MPI fails, or -2 when the interrupt is asked for and the wait has lasted `patience` seconds:
 * the others should have come by then (a killed process never does, and mpirun SIGTERMs the rest
 * a second after; blocked in a collective, they lived on to its SIGKILL, issue 36.8). The request
 * is then left behind and d->stopped set. */
int kiln_dist_wait(kiln_ctx *ctx, kiln_dist *d, MPI_Request *req, double patience);

/* kiln_dist_agree over ctx's message: the failing process's status everywhere, the other
 * processes' contexts told "process R: its message". A collective step: call it between the
 * local work that may fail and the next exchange, so no process waits for one that gave up. */
kiln_status kiln_dist_agree_ctx(kiln_ctx *ctx, kiln_dist *d, kiln_status st);

/* Sums (op MPI_SUM) or maxes n values of type t in buf across the processes, in pieces MPI's int
 * counts can hold; 0 or -1. */
int kiln_dist_allreduce(kiln_dist *d, void *buf, uint64_t n, MPI_Datatype t, MPI_Op op);

/* bounds[0..size]: process r owns rows [bounds[r], bounds[r+1]), chosen so each gets about the
 * same cost, a row's cost being its in-edges (indeg[v]) plus one. */
void kiln_dist_bounds(const kiln_dist *d, const uint64_t *indeg, uint64_t n, uint64_t *bounds);

/* The process owning row v under bounds (kiln_dist_bounds). */
int kiln_dist_owner(const kiln_dist *d, const uint64_t *bounds, uint64_t v);

/* Sends each of this process's edges (s -> t packed as s << 32 | t, with its weight w[i] when w
 * is not NULL) to process dest[i], or nowhere when dest[i] is -1; *got (and *gotw) receive the
 * edges sent here, *got_count of them. Collective. */
kiln_status kiln_dist_shuffle(kiln_ctx *ctx, kiln_dist *d, const uint64_t *edge, const double *w, const int *dest,
                              uint64_t count, uint64_t **got, double **gotw, uint64_t *got_count);

/* Makes g, a CSR over all n rows of which only [v0, v1) are this process's, that process's part:
 * drops the other rows' in-edges, with sum_out sums outdeg (and out_weight) over the processes
 * (without, they are the whole graph's already), and fills info
 * with the whole graph's counts (edges_read, self_loops_removed and duplicates_removed are the
 * caller's). Collective. */
kiln_status kiln_dist_finish_part(kiln_ctx *ctx, kiln_dist *d, kiln_graph *g, uint64_t v0, uint64_t v1, int sum_out);

/* This process's part of the SNAP edge list at path, a regular uncompressed file (mpi_snap.c). */
kiln_status kiln_dist_snap(kiln_ctx *ctx, kiln_dist *d, const char *path, unsigned flags, kiln_graph **out);

#endif
