/* A graph file split over processes. A plain SNAP file is read by all at once (mpi_snap.c); other
 * inputs are read by process 0 as kiln_graph_load does (so the ids and their order are the same),
 * which sends every other process its row slice, the whole-graph arrays (outdeg, out_weight, ids)
 * going to all. Reading a CSR cache's rows in each process would be the next step. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dist.h"

/* Whether path is a SNAP edge list every process can read a byte range of: a regular file, not
 * gzip-compressed, and SNAP as format says or, with KILN_GRAPH_AUTO, as its first bytes say. */
static int splittable_snap(const char *path, kiln_graph_format format)
{
    if (strcmp(path, "-") == 0 || (format != KILN_GRAPH_AUTO && format != KILN_GRAPH_SNAP)) return 0;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return 0;
    struct stat sb;
    unsigned char head[16];
    ssize_t got = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) ? pread(fd, head, sizeof head, 0) : -1;
    close(fd);
    if (got < 0) return 0;
    if (got >= 2 && head[0] == 0x1f && head[1] == 0x8b) return 0;
    static const char mtx[] = "%%MatrixMarket";
    if (format == KILN_GRAPH_AUTO && (kiln_csr_cache_sniff(head, (size_t)got) ||
                                      (got >= (ssize_t)sizeof mtx - 1 && memcmp(head, mtx, sizeof mtx - 1) == 0)))
        return 0;
    return 1;
}

