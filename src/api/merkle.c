/* Merkle dispatch: validates the leaves, builds on the chosen backend, and re-checks a GPU's tree
 * on the CPU before reporting it. A full re-check would cost as much as building on the CPU, so
 * the check is partial but aimed: the top of the tree (from the first level of at most TOP_NODES
 * nodes up to the root) is recomputed from the device's nodes; below it, the first and last node
 * of every level (where block boundaries and the odd-level rule bite) and SAMPLES random nodes
 * are checked against their children. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../merkle/merkle_internal.h"
#include "../prim/merkle_merge.h"
#include "../core/bench.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../core/clock.h"
#include "../core/par.h"

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
    kiln_gpu *gpu; /* the device holding the tree when there is no host copy */
} node_source;

/* Nodes idx[0..count) into out: from the device, in one round trip. */
static kiln_status gather_nodes(node_source *s, const uint64_t *idx, uint64_t count, uint8_t *out)
{
    if (s->host) {
        for (uint64_t i = 0; i < count; i++) memcpy(out + NODE * i, s->host + NODE * idx[i], NODE);
        return KILN_OK;
    }
    if (s->ctx->gpu->tree->gather) return s->ctx->gpu->tree->gather(s->gpu, idx, count, out);
    kiln_status st = KILN_OK;
    for (uint64_t i = 0; i < count && st == KILN_OK; i++) st = s->ctx->gpu->tree->read(s->gpu, idx[i], 1, out + NODE * i);
    return st;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A node below the top that is checked against its children. */
typedef struct node_check {
    int level;
    uint64_t index;
} node_check;

/* The check's CPU merges, one per chunk of a kiln_par_for: parent i of level `in` (m nodes) into
 * out, or, for the sampled nodes (in == NULL), check c's merge of its two gathered children. */
typedef struct check_merges {
    const kiln_merkle_kind *kind;
    const uint8_t *in;
    uint64_t m;
    uint8_t *out;
    const uint8_t *kids; /* 3 nodes a check: left, right, the device's parent */
} check_merges;

static void check_merge(void *arg, uint64_t i, int slot)
{
    const check_merges *j = arg;
    (void)slot;
    if (!j->in) {
        const uint8_t *k = j->kids + 3 * NODE * i;
        kiln_merkle_merge_bytes(j->kind, k, k + NODE, j->out + NODE * i);
        return;
    }
    const uint64_t left = 2 * i, right = left + 1 < j->m ? left + 1 : left;
    kiln_merkle_merge_bytes(j->kind, j->in + NODE * left, j->in + NODE * right, j->out + NODE * i);
}

/* The check's merges on the CPU threads when the kind's merges are slow: a field merge costs the
 * CPU tens of microseconds (rp64_256: about 60 us on one core), and the check makes some 350 of
 * them after the device's last kernel (255 for the top of a tree, 96 sampled nodes at 2^24
 * leaves): some 20 ms of one core at the end of an rp64_256 build whose kernels take 200 ms, a
 * millisecond or two on the threads. A byte merge (sha256d: a microsecond) stays on the calling
 * thread, where waking others would cost more than the merges. */
static int check_threads(const kiln_ctx *ctx, const kiln_merkle_kind *kind)
{
    return kind->field_elements ? kiln_threads_auto(ctx ? ctx->threads : 0) : 1;
}

/* Levels 1.. of the tree over the m nodes at `tree` (laid out as kiln_merkle_fill_levels's), each
 * level's merges spread over the threads. */
static void check_fill_levels(const kiln_merkle_kind *kind, uint8_t *tree, uint64_t m, int threads)
{
    for (int l = 0; l + 1 < kiln_merkle_levels(m); l++) {
        const uint64_t size = kiln_merkle_level_size(m, l);
        check_merges j = {kind, tree + NODE * kiln_merkle_level_offset(m, l), size,
                          tree + NODE * kiln_merkle_level_offset(m, l + 1), NULL};
        kiln_par_for(threads, (size + 1) / 2, check_merge, &j);
    }
}

/* Every node the checks read (the top levels, then each checked node's left child, right child
 * and itself) is read in one gather, so the checks cost one round trip, not one per node. */
static kiln_status check_gpu_tree(kiln_ctx *ctx, kiln_gpu *g, const kiln_merkle_kind *kind, uint64_t n,
                                  const uint8_t *host_tree, uint8_t root[32])
{
    node_source src = {ctx, host_tree, g};
    const int threads = check_threads(ctx, kind);
    int levels = kiln_merkle_levels(n), top = 0;
    while (kiln_merkle_level_size(n, top) > TOP_NODES) top++;
    uint64_t first = kiln_merkle_level_offset(n, top), count = kiln_merkle_tree_size(n) - first;
    /* first and last node of every level below the top, then SAMPLES random nodes */
    node_check checks[2 * 64 + SAMPLES];
    int nchecks = 0;
    for (int l = 1; l <= top; l++) {
        checks[nchecks++] = (node_check){l, 0};
        checks[nchecks++] = (node_check){l, kiln_merkle_level_size(n, l) - 1};
    }
    uint64_t seed = (uint64_t)(kiln_now() * 1e9) ^ n;
    for (int k = 0; k < SAMPLES && top > 0; k++) {
        int l = 1 + (int)(splitmix(&seed) % (uint64_t)top);
        checks[nchecks++] = (node_check){l, splitmix(&seed) % kiln_merkle_level_size(n, l)};
    }
    const uint64_t total = count + 3 * (uint64_t)nchecks;
    uint64_t *idx = malloc((size_t)total * sizeof *idx);
    uint8_t *dev = malloc((size_t)total * NODE), *cpu = malloc((size_t)count * NODE);
    kiln_status st = idx && dev && cpu ? KILN_OK : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    if (st == KILN_OK) {
        for (uint64_t i = 0; i < count; i++) idx[i] = first + i;
        for (int c = 0; c < nchecks; c++) {
            const int l = checks[c].level;
            const uint64_t i = checks[c].index, below = kiln_merkle_level_size(n, l - 1), left = 2 * i;
            uint64_t *at = idx + count + 3 * (uint64_t)c;
            at[0] = kiln_merkle_level_offset(n, l - 1) + left;
            at[1] = kiln_merkle_level_offset(n, l - 1) + (left + 1 < below ? left + 1 : left);
            at[2] = kiln_merkle_level_offset(n, l) + i;
        }
        st = gather_nodes(&src, idx, total, dev);
    }
    if (st == KILN_OK) {
        /* levels top.. of this tree are the whole tree over level top's nodes */
        uint64_t m = kiln_merkle_level_size(n, top);
        memcpy(cpu, dev, (size_t)m * NODE);
        check_fill_levels(kind, cpu, m, threads);
        for (uint64_t i = m; i < count && st == KILN_OK; i++) {
            if (memcmp(cpu + NODE * i, dev + NODE * i, NODE) != 0)
                st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU Merkle tree is wrong: node %llu of the top %d levels differs",
                               (unsigned long long)i, levels - top);
        }
        if (st == KILN_OK) memcpy(root, cpu + NODE * (count - 1), NODE);
    }
    uint8_t want[(2 * 64 + SAMPLES) * NODE]; /* the sampled parents, merged on the CPU */
    if (st == KILN_OK && nchecks > 0) {
        check_merges j = {kind, NULL, 0, want, dev + NODE * count};
        kiln_par_for(threads, (uint64_t)nchecks, check_merge, &j);
    }
    for (int c = 0; c < nchecks && st == KILN_OK; c++) {
        const uint8_t *kids = dev + NODE * (count + 3 * (uint64_t)c);
        if (memcmp(want + NODE * (uint64_t)c, kids + 2 * NODE, NODE) != 0)
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU Merkle tree is wrong: level %d node %llu differs from the CPU's",
                           checks[c].level, (unsigned long long)checks[c].index);
    }
    free(idx);
    free(dev);
    free(cpu);
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

