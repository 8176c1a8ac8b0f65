/* The RMAT generator on the CPU threads (src/prim/rmat.h defines the graph). */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "../core/mem_limit.h"

/* Items (vertices or edges) between interrupt polls and progress reports: a few tens of
 * milliseconds of work on one core, so SIGINT is honoured within a second at any scale (issue
 * 24.4: RMAT 23 took 123 s to stop). */
#define RMAT_CHUNK (INT64_C(1) << 20)

static int64_t chunk_end(int64_t c0, int64_t n) { return n - c0 < RMAT_CHUNK ? n : c0 + RMAT_CHUNK; }

/* Reports `done` of `total` and reads the poll: 1 when it asks to stop. */
static int rmat_poll(const kiln_ctx *ctx, const char *stage, const char *unit, uint64_t done, uint64_t total)
{
    kiln_ctx_report(ctx, stage, unit, done, total);
    return kiln_ctx_interrupt_requested(ctx);
}

kiln_status kiln_rmat_permutation_cpu(kiln_ctx *ctx, const kiln_rmat_spec *spec, uint32_t *perm)
{
    /* perm[k] = the vertex with the k-th smallest key. The keys are uniform 64-bit values and all
     * distinct (splitmix64 is a bijection), so bucketing by the top `scale` bits leaves about one
     * key per bucket; each bucket is then put in key order. */
    const int threads = kiln_graph_threads_bulk(ctx, UINT64_C(1) << spec->scale);
    const int scale = spec->scale;
    const int64_t n = (int64_t)1 << scale;
    uint64_t *start = calloc((size_t)n + 1, sizeof *start);
    uint64_t *key = malloc((size_t)n * sizeof *key);
    if (!start || !key) {
        free(start);
        free(key);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the RMAT permutation");
    }
    const int shift = 64 - scale;
    /* three passes over the vertices, in chunks with a poll between them */
    const uint64_t steps = 3 * (uint64_t)n;
    int stop = 0;
    for (int64_t c0 = 0; c0 < n && !stop; c0 += RMAT_CHUNK) {
        if ((stop = rmat_poll(ctx, "rmat permutation", "steps", (uint64_t)c0, steps)) != 0) break;
        const int64_t c1 = chunk_end(c0, n);
#pragma omp parallel for num_threads(threads)
        for (int64_t v = c0; v < c1; v++) {
            uint64_t k = kiln_rmat_perm_key(spec, (uint64_t)v);
            key[v] = k;
            uint64_t b = scale ? k >> shift : 0;
#pragma omp atomic
            start[b]++;
        }
    }
    uint64_t *cursor = stop ? NULL : malloc((size_t)n * sizeof *cursor);
    if (!cursor) {
        free(start);
        free(key);
        return stop ? kiln_interrupted(ctx) : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the RMAT permutation");
    }
    kiln_scan_u64(start, (uint64_t)n + 1, threads);
    memcpy(cursor, start, (size_t)n * sizeof *cursor);
    for (int64_t c0 = 0; c0 < n && !stop; c0 += RMAT_CHUNK) {
        if ((stop = rmat_poll(ctx, "rmat permutation", "steps", (uint64_t)(n + c0), steps)) != 0) break;
        const int64_t c1 = chunk_end(c0, n);
#pragma omp parallel for num_threads(threads)
        for (int64_t v = c0; v < c1; v++) {
            uint64_t b = scale ? key[v] >> shift : 0, pos;
#pragma omp atomic capture
            pos = cursor[b]++;
            perm[pos] = (uint32_t)v;
        }
    }
    for (int64_t c0 = 0; c0 < n && !stop; c0 += RMAT_CHUNK) {
        if ((stop = rmat_poll(ctx, "rmat permutation", "steps", (uint64_t)(2 * n + c0), steps)) != 0) break;
        const int64_t c1 = chunk_end(c0, n);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096)
        for (int64_t b = c0; b < c1; b++) {
            for (uint64_t i = start[b] + 1; i < start[b + 1]; i++) {
                uint32_t v = perm[i];
                uint64_t j = i;
                for (; j > start[b] && key[perm[j - 1]] > key[v]; j--) perm[j] = perm[j - 1];
                perm[j] = v;
            }
        }
    }
    if (stop) {
        free(start);
        free(key);
        free(cursor);
        return kiln_interrupted(ctx);
    }
    free(start);
    free(key);
    free(cursor);
    return KILN_OK;
}

