/* The graph table's builds on an OpenCL device (core/gpu_graph.h: csr_from_edges, rmat_csr,
 * rmat_part_csr), the CUDA backend's construction (src/cuda/graph_build.cu) with the sort, scan
 * and compaction written by hand in kernels/graph_build.cl: edges -> 64-bit keys (row << bits |
 * source) -> LSD radix sort -> unique keys -> offsets, sources and out-degrees, copied back. The
 * arrays are the CPU build's byte for byte (rows ascending and merged, loops dropped or kept as
 * asked); tests/test_gpu_graph_build.c compares them.
 *
 * Memory: OpenCL cannot say what is free, so the estimate of ocl_memory.c stands in for it, and no
 * buffer may pass the device's largest allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE): a build whose
 * keys would is refused before anything is allocated, with a one-line message (the library checks
 * the same first and builds such a graph on the host, src/api/graph_api.c). At its fullest a build
 * holds two key buffers (8 bytes a key each), or the key buffer beside the uploaded edges or the
 * RMAT permutation; then the merged keys beside the CSR's arrays.
 *
 * Kernels are queued back to back on the in-order queue; the one-device builds wait between the
 * sort's passes to read the interrupt (a build of RMAT 20 takes seconds on a CPU device), a part
 * built in a device set's thread does not (those threads must not call the caller's hooks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl_work.h"

#define WG 256 /* KILN_GB_WG of graph_build.cl */
#define TILE 1024 /* KILN_GB_TILE */

typedef struct gb_arg {
    size_t size;
    const void *p;
} gb_arg;
#define GB_ARG(x) ((gb_arg){sizeof(x), &(x)})

/* One build: its device, the work-groups every chunked kernel runs (the chunks' count), whether it
 * reads the interrupt, and its buffers (released on every way out). */
enum {
    B_K0, B_K1, B_PART, B_LOOPS, B_PERM, B_KEY, B_CNT, B_START, B_HIST, B_OFF, B_SRC, B_ODEG, B_EDGES, B_EDGES2,
    B_N
};
typedef struct gb {
    kiln_gpu *g;
    cl_uint groups;
    int poll;
    cl_ulong max_alloc;
    cl_mem buf[B_N];
} gb;

static void gb_free(gb *b, int i)
{
    if (b->buf[i]) clReleaseMemObject(b->buf[i]);
    b->buf[i] = NULL;
}

static void gb_close(gb *b)
{
    for (int i = 0; i < B_N; i++) gb_free(b, i);
}

static double gib(uint64_t bytes) { return (double)bytes / (double)(UINT64_C(1) << 30); }

static kiln_status gb_open(gb *b, kiln_gpu *g, int poll)
{
    memset(b, 0, sizeof *b);
    b->g = g;
    b->poll = poll;
    cl_uint units = 0;
    size_t wg = 0;
    cl_ulong local = 0;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL),
                 "clGetDeviceInfo (compute units)");
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
                 "clGetDeviceInfo (work-group size)");
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL),
                 "clGetDeviceInfo (local memory)");
    KILN_OCL_TRY(g->ctx,
                 clGetDeviceInfo(g->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof b->max_alloc, &b->max_alloc, NULL),
                 "clGetDeviceInfo (largest allocation)");
    /* the radix tiles' 16 KiB of keys and 6 KiB of counts in local memory, 256 items a group */
    if (wg < WG || local < 24 * 1024)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE,
                         "%s cannot build graphs: the build's work-groups need %d work-items and 24 KiB of local "
                         "memory (it has %zu and %llu KiB)",
                         g->name, WG, wg, (unsigned long long)(local >> 10));
    /* eight groups a compute unit: a GPU's units hold several at once, a CPU device's threads
     * share them out */
    b->groups = units ? units * 8 : 8;
    if (b->groups > 4096) b->groups = 4096;
    return KILN_OK;
}

/* A device buffer of `bytes` (8 at least: a zero-sized buffer is invalid) into b->buf[slot]. */
static kiln_status gb_buffer(gb *b, int slot, uint64_t bytes, const char *what)
{
    if (bytes > b->max_alloc)
        return kiln_fail(b->g->ctx, KILN_ERR_INPUT,
                         "the graph build's %s need %.2f GiB in one buffer, over %s's largest allocation "
                         "(CL_DEVICE_MAX_MEM_ALLOC_SIZE) of %.2f GiB",
                         what, gib(bytes), b->g->name, gib(b->max_alloc));
    cl_int err;
    b->buf[slot] = clCreateBuffer(b->g->context, CL_MEM_READ_WRITE, bytes ? (size_t)bytes : 8, NULL, &err);
    return kiln_ocl_check(b->g->ctx, err, "clCreateBuffer (graph build)");
}

