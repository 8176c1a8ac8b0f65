/* Merkle trees on an OpenCL device (kernels/merkle.cl): the whole tree in one buffer owned by the
 * handle, level after level as kiln_tree_level_offset lays it out, kept between builds. Two
 * schedules, as the CUDA backend's: one launch per level, or k levels per launch merged in local
 * memory by work-groups of subtrees; rp64_256's narrow levels (at most COOP_MAX_PARENTS parents) in
 * either schedule on 16 work-items a merge. The launches of a build are queued back to back (the queue
 * is in order) and the build's time is from the first launch's start to the last one's end.
 *
 * The interrupt is read whenever about TREE_WAIT_S of merges are queued, by the device's pace
 * (g->tree_rate, merges a second, measured at those waits and kept in the handle): the build
 * waits for them there and reports its progress. A launch larger than that is cut into pieces of
 * whole groups (a global offset). A CPU device took 2-4 s to stop a tree of 7.6 M leaves, queued
 * whole (issue 36.11); a GPU's first build waits once after FIRST_MERGES, and later builds of up
 * to about a fifth of a second's merges not at all. FIRST_MERGES is a CPU device's tenth of a
 * second: PoCL merges about 44 000 rp64_256 nodes a second on 2 busy cores, and a first wait after
 * 65536 kept an interrupt waiting 1.4 s. */
#include <stdio.h>

#include "../core/clock.h"
#include "../prim/merkle_merges.h"
#include "../prim/merkle_shape.h"
#include "ocl_work.h"

#define TREE_WAIT_S 0.2
#define FIRST_MERGES 4096.0

#define MAX_K 12
#define NODE 32
/* rp64_256 levels of at most this many parents run 16 work-items a merge (merkle.cl's
 * kiln_merkle_rp64_coop), in groups of COOP_WG, as the CUDA backend's narrow levels */
#define COOP_MAX_PARENTS 65536
#define COOP_WG 256

static int log2_floor(uint64_t v)
{
    int r = 0;
    while (v >>= 1) r++;
    return r;
}

/* Room for the whole tree of n leaves (the buffer only grows). */
static kiln_status reserve(kiln_gpu *g, uint64_t n)
{
    uint64_t need = kiln_tree_size(n);
    if (need <= g->tree_cap) return KILN_OK;
    if (g->tree) clReleaseMemObject(g->tree);
    g->tree = NULL;
    g->tree_cap = 0;
    cl_ulong max_alloc = 0;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL),
                 "clGetDeviceInfo (largest allocation)");
    if (need > max_alloc / NODE)
        return kiln_fail(g->ctx, KILN_ERR_INPUT,
                         "a tree of %llu leaves needs %llu MiB in one buffer, over %s's largest allocation (%llu MiB)",
                         (unsigned long long)n, (unsigned long long)(need * NODE >> 20), g->name,
                         (unsigned long long)(max_alloc >> 20));
    cl_int err;
    g->tree = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)(need * NODE), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (Merkle tree)");
    g->tree_cap = need;
    return KILN_OK;
}

kiln_status kiln_ocl_tree_upload(kiln_gpu *g, const uint8_t *leaves, uint64_t n)
{
    if (n == 0) return kiln_fail(g->ctx, KILN_ERR_INPUT, "a tree needs at least one leaf");
    cl_bool little = CL_FALSE;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, NULL),
                 "clGetDeviceInfo (endianness)");
    if (!little) /* the kernels read a node's words little-endian with plain loads */
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "%s is big-endian: the OpenCL Merkle kernels need a little-endian device",
                         g->name);
    kiln_status st = reserve(g, n);
    if (st != KILN_OK) return st;
    KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, g->tree, CL_TRUE, 0, (size_t)(n * NODE), leaves, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (leaves)");
    return KILN_OK;
}

kiln_status kiln_ocl_tree_read(kiln_gpu *g, uint64_t first, uint64_t count, uint8_t *out)
{
    if (!g->tree || first > g->tree_cap || count > g->tree_cap - first)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "nodes %llu..%llu are not in the device's tree",
                         (unsigned long long)first, (unsigned long long)(first + count));
    if (count == 0) return KILN_OK;
    KILN_OCL_TRY(g->ctx,
                 clEnqueueReadBuffer(g->queue, g->tree, CL_TRUE, (size_t)(first * NODE), (size_t)(count * NODE), out, 0,
                                     NULL, NULL),
                 "clEnqueueReadBuffer (tree nodes)");
    return KILN_OK;
}

