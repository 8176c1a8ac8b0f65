/* A graph split over processes by destination rows: RMAT generated in shares and shuffled to the
 * rows' owners, or a file read by process 0 and sent out row slice by row slice. Every part keeps
 * the whole graph's outdeg / out_weight / ids, which the iterations read for every vertex. */
#include <stdlib.h>
#include <string.h>

#include "../core/gpu.h"
#include "dist.h"

int kiln_dist_owner(const kiln_dist *d, const uint64_t *bounds, uint64_t v)
{
    int lo = 0, hi = d->size - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (bounds[mid] <= v) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static kiln_status oom(kiln_ctx *ctx, const char *what)
{
    return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %s", what);
}

kiln_status kiln_dist_finish_part(kiln_ctx *ctx, kiln_dist *d, kiln_graph *g, uint64_t v0, uint64_t v1, int sum_out)
{
    const uint64_t n = g->n, a = g->offsets[v0], b = g->offsets[v1];
    /* the rows [v0, v1) are contiguous in the CSR: move them to the front */
    memmove(g->sources, g->sources + a, (b - a) * sizeof *g->sources);
    if (g->weights) memmove(g->weights, g->weights + a, (b - a) * sizeof *g->weights);
    for (uint64_t v = 0; v <= n; v++) g->offsets[v] = v <= v0 ? 0 : v <= v1 ? g->offsets[v] - a : b - a;
    g->m = b - a;
    int bad = 0;
    if (sum_out) {
        memset(g->outdeg, 0, n * sizeof *g->outdeg);
        const int threads = kiln_graph_threads(ctx);
        /* a process's part of a large graph is billions of edges: counted by all its threads */
#pragma omp parallel for num_threads(threads) schedule(static, 65536)
        for (int64_t j = 0; j < (int64_t)g->m; j++) {
#pragma omp atomic
            g->outdeg[g->sources[j]]++;
        }
        bad = kiln_dist_allreduce(d, g->outdeg, n, MPI_UINT32_T, MPI_SUM);
    }
    if (sum_out && g->weights) {
        double *ow = g->out_weight ? g->out_weight : malloc((n ? n : 1) * sizeof *ow);
        int ok = ow != NULL, all;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, d->comm);
        if (!all) {
            if (ow) free(ow);
            g->out_weight = NULL;
            return ok ? kiln_fail(ctx, KILN_ERR_DEVICE, "another process ran out of memory") : oom(ctx, "out-weights");
        }
        g->out_weight = ow;
        memset(ow, 0, n * sizeof *ow);
        for (uint64_t v = v0; v < v1; v++)
            for (uint64_t j = g->offsets[v]; j < g->offsets[v + 1]; j++) ow[g->sources[j]] += g->weights[j];
        bad |= kiln_dist_allreduce(d, ow, n, MPI_DOUBLE, MPI_SUM);
    }
    if (bad) return kiln_fail(ctx, KILN_ERR_DEVICE, "MPI failed summing the out-degrees");
    kiln_graph_finish_info(g, kiln_graph_threads(ctx));
    /* the in-edge counts are this part's; the out-degree ones the whole graph's already */
    uint64_t sums[2] = {g->m, g->info.self_loops}, max_in = g->info.max_in_degree;
    MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UINT64_T, MPI_SUM, d->comm);
    MPI_Allreduce(MPI_IN_PLACE, &max_in, 1, MPI_UINT64_T, MPI_MAX, d->comm);
    g->info.edges = sums[0];
    g->info.self_loops = sums[1];
    g->info.max_in_degree = max_in;
    g->part = 1;
    g->part_v0 = v0;
    g->part_v1 = v1;
    return KILN_OK;
}