/* Queues kernel `name` over groups work-groups of WG with its arguments in order. */
static kiln_status gb_run(gb *b, const char *name, size_t groups, const gb_arg *args, int nargs)
{
    kiln_gpu *g = b->g;
    cl_kernel k;
    kiln_status st = kiln_ocl_kernel(g, name, &k);
    if (st != KILN_OK) return st;
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < nargs && err == CL_SUCCESS; i++) err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].p);
    const size_t global = groups * WG, local = WG;
    if (err == CL_SUCCESS) err = clEnqueueNDRangeKernel(g->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
    clReleaseKernel(k);
    return kiln_ocl_check(g->ctx, err, name);
}
#define GB_RUN(b, name, groups, ...) \
    gb_run(b, name, groups, (gb_arg[]){__VA_ARGS__}, (int)(sizeof((gb_arg[]){__VA_ARGS__}) / sizeof(gb_arg)))

static kiln_status gb_fill(gb *b, int slot, cl_ulong value, uint64_t first, uint64_t count, size_t width)
{
    if (!count) return KILN_OK;
    cl_uint v32 = (cl_uint)value;
    KILN_OCL_TRY(b->g->ctx,
                 clEnqueueFillBuffer(b->g->queue, b->buf[slot], width == 8 ? (const void *)&value : (const void *)&v32,
                                     width, (size_t)(first * width), (size_t)(count * width), 0, NULL, NULL),
                 "clEnqueueFillBuffer (graph build)");
    return KILN_OK;
}

static kiln_status gb_read(gb *b, int slot, uint64_t at, uint64_t bytes, void *host)
{
    if (!bytes) return KILN_OK;
    cl_int err =
        clEnqueueReadBuffer(b->g->queue, b->buf[slot], CL_TRUE, (size_t)at, (size_t)bytes, host, 0, NULL, NULL);
    return kiln_ocl_check(b->g->ctx, err, "clEnqueueReadBuffer (graph build)");
}

/* The sum of the groups' counts in b->buf[slot] (a self-loop count). */
static kiln_status gb_sum(gb *b, int slot, uint64_t *out)
{
    cl_ulong *v = malloc(b->groups * sizeof *v);
    if (!v) return kiln_fail(b->g->ctx, KILN_ERR_DEVICE, "out of host memory");
    kiln_status st = gb_read(b, slot, 0, b->groups * sizeof *v, v);
    *out = 0;
    for (cl_uint i = 0; st == KILN_OK && i < b->groups; i++) *out += v[i];
    free(v);
    return st;
}

/* Waits for the queue; with poll, KILN_STOPPED when the interrupt asks. */
static kiln_status gb_wait(gb *b, const char *what)
{
    KILN_OCL_TRY(b->g->ctx, clFinish(b->g->queue), what);
    return b->poll ? kiln_ctx_poll(b->g->ctx) : KILN_OK;
}

/* The items a group's chunk holds out of n: whole tiles, so that tiles never straddle chunks. */
static cl_ulong chunk_of(const gb *b, uint64_t n)
{
    uint64_t c = (n + b->groups - 1) / b->groups;
    return (cl_ulong)((c + TILE - 1) / TILE * TILE);
}

static int key_bits(uint64_t n)
{
    int bits = 1;
    while ((UINT64_C(1) << bits) < n) bits++;
    return bits;
}

/* Exclusive scan of the groups' counts in b->buf[slot] (groups + 1 values: the total goes last). */
static kiln_status scan_small(gb *b, int slot, uint64_t len)
{
    cl_ulong l = len;
    return GB_RUN(b, "kiln_gb_scan_small", 1, GB_ARG(b->buf[slot]), GB_ARG(l));
}

/* Sorts the K keys of b->buf[B_K0] on bits [0, sort_bits) with b->buf[B_K1] as the other buffer;
 * the sorted keys end in B_K0 (the slots are swapped when an odd number of passes leaves them in
 * the other buffer). */
