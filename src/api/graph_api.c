/* Public graph entry points: the graph layer loads or generates, the API builds the CSR on the CPU
 * threads or, where the device policy (kiln_ctx_pick) says so, on the GPU. Weighted edge lists are
 * always built on the CPU (the GPU build does not carry weights); RMAT weights are a function of
 * the final CSR, so they are assigned after either device's build. */
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/gpu.h"
#include "../core/mem_limit.h"
#include "../graph/graph.h"
#include "../core/clock.h"

static void take_gpu_csr(kiln_graph *g, kiln_gpu_csr *c, double t0)
{
    kiln_graph_take_csr(g, c->n, c->m, c->offsets, c->sources, c->outdeg);
    g->info.edges_read = c->edges_read;
    g->info.self_loops_removed = c->self_loops_removed;
    g->info.duplicates_removed = c->duplicates_removed;
    g->info.build_seconds = kiln_now() - t0;
    g->info.built_on_gpu = 1;
}

/* Whether the device build of count edges fits the first GPU: two 8-byte keys an edge (both
 * directions when undirected), then the CSR beside them, within its free memory (mem_info; OpenCL's
 * is an estimate), and the keys within its largest buffer where the backend caps one (OpenCL's
 * CL_DEVICE_MAX_MEM_ALLOC_SIZE); else the CPU threads build it (a device set uploads each device's
 * rows of the host CSR to it, so no GPU holds the whole). */
static int fits_first_gpu(kiln_ctx *ctx, kiln_gpu *gpu, uint64_t count, uint64_t n, unsigned flags)
{
    const uint64_t K = count * ((flags & KILN_GRAPH_UNDIRECTED) ? 2u : 1u);
    const uint64_t cap = ctx->gpu->graph && ctx->gpu->graph->max_buffer ? ctx->gpu->graph->max_buffer(gpu) : 0;
    if (cap && (8 * K > cap || 8 * (n + 1) > cap)) return 0;
    uint64_t free_b = 0, total_b = 0;
    if (!ctx->gpu->mem_info || ctx->gpu->mem_info(gpu, &free_b, &total_b) != KILN_OK) return 1;
    return 20 * K + K / 16 + 24 * n + 8 * count + (UINT64_C(64) << 20) < free_b;
}

static kiln_status build(kiln_ctx *ctx, const kiln_edges *e, const double *w, unsigned flags, kiln_graph *g)
{
    if (w) return kiln_csr_build_cpu_weighted(ctx, e, w, flags, g);
    if (kiln_ctx_pick(ctx, KILN_KIND_GRAPH, e->count) != KILN_BACKEND_CPU) {
        kiln_gpu *gpu;
        kiln_status st = kiln_ctx_gpu(ctx, 0, &gpu);
        if (st != KILN_OK) return st;
        if (!ctx->gpu->graph || !ctx->gpu->graph->csr_from_edges || !fits_first_gpu(ctx, gpu, e->count, e->n, flags))
            return kiln_csr_build_cpu(ctx, e, flags, g);
        kiln_gpu_csr c;
        double t0 = kiln_now();
        st = ctx->gpu->graph->csr_from_edges(gpu, e->src, e->dst, e->count, e->n, (flags & KILN_GRAPH_UNDIRECTED) != 0,
                                      (flags & KILN_GRAPH_DROP_SELF_LOOPS) != 0, &c);
        if (st != KILN_OK) return st;
        take_gpu_csr(g, &c, t0);
        kiln_graph_finish_info(g, kiln_graph_threads_bulk(ctx, g->n + g->m));
        /* the device build is a few CUB passes of under a second: a signal is honoured after it */
        kiln_ctx_report(ctx, "csr build", "passes", 1, 1);
        return kiln_ctx_poll(ctx);
    }
    return kiln_csr_build_cpu(ctx, e, flags, g);
}

static kiln_status check_flags(kiln_ctx *ctx, unsigned flags)
{
    if (flags & ~(KILN_GRAPH_UNDIRECTED | KILN_GRAPH_DROP_SELF_LOOPS | KILN_GRAPH_WEIGHTED))
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown graph flags 0x%x", flags);
    return KILN_OK;
}