kiln_status kiln_dist_shuffle(kiln_ctx *ctx, kiln_dist *d, const uint64_t *edge, const double *w, const int *dest,
                              uint64_t count, uint64_t **got, double **gotw, uint64_t *got_count)
{
    const int k = d->size, words = w ? 2 : 1; /* an edge, and its weight's bits */
    /* the edges are counted and packed by T contiguous chunks at once, chunk c's edges for process
     * r after those of chunks < c: the send buffer is in the edges' order, as one pass would
     * leave it (a process's share of a large graph is billions of edges) */
    const int T = kiln_graph_threads(ctx);
    int *sc = calloc((size_t)k * 4, sizeof *sc), *sd = sc ? sc + k : NULL, *rc = sc ? sc + 2 * k : NULL,
        *rd = sc ? sc + 3 * k : NULL;
    uint64_t *sendbuf = malloc((count ? count : 1) * (size_t)words * sizeof *sendbuf), *recv = NULL;
    uint64_t *cnt = calloc((size_t)k, sizeof *cnt), *at = calloc((size_t)k * (size_t)T, sizeof *at);
    kiln_status st = sc && sendbuf && cnt && at ? KILN_OK : oom(ctx, "the edge shuffle");
    if (st == KILN_OK) {
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (int c = 0; c < T; c++)
            for (uint64_t i = count * (uint64_t)c / (uint64_t)T; i < count * (uint64_t)(c + 1) / (uint64_t)T; i++)
                if (dest[i] >= 0) at[(size_t)c * (size_t)k + (size_t)dest[i]]++;
        for (int c = 0; c < T; c++)
            for (int r = 0; r < k; r++) cnt[r] += at[(size_t)c * (size_t)k + (size_t)r];
    }
    for (int r = 0; st == KILN_OK && r < k; r++)
        if (cnt[r] > INT32_MAX) st = kiln_fail(ctx, KILN_ERR_INPUT, "over 2^31 edges for one process: use more processes");
    st = kiln_dist_agree_ctx(ctx, d, st);
    MPI_Datatype item = MPI_DATATYPE_NULL;
    if (st != KILN_OK) goto done;
    MPI_Type_contiguous(words, MPI_UINT64_T, &item);
    MPI_Type_commit(&item);
    uint64_t pos = 0;
    for (int r = 0; r < k; r++) {
        sc[r] = (int)cnt[r];
        sd[r] = (int)pos;
        /* chunk c's first slot for process r */
        for (int c = 0; c < T; c++) {
            uint64_t n = at[(size_t)c * (size_t)k + (size_t)r];
            at[(size_t)c * (size_t)k + (size_t)r] = pos;
            pos += n;
        }
    }
    if (pos > INT32_MAX) st = kiln_fail(ctx, KILN_ERR_INPUT, "over 2^31 edges sent by one process: use more processes");
    if (st == KILN_OK) {
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (int c = 0; c < T; c++) {
            uint64_t *cur = at + (size_t)c * (size_t)k;
            for (uint64_t i = count * (uint64_t)c / (uint64_t)T; i < count * (uint64_t)(c + 1) / (uint64_t)T; i++) {
                if (dest[i] < 0) continue;
                uint64_t to = cur[dest[i]]++ * (uint64_t)words;
                sendbuf[to] = edge[i];
                if (w) memcpy(&sendbuf[to + 1], &w[i], sizeof w[i]);
            }
        }
    }
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st == KILN_OK && MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, d->comm) != MPI_SUCCESS)
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "MPI_Alltoall failed");
    uint64_t total = 0;
    for (int r = 0; st == KILN_OK && r < k; r++) total += (uint64_t)rc[r];
    if (st == KILN_OK && total > INT32_MAX)
        st = kiln_fail(ctx, KILN_ERR_INPUT, "over 2^31 edges for one process: use more processes");
    if (st == KILN_OK) {
        int at = 0;
        for (int r = 0; r < k; r++) {
            rd[r] = at;
            at += rc[r];
        }
        recv = malloc((total ? total : 1) * (size_t)words * sizeof *recv);
        if (!recv) st = oom(ctx, "the edges received");
    }
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st == KILN_OK && MPI_Alltoallv(sendbuf, sc, sd, item, recv, rc, rd, item, d->comm) != MPI_SUCCESS)
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "MPI_Alltoallv failed");
    if (st == KILN_OK && w) {
        /* unpack in place: edges to the front, weights to their own array */
        double *wv = malloc((total ? total : 1) * sizeof *wv);
        if (!wv) st = oom(ctx, "the edge weights received");
        for (uint64_t i = 0; wv && i < total; i++) {
            memcpy(&wv[i], &recv[2 * i + 1], sizeof *wv);
            recv[i] = recv[2 * i];
        }
        *gotw = wv;
    }
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st == KILN_OK) {
        *got = recv;
        *got_count = total;
        recv = NULL;
    } else if (w) {
        free(*gotw);
        *gotw = NULL;
    }