static kiln_status radix_sort(gb *b, uint64_t K, int sort_bits)
{
    if (K < 2) return KILN_OK;
    kiln_status st = gb_buffer(b, B_HIST, (256 * (uint64_t)b->groups + 1) * 8, "digit counts");
    const cl_ulong n = K, chunk = chunk_of(b, K);
    for (cl_uint shift = 0; st == KILN_OK && (int)shift < sort_bits; shift += 8) {
        st = GB_RUN(b, "kiln_gb_radix_hist", b->groups, GB_ARG(b->buf[B_K0]), GB_ARG(n), GB_ARG(chunk), GB_ARG(shift),
                    GB_ARG(b->buf[B_HIST]));
        if (st == KILN_OK) st = scan_small(b, B_HIST, 256 * (uint64_t)b->groups);
        if (st == KILN_OK)
            st = GB_RUN(b, "kiln_gb_radix_scatter", b->groups, GB_ARG(b->buf[B_K0]), GB_ARG(b->buf[B_K1]), GB_ARG(n),
                        GB_ARG(chunk), GB_ARG(shift), GB_ARG(b->buf[B_HIST]));
        cl_mem t = b->buf[B_K0];
        b->buf[B_K0] = b->buf[B_K1];
        b->buf[B_K1] = t;
        if (st == KILN_OK) st = gb_wait(b, "graph build (radix sort)");
    }
    gb_free(b, B_HIST);
    return st;
}

/* Keys (row << bits | source) in B_K0, K of them, B_K1 the second buffer -> sorted on their sort_bits
 * significant bits, merged -> host CSR of `rows` rows whose sources are below nsrc. With
 * has_sentinel, keys equal to the all-ones value of 2 * bits bits are dropped self loops. */
static kiln_status finish_rows(gb *b, uint64_t K, uint64_t rows, uint64_t nsrc, int bits, int sort_bits,
                               int has_sentinel, kiln_gpu_csr *out)
{
    kiln_gpu *g = b->g;
    kiln_status st = radix_sort(b, K, sort_bits);
    const cl_ulong n = K, chunk = chunk_of(b, K);
    const cl_ulong sentinel = bits == 32 ? ~UINT64_C(0) : (UINT64_C(1) << (2 * bits)) - 1;
    const cl_uint hs = has_sentinel != 0, cb = (cl_uint)bits;
    uint64_t m = 0;
    if (st == KILN_OK) st = gb_buffer(b, B_PART, ((uint64_t)b->groups + 1) * 8, "group counts");
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_uniq_count", b->groups, GB_ARG(b->buf[B_K0]), GB_ARG(n), GB_ARG(chunk), GB_ARG(hs),
                    GB_ARG(sentinel), GB_ARG(b->buf[B_PART]));
    if (st == KILN_OK) st = scan_small(b, B_PART, b->groups);
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_uniq_write", b->groups, GB_ARG(b->buf[B_K0]), GB_ARG(n), GB_ARG(chunk), GB_ARG(hs),
                    GB_ARG(sentinel), GB_ARG(b->buf[B_PART]), GB_ARG(b->buf[B_K1]));
    if (st == KILN_OK) st = gb_read(b, B_PART, (uint64_t)b->groups * 8, 8, &m);
    if (st != KILN_OK) return st;
    /* the merged keys are in K1; the sorted ones are done with */
    gb_free(b, B_K0);
    gb_free(b, B_PART);
    uint64_t ends[2] = {0, 0};
    if (m) st = gb_read(b, B_K1, 0, 8, &ends[0]);
    if (st == KILN_OK && m) st = gb_read(b, B_K1, (m - 1) * 8, 8, &ends[1]);
    if (st == KILN_OK) st = gb_buffer(b, B_OFF, (rows + 1) * 8, "row offsets");
    if (st == KILN_OK) st = gb_buffer(b, B_SRC, m * 4, "sources");
    if (st == KILN_OK) st = gb_buffer(b, B_ODEG, nsrc * 4, "out-degrees");
    if (st == KILN_OK) st = gb_fill(b, B_ODEG, 0, 0, nsrc, 4);
    if (st == KILN_OK && m) {
        const uint64_t r0 = ends[0] >> bits, r1 = ends[1] >> bits;
        const cl_ulong cm = m;
        st = gb_fill(b, B_OFF, 0, 0, r0, 8);
        if (st == KILN_OK) st = gb_fill(b, B_OFF, m, r1 + 1, rows - r1, 8);
        if (st == KILN_OK)
            st = GB_RUN(b, "kiln_gb_csr_rows", b->groups, GB_ARG(b->buf[B_K1]), GB_ARG(cm), GB_ARG(cb),
                        GB_ARG(b->buf[B_OFF]), GB_ARG(b->buf[B_SRC]), GB_ARG(b->buf[B_ODEG]));
    } else if (st == KILN_OK) {
        st = gb_fill(b, B_OFF, 0, 0, rows + 1, 8);
    }
    if (st != KILN_OK) return st;
    out->n = rows;
    out->m = m;
    out->offsets = malloc((rows + 1) * sizeof *out->offsets);
    out->sources = malloc((m ? m : 1) * sizeof *out->sources);
    out->outdeg = malloc((nsrc ? nsrc : 1) * sizeof *out->outdeg);
    if (!out->offsets || !out->sources || !out->outdeg)
        st = kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory for the CSR");
    if (st == KILN_OK) st = gb_read(b, B_OFF, 0, (rows + 1) * 8, out->offsets);
    if (st == KILN_OK) st = gb_read(b, B_SRC, 0, m * 4, out->sources);
    if (st == KILN_OK) st = gb_read(b, B_ODEG, 0, nsrc * 4, out->outdeg);
    if (st != KILN_OK) {
        free(out->offsets);
        free(out->sources);
        free(out->outdeg);
        out->offsets = NULL;
        out->sources = NULL;
        out->outdeg = NULL;
    }
    return st;
}

