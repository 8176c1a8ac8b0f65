/* Merkle dispatch: validates the leaves, builds on the chosen backend, and re-checks a GPU's tree
 * on the CPU before reporting it. A full re-check would cost as much as building on the CPU, so
 * the check is partial but aimed: the top of the tree (from the first level of at most TOP_NODES
 * nodes up to the root) is recomputed from the device's nodes; below it, the first and last node
 * of every level (where block boundaries and the odd-level rule bite) and SAMPLES random nodes
 * are checked against their children. */
#include <stdlib.h>
#include <string.h>

#include "../merkle/merkle_internal.h"
#include "../prim/goldilocks.h"
#include "../core/bench.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../core/clock.h"

#define NODE KILN_MERKLE_NODE_SIZE
#define TOP_NODES 256
#define SAMPLES 64
#define DEFAULT_TPB 256
#define DEFAULT_K 3

static kiln_status check_opts(kiln_ctx *ctx, const kiln_merkle_opts *o, kiln_gpu_merkle_cfg *cfg)
{
    kiln_merkle_opts d = {KILN_MERKLE_AUTO, 0, 0, 0};
    if (!o) o = &d;
    if (o->method != KILN_MERKLE_AUTO && o->method != KILN_MERKLE_LEVELS && o->method != KILN_MERKLE_SUBTREES)
        return kiln_fail(ctx, KILN_ERR_INPUT, "unknown merkle method %d", (int)o->method);
    if (o->subtree_log2 < 0 || o->subtree_log2 > 12)
        return kiln_fail(ctx, KILN_ERR_INPUT, "subtree height k = %d out of range 1..12", o->subtree_log2);
    int tpb = o->threads_per_block;
    if (tpb != 0 && (tpb < 32 || tpb > 1024 || tpb % 32 != 0))
        return kiln_fail(ctx, KILN_ERR_INPUT, "threads per block %d must be a multiple of 32 in 32..1024", tpb);
    cfg->method = o->method == KILN_MERKLE_LEVELS ? KILN_MERKLE_LEVELS : KILN_MERKLE_SUBTREES;
    cfg->k = o->subtree_log2 ? o->subtree_log2 : DEFAULT_K;
    cfg->tpb = tpb ? tpb : DEFAULT_TPB;
    cfg->graph = o->graph != 0;
    return KILN_OK;
}

/* Nodes of a tree built on the GPU: from the host copy when there is one, else from the device. */
typedef struct node_source {
    kiln_ctx *ctx;
    const uint8_t *host;
} node_source;

static kiln_status read_nodes(node_source *s, uint64_t first, uint64_t count, uint8_t *out)
{
    if (s->host) {
        memcpy(out, s->host + NODE * first, (size_t)count * NODE);
        return KILN_OK;
    }
    kiln_gpu *g;
    kiln_status st = kiln_ctx_gpu(s->ctx, 0, &g);
    if (st != KILN_OK) return st;
    return s->ctx->gpu->merkle_read(g, first, count, out);
}