kiln_status kiln_rmat_edges_cpu(kiln_ctx *ctx, const kiln_rmat_spec *spec, kiln_edges *out)
{
    const uint64_t n = UINT64_C(1) << spec->scale;
    const uint64_t m = (uint64_t)spec->edge_factor << spec->scale;
    const int threads = kiln_graph_threads_bulk(ctx, m);
    memset(out, 0, sizeof *out);
    kiln_status st = kiln_mem_check(ctx, (double)n * (4 + KILN_GRAPH_NODE_BYTES) + (double)m * KILN_GRAPH_ARC_BYTES,
                                    "RMAT scale %d with edge factor %d (%llu vertices, %llu edges)", spec->scale,
                                    spec->edge_factor, (unsigned long long)n, (unsigned long long)m);
    if (st != KILN_OK) return st;
    uint32_t *perm = malloc(n * sizeof *perm);
    out->src = malloc(m * sizeof *out->src);
    out->dst = malloc(m * sizeof *out->dst);
    if (!perm || !out->src || !out->dst) {
        free(perm);
        kiln_edges_free(out);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu RMAT edges", (unsigned long long)m);
    }
    st = kiln_rmat_permutation_cpu(ctx, spec, perm);
    if (st != KILN_OK) {
        free(perm);
        kiln_edges_free(out);
        return st;
    }
    const int64_t mm = (int64_t)m;
    for (int64_t c0 = 0; c0 < mm; c0 += RMAT_CHUNK) {
        if (rmat_poll(ctx, "rmat", "edges", (uint64_t)c0, m)) {
            free(perm);
            kiln_edges_free(out);
            return kiln_interrupted(ctx);
        }
        const int64_t c1 = chunk_end(c0, mm);
#pragma omp parallel for num_threads(threads) schedule(static, 65536)
        for (int64_t e = c0; e < c1; e++) {
            uint32_t s, d;
            kiln_rmat_edge(spec, (uint64_t)e, &s, &d);
            out->src[e] = perm[s];
            out->dst[e] = perm[d];
        }
    }
    free(perm);
    out->count = m;
    out->n = n;
    return KILN_OK;
}

double kiln_rmat_weight(uint64_t seed, uint32_t u, uint32_t v)
{
    /* a third stream beside the edge (2 seed + 1) and permutation (2 seed + 2) bases; the top 53
     * bits of the draw, plus one, over 2^53: exactly representable and never 0 */
    const uint64_t base = kiln_splitmix64(2 * seed + 3);
    const uint64_t x = kiln_splitmix64(base + ((uint64_t)u << 32 | v));
    return (double)((x >> 11) + 1) * 0x1p-53;
}

kiln_status kiln_rmat_weights(kiln_ctx *ctx, uint64_t seed, int undirected, kiln_graph *g)
{
    kiln_status st = kiln_rmat_edge_weights(ctx, seed, undirected, g);
    if (st != KILN_OK) return st;
    kiln_ctx_report(ctx, "weights", "edges", g->m, g->m);
    if (kiln_ctx_interrupt_requested(ctx)) return kiln_interrupted(ctx);
    return kiln_graph_out_weights(ctx, g);
}

kiln_status kiln_rmat_edge_weights(kiln_ctx *ctx, uint64_t seed, int undirected, kiln_graph *g)
{
    const int threads = kiln_graph_threads_bulk(ctx, g->m);
    double *w = malloc((g->m ? g->m : 1) * sizeof *w);
    if (!w) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu RMAT edge weights", (unsigned long long)g->m);
    const int64_t n = (int64_t)g->n;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4096)
    for (int64_t v = 0; v < n; v++) {
        for (uint64_t j = g->offsets[v]; j < g->offsets[v + 1]; j++) {
            uint32_t u = g->sources[j], t = (uint32_t)v;
            /* an undirected edge weighs the same both ways */
            if (undirected && u > t) w[j] = kiln_rmat_weight(seed, t, u);
            else w[j] = kiln_rmat_weight(seed, u, t);
        }
    }
    free(g->weights);
    g->weights = w;
    return KILN_OK;
}