/* The end of every entry point that makes a graph: *out = g when st is KILN_OK, else g freed. */
static kiln_status hand_out(kiln_status st, kiln_graph *g, kiln_graph **out)
{
    if (st != KILN_OK) {
        kiln_graph_free(g);
        return st;
    }
    *out = g;
    return KILN_OK;
}

/* Whether weight (NULL: none) is finite and >= 0 on edge i; else the error naming it. */
static kiln_status check_weight(kiln_ctx *ctx, const uint64_t *src, const uint64_t *dst, const double *weight, size_t i)
{
    if (weight && (!(weight[i] >= 0) || !isfinite(weight[i])))
        return kiln_fail(ctx, KILN_ERR_INPUT, "weight[%zu] of edge %llu -> %llu is %g: weights must be finite and >= 0",
                         i, (unsigned long long)src[i], (unsigned long long)dst[i], weight[i]);
    return KILN_OK;
}

/* What both edge-list entry points need besides their edge arrays (edges_ok: allocated): the
 * handle and, weighted, the CSR's weights, from the caller's (NULL: 1 an edge; -0 -> +0). KILN_OK,
 * or out of memory with *w and *g NULL. */
static kiln_status alloc_graph(kiln_ctx *ctx, int edges_ok, int weighted, const double *weight, size_t count,
                               double **w, kiln_graph **g)
{
    *w = weighted ? malloc((count ? count : 1) * sizeof **w) : NULL;
    *g = kiln_graph_alloc();
    if (!edges_ok || !*g || (weighted && !*w)) {
        free(*w);
        free(*g);
        *w = NULL;
        *g = NULL;
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %zu edges", count);
    }
    for (size_t i = 0; *w && i < count; i++) (*w)[i] = weight ? weight[i] + 0.0 : 1.0;
    return KILN_OK;
}