/* The bytes a build holds at its fullest, against the estimate of what is free (ocl_memory.c),
 * before anything is allocated: KILN_ERR_INPUT saying so. */
static kiln_status check_room(gb *b, uint64_t need, const char *what)
{
    uint64_t free_b = 0, total_b = 0;
    kiln_status st = kiln_ocl_mem_info(b->g, &free_b, &total_b);
    if (st != KILN_OK) return st;
    if (need > free_b)
        return kiln_fail(b->g->ctx, KILN_ERR_INPUT,
                         "%s needs about %.1f GiB to build on %s, which has about %.1f GiB free: use more GPUs or "
                         "processes, or the CPU",
                         what, gib(need), b->g->name, gib(free_b));
    return KILN_OK;
}

/* The RMAT label permutation into B_PERM (n values), as src/graph/rmat.c makes it. */
static kiln_status rmat_permutation(gb *b, const kiln_rmat_spec *spec, uint64_t n)
{
    const cl_int scale = spec->scale;
    const cl_ulong pb = spec->perm_base, cn = n, chunk = chunk_of(b, n);
    kiln_status st = gb_buffer(b, B_KEY, n * 8, "permutation keys");
    if (st == KILN_OK) st = gb_buffer(b, B_CNT, n * 4, "permutation buckets");
    if (st == KILN_OK) st = gb_buffer(b, B_START, (n + 1) * 8, "permutation buckets");
    if (st == KILN_OK) st = gb_buffer(b, B_PART, ((uint64_t)b->groups + 1) * 8, "group counts");
    if (st == KILN_OK) st = gb_buffer(b, B_PERM, n * 4, "permutation");
    if (st == KILN_OK) st = gb_fill(b, B_CNT, 0, 0, n, 4);
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_perm_keys", b->groups, GB_ARG(scale), GB_ARG(pb), GB_ARG(cn), GB_ARG(b->buf[B_KEY]),
                    GB_ARG(b->buf[B_CNT]));
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_scan_parts", b->groups, GB_ARG(b->buf[B_CNT]), GB_ARG(cn), GB_ARG(chunk),
                    GB_ARG(b->buf[B_PART]));
    if (st == KILN_OK) st = scan_small(b, B_PART, b->groups);
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_scan_apply", b->groups, GB_ARG(b->buf[B_CNT]), GB_ARG(cn), GB_ARG(chunk),
                    GB_ARG(b->buf[B_PART]), GB_ARG(b->buf[B_START]));
    if (st == KILN_OK)
        KILN_OCL_TRY(b->g->ctx,
                     clEnqueueCopyBuffer(b->g->queue, b->buf[B_PART], b->buf[B_START], (size_t)b->groups * 8,
                                         (size_t)n * 8, 8, 0, NULL, NULL),
                     "clEnqueueCopyBuffer (graph build)");
    if (st == KILN_OK) st = gb_fill(b, B_CNT, 0, 0, n, 4);
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_perm_scatter", b->groups, GB_ARG(scale), GB_ARG(cn), GB_ARG(b->buf[B_KEY]),
                    GB_ARG(b->buf[B_START]), GB_ARG(b->buf[B_CNT]), GB_ARG(b->buf[B_PERM]));
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_perm_sort", b->groups, GB_ARG(cn), GB_ARG(b->buf[B_KEY]), GB_ARG(b->buf[B_START]),
                    GB_ARG(b->buf[B_PERM]));
    if (st == KILN_OK) st = gb_wait(b, "graph build (RMAT permutation)");
    gb_free(b, B_KEY);
    gb_free(b, B_CNT);
    gb_free(b, B_START);
    gb_free(b, B_PART);
    return st;
}