/* One build's kernels, the events of its first and last launch, and its pacing: merges queued
 * since the last wait, when that wait ended, merges done before it and in all. */
typedef struct build_res {
    cl_kernel level, subtree, coop;
    cl_event first, last;
    double queued, since, done, total;
} build_res;

/* After `merges` more were queued: past the budget, waits for the queue, measures the pace,
 * reports and reads the interrupt. */
static kiln_status paced(kiln_gpu *g, build_res *r, double merges)
{
    r->queued += merges;
    const double budget = g->tree_rate > 0 ? g->tree_rate * TREE_WAIT_S : FIRST_MERGES;
    if (r->queued < budget) return KILN_OK;
    KILN_OCL_TRY(g->ctx, clFinish(g->queue), "Merkle kernels");
    const double t = kiln_now();
    if (t > r->since) g->tree_rate = r->queued / (t - r->since);
    r->since = t;
    r->done += r->queued;
    r->queued = 0;
    /* launches count whole groups (about 2^c merges each), so the tally can pass the tree's merges */
    kiln_ctx_report(g->ctx, "merkle", "merges", (uint64_t)(r->done < r->total ? r->done : r->total), (uint64_t)r->total);
    return kiln_ctx_poll(g->ctx);
}

/* Queues k over [0, global) in groups of *local, in pieces (a global offset, whole groups) of at
 * most the merges a wait's budget holds, `per_item` merges a work-item, each paced. */
static kiln_status enqueue(kiln_gpu *g, build_res *r, cl_kernel k, size_t global, const size_t *local, double per_item)
{
    const size_t wg = *local ? *local : 1;
    for (size_t at = 0; at < global;) {
        const double budget = g->tree_rate > 0 ? g->tree_rate * TREE_WAIT_S : FIRST_MERGES;
        double room = (budget - r->queued) / per_item;
        if (room < (double)wg) room = (double)wg;
        size_t piece = room >= (double)(global - at) ? global - at : (size_t)room / wg * wg;
        size_t off = at;
        cl_event ev;
        KILN_OCL_TRY(g->ctx, clEnqueueNDRangeKernel(g->queue, k, 1, &off, &piece, local, 0, NULL, &ev),
                     "clEnqueueNDRangeKernel (Merkle)");
        if (!r->first) r->first = ev;
        else {
            if (r->last) clReleaseEvent(r->last);
            r->last = ev;
        }
        at += piece;
        kiln_status st = paced(g, r, (double)piece * per_item);
        if (st != KILN_OK) return st;
    }
    return KILN_OK;
}

#define ARG(k, i, v) KILN_OCL_TRY(g->ctx, clSetKernelArg((k), (i), sizeof(v), &(v)), "clSetKernelArg (Merkle)")

/* A level kernel's first arguments for level l of the tree of n leaves: the tree, the level's
 * offset and size (also in *m), the next level's offset. */
static kiln_status level_args(kiln_gpu *g, cl_kernel k, uint64_t n, int l, cl_ulong *m)
{
    cl_ulong in = kiln_tree_level_offset(n, l), out = kiln_tree_level_offset(n, l + 1);
    *m = kiln_tree_level_size(n, l);
    ARG(k, 0, g->tree);
    ARG(k, 1, in);
    ARG(k, 2, *m);
    ARG(k, 3, out);
    return KILN_OK;
}

/* One level's launch in groups of wg work-items, the range rounded up to whole groups (the kernel
 * returns past the level's end) so the runtime does not pick some divisor of an odd count. */
static kiln_status level_launch(kiln_gpu *g, build_res *r, uint64_t n, int l, size_t wg)
{
    cl_ulong m;
    kiln_status st = level_args(g, r->level, n, l, &m);
    if (st != KILN_OK) return st;
    size_t parents = (size_t)((m + 1) / 2);
    return enqueue(g, r, r->level, (parents + wg - 1) / wg * wg, &wg, 1.0);
}