/* Leaves staged for merkle_build_staged: copied from the caller's leaves into the page-locked
 * buffer and, for a field kind, checked in the same pass (copy_leaves): the several-device build checks its leaves on the devices' threads, during the
 * copies, instead of in a pass of its own before them. A chunk is copied by `threads` threads (one
 * core's copy is slower than the link). A bad leaf sets `bad` and ends the build with no message
 * (the caller names it). */
typedef struct leaf_stage {
    kiln_ctx *ctx;
    const kiln_merkle_kind *kind;
    const uint8_t *leaves; /* the range's first leaf */
    int threads;
    int bad;
} leaf_stage;

#define CHECK_SLICE 8192 /* leaves: 256 KiB */
#define FILL_THREADS 4 /* the most threads one device's copies take in a set */
#define ONE_FILL_THREADS 8 /* and alone: one core's copy runs at a fifth of a 55 GB/s link */

/* The copy of count leaves of field elements and their check in one pass: each element loaded
 * once, stored, and compared with the field's modulus (a 64-bit element is p or more exactly when
 * adding 2^32 - 1 carries out of it). A node's words are little-endian, as the host's are where
 * this runs (copy_leaves). 1 when every element is canonical. */
static int copy_check_u64(const uint8_t *src, uint8_t *dst, uint64_t words)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < words; i++) {
        uint64_t x;
        memcpy(&x, src + 8 * i, 8);
        memcpy(dst + 8 * i, &x, 8);
        bad |= (uint64_t)(x + UINT64_C(0xFFFFFFFF) < x); /* x >= 2^64 - 2^32 + 1 */
    }
    return bad == 0;
}