/* The refusal of keys that pass the largest allocation, before anything is allocated. */
static kiln_status check_keys(gb *b, uint64_t K, const char *what)
{
    if (K * 8 <= b->max_alloc) return KILN_OK;
    return kiln_fail(b->g->ctx, KILN_ERR_INPUT,
                     "%s: %llu edge keys need %.2f GiB in one buffer, over %s's largest allocation "
                     "(CL_DEVICE_MAX_MEM_ALLOC_SIZE) of %.2f GiB: build it on the CPU or use more devices",
                     what, (unsigned long long)K, gib(K * 8), b->g->name, gib(b->max_alloc));
}

static kiln_status edges_build(gb *b, const uint32_t *src, const uint32_t *dst, uint64_t count, uint64_t n,
                               int undirected, int drop_loops, kiln_gpu_csr *out)
{
    if (n == 0 || n > (UINT64_C(1) << 32))
        return kiln_fail(b->g->ctx, KILN_ERR_INPUT, "a device graph build needs 1 to 2^32 vertices, not %llu",
                         (unsigned long long)n);
    const int bits = key_bits(n);
    const uint64_t K = count * (undirected ? 2u : 1u);
    kiln_status st = check_keys(b, K, "the edge list");
    if (st == KILN_OK)
        st = check_room(b, (8 * count + 8 * K > 16 * K ? 8 * count + 8 * K : 16 * K) + 16 * (n + 1), "the edge list");
    if (st == KILN_OK) st = gb_buffer(b, B_EDGES, count * 4, "edges");
    if (st == KILN_OK) st = gb_buffer(b, B_EDGES2, count * 4, "edges");
    for (int i = 0; i < 2 && st == KILN_OK && count; i++) {
        cl_int err = clEnqueueWriteBuffer(b->g->queue, b->buf[i ? B_EDGES2 : B_EDGES], CL_FALSE, 0, (size_t)count * 4,
                                          i ? dst : src, 0, NULL, NULL);
        st = kiln_ocl_check(b->g->ctx, err, "clEnqueueWriteBuffer (edges)");
    }
    if (st == KILN_OK) st = gb_buffer(b, B_K0, K * 8, "edge keys");
    if (st == KILN_OK) st = gb_buffer(b, B_LOOPS, (uint64_t)b->groups * 8, "group counts");
    const cl_ulong cc = count;
    const cl_uint cb = (cl_uint)bits, cu = undirected != 0, cd = drop_loops != 0;
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_edge_keys", b->groups, GB_ARG(b->buf[B_EDGES]), GB_ARG(b->buf[B_EDGES2]), GB_ARG(cc),
                    GB_ARG(cb), GB_ARG(cu), GB_ARG(cd), GB_ARG(b->buf[B_K0]), GB_ARG(b->buf[B_LOOPS]));
    uint64_t nloops = 0;
    /* the blocking read also waits for the uploads, whose host arrays are the caller's */
    if (st == KILN_OK) st = gb_sum(b, B_LOOPS, &nloops);
    gb_free(b, B_EDGES);
    gb_free(b, B_EDGES2);
    if (st == KILN_OK) st = gb_buffer(b, B_K1, K * 8, "edge keys");
    if (st == KILN_OK) st = finish_rows(b, K, n, n, bits, 2 * bits, drop_loops, out);
    if (st != KILN_OK) return st;
    out->edges_read = K;
    out->self_loops_removed = drop_loops ? nloops * (undirected ? 2u : 1u) : 0;
    out->duplicates_removed = K - out->self_loops_removed - out->m;
    return KILN_OK;
}

