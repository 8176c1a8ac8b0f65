/* Edge list -> CSR of in-edges on the CPU threads: count in-degrees, scan, scatter, sort each row,
 * merge duplicates, count out-degrees. The GPU build (src/cuda/graph_build.cu) gives the same
 * arrays; tests compare them. Weights travel with their sources through the scatter; a row is
 * sorted by (source, weight) so duplicates are summed in one order whatever the scatter's. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "../core/clock.h"
#include "../core/sort.h"

typedef struct arc {
    uint32_t src;
    double w;
} arc;

static int cmp_arc(const void *a, const void *b)
{
    const arc *x = a, *y = b;
    if (x->src != y->src) return (x->src > y->src) - (x->src < y->src);
    return (x->w > y->w) - (x->w < y->w);
}

/* Sorts a row and its weights by (source, weight); 0, or -1 out of memory. */
static int sort_row_w(uint32_t *a, double *w, uint64_t n)
{
    if (n > 32) {
        arc *t = malloc(n * sizeof *t);
        if (!t) return -1;
        for (uint64_t i = 0; i < n; i++) t[i] = (arc){.src = a[i], .w = w[i]};
        qsort(t, n, sizeof *t, cmp_arc);
        for (uint64_t i = 0; i < n; i++) {
            a[i] = t[i].src;
            w[i] = t[i].w;
        }
        free(t);
        return 0;
    }
    for (uint64_t i = 1; i < n; i++) {
        arc v = {.src = a[i], .w = w[i]};
        uint64_t j = i;
        for (; j > 0 && (a[j - 1] > v.src || (a[j - 1] == v.src && w[j - 1] > v.w)); j--) {
            a[j] = a[j - 1];
            w[j] = w[j - 1];
        }
        a[j] = v.src;
        w[j] = v.w;
    }
    return 0;
}

/* Edges, or arcs of whole rows, between interrupt polls: each pass runs in chunks of about this
 * much work (tens of milliseconds on one core), so a signal is honoured within a second at any
 * scale, also on busy cores (issue 36.9: the scatter and row sort of RMAT 22 took 3-4 s, unpolled).
 * A row sort chunk also stops at CSR_CHUNK_ROWS rows. */
#define CSR_CHUNK (INT64_C(1) << 20)
#define CSR_CHUNK_ROWS (INT64_C(1) << 16)

/* Reports `pass` (passes done, of 4) and reads the poll: 1 when it asks to stop. */
static int csr_poll(const kiln_ctx *ctx, uint64_t pass)
{
    kiln_ctx_report(ctx, "csr build", "passes", pass, 4);
    return kiln_ctx_interrupt_requested(ctx);
}

static int64_t chunk_end(int64_t c0, int64_t n) { return n - c0 < CSR_CHUNK ? n : c0 + CSR_CHUNK; }

/* The end of the chunk of rows from v0 (< n) over the row offsets off[0..n]: past v0, at most
 * CSR_CHUNK_ROWS rows, and the first row end that reaches CSR_CHUNK arcs from off[v0]. */