done:
    if (item != MPI_DATATYPE_NULL) MPI_Type_free(&item);
    free(at);
    free(cnt);
    free(recv);
    free(sendbuf);
    free(sc);
    return st;
}

/* A GPU process's part of RMAT: its rows (an equal range: the labels are a random permutation)
 * built on its GPU from every edge drawn there (src/core/gpu.h rmat_part_csr), so no edge crosses
 * the host or the network; the out-degrees are the parts' counts summed over the processes. */
static kiln_status rmat_on_gpu(kiln_ctx *ctx, kiln_dist *d, const kiln_rmat_spec *spec, int both, kiln_graph **out)
{
    const uint64_t n = UINT64_C(1) << spec->scale;
    const uint64_t v0 = n * (uint64_t)d->rank / (uint64_t)d->size, v1 = n * (uint64_t)(d->rank + 1) / (uint64_t)d->size;
    double t0 = MPI_Wtime();
    kiln_gpu_csr c;
    memset(&c, 0, sizeof c);
    kiln_gpu *gpu;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &gpu);
    if (st == KILN_OK) st = ctx->gpu->graph->rmat_part_csr(gpu, spec, both, v0, v1, &c);
    kiln_graph *g = st == KILN_OK ? kiln_graph_alloc() : NULL;
    if (st == KILN_OK && g) {
        g->n = n;
        g->m = c.m;
        g->sources = c.sources;
        g->outdeg = c.outdeg;
        g->offsets = malloc((n + 1) * sizeof *g->offsets);
        c.sources = NULL;
        c.outdeg = NULL;
    }
    if (st == KILN_OK && (!g || !g->offsets)) st = oom(ctx, "the RMAT part");
    if (st == KILN_OK) {
        /* the part's offsets over all n rows: empty before and after its own */
        for (uint64_t v = 0; v <= n; v++) g->offsets[v] = v <= v0 ? 0 : v <= v1 ? c.offsets[v - v0] : c.m;
    }
    free(c.offsets);
    free(c.sources);
    free(c.outdeg);
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st == KILN_OK && kiln_dist_allreduce(d, g->outdeg, n, MPI_UINT32_T, MPI_SUM) != 0)
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "MPI failed summing the out-degrees");
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st == KILN_OK) st = kiln_dist_finish_part(ctx, d, g, v0, v1, 0);
    if (st != KILN_OK) {
        kiln_graph_free(g);
        return st;
    }
    g->info.edges_read = c.edges_read;
    g->info.self_loops_removed = c.self_loops_removed;
    g->info.duplicates_removed = g->info.edges_read - g->info.self_loops_removed - g->info.edges;
    g->info.built_on_gpu = 1;
    g->info.build_seconds = MPI_Wtime() - t0;
    *out = g;
    return KILN_OK;
}

/* One process's share of an RMAT graph on the CPU threads: its edges drawn, sent to the owners of
 * their rows, and the rows it owns built. */
typedef struct rmat_job {
    kiln_ctx *ctx;
    kiln_dist *d;
    const kiln_rmat_spec *spec;
    int both;
    uint64_t n, e0, cnt; /* vertices; this process's edge numbers [e0, e0 + cnt) */
    uint64_t *edge; /* source << 32 | destination, in the permuted labels */
    int *dest; /* each edge's owner; -1: dropped (a self loop) */
    uint64_t *indeg; /* in-degrees, summed over the processes */
    uint64_t *bounds; /* the owners' first rows (d->size + 1) */
    uint64_t sent, loops; /* edges to send (copies included); self loops drawn here */
} rmat_job;

/* This process's edges in the permuted labels, and their in-degrees; returns the self loops drawn. */
static uint64_t draw_edges(const rmat_job *j, const uint32_t *perm)
{
    const kiln_rmat_spec *spec = j->spec;
    const uint64_t e0 = j->e0, cnt = j->cnt;
    const int both = j->both;
    uint64_t *edge = j->edge, *indeg = j->indeg, loops = 0;
    const int threads = kiln_graph_threads(j->ctx);
#pragma omp parallel for num_threads(threads) schedule(static, 65536) reduction(+ : loops)
    for (int64_t i = 0; i < (int64_t)cnt; i++) {
        uint32_t s, t;
        kiln_rmat_edge(spec, e0 + (uint64_t)i, &s, &t);
        s = perm[s];
        t = perm[t];
        edge[i] = (uint64_t)s << 32 | t;
        if (s == t) {
            loops++;
            continue;
        }
#pragma omp atomic
        indeg[t]++;
        if (both) {
#pragma omp atomic
            indeg[s]++;
        }
    }
    return loops;
}

