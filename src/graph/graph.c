/* The graph handle: allocation, queries, edge-list containers and small parallel helpers. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "../core/par.h"

kiln_graph *kiln_graph_alloc(void) { return calloc(1, sizeof(kiln_graph)); }

void kiln_graph_release(kiln_graph *g)
{
    free(g->offsets);
    free(g->sources);
    free(g->outdeg);
    free(g->ids);
    free(g->weights);
    free(g->out_weight);
    g->offsets = NULL;
    g->sources = NULL;
    g->outdeg = NULL;
    g->ids = NULL;
    g->weights = NULL;
    g->out_weight = NULL;
}

void kiln_graph_free(kiln_graph *g)
{
    if (!g) return;
    kiln_graph_release(g);
    free(g);
}

void kiln_graph_take_csr(kiln_graph *g, uint64_t n, uint64_t m, uint64_t *offsets, uint32_t *sources, uint32_t *outdeg)
{
    g->n = n;
    g->m = m;
    g->offsets = offsets;
    g->sources = sources;
    g->outdeg = outdeg;
}

void kiln_graph_get_info(const kiln_graph *g, kiln_graph_info *info)
{
    if (!info) return;
    if (!g) {
        memset(info, 0, sizeof *info);
        return;
    }
    *info = g->info;
}

uint64_t kiln_graph_node_id(const kiln_graph *g, uint64_t index)
{
    if (!g || index >= g->n) return UINT64_MAX;
    return g->ids ? g->ids[index] : index + g->id_base;
}

kiln_status kiln_graph_find_node(const kiln_graph *g, uint64_t id, uint64_t *index)
{
    if (!g || !index) return KILN_ERR_INPUT;
    if (!g->ids) {
        if (id < g->id_base || id - g->id_base >= g->n) return KILN_NOT_FOUND;
        *index = id - g->id_base;
        return KILN_OK;
    }
    /* the original ids are ascending in index order (the remap sorts them) */
    uint64_t lo = 0, hi = g->n;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (g->ids[mid] < id) lo = mid + 1;
        else hi = mid;
    }
    if (lo == g->n || g->ids[lo] != id) return KILN_NOT_FOUND;
    *index = lo;
    return KILN_OK;
}

const double *kiln_graph_edge_weights(const kiln_graph *g) { return g ? g->weights : NULL; }

void kiln_graph_csr(const kiln_graph *g, const uint64_t **offsets, const uint32_t **sources,
                    const uint32_t **out_degree)
{
    if (offsets) *offsets = g ? g->offsets : NULL;
    if (sources) *sources = g ? g->sources : NULL;
    if (out_degree) *out_degree = g ? g->outdeg : NULL;
}

int kiln_pair_reserve(void **a, void **b, size_t elem, size_t count, size_t *cap)
{
    if (count < *cap) return 0;
    size_t nc = *cap ? *cap * 2 : 4096;
    void *na = realloc(*a, nc * elem);
    if (!na) return -1;
    *a = na;
    void *nb = realloc(*b, nc * elem);
    if (!nb) return -1;
    *b = nb;
    *cap = nc;
    return 0;
}

int kiln_raw_edges_push(kiln_raw_edges *e, uint64_t src, uint64_t dst)
{
    int rc;
    KILN_PAIR_PUSH(rc, e, &e->cap, src, dst);
    return rc;
}

int kiln_weights_reserve(double **w, size_t *wcap, size_t cap)
{
    if (*wcap >= cap) return 0;
    double *nw = realloc(*w, cap * sizeof *nw);
    if (!nw) return -1;
    *w = nw;
    *wcap = cap;
    return 0;
}

void kiln_raw_edges_free(kiln_raw_edges *e)
{
    free(e->src);
    free(e->dst);
    free(e->w);
    memset(e, 0, sizeof *e);
}

void kiln_edges_free(kiln_edges *e)
{
    free(e->src);
    free(e->dst);
    memset(e, 0, sizeof *e);
}

int kiln_graph_threads(const kiln_ctx *ctx) { return kiln_threads_auto(ctx ? ctx->threads : 0); }

int kiln_graph_threads_for(const kiln_ctx *ctx, uint64_t work)
{
    return kiln_threads_for(ctx ? ctx->threads : 0, work, KILN_WORK_PER_THREAD);
}

int kiln_graph_threads_bulk(const kiln_ctx *ctx, uint64_t items)
{
    return kiln_threads_for(ctx ? ctx->threads : 0, items, KILN_BULK_PER_THREAD);
}

uint64_t kiln_scan_u64(uint64_t *a, uint64_t n, int threads)
{
    if (n < (1u << 16) || threads <= 1) {
        uint64_t s = 0;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t v = a[i];
            a[i] = s;
            s += v;
        }
        return s;
    }
    uint64_t part[257];
    int nt = threads > 256 ? 256 : threads;
    uint64_t chunk = (n + (uint64_t)nt - 1) / (uint64_t)nt;
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num();
        uint64_t lo = (uint64_t)t * chunk, hi = lo + chunk < n ? lo + chunk : n, s = 0;
        for (uint64_t i = lo; i < hi; i++) s += a[i];
        part[t + 1] = s;
#pragma omp barrier
#pragma omp single
        {
            part[0] = 0;
            for (int k = 1; k <= nt; k++) part[k] += part[k - 1];
        }
        s = part[t];
        for (uint64_t i = lo; i < hi; i++) {
            uint64_t v = a[i];
            a[i] = s;
            s += v;
        }
    }
    return part[nt];
}

void kiln_graph_finish_info(kiln_graph *g, int threads)
{
    uint64_t dangling = 0, max_in = 0, max_out = 0, loops = 0;
    const int64_t n = (int64_t)g->n;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096) \
    reduction(+ : dangling, loops) reduction(max : max_in, max_out)
    for (int64_t v = 0; v < n; v++) {
        uint64_t in = g->offsets[v + 1] - g->offsets[v];
        if (in > max_in) max_in = in;
        if (g->outdeg[v] > max_out) max_out = g->outdeg[v];
        if (g->out_weight ? g->out_weight[v] == 0 : g->outdeg[v] == 0) dangling++;
        for (uint64_t j = g->offsets[v]; j < g->offsets[v + 1]; j++)
            if (g->sources[j] == (uint32_t)v) loops++;
    }
    g->info.nodes = g->n;
    g->info.edges = g->m;
    g->info.dangling = dangling;
    g->info.max_in_degree = max_in;
    g->info.max_out_degree = max_out;
    g->info.self_loops = loops;
}
