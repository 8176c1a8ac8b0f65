/* Edge list -> CSR of in-edges on the CPU threads: count in-degrees, scan, scatter, sort each row,
 * merge duplicates, count out-degrees. The GPU build (src/cuda/graph_build.cu) gives the same
 * arrays; tests compare them. */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "../core/clock.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void sort_row(uint32_t *a, uint64_t n)
{
    if (n > 32) {
        qsort(a, n, sizeof *a, cmp_u32);
        return;
    }
    for (uint64_t i = 1; i < n; i++) {
        uint32_t v = a[i];
        uint64_t j = i;
        for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
        a[j] = v;
    }
}

kiln_status kiln_csr_build_cpu(kiln_ctx *ctx, const kiln_edges *e, unsigned flags, kiln_graph *g)
{
    const int threads = kiln_graph_threads(ctx);
    const int drop_loops = (flags & KILN_GRAPH_DROP_SELF_LOOPS) != 0;
    const int both = (flags & KILN_GRAPH_UNDIRECTED) != 0;
    const uint64_t n = e->n;
    const int64_t count = (int64_t)e->count;
    double t0 = kiln_now();

    uint64_t *off = calloc(n + 1, sizeof *off);
    uint64_t *cursor = malloc((n ? n : 1) * sizeof *cursor);
    if (!off || !cursor) {
        free(off);
        free(cursor);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu vertices", (unsigned long long)n);
    }
    /* in-degree counts (arcs, before merging duplicates) */
    uint64_t loops = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : loops)
    for (int64_t i = 0; i < count; i++) {
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
    uint64_t arcs = kiln_scan_u64(off, n + 1, threads);
    /* each phase is one pass over the edges: an interrupt is honoured between them */
    int stop = kiln_ctx_interrupt_requested(ctx);
    uint32_t *tmp = stop ? NULL : malloc((arcs ? arcs : 1) * sizeof *tmp);
    if (!tmp) {
        free(off);
        free(cursor);
        return stop ? kiln_interrupted(ctx)
                    : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu edges", (unsigned long long)arcs);
    }
    memcpy(cursor, off, n * sizeof *cursor);
#pragma omp parallel for num_threads(threads)
    for (int64_t i = 0; i < count; i++) {
        uint32_t s = e->src[i], d = e->dst[i];
        if (s == d && drop_loops) continue;
        uint64_t pos;
#pragma omp atomic capture
        pos = cursor[d]++;
        tmp[pos] = s;
        if (both) {
#pragma omp atomic capture
            pos = cursor[s]++;
            tmp[pos] = d;
        }
    }
    /* sort each row, merge duplicates in place; cursor[v] becomes the merged row length */
    const int64_t nn = (int64_t)n;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t v = 0; v < nn; v++) {
        uint32_t *row = tmp + off[v];
        uint64_t len = off[v + 1] - off[v], k = 0;
        sort_row(row, len);
        for (uint64_t j = 0; j < len; j++)
            if (k == 0 || row[j] != row[k - 1]) row[k++] = row[j];
        cursor[v] = k;
    }
    stop = kiln_ctx_interrupt_requested(ctx);
    uint64_t *noff = stop ? NULL : malloc((n + 1) * sizeof *noff);
    if (!noff) {
        free(off);
        free(cursor);
        free(tmp);
        return stop ? kiln_interrupted(ctx)
                    : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu vertices", (unsigned long long)n);
    }
    memcpy(noff, cursor, n * sizeof *noff);
    noff[n] = 0;
    uint64_t m = kiln_scan_u64(noff, n + 1, threads);
    uint32_t *src = malloc((m ? m : 1) * sizeof *src);
    uint32_t *outdeg = calloc(n ? n : 1, sizeof *outdeg);
    if (!src || !outdeg) {
        free(off);
        free(cursor);
        free(tmp);
        free(noff);
        free(src);
        free(outdeg);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu edges", (unsigned long long)m);
    }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (int64_t v = 0; v < nn; v++) {
        memcpy(src + noff[v], tmp + off[v], cursor[v] * sizeof *src);
        for (uint64_t j = noff[v]; j < noff[v + 1]; j++) {
#pragma omp atomic
            outdeg[src[j]]++;
        }
    }
    free(off);
    free(cursor);
    free(tmp);
    g->n = n;
    g->m = m;
    g->offsets = noff;
    g->sources = src;
    g->outdeg = outdeg;
    g->info.edges_read = (uint64_t)count * (both ? 2u : 1u);
    g->info.self_loops_removed = drop_loops ? loops : 0;
    g->info.duplicates_removed = g->info.edges_read - g->info.self_loops_removed - m;
    g->info.build_seconds = kiln_now() - t0;
    g->info.built_on_gpu = 0;
    kiln_graph_finish_info(g, threads);
    return KILN_OK;
}