kiln_status kiln_graph_load(kiln_ctx *ctx, const char *path, kiln_graph_format format, unsigned flags,
                            kiln_graph **out)
{
    if (!out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing output");
    *out = NULL;
    if (!path) return kiln_fail(ctx, KILN_ERR_INPUT, "missing graph path");
    if ((unsigned)format > KILN_GRAPH_CSR) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown graph format %d", format);
    kiln_status st = check_flags(ctx, flags);
    if (st != KILN_OK) return st;
    kiln_graph *g = kiln_graph_alloc();
    if (!g) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    st = kiln_graph_load_input(ctx, path, format, flags, build, g);
    return hand_out(st, g, out);
}

/* Both edge-list entry points: weight NULL with KILN_GRAPH_WEIGHTED weighs every edge 1. */
static kiln_status from_edges(kiln_ctx *ctx, const uint64_t *src, const uint64_t *dst, const double *weight,
                              size_t count, unsigned flags, kiln_graph **out)
{
    if (!out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing output");
    *out = NULL;
    if (count && (!src || !dst)) return kiln_fail(ctx, KILN_ERR_INPUT, "missing edge arrays");
    if (count == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "no edges");
    kiln_status st = check_flags(ctx, flags);
    if (st != KILN_OK) return st;
    const int weighted = (flags & KILN_GRAPH_WEIGHTED) != 0;
    for (size_t i = 0; weight && i < count; i++)
        if ((st = check_weight(ctx, src, dst, weight, i)) != KILN_OK) return st;
    kiln_raw_edges raw;
    memset(&raw, 0, sizeof raw);
    raw.src = malloc(count * sizeof *raw.src);
    raw.dst = malloc(count * sizeof *raw.dst);
    double *w;
    kiln_graph *g;
    if ((st = alloc_graph(ctx, raw.src && raw.dst, weighted, weight, count, &w, &g)) != KILN_OK) {
        kiln_raw_edges_free(&raw);
        return st;
    }
    memcpy(raw.src, src, count * sizeof *src);
    memcpy(raw.dst, dst, count * sizeof *dst);
    raw.count = raw.cap = count;
    kiln_edges e;
    st = kiln_ids_remap(ctx, &raw, &e, &g->ids);
    kiln_raw_edges_free(&raw);
    if (st == KILN_OK) st = build(ctx, &e, w, flags, g);
    kiln_edges_free(&e);
    free(w);
    return hand_out(st, g, out);
}

kiln_status kiln_graph_from_edges(kiln_ctx *ctx, const uint64_t *src, const uint64_t *dst, size_t count,
                                  unsigned flags, kiln_graph **out)
{
    return from_edges(ctx, src, dst, NULL, count, flags, out);
}

kiln_status kiln_graph_from_weighted_edges(kiln_ctx *ctx, const uint64_t *src, const uint64_t *dst, const double *weight,
                                           size_t count, unsigned flags, kiln_graph **out)
{
    if (count && !weight) {
        if (out) *out = NULL;
        return kiln_fail(ctx, KILN_ERR_INPUT, "missing weight array");
    }
    return from_edges(ctx, src, dst, weight, count, flags | KILN_GRAPH_WEIGHTED, out);
}

/* Node ids are the indices 0..nodes-1 themselves: no id map, and ids no edge names are vertices
 * too (isolated, dangling), as the nodes of a NetworkX graph without edges are. */
kiln_status kiln_graph_from_edges_n(kiln_ctx *ctx, const uint64_t *src, const uint64_t *dst, const double *weight,
                                    size_t count, uint64_t nodes, unsigned flags, kiln_graph **out)
{
    if (!out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing output");
    *out = NULL;
    if (count && (!src || !dst)) return kiln_fail(ctx, KILN_ERR_INPUT, "missing edge arrays");
    if (nodes == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "no nodes");
    if (nodes > UINT32_MAX)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%llu nodes: at most %llu", (unsigned long long)nodes,
                         (unsigned long long)UINT32_MAX);
    kiln_status st = check_flags(ctx, flags);
    if (st != KILN_OK) return st;
    if (weight) flags |= KILN_GRAPH_WEIGHTED;
    const double arcs = (double)count * ((flags & KILN_GRAPH_UNDIRECTED) ? 2 : 1);
    st = kiln_mem_check(ctx, (double)nodes * KILN_GRAPH_NODE_BYTES + arcs * KILN_GRAPH_ARC_BYTES,
                        "%llu nodes and %zu edges", (unsigned long long)nodes, count);
    if (st != KILN_OK) return st;
    for (size_t i = 0; i < count; i++) {
        if (src[i] >= nodes || dst[i] >= nodes)
            return kiln_fail(ctx, KILN_ERR_INPUT, "edge %zu: %llu -> %llu names a node outside 0..%llu", i,
                             (unsigned long long)src[i], (unsigned long long)dst[i], (unsigned long long)nodes - 1);
        if ((st = check_weight(ctx, src, dst, weight, i)) != KILN_OK) return st;
    }
    const int weighted = (flags & KILN_GRAPH_WEIGHTED) != 0;
    kiln_edges e = {.count = count, .n = nodes};
    e.src = malloc((count ? count : 1) * sizeof *e.src);
    e.dst = malloc((count ? count : 1) * sizeof *e.dst);
    double *w;
    kiln_graph *g;
    if ((st = alloc_graph(ctx, e.src && e.dst, weighted, weight, count, &w, &g)) != KILN_OK) {
        kiln_edges_free(&e);
        return st;
    }
    for (size_t i = 0; i < count; i++) {
        e.src[i] = (uint32_t)src[i];
        e.dst[i] = (uint32_t)dst[i];
    }
    st = build(ctx, &e, w, flags, g);
    kiln_edges_free(&e);
    free(w);
    return hand_out(st, g, out);
}

/* RMAT on a device set: each device builds the CSR of an equal range of rows from every edge it
 * draws itself (the labels are a random permutation, so equal ranges draw about equal edges), and
 * the host joins the parts: offsets shifted, sources in row order, out-degrees summed. No device
 * holds more than its rows' edges. */
typedef struct rmat_parts {
    kiln_ctx *ctx;
    const kiln_rmat_spec *spec;
    int undirected;
    uint64_t bound[KILN_MAX_GPUS + 1];
    kiln_gpu_csr part[KILN_MAX_GPUS];
} rmat_parts;

static kiln_status rmat_part_task(void *arg, int i, kiln_gpu *gpu)
{
    rmat_parts *r = arg;
    return r->ctx->gpu->graph->rmat_part_csr(gpu, r->spec, r->undirected, r->bound[i], r->bound[i + 1], &r->part[i]);
}

static kiln_status rmat_on_devices(kiln_ctx *ctx, const kiln_rmat_spec *spec, int undirected, kiln_graph *g)
{
    const int k = ctx->ngpu;
    const uint64_t n = UINT64_C(1) << spec->scale;
    rmat_parts r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.spec = spec;
    r.undirected = undirected;
    for (int i = 0; i <= k; i++) r.bound[i] = n * (uint64_t)i / (uint64_t)k;
    double t0 = kiln_now();
    kiln_status st = kiln_gpu_each(ctx, rmat_part_task, &r);
    uint64_t m = 0, dups = 0;
    for (int i = 0; i < k; i++) m += r.part[i].m, dups += r.part[i].duplicates_removed;
    if (st == KILN_OK) {
        g->offsets = malloc((n + 1) * sizeof *g->offsets);
        g->sources = malloc((m ? m : 1) * sizeof *g->sources);
        g->outdeg = calloc(n ? n : 1, sizeof *g->outdeg);
        if (!g->offsets || !g->sources || !g->outdeg)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory joining the %llu edges of the devices' parts",
                           (unsigned long long)m);
    }
    if (st == KILN_OK) {
        uint64_t at[KILN_MAX_GPUS];
        at[0] = 0;
        for (int i = 1; i < k; i++) at[i] = at[i - 1] + r.part[i - 1].m;
        const int threads = kiln_graph_threads_bulk(ctx, n + m);
        /* the parts' sources side by side, and their offsets from where each part starts */
#pragma omp parallel for num_threads(threads < k ? threads : k) schedule(static, 1)
        for (int i = 0; i < k; i++) {
            const kiln_gpu_csr *p = &r.part[i];
            memcpy(g->sources + at[i], p->sources, p->m * sizeof *g->sources);
            for (uint64_t v = 0; v < r.bound[i + 1] - r.bound[i]; v++) g->offsets[r.bound[i] + v] = at[i] + p->offsets[v];
        }
        g->offsets[n] = m;
        const int64_t nn = (int64_t)n;
#pragma omp parallel for num_threads(threads) schedule(static, 65536)
        for (int64_t v = 0; v < nn; v++) {
            uint32_t d = 0;
            for (int i = 0; i < k; i++) d += r.part[i].outdeg[v];
            g->outdeg[v] = d;
        }
        g->n = n;
        g->m = m;
        g->info.edges_read = r.part[0].edges_read;
        g->info.self_loops_removed = r.part[0].self_loops_removed;
        g->info.duplicates_removed = dups;
        g->info.build_seconds = kiln_now() - t0;
        g->info.built_on_gpu = 1;
    }
    for (int i = 0; i < k; i++) {
        free(r.part[i].offsets);
        free(r.part[i].sources);
        free(r.part[i].outdeg);
    }
    return st;
}

kiln_status kiln_graph_rmat(kiln_ctx *ctx, int scale, int edge_factor, uint64_t seed, unsigned flags,
                            kiln_graph **out)
{
    if (!out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing output");
    *out = NULL;
    if (scale < 1 || scale > 30) return kiln_fail(ctx, KILN_ERR_INPUT, "RMAT scale %d out of range 1..30", scale);
    if (edge_factor < 1 || edge_factor > 1024)
        return kiln_fail(ctx, KILN_ERR_INPUT, "RMAT edge factor %d out of range 1..1024", edge_factor);
    kiln_status st = check_flags(ctx, flags);
    if (st != KILN_OK) return st;
    if (flags & KILN_GRAPH_WEIGHTED) {
        /* the generator's own check counts the unweighted build; this one adds the weights */
        const double n = (double)(UINT64_C(1) << scale), m = n * edge_factor;
        st = kiln_mem_check(ctx, n * (4 + KILN_GRAPH_NODE_BYTES + KILN_GRAPH_WEIGHT_NODE_BYTES) +
                                     m * (KILN_GRAPH_ARC_BYTES + KILN_GRAPH_WEIGHT_ARC_BYTES),
                            "weighted RMAT scale %d with edge factor %d", scale, edge_factor);
        if (st != KILN_OK) return st;
    }
    flags |= KILN_GRAPH_DROP_SELF_LOOPS;
    kiln_rmat_spec spec;
    kiln_rmat_spec_init(&spec, scale, edge_factor, seed);
    kiln_graph *g = kiln_graph_alloc();
    if (!g) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    const int on_gpu = ctx && ctx->backend != KILN_BACKEND_CPU && ctx->gpu->graph;
    const int on_set = on_gpu && ctx->ngpu > 1 && ctx->gpu->graph->rmat_part_csr;
    /* one device: its build where it fits (else the CPU threads), as for an edge list */
    kiln_gpu *gpu = NULL;
    int on_one = 0;
    if (on_gpu && !on_set && ctx->gpu->graph->rmat_csr) {
        st = kiln_ctx_gpu(ctx, 0, &gpu);
        on_one = st == KILN_OK && fits_first_gpu(ctx, gpu, (uint64_t)edge_factor << scale, UINT64_C(1) << scale, flags);
    }
    if (on_set) {
        st = rmat_on_devices(ctx, &spec, (flags & KILN_GRAPH_UNDIRECTED) != 0, g);
        if (st == KILN_OK) kiln_ctx_report(ctx, "rmat", "edges", g->info.edges_read, g->info.edges_read);
        if (st == KILN_OK) st = kiln_ctx_poll(ctx);
        if (st == KILN_OK && (flags & KILN_GRAPH_WEIGHTED))
            st = kiln_rmat_weights(ctx, seed, (flags & KILN_GRAPH_UNDIRECTED) != 0, g);
        if (st == KILN_OK) kiln_graph_finish_info(g, kiln_graph_threads_bulk(ctx, g->n + g->m));
    } else if (on_one) {
        kiln_gpu_csr c;
        double t0 = kiln_now();
        st = ctx->gpu->graph->rmat_csr(gpu, &spec, (flags & KILN_GRAPH_UNDIRECTED) != 0, &c);
        if (st == KILN_OK) take_gpu_csr(g, &c, t0);
        if (st == KILN_OK) kiln_ctx_report(ctx, "rmat", "edges", g->info.edges_read, g->info.edges_read);
        if (st == KILN_OK) st = kiln_ctx_poll(ctx); /* after the generation, before the weights */
        if (st == KILN_OK && (flags & KILN_GRAPH_WEIGHTED))
            st = kiln_rmat_weights(ctx, seed, (flags & KILN_GRAPH_UNDIRECTED) != 0, g);
        if (st == KILN_OK) kiln_graph_finish_info(g, kiln_graph_threads_bulk(ctx, g->n + g->m));
    } else if (st == KILN_OK) {
        /* the CPU threads, also where the device cannot hold the build */
        double t0 = kiln_now();
        kiln_edges e;
        st = kiln_rmat_edges_cpu(ctx, &spec, &e);
        if (st == KILN_OK) kiln_ctx_report(ctx, "rmat", "edges", e.count, e.count);
        if (st == KILN_OK) st = kiln_ctx_poll(ctx); /* between the generation and the build */
        if (st == KILN_OK) st = kiln_csr_build_cpu(ctx, &e, flags, g);
        kiln_edges_free(&e);
        if (st == KILN_OK && (flags & KILN_GRAPH_WEIGHTED))
            st = kiln_rmat_weights(ctx, seed, (flags & KILN_GRAPH_UNDIRECTED) != 0, g);
        g->info.build_seconds = kiln_now() - t0;
    }
    return hand_out(st, g, out);
}

kiln_status kiln_graph_save_csr(kiln_ctx *ctx, const kiln_graph *g, const char *path)
{
    if (!g || !path) return kiln_fail(ctx, KILN_ERR_INPUT, "missing graph or path");
    if (g->part) return kiln_fail(ctx, KILN_ERR_INPUT, "a graph split over processes cannot be saved as a CSR cache");
    return kiln_csr_cache_write(ctx, g, path);
}