kiln_status kiln_ocl_csr_from_edges(kiln_gpu *g, const uint32_t *src, const uint32_t *dst, uint64_t count, uint64_t n,
                                    int undirected, int drop_loops, kiln_gpu_csr *out)
{
    memset(out, 0, sizeof *out);
    gb b;
    kiln_status st = gb_open(&b, g, 1);
    if (st == KILN_OK) st = edges_build(&b, src, dst, count, n, undirected, drop_loops, out);
    /* the uploads read the caller's arrays: nothing may be in flight past the return */
    clFinish(g->queue);
    gb_close(&b);
    return st;
}

static kiln_status rmat_build(gb *b, const kiln_rmat_spec *spec, int undirected, kiln_gpu_csr *out)
{
    const uint64_t n = UINT64_C(1) << spec->scale, count = (uint64_t)spec->edge_factor << spec->scale;
    const uint64_t K = count * (undirected ? 2u : 1u);
    const int bits = key_bits(n);
    char what[64];
    snprintf(what, sizeof what, "RMAT scale %d", spec->scale);
    kiln_status st = check_keys(b, K, what);
    if (st == KILN_OK) st = check_room(b, 16 * K + 24 * n, what);
    if (st == KILN_OK) st = rmat_permutation(b, spec, n);
    if (st == KILN_OK) st = gb_buffer(b, B_K0, K * 8, "edge keys");
    if (st == KILN_OK) st = gb_buffer(b, B_LOOPS, (uint64_t)b->groups * 8, "group counts");
    const cl_int scale = spec->scale;
    const cl_ulong eb = spec->edge_base, ta = spec->ta, tab = spec->tab, tabc = spec->tabc, cc = count;
    const cl_uint cb = (cl_uint)bits, cu = undirected != 0;
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_rmat_keys", b->groups, GB_ARG(scale), GB_ARG(eb), GB_ARG(ta), GB_ARG(tab), GB_ARG(tabc),
                    GB_ARG(b->buf[B_PERM]), GB_ARG(cc), GB_ARG(cb), GB_ARG(cu), GB_ARG(b->buf[B_K0]),
                    GB_ARG(b->buf[B_LOOPS]));
    uint64_t nloops = 0;
    if (st == KILN_OK) st = gb_sum(b, B_LOOPS, &nloops);
    if (st == KILN_OK) st = gb_wait(b, "graph build (RMAT edges)");
    gb_free(b, B_PERM);
    if (st == KILN_OK) st = gb_buffer(b, B_K1, K * 8, "edge keys");
    if (st == KILN_OK) st = finish_rows(b, K, n, n, bits, 2 * bits, 1, out);
    if (st != KILN_OK) return st;
    out->edges_read = K;
    out->self_loops_removed = nloops * (undirected ? 2u : 1u);
    out->duplicates_removed = K - out->self_loops_removed - out->m;
    return KILN_OK;
}

kiln_status kiln_ocl_rmat_csr(kiln_gpu *g, const kiln_rmat_spec *spec, int undirected, kiln_gpu_csr *out)
{
    memset(out, 0, sizeof *out);
    gb b;
    kiln_status st = gb_open(&b, g, 1);
    if (st == KILN_OK) st = rmat_build(&b, spec, undirected, out);
    gb_close(&b);
    return st;
}