static int copy_check_u32(const uint8_t *src, uint8_t *dst, uint64_t words, uint32_t p)
{
    uint32_t bad = 0;
    for (uint64_t i = 0; i < words; i++) {
        uint32_t x;
        memcpy(&x, src + 4 * i, 4);
        memcpy(dst + 4 * i, &x, 4);
        bad |= (uint32_t)(x >= p);
    }
    return bad == 0;
}

/* 1 when all count leaves were valid (and copied) */
static int copy_leaves(const kiln_merkle_kind *kind, const uint8_t *src, uint8_t *dst, uint64_t count)
{
    if (!kind->field_elements) {
        memcpy(dst, src, (size_t)count * NODE);
        return 1;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* one pass: the copy into the page-locked buffer is the check (the two-pass form below, a
     * slice's copy then its check from the cache, took twice the copy's time on one core) */
    if (kind->field_elements == KILN_NODE_GOLDILOCKS) return copy_check_u64(src, dst, count * (NODE / 8));
    if (kind->field_elements == KILN_NODE_BABYBEAR) return copy_check_u32(src, dst, count * (NODE / 4), KILN_BB_P);
    if (kind->field_elements == KILN_NODE_KOALABEAR) return copy_check_u32(src, dst, count * (NODE / 4), KILN_KB_P);
#endif
    for (uint64_t i = 0; i < count; i += CHECK_SLICE) {
        const uint64_t m = count - i < CHECK_SLICE ? count - i : CHECK_SLICE;
        memcpy(dst + NODE * i, src + NODE * i, (size_t)m * NODE);
        if (!kiln_merkle_nodes_valid(kind, dst + NODE * i, m)) return 0;
    }
    return 1;
}

static kiln_status stage_leaves(void *user, uint64_t first, uint64_t count, uint8_t *dst)
{
    leaf_stage *f = user;
    kiln_status st = kiln_ctx_poll(f->ctx);
    if (st != KILN_OK) return st;
    const uint8_t *src = f->leaves + NODE * first;
    const int t = count >= (uint64_t)f->threads * CHECK_SLICE ? f->threads : 1;
    int ok = 1;
    if (t == 1) {
        ok = copy_leaves(f->kind, src, dst, count);
    } else {
#pragma omp parallel for num_threads(t) schedule(static, 1) reduction(&& : ok)
        for (int p = 0; p < t; p++) {
            const uint64_t a = count * (uint64_t)p / (uint64_t)t, b = count * (uint64_t)(p + 1) / (uint64_t)t;
            ok = copy_leaves(f->kind, src + NODE * a, dst + NODE * a, b - a) && ok;
        }
    }
    if (!ok) {
        f->bad = 1;
        return KILN_ERR_INPUT;
    }
    return KILN_OK;
}

/* The tree of leaves[0..n) on GPU g, checked, its root in root and, when tree is not NULL, all
 * its nodes (kiln_merkle_tree_size(n) * 32 bytes) in tree. With stage, the leaves go through
 * the tree table's build_staged (copied in chunks through page-locked buffers, overlapped with the
 * build) where the backend has it, instead of one upload from the caller's memory. */
static kiln_status tree_on(kiln_ctx *ctx, kiln_gpu *g, kiln_merkle_algo algo, const kiln_merkle_kind *kind,
                           const kiln_gpu_merkle_cfg *cfg, const uint8_t *leaves, uint64_t n, uint8_t root[32],
                           uint8_t *tree, leaf_stage *stage)
{
    int launches;
    float ms;
    kiln_status st;
    if (stage && ctx->gpu->tree->build_staged) {
        st = ctx->gpu->tree->build_staged(g, algo, n, cfg, stage_leaves, stage, &launches);
    } else if (stage && !kiln_merkle_nodes_valid(kind, leaves, n)) {
        stage->bad = 1;
        st = KILN_ERR_INPUT;
    } else {
        st = ctx->gpu->tree->upload(g, leaves, n);
        if (st == KILN_OK) st = kiln_ctx_poll(ctx);
        if (st == KILN_OK) st = ctx->gpu->tree->build(g, algo, n, cfg, &launches, &ms);
    }
    if (st == KILN_OK) st = kiln_ctx_poll(ctx);
    if (st != KILN_OK) return st;
    if (tree) {
        memcpy(tree, leaves, (size_t)n * NODE);
        st = ctx->gpu->tree->read(g, n, kiln_merkle_tree_size(n) - n, tree + NODE * n);
        if (st != KILN_OK) return st;
    }
    return check_gpu_tree(ctx, g, kind, n, tree, root);
}

static kiln_status build_on_gpu(kiln_ctx *ctx, kiln_merkle_algo algo, const kiln_merkle_kind *kind,
                                const kiln_gpu_merkle_cfg *cfg, const uint8_t *leaves, uint64_t n, uint8_t root[32],
                                uint8_t *tree)
{
    kiln_gpu *g;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &g);
    if (st != KILN_OK) return st;
    const uint64_t merges = kiln_merkle_merges(n);
    kiln_ctx_report(ctx, "merkle", "merges", 0, merges);
    /* staged as a device set's ranges are (tree_on): from pageable memory a copy runs at a sixth
     * of the link, and the leaves are checked as they are copied rather than in a pass before */
    int fill = ctx->threads > 0 ? ctx->threads : omp_get_num_procs();
    leaf_stage stage = {ctx, kind, leaves, fill < 1 ? 1 : fill > ONE_FILL_THREADS ? ONE_FILL_THREADS : fill, 0};
    st = tree_on(ctx, g, algo, kind, cfg, leaves, n, root, tree, &stage);
    if (stage.bad) { /* the message of the CPU build: the first bad leaf */
        st = kiln_merkle_check_nodes(ctx, kind, leaves, n, "leaf");
        if (st == KILN_OK) st = kiln_fail(ctx, KILN_ERR_INPUT, "a leaf changed while the tree was built");
    }
    if (st == KILN_OK) kiln_ctx_report(ctx, "merkle", "merges", merges, merges);
    return st;
}