/* Node i of level l (l >= 1) against its children. */
static kiln_status check_node(node_source *s, const kiln_merkle_kind *kind, uint64_t n, int l, uint64_t i)
{
    uint8_t kids[2 * NODE], parent[NODE], want[NODE];
    uint64_t below = kiln_merkle_level_size(n, l - 1), left = 2 * i;
    int pair = left + 1 < below;
    kiln_status st = read_nodes(s, kiln_merkle_level_offset(n, l - 1) + left, pair ? 2 : 1, kids);
    if (st == KILN_OK) st = read_nodes(s, kiln_merkle_level_offset(n, l) + i, 1, parent);
    if (st != KILN_OK) return st;
    kiln_merkle_merge_bytes(kind, kids, pair ? kids + NODE : kids, want);
    if (memcmp(want, parent, NODE) != 0)
        return kiln_fail(s->ctx, KILN_ERR_DEVICE, "GPU Merkle tree is wrong: level %d node %llu differs from the CPU's",
                         l, (unsigned long long)i);
    return KILN_OK;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static kiln_status check_gpu_tree(kiln_ctx *ctx, const kiln_merkle_kind *kind, uint64_t n, const uint8_t *host_tree,
                                  uint8_t root[32])
{
    node_source src = {ctx, host_tree};
    int levels = kiln_merkle_levels(n), top = 0;
    while (kiln_merkle_level_size(n, top) > TOP_NODES) top++;
    uint64_t first = kiln_merkle_level_offset(n, top), count = kiln_merkle_tree_size(n) - first;
    uint8_t *dev = malloc((size_t)count * NODE), *cpu = malloc((size_t)count * NODE);
    kiln_status st = dev && cpu ? KILN_OK : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    if (st == KILN_OK) st = read_nodes(&src, first, count, dev);
    if (st == KILN_OK) {
        /* levels top.. of this tree are the whole tree over level top's nodes */
        uint64_t m = kiln_merkle_level_size(n, top);
        memcpy(cpu, dev, (size_t)m * NODE);
        kiln_merkle_fill_levels(kind, cpu, m, 0, 1);
        for (uint64_t i = m; i < count && st == KILN_OK; i++) {
            if (memcmp(cpu + NODE * i, dev + NODE * i, NODE) != 0)
                st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU Merkle tree is wrong: node %llu of the top %d levels differs",
                               (unsigned long long)i, levels - top);
        }
        if (st == KILN_OK) memcpy(root, cpu + NODE * (count - 1), NODE);
    }
    free(dev);
    free(cpu);
    uint64_t seed = (uint64_t)(kiln_now() * 1e9) ^ n;
    for (int l = 1; l <= top && st == KILN_OK; l++) {
        uint64_t size = kiln_merkle_level_size(n, l);
        st = check_node(&src, kind, n, l, 0);
        if (st == KILN_OK) st = check_node(&src, kind, n, l, size - 1);
    }
    for (int k = 0; k < SAMPLES && top > 0 && st == KILN_OK; k++) {
        int l = 1 + (int)(splitmix(&seed) % (uint64_t)top);
        st = check_node(&src, kind, n, l, splitmix(&seed) % kiln_merkle_level_size(n, l));
    }
    return st;
}

static kiln_status check_args(kiln_ctx *ctx, kiln_merkle_algo algo, uint64_t n, const kiln_merkle_kind **kind)
{
    kiln_status st = kiln_merkle_kind_get(ctx, algo, kind);
    if (st != KILN_OK) return st;
    if (n == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "a Merkle tree needs at least one leaf");
    if (n > (UINT64_C(1) << 40))
        return kiln_fail(ctx, KILN_ERR_INPUT, "%llu leaves is more than kiln's limit of 2^40",
                         (unsigned long long)n);
    return KILN_OK;
}

kiln_status kiln_merkle_build(kiln_ctx *ctx, kiln_merkle_algo algo, const uint8_t *leaves, uint64_t n,
                              const kiln_merkle_opts *opts, uint8_t root[32], uint8_t *tree)
{
    const kiln_merkle_kind *kind = NULL;
    kiln_gpu_merkle_cfg cfg;
    kiln_status st = check_args(ctx, algo, n, &kind);
    if (st != KILN_OK) return st;
    if (!leaves || !root) return kiln_fail(ctx, KILN_ERR_INPUT, "missing leaves or root buffer");
    if ((st = check_opts(ctx, opts, &cfg)) != KILN_OK) return st;
    if ((st = kiln_merkle_check_nodes(ctx, kind, leaves, n, "leaf")) != KILN_OK) return st;
    if (!ctx || ctx->backend == KILN_BACKEND_CPU)
        return kiln_merkle_build_cpu(ctx, kind, leaves, n, ctx ? ctx->threads : 0, root, tree);

    kiln_gpu *g;
    if ((st = kiln_ctx_gpu(ctx, 0, &g)) != KILN_OK) return st;
    int launches;
    float ms;
    const uint64_t merges = kiln_merkle_merges(n);
    st = ctx->gpu->merkle_upload(g, leaves, n);
    if (st == KILN_OK) {
        kiln_ctx_report(ctx, "merkle", "merges", 0, merges);
        st = kiln_ctx_poll(ctx);
    }
    if (st == KILN_OK) st = ctx->gpu->merkle_build(g, algo, n, &cfg, &launches, &ms);
    if (st == KILN_OK) {
        kiln_ctx_report(ctx, "merkle", "merges", merges, merges);
        st = kiln_ctx_poll(ctx);
    }
    if (st != KILN_OK) return st;
    if (tree) {
        memcpy(tree, leaves, (size_t)n * NODE);
        st = ctx->gpu->merkle_read(g, n, kiln_merkle_tree_size(n) - n, tree + NODE * n);
        if (st != KILN_OK) return st;
    }
    return check_gpu_tree(ctx, kind, n, tree, root);
}