/* Sends or receives (root 0 sends to `to`) count items of type t in pieces MPI's int counts hold. */
static int move(kiln_dist *d, void *buf, uint64_t count, MPI_Datatype t, int to)
{
    int size;
    MPI_Type_size(t, &size);
    const uint64_t piece = UINT64_C(1) << 28;
    for (uint64_t i = 0; i < count; i += piece) {
        int k = (int)(count - i < piece ? count - i : piece);
        char *p = (char *)buf + i * (uint64_t)size;
        int rc = d->rank == 0 ? MPI_Send(p, k, t, to, 0, d->comm) : MPI_Recv(p, k, t, 0, 0, d->comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return -1;
    }
    return 0;
}

static int bcast(kiln_dist *d, void *buf, uint64_t count, MPI_Datatype t)
{
    int size;
    MPI_Type_size(t, &size);
    const uint64_t piece = UINT64_C(1) << 28;
    for (uint64_t i = 0; i < count; i += piece) {
        int k = (int)(count - i < piece ? count - i : piece);
        if (MPI_Bcast((char *)buf + i * (uint64_t)size, k, t, 0, d->comm) != MPI_SUCCESS) return -1;
    }
    return 0;
}

kiln_status kiln_dist_graph_load(kiln_ctx *ctx, kiln_dist *d, const char *path, kiln_graph_format format,
                                 unsigned flags, kiln_graph **out)
{
    if (!out || !d) return kiln_fail(ctx, KILN_ERR_INPUT, "missing output or process group");
    *out = NULL;
    if (!path) return kiln_fail(ctx, KILN_ERR_INPUT, "missing graph path");
    if (flags & ~(unsigned)(KILN_GRAPH_UNDIRECTED | KILN_GRAPH_DROP_SELF_LOOPS | KILN_GRAPH_WEIGHTED))
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown graph flags 0x%x", flags);
    /* a SNAP file is read by all at once; anything else (gzip, a pipe, Matrix Market, a CSR
     * cache) by process 0 */
    int split = d->rank == 0 && splittable_snap(path, format);
    MPI_Bcast(&split, 1, MPI_INT, 0, d->comm);
    if (split) return kiln_dist_snap(ctx, d, path, flags, out);
    kiln_graph *g = NULL;
    kiln_status st = KILN_OK;
    if (d->rank == 0) st = kiln_graph_load(ctx, path, format, flags, &g);
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st != KILN_OK) {
        kiln_graph_free(g);
        return st;
    }
    /* what every process needs to know first */
    struct {
        uint64_t n, id_base;
        int ids, weights;
        kiln_graph_info info;
    } head;
    memset(&head, 0, sizeof head);
    uint64_t *bounds = malloc(((size_t)d->size + 1) * sizeof *bounds);
    if (d->rank == 0) {
        head.n = g->n;
        head.id_base = g->id_base;
        head.ids = g->ids != NULL;
        head.weights = g->weights != NULL;
        head.info = g->info;
        uint64_t *indeg = malloc((g->n ? g->n : 1) * sizeof *indeg);
        if (indeg && bounds) {
            for (uint64_t v = 0; v < g->n; v++) indeg[v] = g->offsets[v + 1] - g->offsets[v];
            kiln_dist_bounds(d, indeg, g->n, bounds);
        }
        if (!indeg || !bounds) st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory splitting the graph");
        free(indeg);
    } else {
        g = kiln_graph_alloc();
        if (!g || !bounds) st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    }
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st != KILN_OK) goto fail;
    MPI_Bcast(&head, (int)sizeof head, MPI_BYTE, 0, d->comm);
    MPI_Bcast(bounds, d->size + 1, MPI_UINT64_T, 0, d->comm);
    const uint64_t n = head.n, v0 = bounds[d->rank], v1 = bounds[d->rank + 1];
    uint64_t *counts = malloc((size_t)d->size * sizeof *counts); /* each part's edges */
    if (counts && d->rank == 0)
        for (int r = 0; r < d->size; r++) counts[r] = g->offsets[bounds[r + 1]] - g->offsets[bounds[r]];
    if (counts) MPI_Bcast(counts, d->size, MPI_UINT64_T, 0, d->comm);
    else MPI_Abort(d->comm, 3); /* a few bytes: nothing sensible is left to do */
    if (d->rank != 0) {
        const uint64_t m = counts[d->rank];
        g->n = n;
        g->m = m;
        g->id_base = head.id_base;
        g->offsets = calloc(n + 1, sizeof *g->offsets);
        g->sources = malloc((m ? m : 1) * sizeof *g->sources);
        g->outdeg = malloc((n ? n : 1) * sizeof *g->outdeg);
        g->ids = head.ids ? malloc((n ? n : 1) * sizeof *g->ids) : NULL;
        g->weights = head.weights ? malloc((m ? m : 1) * sizeof *g->weights) : NULL;
        g->out_weight = head.weights ? malloc((n ? n : 1) * sizeof *g->out_weight) : NULL;
        if (!g->offsets || !g->sources || !g->outdeg || (head.ids && !g->ids) ||
            (head.weights && (!g->weights || !g->out_weight)))
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for this process's %llu edges", (unsigned long long)m);
    }
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st != KILN_OK) {
        free(counts);
        goto fail;
    }
    int bad = bcast(d, g->outdeg, n, MPI_UINT32_T);
    if (head.ids) bad |= bcast(d, g->ids, n, MPI_UINT64_T);
    if (head.weights) bad |= bcast(d, g->out_weight, n, MPI_DOUBLE);
    if (d->rank == 0) {
        for (int r = 1; r < d->size; r++) {
            const uint64_t a = bounds[r], b = bounds[r + 1], o = g->offsets[a];
            bad |= move(d, g->offsets + a, b - a + 1, MPI_UINT64_T, r);
            bad |= move(d, g->sources + o, counts[r], MPI_UINT32_T, r);
            if (head.weights) bad |= move(d, g->weights + o, counts[r], MPI_DOUBLE, r);
        }
        bad |= kiln_dist_finish_part(ctx, d, g, v0, v1, 0) != KILN_OK;
    } else {
        bad |= move(d, g->offsets + v0, v1 - v0 + 1, MPI_UINT64_T, 0);
        bad |= move(d, g->sources, counts[d->rank], MPI_UINT32_T, 0);
        if (head.weights) bad |= move(d, g->weights, counts[d->rank], MPI_DOUBLE, 0);
        /* rows as offsets of this part's sources */
        const uint64_t base = g->offsets[v0];
        for (uint64_t v = v0; v <= v1; v++) g->offsets[v] -= base;
        for (uint64_t v = v1 + 1; v <= n; v++) g->offsets[v] = g->offsets[v1];
        bad |= kiln_dist_finish_part(ctx, d, g, v0, v1, 0) != KILN_OK;
    }
    free(counts);
    if (bad) {
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "MPI failed sending the graph's parts");
        goto fail;
    }
    /* the counts of the read and the build are process 0's */
    g->info.edges_read = head.info.edges_read;
    g->info.self_loops_removed = head.info.self_loops_removed;
    g->info.duplicates_removed = head.info.duplicates_removed;
    g->info.build_seconds = head.info.build_seconds;
    free(bounds);
    *out = g;
    return KILN_OK;
fail:
    free(bounds);
    kiln_graph_free(g);
    return st;
}