/* Several GPUs: the leaves cut into aligned ranges of S = 2^h leaves (the last one shorter), one
 * subtree per device. Levels 0..h of a subtree are the matching slices of the whole tree's levels
 * (each range starts at an even node of every level below h, so the odd-node rule of the last
 * range falls where the whole tree's does), and the levels above h are the tree over the
 * subtrees' roots, built on the CPU. Each device stages its range through page-locked buffers
 * (merkle_build_staged), checking the leaves as it copies them. */
typedef struct devices_tree {
    kiln_ctx *ctx;
    kiln_merkle_algo algo;
    const kiln_merkle_kind *kind;
    const kiln_gpu_merkle_cfg *cfg;
    const uint8_t *leaves;
    uint64_t n, S;
    int fill_threads; /* each device's staging copy */
    uint8_t *roots; /* one node per range */
    uint8_t *subtrees[KILN_MAX_GPUS]; /* each range's nodes, when the whole tree is asked for */
    int bad_leaf[KILN_MAX_GPUS]; /* the range has a leaf that is not a valid node */
} devices_tree;

static uint64_t range_leaves(const devices_tree *d, int i)
{
    uint64_t first = d->S * (uint64_t)i;
    return first >= d->n ? 0 : d->n - first < d->S ? d->n - first : d->S;
}