static kiln_status bench_cpu(kiln_ctx *ctx, const kiln_merkle_kind *kind, uint64_t n, int reps, double *times)
{
    uint8_t *leaves = malloc((size_t)n * NODE), root[NODE];
    if (!leaves) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu leaves", (unsigned long long)n);
    uint64_t seed = 1;
    for (uint64_t i = 0; i < 4 * n; i++) {
        uint64_t v = splitmix(&seed);
        if (kind->field_elements && v >= KILN_GL_P) v -= KILN_GL_P;
        for (int b = 0; b < 8; b++) leaves[8 * i + (uint64_t)b] = (uint8_t)(v >> (8 * b));
    }
    kiln_status st = KILN_OK;
    for (int r = 0; r < reps && st == KILN_OK; r++) {
        double t = kiln_now();
        st = kiln_merkle_build_cpu(ctx, kind, leaves, n, ctx->threads, root, NULL);
        times[r] = kiln_now() - t;
    }
    free(leaves);
    return st;
}

kiln_status kiln_merkle_bench(kiln_ctx *ctx, kiln_merkle_algo algo, uint64_t n, const kiln_merkle_opts *opts,
                              int reps, kiln_merkle_bench_result *res)
{
    const kiln_merkle_kind *kind = NULL;
    kiln_gpu_merkle_cfg cfg;
    if (!ctx || !res) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or result");
    memset(res, 0, sizeof *res);
    kiln_status st = check_args(ctx, algo, n, &kind);
    if (st != KILN_OK) return st;
    if (n < 2) return kiln_fail(ctx, KILN_ERR_INPUT, "benchmarking needs at least 2 leaves");
    if ((st = check_opts(ctx, opts, &cfg)) != KILN_OK) return st;
    if (reps <= 0) reps = 10;
    if (reps > 1000) reps = 1000;
    double *times = malloc((size_t)reps * sizeof *times);
    if (!times) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    res->leaves = n;
    if (ctx->backend == KILN_BACKEND_CPU) {
        st = bench_cpu(ctx, kind, n, reps, times);
        if (st == KILN_OK) res->seconds = kiln_median(times, (size_t)reps);
    } else {
        kiln_gpu *g;
        float ms = 0;
        uint8_t root[NODE];
        st = kiln_ctx_gpu(ctx, 0, &g);
        if (st == KILN_OK) st = ctx->gpu->merkle_random(g, n, 0x6b696c6e, kind->field_elements);
        /* the first build warms up (module load, graph capture) and is not counted */
        for (int r = -1; r < reps && st == KILN_OK; r++) {
            kiln_ctx_report(ctx, "bench", "runs", (uint64_t)(r + 1), (uint64_t)reps + 1);
            if ((st = kiln_ctx_poll(ctx)) != KILN_OK) break;
            st = ctx->gpu->merkle_build(g, algo, n, &cfg, &res->launches, &ms);
            if (r >= 0) times[r] = ms * 1e-3;
        }
        if (st == KILN_OK && (st = check_gpu_tree(ctx, kind, n, NULL, root)) == KILN_OK) {
            res->seconds = kiln_median(times, (size_t)reps);
            for (int r = -1; r < reps && st == KILN_OK; r++) {
                kiln_ctx_report(ctx, "bench", "runs", (uint64_t)(r + 1), (uint64_t)reps + 1);
                if ((st = kiln_ctx_poll(ctx)) != KILN_OK) break;
                st = ctx->gpu->merkle_raw(g, algo, n, cfg.tpb, &ms);
                if (r >= 0) times[r] = ms * 1e-3;
            }
            if (st == KILN_OK) res->raw_rate = (double)((n + 1) / 2) / kiln_median(times, (size_t)reps);
        }
    }
    free(times);
    if (st == KILN_OK && res->seconds > 0) res->rate = (double)(n - 1) / res->seconds;
    return st;
}