/* One rp64_256 level on 16 work-items a merge, in groups of wg (a multiple of 16). */
static kiln_status coop_launch(kiln_gpu *g, build_res *r, uint64_t n, int l, size_t wg)
{
    cl_ulong m;
    kiln_status st = level_args(g, r->coop, n, l, &m);
    if (st != KILN_OK) return st;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->coop, 4, wg * sizeof(cl_ulong), NULL), "clSetKernelArg (Merkle local memory)");
    size_t items = (size_t)(16 * ((m + 1) / 2));
    return enqueue(g, r, r->coop, (items + wg - 1) / wg * wg, &wg, 1.0 / 16);
}

/* The largest power of two <= tpb that the level kernel takes. */
static kiln_status level_group(kiln_gpu *g, cl_kernel k, int tpb, size_t *wg)
{
    size_t kmax = 0;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(k, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL),
                 "clGetKernelWorkGroupInfo");
    size_t w = 1;
    while (2 * w <= (size_t)tpb && 2 * w <= kmax) w *= 2;
    *wg = w;
    return KILN_OK;
}

/* The subtree kernel's levels argument (kiln_ocl_subtree_levels in merkle.cl). */
typedef struct subtree_levels {
    cl_ulong off[MAX_K + 1], size[MAX_K + 1];
} subtree_levels;

/* The work-group size and nodes per group (log2) of the subtree kernel: the asked size, within
 * the kernel's limit, halved until the group's local memory (3/4 of its base nodes) fits beside
 * what the kernel itself takes (NVIDIA's OpenCL offers 48 KiB a group, and k = 5 at 64 work-items
 * asks for exactly that: the launch then fails with CL_OUT_OF_RESOURCES). */
static kiln_status subtree_shape(kiln_gpu *g, cl_kernel k, int tpb, int kk, size_t *wg, int *c_log2)
{
    size_t kmax = 0;
    cl_ulong local = 0;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(k, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL),
                 "clGetKernelWorkGroupInfo");
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL),
                 "clGetDeviceInfo (local memory)");
    cl_ulong own = 0;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(k, g->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof own, &own, NULL),
                 "clGetKernelWorkGroupInfo (local memory)");
    local = local > own ? local - own : 0;
    size_t w = (size_t)tpb < kmax ? (size_t)tpb : kmax;
    if (w < 1) w = 1;
    int c = kk + log2_floor(w);
    while ((UINT64_C(24) << c) >= local && c > kk) {
        w = (size_t)1 << (log2_floor(w) - 1 >= 0 ? log2_floor(w) - 1 : 0);
        c = kk + log2_floor(w);
    }
    if ((UINT64_C(24) << c) >= local)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "k = %d needs %llu KiB of local memory a work-group; %s has %llu KiB", kk,
                         (unsigned long long)((UINT64_C(24) << c) >> 10), g->name, (unsigned long long)(local >> 10));
    *wg = w;
    *c_log2 = c;
    return KILN_OK;
}