static kiln_status subtree_task(void *arg, int i, kiln_gpu *g)
{
    devices_tree *d = arg;
    uint64_t r = range_leaves(d, i);
    if (r == 0) return KILN_OK;
    uint8_t *node = d->roots + NODE * i, pair[NODE];
    const uint8_t *first = d->leaves + NODE * d->S * (uint64_t)i;
    kiln_status st = KILN_OK;
    if (r == 1) { /* a lone leaf is its own tree */
        if (!kiln_merkle_nodes_valid(d->kind, first, 1)) {
            d->bad_leaf[i] = 1;
            return KILN_ERR_INPUT;
        }
        memcpy(node, first, NODE);
        if (d->subtrees[i]) memcpy(d->subtrees[i], first, NODE);
    } else {
        leaf_stage stage = {d->ctx, d->kind, first, d->fill_threads, 0};
        st = tree_on(d->ctx, g, d->algo, d->kind, d->cfg, first, r, node, d->subtrees[i], &stage);
        d->bad_leaf[i] = stage.bad;
    }
    /* a shorter last range tops out below level h: the whole tree pairs its lone node with
     * itself up to there (it is the last node of an odd level) */
    for (int l = kiln_merkle_levels(r); st == KILN_OK && (uint64_t)1 << (l - 1) < d->S; l++) {
        kiln_merkle_merge_bytes(d->kind, node, node, pair);
        memcpy(node, pair, NODE);
    }
    return st;
}