/* Rows [v0, v1) of the RMAT graph's CSR from every edge drawn here (core/gpu_graph.h). */
static kiln_status rmat_part_build(gb *b, const kiln_rmat_spec *spec, int undirected, uint64_t v0, uint64_t v1,
                                   kiln_gpu_csr *out)
{
    const uint64_t n = UINT64_C(1) << spec->scale, count = (uint64_t)spec->edge_factor << spec->scale;
    if (v0 > v1 || v1 > n)
        return kiln_fail(b->g->ctx, KILN_ERR_INPUT, "RMAT part rows [%llu, %llu) outside the graph's %llu",
                         (unsigned long long)v0, (unsigned long long)v1, (unsigned long long)n);
    const uint64_t rows = v1 - v0;
    const int sbits = key_bits(n), rbits = key_bits(rows ? rows : 1);
    char what[96];
    snprintf(what, sizeof what, "RMAT scale %d rows [%llu, %llu)", spec->scale, (unsigned long long)v0,
             (unsigned long long)v1);
    /* before anything is allocated: the part's expected share of the keys (the labels are a random
     * permutation, so a range of rows draws its share of the edges), with 2% over */
    const double share = (double)rows / (double)n * (double)count * (undirected ? 2.0 : 1.0) * 1.02;
    kiln_status st = check_room(b, 16 * (uint64_t)share + 16 * (rows + 1) + 28 * n, what);
    if (st == KILN_OK) st = rmat_permutation(b, spec, n);
    if (st == KILN_OK) st = gb_buffer(b, B_PART, ((uint64_t)b->groups + 1) * 8, "group counts");
    if (st == KILN_OK) st = gb_buffer(b, B_LOOPS, (uint64_t)b->groups * 8, "group counts");
    const cl_int scale = spec->scale;
    const cl_ulong eb = spec->edge_base, ta = spec->ta, tab = spec->tab, tabc = spec->tabc, cc = count;
    const cl_ulong chunk = chunk_of(b, count);
    /* labels fit 32 bits: RMAT has at most 2^30 vertices */
    const cl_uint c0 = (cl_uint)v0, c1 = (cl_uint)v1, cs = (cl_uint)sbits, cu = undirected != 0;
    cl_uint write = 0;
    /* the first pass counts the part's keys (and the graph's self loops), the second writes them */
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_rmat_part_keys", b->groups, GB_ARG(scale), GB_ARG(eb), GB_ARG(ta), GB_ARG(tab),
                    GB_ARG(tabc), GB_ARG(b->buf[B_PERM]), GB_ARG(cc), GB_ARG(chunk), GB_ARG(c0), GB_ARG(c1), GB_ARG(cs),
                    GB_ARG(cu), GB_ARG(write), GB_ARG(b->buf[B_LOOPS]), GB_ARG(b->buf[B_PART]),
                    GB_ARG(b->buf[B_LOOPS]));
    uint64_t nloops = 0, K = 0;
    if (st == KILN_OK) st = gb_sum(b, B_LOOPS, &nloops);
    if (st == KILN_OK) st = scan_small(b, B_PART, b->groups);
    if (st == KILN_OK) st = gb_read(b, B_PART, (uint64_t)b->groups * 8, 8, &K);
    if (st == KILN_OK) st = check_keys(b, K, what);
    if (st == KILN_OK) st = check_room(b, 16 * K + 16 * (rows + 1) + 4 * n, what);
    if (st == KILN_OK) st = gb_buffer(b, B_K0, K * 8, "edge keys");
    write = 1;
    if (st == KILN_OK)
        st = GB_RUN(b, "kiln_gb_rmat_part_keys", b->groups, GB_ARG(scale), GB_ARG(eb), GB_ARG(ta), GB_ARG(tab),
                    GB_ARG(tabc), GB_ARG(b->buf[B_PERM]), GB_ARG(cc), GB_ARG(chunk), GB_ARG(c0), GB_ARG(c1), GB_ARG(cs),
                    GB_ARG(cu), GB_ARG(write), GB_ARG(b->buf[B_K0]), GB_ARG(b->buf[B_PART]), GB_ARG(b->buf[B_LOOPS]));
    if (st == KILN_OK) st = gb_wait(b, "graph build (RMAT part edges)");
    gb_free(b, B_PERM);
    gb_free(b, B_PART);
    if (st == KILN_OK) st = gb_buffer(b, B_K1, K * 8, "edge keys");
    if (st == KILN_OK) st = finish_rows(b, K, rows, n, sbits, sbits + rbits, 0, out);
    if (st != KILN_OK) return st;
    out->n = n;
    out->edges_read = count * (undirected ? 2u : 1u);
    out->self_loops_removed = nloops * (undirected ? 2u : 1u);
    out->duplicates_removed = K - out->m;
    return KILN_OK;
}

kiln_status kiln_ocl_rmat_part_csr(kiln_gpu *g, const kiln_rmat_spec *spec, int undirected, uint64_t v0, uint64_t v1,
                                   kiln_gpu_csr *out)
{
    memset(out, 0, sizeof *out);
    gb b;
    kiln_status st = gb_open(&b, g, 0);
    if (st == KILN_OK) st = rmat_part_build(&b, spec, undirected, v0, v1, out);
    gb_close(&b);
    return st;
}
