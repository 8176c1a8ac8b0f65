/* The iterations across processes: src/graph/pagerank_cpu.c's loop over this process's rows, with
 * an exchange after each pass: MPI_Allgatherv of the row slices of y (in place, host memory) and
 * an all-gather of each process's L1 change, dangling mass and stop flag, summed in process order
 * so every process takes the same decision. A GPU part runs its slice on the device and stages
 * y through the host for the same exchange (src/api/pagerank_parts.c), after one exchange of the
 * processes' visiting orders (4-byte elements, hence slices moved as bytes), or, where every
 * process can, exchanges only the sums here and the slices through NCCL device to device (the
 * communicator's id sent by bcast; src/api/pagerank_parts.c). */
#include <stdlib.h>

#include "../api/pagerank_split.h"
#include "../core/clock.h"
#include "dist.h"

typedef struct exchange_state {
    kiln_ctx *ctx;
    kiln_dist *d;
    double last, cycle; /* when the last exchange began, and the time between the last two */
    int *counts, *displs;
    double *sums; /* 3 per process */
    /* slice elements as 4 and 8 bytes: float or uint32 (a GPU part's visiting order), double */
    MPI_Datatype bytes4, bytes8;
} exchange_state;

static int bcast(void *arg, void *buf, size_t bytes)
{
    exchange_state *x = arg;
    return bytes <= INT32_MAX && MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, x->d->comm) == MPI_SUCCESS ? 0 : -1;
}

static int allgather(void *arg, const uint64_t *mine, uint64_t *all, int count)
{
    exchange_state *x = arg;
    return MPI_Allgather(mine, count, MPI_UINT64_T, all, count, MPI_UINT64_T, x->d->comm) == MPI_SUCCESS ? 0 : -1;
}

/* Nonblocking, waited for with the interrupt read (kiln_dist_wait): a process blocked in a
 * collective for one that was killed never saw mpirun's SIGTERM and lived to its SIGKILL (issue
 * 36.8). The others are given a quarter of a second past twice the last pass (a signal to one
 * process: the others come once their pass is done). Given up on a signal: -1 with *stop set, so
 * that the caller reports the interrupt. */
static int exchange(void *arg, void *y, size_t elem, double sums[2], int *stop)
{
    exchange_state *x = arg;
    kiln_dist *d = x->d;
    const double now = kiln_now(), patience = 0.25 + 2 * x->cycle;
    if (x->last > 0) x->cycle = now - x->last;
    x->last = now;
    MPI_Request req;
    int w = 0;
    if (y) {
        if (MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, y, x->counts, x->displs,
                            elem == 8 ? x->bytes8 : x->bytes4, d->comm, &req) != MPI_SUCCESS)
            return -1;
        if ((w = kiln_dist_wait(x->ctx, d, &req, patience)) != 0) {
            if (w == -2) *stop = 1;
            return -1;
        }
    }
    double mine[3] = {sums[0], sums[1], *stop ? 1.0 : 0.0};
    if (MPI_Iallgather(mine, 3, MPI_DOUBLE, x->sums, 3, MPI_DOUBLE, d->comm, &req) != MPI_SUCCESS) return -1;
    if ((w = kiln_dist_wait(x->ctx, d, &req, patience)) != 0) {
        if (w == -2) *stop = 1;
        return -1;
    }
    double res = 0, dang = 0;
    int any = 0;
    for (int r = 0; r < d->size; r++) {
        res += x->sums[3 * r];
        dang += x->sums[3 * r + 1];
        any |= x->sums[3 * r + 2] != 0;
    }
    sums[0] = res;
    sums[1] = dang;
    *stop = any;
    return 0;
}

kiln_status kiln_dist_pagerank(kiln_ctx *ctx, kiln_dist *d, const kiln_graph *g, const kiln_pagerank_options *opt,
                               double *ranks, kiln_pagerank_result *result)
{
    if (!d || !g || !g->part) return kiln_fail(ctx, KILN_ERR_INPUT, "kiln_dist_pagerank needs a graph split by kiln_dist_graph_*");
    exchange_state x = {ctx, d, 0, 0, malloc((size_t)d->size * 2 * sizeof(int)), NULL,
                        malloc((size_t)d->size * 3 * sizeof(double)), MPI_DATATYPE_NULL, MPI_DATATYPE_NULL};
    uint64_t span[2] = {g->part_v0, g->part_v1}, *all = malloc((size_t)d->size * 2 * sizeof *all);
    uint64_t *bounds = malloc(((size_t)d->size + 1) * sizeof *bounds);
    kiln_status st = x.counts && x.sums && all && bounds ? KILN_OK : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    if (st == KILN_OK && g->part_v1 - g->part_v0 > INT32_MAX)
        st = kiln_fail(ctx, KILN_ERR_INPUT, "over 2^31 rows for one process: use more processes");
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st == KILN_OK) {
        MPI_Allgather(span, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, d->comm);
        x.displs = x.counts + d->size;
        for (int r = 0; r < d->size; r++) {
            x.counts[r] = (int)(all[2 * r + 1] - all[2 * r]);
            /* displacements past 2^31 values would need MPI's large-count calls */
            if (all[2 * r] > INT32_MAX) st = kiln_fail(ctx, KILN_ERR_INPUT, "over 2^31 nodes: not yet across processes");
            x.displs[r] = (int)all[2 * r];
            bounds[r] = all[2 * r];
        }
        bounds[d->size] = g->n;
    }
    if (st == KILN_OK) {
        MPI_Type_contiguous(4, MPI_BYTE, &x.bytes4);
        MPI_Type_contiguous(8, MPI_BYTE, &x.bytes8);
        MPI_Type_commit(&x.bytes4);
        MPI_Type_commit(&x.bytes8);
        kiln_pr_split split = {g->part_v0, g->part_v1, exchange, &x, d->size, d->rank, bounds, bcast, allgather};
        st = kiln_pagerank_part(ctx, g, opt, &split, ranks, result);
        MPI_Type_free(&x.bytes4);
        MPI_Type_free(&x.bytes8);
    }
    free(all);
    free(bounds);
    free(x.counts);
    free(x.sums);
    if (st == KILN_STOPPED) d->stopped = 1; /* every process: the stop was agreed in the exchange */
    return st;
}