static kiln_status build_on_devices(kiln_ctx *ctx, kiln_merkle_algo algo, const kiln_merkle_kind *kind,
                                    const kiln_gpu_merkle_cfg *cfg, const uint8_t *leaves, uint64_t n, uint8_t root[32],
                                    uint8_t *tree)
{
    const int k = ctx->ngpu;
    uint64_t S = 1;
    int h = 0;
    while (S * (uint64_t)k < n) S <<= 1, h++;
    /* the cores (or --threads) shared among the devices' copies */
    int fill = (ctx->threads > 0 ? ctx->threads : omp_get_num_procs()) / k;
    fill = fill < 1 ? 1 : fill > FILL_THREADS ? FILL_THREADS : fill;
    devices_tree d = {ctx, algo, kind, cfg, leaves, n, S, fill, NULL, {0}, {0}};
    const int ranges = (int)((n + S - 1) / S);
    const uint64_t top_n = (uint64_t)ranges;
    /* the tree over the ranges' roots: its level 0 is the roots */
    uint8_t *top = malloc((size_t)kiln_merkle_tree_size(top_n) * NODE);
    kiln_status st = top ? KILN_OK : kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory");
    d.roots = top;
    for (int i = 0; i < ranges && tree && st == KILN_OK; i++)
        if (!(d.subtrees[i] = malloc((size_t)kiln_merkle_tree_size(range_leaves(&d, i)) * NODE)))
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the subtrees");
    const uint64_t merges = kiln_merkle_merges(n);
    kiln_ctx_report(ctx, "merkle", "merges", 0, merges);
    if (st == KILN_OK) st = kiln_gpu_each(ctx, subtree_task, &d);
    for (int i = 0; i < ranges && st != KILN_OK; i++) {
        if (!d.bad_leaf[i]) continue;
        /* the message the one-device build gives: the first bad leaf of all */
        st = kiln_merkle_check_nodes(ctx, kind, leaves, n, "leaf");
        if (st == KILN_OK) st = kiln_fail(ctx, KILN_ERR_INPUT, "a leaf changed while the tree was built");
        break;
    }
    if (st == KILN_OK) {
        kiln_merkle_fill_levels(kind, top, top_n, 0, 1);
        memcpy(root, top + NODE * (kiln_merkle_tree_size(top_n) - 1), NODE);
        kiln_ctx_report(ctx, "merkle", "merges", merges, merges);
    }
    if (st == KILN_OK && tree) {
        /* each range's level l into the whole tree's level l, at the range's first node there */
        for (int i = 0; i < ranges; i++) {
            uint64_t r = range_leaves(&d, i);
            const int lv = kiln_merkle_levels(r);
            for (int l = 0; l <= h; l++) {
                uint8_t *at = tree + NODE * (kiln_merkle_level_offset(n, l) + (S >> l) * (uint64_t)i);
                if (l < lv)
                    memcpy(at, d.subtrees[i] + NODE * kiln_merkle_level_offset(r, l),
                           (size_t)kiln_merkle_level_size(r, l) * NODE);
                else /* the lone node's self-pairings (subtree_task) */
                    kiln_merkle_merge_bytes(kind, tree + NODE * (kiln_merkle_level_offset(n, l - 1) + (S >> (l - 1)) * (uint64_t)i),
                                            tree + NODE * (kiln_merkle_level_offset(n, l - 1) + (S >> (l - 1)) * (uint64_t)i), at);
            }
        }
        for (int l = 1; l < kiln_merkle_levels(top_n); l++)
            memcpy(tree + NODE * kiln_merkle_level_offset(n, h + l), top + NODE * kiln_merkle_level_offset(top_n, l),
                   (size_t)kiln_merkle_level_size(top_n, l) * NODE);
    }
    for (int i = 0; i < KILN_MAX_GPUS; i++) free(d.subtrees[i]);
    free(top);
    return st;
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
    if (ctx && ctx->backend != KILN_BACKEND_CPU && !ctx->gpu->tree) return kiln_gpu_lacks(ctx, "build Merkle trees");
    /* a device set checks the leaves on its devices' threads while it copies them */
    const int set = ctx && ctx->backend != KILN_BACKEND_CPU && ctx->ngpu > 1 && n >= 2 * (uint64_t)ctx->ngpu;
    if (set) return build_on_devices(ctx, algo, kind, &cfg, leaves, n, root, tree);
    /* one GPU checks them as it copies them, as a set does */
    if (ctx && ctx->backend != KILN_BACKEND_CPU) return build_on_gpu(ctx, algo, kind, &cfg, leaves, n, root, tree);
    if ((st = kiln_merkle_check_nodes(ctx, kind, leaves, n, "leaf")) != KILN_OK) return st;
    return kiln_merkle_build_cpu(ctx, kind, leaves, n, ctx ? ctx->threads : 0, root, tree);
}

/* The bench leaves (kiln_merkle_bench_leaves) as level 0 on g: made on the device where the
 * backend can, else on the host and uploaded. */
static kiln_status random_leaves_on(kiln_ctx *ctx, kiln_gpu *g, const kiln_merkle_kind *kind, uint64_t n)
{
    if (ctx->gpu->tree->random) return ctx->gpu->tree->random(g, n, 0x6b696c6e, kind->field_elements);
    uint8_t *leaves = malloc((size_t)n * NODE);
    if (!leaves) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu leaves", (unsigned long long)n);
    kiln_merkle_bench_leaves(leaves, n, kind->field_elements);
    kiln_status st = ctx->gpu->tree->upload(g, leaves, n);
    free(leaves);
    return st;
}