static kiln_status build(kiln_gpu *g, build_res *r, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                         int *launches)
{
    /* merkle.cl's kernels of each merge, named by its line of KILN_MERKLE_MERGES (prim/merkle_merges.h) */
#define NAME(ID, KERNEL, MERGE, NODE, PAIRS, REG_NAME, SHORT, HELP, SELFTEST) [ID] = #KERNEL,
    static const char *const names[KILN_MERKLE_ALGO_COUNT] = {KILN_MERKLE_MERGES(NAME)};
#undef NAME
    char name[48];
    snprintf(name, sizeof name, "kiln_merkle_level_%s", names[algo]);
    kiln_status st = kiln_ocl_kernel(g, name, &r->level);
    if (st != KILN_OK) return st;
    size_t wg = 0, level_wg = 0;
    int c_log2 = 0;
    if ((st = level_group(g, r->level, cfg->tpb, &level_wg)) != KILN_OK) return st;
    size_t coop_wg = 0;
    if (algo == KILN_MERKLE_RP64_256 || algo == KILN_MERKLE_RPO256) {
        const char *coop = algo == KILN_MERKLE_RPO256 ? "kiln_merkle_rpo256_coop" : "kiln_merkle_rp64_coop";
        if ((st = kiln_ocl_kernel(g, coop, &r->coop)) != KILN_OK) return st;
        if ((st = level_group(g, r->coop, COOP_WG, &coop_wg)) != KILN_OK) return st;
        if (coop_wg < 16) coop_wg = 0; /* a device whose groups cannot hold one merge: one item a merge */
    }
    if (cfg->method == KILN_MERKLE_SUBTREES) {
        snprintf(name, sizeof name, "kiln_merkle_subtree_%s", names[algo]);
        if ((st = kiln_ocl_kernel(g, name, &r->subtree)) != KILN_OK) return st;
        if ((st = subtree_shape(g, r->subtree, cfg->tpb, cfg->k, &wg, &c_log2)) != KILN_OK) return st;
    }
    const int top = kiln_tree_levels(n) - 1;
    for (int l = 0; l < top;) {
        const int coop = coop_wg && kiln_tree_level_size(n, l + 1) <= COOP_MAX_PARENTS;
        if (cfg->method == KILN_MERKLE_LEVELS || coop) {
            st = coop ? coop_launch(g, r, n, l, coop_wg) : level_launch(g, r, n, l, level_wg);
            if (st != KILN_OK) return st;
            ++*launches;
            l++;
            continue;
        }
        cl_int h = top - l < cfg->k ? top - l : cfg->k, c = c_log2;
        subtree_levels lv = {{0}, {0}};
        for (int j = 0; j <= h; j++) {
            lv.off[j] = kiln_tree_level_offset(n, l + j);
            lv.size[j] = kiln_tree_level_size(n, l + j);
        }
        uint64_t groups = (lv.size[0] + (UINT64_C(1) << c_log2) - 1) >> c_log2;
        ARG(r->subtree, 0, g->tree);
        ARG(r->subtree, 1, lv);
        ARG(r->subtree, 2, h);
        ARG(r->subtree, 3, c);
        KILN_OCL_TRY(g->ctx, clSetKernelArg(r->subtree, 4, (size_t)(UINT64_C(24) << c_log2), NULL),
                     "clSetKernelArg (Merkle local memory)");
        /* a group merges its 2^c base nodes up h levels: about 2^c merges */
        if ((st = enqueue(g, r, r->subtree, (size_t)(groups * wg), &wg, (double)(UINT64_C(1) << c_log2) / (double)wg)) !=
            KILN_OK)
            return st;
        ++*launches;
        l += h;
    }
    return KILN_OK;
}

kiln_status kiln_ocl_tree_build(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                                int *launches, float *gpu_ms)
{
    *launches = 0;
    if (gpu_ms) *gpu_ms = 0;
    if ((int)algo < 0 || algo >= KILN_MERKLE_ALGO_COUNT)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "merkle algorithm %d has no OpenCL merge", (int)algo);
    if (cfg->k < 1 || cfg->k > MAX_K || cfg->tpb < 1 ||
        (cfg->method != KILN_MERKLE_LEVELS && cfg->method != KILN_MERKLE_SUBTREES))
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "bad merkle launch shape (method %d, k %d, %d work-items a group)",
                         cfg->method, cfg->k, cfg->tpb);
    if (!g->tree || n == 0 || kiln_tree_size(n) > g->tree_cap)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "no tree of %llu leaves on the device", (unsigned long long)n);
    build_res r = {0};
    r.since = kiln_now();
    r.total = (double)(kiln_tree_size(n) - n);
    kiln_status st = build(g, &r, algo, n, cfg, launches);
    cl_int err = CL_SUCCESS;
    if (r.first) {
        /* wait even after a failed enqueue, so nothing is left running on the tree */
        err = clFinish(g->queue);
        if (err == CL_SUCCESS && gpu_ms) *gpu_ms = kiln_ocl_span_ms(r.first, r.last ? r.last : r.first);
    }
    if (r.first) clReleaseEvent(r.first);
    if (r.last) clReleaseEvent(r.last);
    if (r.level) clReleaseKernel(r.level);
    if (r.subtree) clReleaseKernel(r.subtree);
    if (r.coop) clReleaseKernel(r.coop);
    if (st == KILN_OK) st = kiln_ocl_check(g->ctx, err, "Merkle kernels");
    return st;
}