static int64_t rows_end(const uint64_t *off, int64_t v0, int64_t n)
{
    int64_t lo = v0 + 1, hi = n - v0 < CSR_CHUNK_ROWS ? n : v0 + CSR_CHUNK_ROWS;
    const uint64_t want = off[v0] + (uint64_t)CSR_CHUNK;
    /* the smallest end in [lo, hi] with off[end] >= want, else hi */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (off[mid] >= want) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* Why a step of the build could not go on: the interrupt asked for (stop), else no memory for
 * count of what. */
static kiln_status stopped(kiln_ctx *ctx, int stop, uint64_t count, const char *what)
{
    return stop ? kiln_interrupted(ctx)
                : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu %s", (unsigned long long)count, what);
}

kiln_status kiln_csr_build_cpu(kiln_ctx *ctx, const kiln_edges *e, unsigned flags, kiln_graph *g)
{
    return kiln_csr_build_cpu_weighted(ctx, e, NULL, flags, g);
}

/* One build: its input and options, the scratch arrays (freed at the end whatever happens) and
 * the CSR's own arrays (g's on success). */
typedef struct csr_job {
    kiln_ctx *ctx;
    const kiln_edges *e;
    const double *w; /* the edges' weights, or NULL */
    int threads, drop_loops, both;
    uint64_t n;
    int64_t count; /* edges */
    /* scratch: the arcs' row offsets, each row's fill (then its merged length), the arcs by row
     * and their weights */
    uint64_t *off, *cursor;
    uint32_t *tmp;
    double *tmpw;
    /* the CSR */
    uint64_t *noff, m;
    uint32_t *src, *outdeg;
    double *weights;
    uint64_t loops; /* self loops seen (twice each when undirected) */
} csr_job;

/* The passes are the count, the scatter, the row sort and the copy out, each in chunks with an
 * interrupt poll (and a report of the passes done) before each; each returns 1 when the poll
 * asked to stop. */

/* In-degree counts (arcs, before merging duplicates) into off. */
static int count_arcs(csr_job *b)
{
    const kiln_edges *e = b->e;
    const int both = b->both, drop_loops = b->drop_loops;
    uint64_t *off = b->off, loops = 0;
    int stop = 0;
    for (int64_t c0 = 0; c0 < b->count && !stop; c0 += CSR_CHUNK) {
        if ((stop = csr_poll(b->ctx, 0)) != 0) break;
        const int64_t c1 = chunk_end(c0, b->count);
#pragma omp parallel for num_threads(b->threads) reduction(+ : loops)
        for (int64_t i = c0; i < c1; i++) {
            uint32_t s = e->src[i], d = e->dst[i];
            if (s == d) {
                loops += both ? 2 : 1;
                if (drop_loops) continue;
            }
#pragma omp atomic
            off[d]++;
            if (both) {
#pragma omp atomic
                off[s]++;
            }
        }
    }
    b->loops = loops;
    return stop;
}

/* Every arc (and its weight) into its row of tmp, at cursor[row]. */
static int scatter_arcs(csr_job *b)
{
    const kiln_edges *e = b->e;
    const double *w = b->w;
    const int both = b->both, drop_loops = b->drop_loops;
    uint64_t *cursor = b->cursor;
    uint32_t *tmp = b->tmp;
    double *tmpw = b->tmpw;
    int stop = 0;
    for (int64_t c0 = 0; c0 < b->count && !stop; c0 += CSR_CHUNK) {
        if ((stop = csr_poll(b->ctx, 1)) != 0) break;
        const int64_t c1 = chunk_end(c0, b->count);
#pragma omp parallel for num_threads(b->threads)
        for (int64_t i = c0; i < c1; i++) {
            uint32_t s = e->src[i], d = e->dst[i];
            if (s == d && drop_loops) continue;
            uint64_t pos;
#pragma omp atomic capture
            pos = cursor[d]++;
            tmp[pos] = s;
            if (tmpw) tmpw[pos] = w[i];
            if (both) {
#pragma omp atomic capture
                pos = cursor[s]++;
                tmp[pos] = d;
                /* a self loop lands twice in its row, as unweighted; the copy weighs 0 so the
                 * merged loop weighs w[i] once, as NetworkX's to_directed gives one u->u edge */
                if (tmpw) tmpw[pos] = s == d ? 0.0 : w[i];
            }
        }
    }
    return stop;
}

/* Sorts each row and merges duplicates in place (summing their weights); cursor[v] becomes the
 * merged row length. *oom: a row sort ran out of memory. */
static int merge_rows(csr_job *b, int *oom_out)
{
    const uint64_t *off = b->off;
    uint64_t *cursor = b->cursor;
    uint32_t *tmp = b->tmp;
    double *tmpw = b->tmpw;
    const int64_t nn = (int64_t)b->n;
    int oom = 0, stop = 0;
    for (int64_t v0 = 0, v1; v0 < nn && !stop && !oom; v0 = v1) {
        if ((stop = csr_poll(b->ctx, 2)) != 0) break;
        v1 = rows_end(off, v0, nn);
#pragma omp parallel for num_threads(b->threads) schedule(dynamic, 1024) reduction(| : oom)
        for (int64_t v = v0; v < v1; v++) {
            uint32_t *row = tmp + off[v];
            uint64_t len = off[v + 1] - off[v], k = 0;
            if (!tmpw) {
                kiln_sort_u32(row, len);
                for (uint64_t j = 0; j < len; j++)
                    if (k == 0 || row[j] != row[k - 1]) row[k++] = row[j];
            } else {
                double *rw = tmpw + off[v];
                oom |= sort_row_w(row, rw, len);
                for (uint64_t j = 0; j < len; j++) {
                    if (k > 0 && row[j] == row[k - 1]) {
                        rw[k - 1] += rw[j];
                    } else {
                        row[k] = row[j];
                        rw[k++] = rw[j];
                    }
                }
            }
            cursor[v] = k;
        }
    }
    *oom_out = oom;
    return stop;
}

/* The merged rows into the CSR's own arrays (noff given), and the out-degrees. */
static kiln_status copy_out(csr_job *b)
{
    const uint64_t n = b->n;
    const int64_t nn = (int64_t)n;
    memcpy(b->noff, b->cursor, n * sizeof *b->noff);
    b->noff[n] = 0;
    const uint64_t m = b->m = kiln_scan_u64(b->noff, n + 1, b->threads);
    uint32_t *src = b->src = malloc((m ? m : 1) * sizeof *src);
    uint32_t *outdeg = b->outdeg = calloc(n ? n : 1, sizeof *outdeg);
    double *weights = b->weights = b->tmpw ? malloc((m ? m : 1) * sizeof *weights) : NULL;
    if (!src || !outdeg || (b->tmpw && !weights))
        return kiln_fail(b->ctx, KILN_ERR_DEVICE, "out of memory for %llu edges", (unsigned long long)m);
    const uint64_t *off = b->off, *cursor = b->cursor, *noff = b->noff;
    const uint32_t *tmp = b->tmp;
    const double *tmpw = b->tmpw;
    for (int64_t v0 = 0, v1; v0 < nn; v0 = v1) {
        if (csr_poll(b->ctx, 3)) return kiln_interrupted(b->ctx);
        v1 = rows_end(noff, v0, nn);
#pragma omp parallel for num_threads(b->threads) schedule(dynamic, 1024)
        for (int64_t v = v0; v < v1; v++) {
            memcpy(src + noff[v], tmp + off[v], cursor[v] * sizeof *src);
            if (weights) memcpy(weights + noff[v], tmpw + off[v], cursor[v] * sizeof *weights);
            for (uint64_t j = noff[v]; j < noff[v + 1]; j++) {
#pragma omp atomic
                outdeg[src[j]]++;
            }
        }
    }
    return KILN_OK;
}

/* The passes in order, with the scratch each needs. */
static kiln_status build(csr_job *b)
{
    kiln_ctx *ctx = b->ctx;
    const uint64_t n = b->n;
    b->off = calloc(n + 1, sizeof *b->off);
    b->cursor = malloc((n ? n : 1) * sizeof *b->cursor);
    if (!b->off || !b->cursor)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu vertices", (unsigned long long)n);
    int stop = count_arcs(b);
    const uint64_t arcs = kiln_scan_u64(b->off, n + 1, b->threads);
    stop = stop || csr_poll(ctx, 1);
    b->tmp = stop ? NULL : malloc((arcs ? arcs : 1) * sizeof *b->tmp);
    b->tmpw = b->w && b->tmp ? malloc((arcs ? arcs : 1) * sizeof *b->tmpw) : NULL;
    if (!b->tmp || (b->w && !b->tmpw)) return stopped(ctx, stop, arcs, "edges");
    memcpy(b->cursor, b->off, n * sizeof *b->cursor);
    stop = scatter_arcs(b);
    int oom = 0;
    if (!stop) stop = merge_rows(b, &oom);
    stop = stop || csr_poll(ctx, 3);
    b->noff = stop || oom ? NULL : malloc((n + 1) * sizeof *b->noff);
    if (!b->noff) return stopped(ctx, stop, n, "vertices");
    return copy_out(b);
}

kiln_status kiln_csr_build_cpu_weighted(kiln_ctx *ctx, const kiln_edges *e, const double *w, unsigned flags,
                                        kiln_graph *g)
{
    csr_job b = {.ctx = ctx,
                 .e = e,
                 .w = w,
                 .threads = kiln_graph_threads_bulk(ctx, e->count),
                 .drop_loops = (flags & KILN_GRAPH_DROP_SELF_LOOPS) != 0,
                 .both = (flags & KILN_GRAPH_UNDIRECTED) != 0,
                 .n = e->n,
                 .count = (int64_t)e->count};
    const double t0 = kiln_now();
    kiln_status st = build(&b);
    free(b.off);
    free(b.cursor);
    free(b.tmp);
    free(b.tmpw);
    if (st != KILN_OK) {
        free(b.noff);
        free(b.src);
        free(b.outdeg);
        free(b.weights);
        return st;
    }
    kiln_graph_take_csr(g, b.n, b.m, b.noff, b.src, b.outdeg);
    g->weights = b.weights;
    g->info.edges_read = (uint64_t)b.count * (b.both ? 2u : 1u);
    g->info.self_loops_removed = b.drop_loops ? b.loops : 0;
    g->info.duplicates_removed = g->info.edges_read - g->info.self_loops_removed - b.m;
    g->info.built_on_gpu = 0;
    /* on failure g's arrays are the caller's to free */
    if (b.weights && (st = kiln_graph_out_weights(ctx, g)) != KILN_OK) return st;
    g->info.build_seconds = kiln_now() - t0;
    kiln_graph_finish_info(g, b.threads);
    return KILN_OK;
}