static kiln_status bench_cpu(kiln_ctx *ctx, const kiln_merkle_kind *kind, uint64_t n, int reps, double *times)
{
    uint8_t *leaves = malloc((size_t)n * NODE), root[NODE];
    if (!leaves) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu leaves", (unsigned long long)n);
    kiln_merkle_bench_leaves(leaves, n, kind->field_elements);
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
    } else if (!ctx->gpu->tree) {
        st = kiln_gpu_lacks(ctx, "build Merkle trees");
    } else {
        kiln_gpu *g;
        float ms = 0;
        uint8_t root[NODE];
        st = kiln_ctx_gpu(ctx, 0, &g);
        if (st == KILN_OK) st = random_leaves_on(ctx, g, kind, n);
        /* the first build warms up (module load, graph capture) and is not counted */
        for (int r = -1; r < reps && st == KILN_OK; r++) {
            kiln_ctx_report(ctx, "bench", "runs", (uint64_t)(r + 1), (uint64_t)reps + 1);
            if ((st = kiln_ctx_poll(ctx)) != KILN_OK) break;
            st = ctx->gpu->tree->build(g, algo, n, &cfg, &res->launches, &ms);
            if (r >= 0) times[r] = ms * 1e-3;
        }
        if (st == KILN_OK && (st = check_gpu_tree(ctx, g, kind, n, NULL, root)) == KILN_OK) {
            res->seconds = kiln_median(times, (size_t)reps);
            /* the raw merge rate, where the backend can time one launch of merges */
            for (int r = -1; r < reps && st == KILN_OK && ctx->gpu->tree->raw; r++) {
                kiln_ctx_report(ctx, "bench", "runs", (uint64_t)(r + 1), (uint64_t)reps + 1);
                if ((st = kiln_ctx_poll(ctx)) != KILN_OK) break;
                st = ctx->gpu->tree->raw(g, algo, n, cfg.tpb, &ms);
                if (r >= 0) times[r] = ms * 1e-3;
            }
            if (st == KILN_OK && ctx->gpu->tree->raw) res->raw_rate = (double)((n + 1) / 2) / kiln_median(times, (size_t)reps);
        }
    }
    free(times);
    if (st == KILN_OK && res->seconds > 0) res->rate = (double)(n - 1) / res->seconds;
    return st;
}

/* ---------------------------------------------------------------- device memory (docs/DEVICE_MEMORY.md) */

kiln_status kiln_merkle_build_device(kiln_ctx *ctx, kiln_merkle_algo algo, const void *leaves, uint64_t n,
                                     const kiln_merkle_opts *opts, void *tree, void *root_dev, uint8_t *root_host,
                                     void *stream)
{
    const kiln_merkle_kind *kind = NULL;
    kiln_gpu_merkle_cfg cfg;
    if (!ctx) return KILN_ERR_INPUT;
    kiln_status st = check_args(ctx, algo, n, &kind);
    if (st != KILN_OK) return st;
    if (!leaves) return kiln_fail(ctx, KILN_ERR_INPUT, "missing leaves");
    if ((st = check_opts(ctx, opts, &cfg)) != KILN_OK) return st;
    if (ctx->backend == KILN_BACKEND_CPU || !ctx->gpu)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "leaves in device memory need a GPU context, not the CPU");
    if (!ctx->gpu->tree || !ctx->gpu->tree->build_device) return kiln_gpu_lacks(ctx, "build a tree of leaves in device memory");
    kiln_gpu *g;
    if ((st = kiln_ctx_gpu(ctx, 0, &g)) != KILN_OK) return st;
    return ctx->gpu->tree->build_device(g, algo, n, &cfg, leaves, tree, root_dev, root_host, stream);
}