/* An edge goes to its destination's owner and, undirected, to its source's as well (the build
 * adds it both ways; each process keeps only its own rows); a self-loop is dropped, as
 * kiln_graph_rmat does, by the shuffle skipping it (dest -1). */
static kiln_status route_edges(rmat_job *j)
{
    kiln_dist *d = j->d;
    const uint64_t *bounds = j->bounds, cnt = j->cnt;
    kiln_status st = KILN_OK;
    uint64_t sent = cnt;
    {
        const uint64_t *edge = j->edge;
        int *dest = j->dest;
        const int threads = kiln_graph_threads(j->ctx);
#pragma omp parallel for num_threads(threads) schedule(static, 65536)
        for (int64_t i = 0; i < (int64_t)cnt; i++) {
            uint32_t s = (uint32_t)(edge[i] >> 32), t = (uint32_t)edge[i];
            dest[i] = s == t ? -1 : kiln_dist_owner(d, bounds, t);
        }
    }
    if (j->both) {
        /* room for the second copies: at most one more per edge */
        uint64_t *e2 = realloc(j->edge, (2 * sent + 1) * sizeof *e2);
        int *d2 = realloc(j->dest, (2 * sent + 1) * sizeof *d2);
        if (e2) j->edge = e2;
        if (d2) j->dest = d2;
        if (!e2 || !d2) st = oom(j->ctx, "the RMAT edges");
        uint64_t *edge = j->edge, k = sent;
        int *dest = j->dest;
        for (uint64_t i = 0; st == KILN_OK && i < sent; i++) {
            if (dest[i] < 0) continue;
            int os = kiln_dist_owner(d, bounds, edge[i] >> 32);
            if (os != dest[i]) {
                edge[k] = edge[i];
                dest[k++] = os;
            }
        }
        sent = k;
    }
    j->sent = sent;
    return st;
}

/* The got_count edges this process received (got, freed here before the build, which needs the
 * room) as the CSR of its rows in g. */
static kiln_status build_rows(kiln_ctx *ctx, uint64_t *got, uint64_t got_count, uint64_t n, unsigned flags,
                              kiln_graph *g)
{
    kiln_edges e = {.src = malloc((got_count ? got_count : 1) * sizeof *e.src),
                    .dst = malloc((got_count ? got_count : 1) * sizeof *e.dst),
                    .count = got_count,
                    .n = n};
    kiln_status st = g && e.src && e.dst ? KILN_OK : oom(ctx, "the RMAT edges");
    if (st == KILN_OK) {
        const int threads = kiln_graph_threads(ctx);
#pragma omp parallel for num_threads(threads) schedule(static, 65536)
        for (int64_t i = 0; i < (int64_t)got_count; i++) {
            e.src[i] = (uint32_t)(got[i] >> 32);
            e.dst[i] = (uint32_t)got[i];
        }
    }
    free(got);
    if (st == KILN_OK) st = kiln_csr_build_cpu(ctx, &e, flags & ~(unsigned)KILN_GRAPH_WEIGHTED, g);
    kiln_edges_free(&e);
    return st;
}

/* Draws, routes and shuffles the edges: *got (got_count of them) the edges of j's own rows. */
static kiln_status share_edges(rmat_job *j, uint64_t **got, uint64_t *got_count)
{
    kiln_ctx *ctx = j->ctx;
    kiln_dist *d = j->d;
    uint32_t *perm = malloc(j->n * sizeof *perm);
    kiln_status st = perm && j->edge && j->indeg && j->dest && j->bounds ? KILN_OK : oom(ctx, "the RMAT edges");
    if (st == KILN_OK) st = kiln_rmat_permutation_cpu(ctx, j->spec, perm);
    if (st == KILN_OK) j->loops = draw_edges(j, perm);
    free(perm);
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st != KILN_OK) return st;
    if (kiln_dist_allreduce(d, j->indeg, j->n, MPI_UINT64_T, MPI_SUM) != 0)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "MPI failed summing the in-degrees");
    kiln_dist_bounds(d, j->indeg, j->n, j->bounds);
    free(j->indeg);
    j->indeg = NULL;
    st = route_edges(j);
    st = kiln_dist_agree_ctx(ctx, d, st);
    if (st == KILN_OK) st = kiln_dist_shuffle(ctx, d, j->edge, NULL, j->dest, j->sent, got, NULL, got_count);
    free(j->edge);
    free(j->dest);
    j->edge = NULL;
    j->dest = NULL;
    return st;
}

kiln_status kiln_dist_graph_rmat(kiln_ctx *ctx, kiln_dist *d, int scale, int edge_factor, uint64_t seed,
                                 unsigned flags, kiln_graph **out)
{
    if (!out || !d) return kiln_fail(ctx, KILN_ERR_INPUT, "missing output or process group");
    *out = NULL;
    if (scale < 1 || scale > 30) return kiln_fail(ctx, KILN_ERR_INPUT, "RMAT scale %d out of range 1..30", scale);
    if (edge_factor < 1 || edge_factor > 1024)
        return kiln_fail(ctx, KILN_ERR_INPUT, "RMAT edge factor %d out of range 1..1024", edge_factor);
    if (flags & ~(unsigned)(KILN_GRAPH_UNDIRECTED | KILN_GRAPH_DROP_SELF_LOOPS | KILN_GRAPH_WEIGHTED))
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown graph flags 0x%x", flags);
    flags |= KILN_GRAPH_DROP_SELF_LOOPS; /* as kiln_graph_rmat */
    const int both = (flags & KILN_GRAPH_UNDIRECTED) != 0;
    kiln_rmat_spec spec;
    kiln_rmat_spec_init(&spec, scale, edge_factor, seed);
    if (ctx && ctx->backend != KILN_BACKEND_CPU && ctx->gpu->graph && ctx->gpu->graph->rmat_part_csr && !(flags & KILN_GRAPH_WEIGHTED))
        return rmat_on_gpu(ctx, d, &spec, both, out);
    const uint64_t n = UINT64_C(1) << scale, m = (uint64_t)edge_factor << scale;
    /* this process's share of the edge numbers: the generator draws any edge on its own */
    const uint64_t q = m / (uint64_t)d->size, rem = m % (uint64_t)d->size, r = (uint64_t)d->rank;
    const uint64_t cnt = q + (r < rem ? 1 : 0);
    double t0 = MPI_Wtime();
    rmat_job j = {.ctx = ctx,
                  .d = d,
                  .spec = &spec,
                  .both = both,
                  .n = n,
                  .e0 = q * r + (r < rem ? r : rem),
                  .cnt = cnt,
                  .edge = malloc((cnt ? cnt : 1) * sizeof *j.edge),
                  .dest = malloc((cnt ? cnt : 1) * sizeof *j.dest),
                  .indeg = calloc(n, sizeof *j.indeg),
                  .bounds = malloc(((size_t)d->size + 1) * sizeof *j.bounds)};
    uint64_t *got = NULL, got_count = 0;
    kiln_graph *g = NULL;
    kiln_status st = share_edges(&j, &got, &got_count);
    if (st == KILN_OK) {
        /* every process got here (share_edges agreed): a failure of one in the build stops all */
        g = kiln_graph_alloc();
        st = build_rows(ctx, got, got_count, n, flags, g);
        got = NULL;
        if (st == KILN_OK && (flags & KILN_GRAPH_WEIGHTED)) st = kiln_rmat_edge_weights(ctx, seed, both, g);
        st = kiln_dist_agree_ctx(ctx, d, st);
    }
    if (st == KILN_OK) st = kiln_dist_finish_part(ctx, d, g, j.bounds[d->rank], j.bounds[d->rank + 1], 1);
    if (st == KILN_OK) {
        MPI_Allreduce(MPI_IN_PLACE, &j.loops, 1, MPI_UINT64_T, MPI_SUM, d->comm);
        g->info.edges_read = m * (both ? 2u : 1u);
        g->info.self_loops_removed = j.loops * (both ? 2u : 1u);
        g->info.duplicates_removed = g->info.edges_read - g->info.self_loops_removed - g->info.edges;
        g->info.build_seconds = MPI_Wtime() - t0;
        *out = g;
        g = NULL;
    }
    kiln_graph_free(g);
    free(j.edge);
    free(j.dest);
    free(j.indeg);
    free(got);
    free(j.bounds);
    return st;
}
