/* scrypt on an OpenCL device (kernels/scrypt.cl), in the CUDA backend's design: ROMix on quads of
 * work-items (four a hash, exchanging words by warp shuffles on NVIDIA, through local memory
 * elsewhere; kernels/quad.h) with coalesced scratchpad rows and a lookup gap, PBKDF2 in and out as kernels of
 * their own. The Litecoin search runs ltc_in, romix_r1 and ltc_out back to back a launch; the KDF
 * batch kdf_in, a ROMix kernel (r = 1, 2, 4, 8: the state in registers; any other r: streamed
 * through the scratchpad) and kdf_out a chunk of items.
 *
 * Scratchpads: a launch holds as many lanes (hashes) as the device is estimated to keep resident
 * (times the search's waves), fewer where memory runs out. The memory is up to 4 buffers (a
 * device's largest allocation is often a quarter of its memory), kept in the handle between calls
 * and grown when a call needs more. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/clock.h"
#include "ocl_work.h"

#define MAX_BUFS 4 /* kernels/scrypt.cl's V0..V3 */
/* Launches refused for memory take a quarter off the scratchpads' budget each, at most this often
 * (down to a tenth): smaller steps than halving keep more of what the driver does take. */
#define MAX_BACKOFFS 8
#define GROUP_MAX 256 /* kernels/quad.h's KILN_QUAD_MAX_GROUP */
#define PBKDF2_GROUP 64 /* the one-item-a-work-item PBKDF2 kernels */
#define LTC_N KILN_SCRYPT_LTC_N
#define LTC_TPB 128 /* the CUDA backend's defaults: 128 work-items a group, */
#define LTC_WAVES 2 /* two waves of resident hashes a launch (the H200's best, docs/SCRYPT.md) */
#define SEARCH_FIRST 256 /* the search's first launch, nonces: PoCL's 2 cores hash about 10^3 a second */
#define KDF_TPB 128
#define THREADS_PER_CU 2048 /* an NVIDIA SM's resident threads (sm_80, sm_90) */
#define REGS_PER_CU 65536
#define STEPS_LOCAL_PER_ITEM ((8 * 8 + 4) * 16 / 4) /* bytes a kernel-2 work-item parks X in (r = 8) */

static kiln_status device_info(kiln_gpu *g, cl_device_info what, size_t size, void *out, const char *name)
{
    return kiln_ocl_check(g->ctx, clGetDeviceInfo(g->device, what, size, out, NULL), name);
}

static kiln_status little_endian(kiln_gpu *g)
{
    cl_bool little = CL_FALSE;
    kiln_status st = device_info(g, CL_DEVICE_ENDIAN_LITTLE, sizeof little, &little, "clGetDeviceInfo (endianness)");
    if (st == KILN_OK && !little)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "%s is big-endian: the OpenCL scrypt kernels need a little-endian device",
                         g->name);
    return st;
}

/* Lanes a launch may hold for the scratchpads alone: the memory budget (GPUs: most of their
 * memory, though less than CUDA's plan takes; a CPU device shares the host's, so a
 * quarter) over MAX_BUFS buffers of at most the largest allocation each. *per_buf: slots a
 * buffer. 0 lanes when not even one fits. */
typedef struct mem_plan {
    uint64_t lanes, per_buf;
} mem_plan;

static kiln_status plan_memory(kiln_gpu *g, uint64_t per_slot, uint64_t extra_per_lane, mem_plan *p)
{
    cl_ulong max_alloc = 0, global = 0;
    cl_device_type type = 0;
    kiln_status st = device_info(g, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, "clGetDeviceInfo (largest allocation)");
    if (st == KILN_OK) st = device_info(g, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global, &global, "clGetDeviceInfo (global memory)");
    if (st == KILN_OK) st = device_info(g, CL_DEVICE_TYPE, sizeof type, &type, "clGetDeviceInfo (type)");
    if (st != KILN_OK) return st;
    /* GPUs start from 64% of their memory: NVIDIA's driver refused 85% of the H200's 140 GiB
     * (118 GiB) at the first launch and ran 88 GiB, and a refused chunk costs its launch; the
     * back-off stays for the drivers that take less */
    double budget = (type & CL_DEVICE_TYPE_CPU) ? (double)global / 4 : (double)global * 0.64 - (double)(UINT64_C(1) << 30);
    if (budget < (double)global / 4) budget = (double)global / 4;
    budget *= pow(0.75, g->scrypt_budget_backoffs);
    p->per_buf = max_alloc / per_slot;
    p->lanes = (uint64_t)(budget / (double)(per_slot + extra_per_lane));
    if (p->lanes > MAX_BUFS * p->per_buf) p->lanes = MAX_BUFS * p->per_buf;
    if (p->lanes == 0)
        return kiln_fail(g->ctx, KILN_ERR_INPUT,
                         "a scrypt scratchpad of %llu MiB does not fit %s (largest allocation %llu MiB, memory %llu MiB)",
                         (unsigned long long)(per_slot >> 20), g->name, (unsigned long long)(max_alloc >> 20),
                         (unsigned long long)(global >> 20));
    return KILN_OK;
}

void kiln_ocl_scrypt_release(kiln_gpu *g)
{
    for (int i = 0; i < g->scrypt_nbuf; i++) clReleaseMemObject(g->scrypt_v[i]);
    g->scrypt_nbuf = 0;
    g->scrypt_buf_bytes = 0;
}

/* The handle's scratchpad buffers for `lanes` slots of per_slot bytes, per_buf a buffer: those
 * it has when they are large enough, else new ones. */
static kiln_status scratch(kiln_gpu *g, uint64_t lanes, uint64_t per_slot, uint64_t per_buf)
{
    if (per_buf > lanes) per_buf = lanes;
    const int nbuf = (int)((lanes + per_buf - 1) / per_buf);
    const uint64_t bytes = per_buf * per_slot;
    if (nbuf <= g->scrypt_nbuf && bytes <= g->scrypt_buf_bytes) return KILN_OK;
    kiln_ocl_scrypt_release(g);
    g->scrypt_buf_bytes = bytes;
    for (int i = 0; i < nbuf; i++) {
        cl_int err;
        g->scrypt_v[i] = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)bytes, NULL, &err);
        KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (scrypt scratchpads)");
        g->scrypt_nbuf = i + 1;
    }
    return KILN_OK;
}

#define ARG(k, i, v) KILN_OCL_TRY(g->ctx, clSetKernelArg((k), (i), sizeof(v), &(v)), "clSetKernelArg (scrypt)")

/* A ROMix kernel's arguments after B: lane0, lanes (set per launch), N, gap_log2 or r, per_buf
 * (in buffer lane units: the buffers are the handle's, all of per_buf slots) and V0..V3. */
static kiln_status romix_args(kiln_gpu *g, cl_kernel k, cl_mem B, cl_uint N, cl_uint gap_log2_or_r, uint64_t per_slot)
{
    cl_ulong per_buf = g->scrypt_buf_bytes / per_slot;
    ARG(k, 0, B);
    ARG(k, 3, N);
    ARG(k, 4, gap_log2_or_r);
    ARG(k, 5, per_buf);
    for (int i = 0; i < MAX_BUFS; i++) {
        cl_mem v = g->scrypt_v[i < g->scrypt_nbuf ? i : 0];
        ARG(k, 6 + i, v);
    }
    return KILN_OK;
}

/* A work-group size for a quad kernel: tpb, within what the kernel can run, a multiple of 32 on
 * NVIDIA (whole warps, so quads never straddle one) and of 4 elsewhere. */
static kiln_status quad_group(kiln_gpu *g, cl_kernel k, int tpb, size_t *local)
{
    size_t most = 0;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(k, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL),
                 "clGetKernelWorkGroupInfo");
    const size_t unit = kiln_ocl_is_nv(g) ? 32 : 4;
    size_t l = (size_t)tpb < most ? (size_t)tpb : most;
    l -= l % unit;
    if (l == 0)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "%s runs the scrypt kernel in groups of at most %zu work-items (%zu needed)",
                         g->name, most, unit);
    *local = l;
    return KILN_OK;
}

/* Kernel 2's group size within the local memory a group may have (NVIDIA's driver: 48 KiB, so at
 * most 160 work-items at r = 8), and its parking space, the kernel's last argument. */
static kiln_status steps_local(kiln_gpu *g, cl_kernel k, size_t *local)
{
    cl_ulong have = 0, fixed = 0;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof have, &have, NULL),
                 "clGetDeviceInfo (local memory)");
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(k, g->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof fixed, &fixed, NULL),
                 "clGetKernelWorkGroupInfo (local memory)");
    const size_t unit = kiln_ocl_is_nv(g) ? 32 : 4;
    const size_t fit = have > fixed ? (size_t)((have - fixed) / STEPS_LOCAL_PER_ITEM) / unit * unit : 0;
    if (fit == 0)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "%s has %llu bytes of local memory a group: too few for scrypt ROMix kernel 2",
                         g->name, (unsigned long long)have);
    if (*local > fit) *local = fit;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(k, 10, *local * STEPS_LOCAL_PER_ITEM, NULL), "clSetKernelArg (scrypt local memory)");
    return KILN_OK;
}

/* Enqueues k over `items` work-items in groups of `local` (the range rounded up to whole groups;
 * the kernels mask the rest), its event in *ev. */
static kiln_status enqueue(kiln_gpu *g, cl_kernel k, uint64_t items, size_t local, cl_event *ev)
{
    size_t global = (size_t)((items + local - 1) / local * local);
    cl_int err = clEnqueueNDRangeKernel(g->queue, k, 1, NULL, &global, &local, 0, NULL, ev);
    g->scrypt_alloc_refused = err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES;
    return kiln_ocl_check(g->ctx, err, "clEnqueueNDRangeKernel (scrypt)");
}

static void release_events(cl_event *ev, int n)
{
    for (int i = 0; i < n; i++)
        if (ev[i]) clReleaseEvent(ev[i]), ev[i] = NULL;
}

/* ROMix kernels' names and the resident lanes a compute unit is estimated to hold: OpenCL has no
 * occupancy query, so the register counts ptxas gives these kernels for sm_90 through
 * scripts/ocl-ptx-check.sh (r = 1: 32, 2: 40, 4: 66, 8: 103; with a gap 52, 72, 128, 226;
 * streamed: 40) stand in for every device. Kernel 2 (the second loop in per-quad steps, X parked
 * in local memory) is there for r = 8, the KDF's usual cost; NVIDIA's driver builds it with its
 * registers capped (kiln_ocl_kernel_capped: 128, as CUDA's launch bounds do), so its count is known
 * there (clang gives it 168 uncapped: the estimate elsewhere, where no cap can be asked for). */
static const char *romix_name(uint32_t r, int gap, int steps)
{
    if (steps) return "kiln_scrypt_romix_steps_r8";
    switch (r) {
    case 1: return gap ? "kiln_scrypt_romix_r1_gap" : "kiln_scrypt_romix_r1";
    case 2: return gap ? "kiln_scrypt_romix_r2_gap" : "kiln_scrypt_romix_r2";
    case 4: return gap ? "kiln_scrypt_romix_r4_gap" : "kiln_scrypt_romix_r4";
    case 8: return gap ? "kiln_scrypt_romix_r8_gap" : "kiln_scrypt_romix_r8";
    default: return "kiln_scrypt_romix_any";
    }
}

static int templated(uint32_t r) { return r == 1 || r == 2 || r == 4 || r == 8; }

/* ROMix in launches of a part of its 2 N steps (kernels/scrypt.cl's from and to), each waited for,
 * the interrupt read between them: a whole ROMix a launch took minutes on a CPU device at large N
 * (issue 36.11), and a GPU's wave at r = 8 a third of a second. A launch aims at ROMIX_LAUNCH_S,
 * paced by the last one's time (at most twice the work, or 4 times less, than it:
 * with 8 times, a launch after a quick one ran 4.7 s on PoCL with both cores busy), the first
 * of ROMIX_FIRST_WORK lane-steps over its lanes. Work is counted in BlockMix steps: a step of the
 * mix with a lookup gap G counts G (a read recomputes up to G - 1 rows, and a group waits for its
 * slowest). */
#define ROMIX_LAUNCH_S 0.25
#define ROMIX_FIRST_WORK 16384.0

typedef struct romix_pace {
    double work; /* BlockMix steps for the next launch; 0 before the first */
} romix_pace;

/* Runs k (its other arguments set) over `lanes` lanes in groups of `local`, steps [0, 2 N) in
 * launches; `from` is kernel argument arg_from, `to` the next. */
static kiln_status romix_launches(kiln_gpu *g, cl_kernel k, cl_uint arg_from, uint64_t N, uint32_t mix_cost,
                                  uint64_t lanes, size_t local, romix_pace *pace)
{
    const uint64_t total = 2 * N;
    if (pace->work < 1) pace->work = ROMIX_FIRST_WORK / (double)lanes < 16 ? 16 : ROMIX_FIRST_WORK / (double)lanes;
    for (uint64_t from = 0; from < total;) {
        /* the fill's steps first, then the mix's */
        double left = pace->work;
        uint64_t to = from;
        if (to < N) {
            uint64_t f = left < (double)(N - to) ? (uint64_t)left : N - to;
            to += f ? f : 1;
            left -= (double)(f ? f : 1);
        }
        if (to >= N && left >= mix_cost) {
            uint64_t m = (uint64_t)(left / mix_cost);
            to += m < total - to ? m : total - to;
        }
        if (to == from) to = from + 1;
        const double work = (double)((to < N ? to : N) - (from < N ? from : N)) +
                            (double)mix_cost * (double)((to > N ? to - N : 0) - (from > N ? from - N : 0));
        cl_ulong a = from, b = to;
        KILN_OCL_TRY(g->ctx, clSetKernelArg(k, arg_from, sizeof a, &a), "clSetKernelArg (scrypt steps)");
        KILN_OCL_TRY(g->ctx, clSetKernelArg(k, arg_from + 1, sizeof b, &b), "clSetKernelArg (scrypt steps)");
        const double t0 = kiln_now();
        size_t global = (size_t)((lanes * 4 + local - 1) / local * local);
        cl_int err = clEnqueueNDRangeKernel(g->queue, k, 1, NULL, &global, &local, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clFinish(g->queue);
        g->scrypt_alloc_refused = err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES;
        kiln_status st = kiln_ocl_check(g->ctx, err, "scrypt ROMix kernel");
        if (st != KILN_OK) return st;
        const double t = kiln_now() - t0;
        from = to;
        /* a launch cut short by the end of the fill or of the mix says little of the pace */
        if (work >= pace->work / 2) {
            double f = t > 0 ? ROMIX_LAUNCH_S / t : 2;
            f = f > 2 ? 2 : f < 0.25 ? 0.25 : f;
            pace->work = work * f < 1 ? 1 : work * f;
        }
        if (from < total && kiln_ctx_interrupt_requested(g->ctx)) return kiln_interrupted(g->ctx);
    }
    return KILN_OK;
}

static uint64_t lanes_per_cu(const kiln_gpu *g, uint32_t r, int gap, int steps)
{
    int regs = 40;
    switch (steps ? 0 : r) {
    case 0: regs = kiln_ocl_is_nv(g) ? KILN_OCL_CAPPED_REGS : 168; break;
    case 1: regs = gap ? 52 : 32; break;
    case 2: regs = gap ? 72 : 40; break;
    case 4: regs = gap ? 128 : 66; break;
    case 8: regs = gap ? 226 : 103; break;
    }
    int threads = REGS_PER_CU / regs;
    if (threads > THREADS_PER_CU) threads = THREADS_PER_CU;
    return (uint64_t)threads / 4;
}

static kiln_status compute_units(kiln_gpu *g, uint64_t *units)
{
    cl_uint u = 1;
    kiln_status st = device_info(g, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, "clGetDeviceInfo (compute units)");
    *units = u ? u : 1;
    return st;
}

static int gap_log2(uint32_t gap)
{
    int l = 0;
    while ((UINT32_C(1) << l) < gap) l++;
    return l;
}

/* ---- the Litecoin search */

typedef struct search_res {
    cl_mem B, K, cand, count;
    cl_kernel in, romix, out;
    size_t local; /* the ROMix kernel's group size */
} search_res;

/* One launch of the search: PBKDF2 in, ROMix, PBKDF2 out and the target test, back to back. */
static kiln_status search_launch(kiln_gpu *g, void *arg, cl_uint first, cl_uint n, cl_uint room, float *ms)
{
    search_res *r = arg;
    ARG(r->in, 1, first);
    ARG(r->in, 2, n);
    ARG(r->romix, 2, n);
    ARG(r->out, 0, first);
    ARG(r->out, 1, n);
    ARG(r->out, 6, room);
    cl_event ev[3] = {NULL, NULL, NULL};
    kiln_status st = enqueue(g, r->in, n, PBKDF2_GROUP, &ev[0]);
    if (st == KILN_OK) st = enqueue(g, r->romix, (uint64_t)n * 4, r->local, &ev[1]);
    if (st == KILN_OK) st = enqueue(g, r->out, n, PBKDF2_GROUP, &ev[2]);
    if (st == KILN_OK) st = kiln_ocl_check(g->ctx, clWaitForEvents(1, &ev[2]), "scrypt search launch");
    if (st == KILN_OK) *ms = kiln_ocl_span_ms(ev[0], ev[2]);
    release_events(ev, 3);
    return st;
}

static kiln_status search(kiln_gpu *g, search_res *r, const kiln_scrypt_job *job, const kiln_gpu_scrypt_cfg *cfg,
                          uint32_t start, uint64_t count, uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms)
{
    /* threads per hash: the quad layout only (1 asks for the layout CUDA measured slower at every
     * gap, docs/SCRYPT.md; it runs the quad too) */
    const int tpb = cfg->threads_per_block ? cfg->threads_per_block : LTC_TPB;
    const uint32_t gap = cfg->lookup_gap ? (uint32_t)cfg->lookup_gap : 1;
    const int waves = cfg->hashes_per_thread ? cfg->hashes_per_thread : LTC_WAVES;
    if ((cfg->threads_per_hash != 0 && cfg->threads_per_hash != 1 && cfg->threads_per_hash != 4) || gap > 16 ||
        (gap & (gap - 1)) || tpb < 32 || tpb > GROUP_MAX || tpb % 32 || waves < 1 || waves > 64)
        return kiln_fail(g->ctx, KILN_ERR_INPUT,
                         "scrypt launch: threads per hash %d (1 or 4), lookup gap %u (1..16, a power of two), threads per "
                         "block %d (32..256, multiple of 32), waves %d (1..64)",
                         cfg->threads_per_hash, gap, tpb, waves);
    kiln_status st = little_endian(g);
    if (st != KILN_OK) return st;
    const cl_uint lg = (cl_uint)gap_log2(gap), N = LTC_N;
    const uint64_t per_slot = (uint64_t)(LTC_N / gap) * 128, per_nonce = 128 + 64; /* B, K */
    uint64_t units;
    if ((st = compute_units(g, &units)) != KILN_OK) return st;
    mem_plan mp;
    if ((st = plan_memory(g, per_slot, per_nonce, &mp)) != KILN_OK) return st;
    uint64_t per_launch = units * lanes_per_cu(g, 1, gap > 1, 0) * (uint64_t)waves;
    if (per_launch > mp.lanes) per_launch = mp.lanes;
    if (per_launch > count) per_launch = count;
    if ((st = scratch(g, per_launch, per_slot, mp.per_buf)) != KILN_OK) return st;

    cl_int err;
    r->B = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)(per_launch * 128), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (scrypt B)");
    r->K = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)(per_launch * 64), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (scrypt HMAC states)");
    r->cand = clCreateBuffer(g->context, CL_MEM_WRITE_ONLY, (cap ? cap : 1) * sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (candidates)");
    r->count = clCreateBuffer(g->context, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (candidate count)");
    if ((st = kiln_ocl_kernel(g, "kiln_scrypt_ltc_in", &r->in)) != KILN_OK ||
        (st = kiln_ocl_kernel(g, romix_name(1, gap > 1, 0), &r->romix)) != KILN_OK ||
        (st = kiln_ocl_kernel(g, "kiln_scrypt_ltc_out", &r->out)) != KILN_OK)
        return st;
    if ((st = quad_group(g, r->romix, tpb, &r->local)) != KILN_OK) return st;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->in, 0, sizeof *job, job), "clSetKernelArg (scrypt)");
    ARG(r->in, 3, r->B);
    ARG(r->in, 4, r->K);
    if ((st = romix_args(g, r->romix, r->B, N, lg, per_slot)) != KILN_OK) return st;
    const cl_ulong lane0 = 0;
    const cl_uint target_top = job->target_top;
    ARG(r->romix, 1, lane0);
    /* a search launch is a whole ROMix (N = 1024: short), paced by its nonces per launch */
    const cl_ulong from = 0, to = 2 * (cl_ulong)N;
    ARG(r->romix, 10, from);
    ARG(r->romix, 11, to);
    ARG(r->out, 2, target_top);
    ARG(r->out, 3, r->B);
    ARG(r->out, 4, r->K);
    ARG(r->out, 5, r->cand);
    ARG(r->out, 7, r->count);
    /* launches of a fraction of a second: a wave of a CPU device's lanes (PoCL: 2048 nonces) took
     * 2 s there, which an interrupt waited for; a GPU grows to its waves in a few launches */
    const uint64_t first = per_launch < SEARCH_FIRST ? per_launch : SEARCH_FIRST;
    return kiln_ocl_search_launches(g, search_launch, r, r->cand, r->count, start, count, first, per_launch, cand,
                                    cap, ncand, gpu_ms);
}

kiln_status kiln_ocl_scrypt_search(kiln_gpu *g, const kiln_scrypt_job *job, const kiln_gpu_scrypt_cfg *cfg,
                                   uint32_t start, uint64_t count, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                   float *gpu_ms)
{
    *ncand = 0;
    if (count == 0) return KILN_OK;
    search_res r = {0};
    kiln_status st = search(g, &r, job, cfg, start, count, cand, cap, ncand, gpu_ms);
    cl_mem *m[] = {&r.B, &r.K, &r.cand, &r.count};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (*m[i]) clReleaseMemObject(*m[i]);
    cl_kernel *k[] = {&r.in, &r.romix, &r.out};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (*k[i]) clReleaseKernel(*k[i]);
    return st;
}

/* ---- the KDF batch */

typedef struct kdf_plan {
    uint64_t lanes, per_slot, per_buf; /* lanes a ROMix launch; bytes a slot; slots a buffer */
    uint32_t gap;
    int steps; /* ROMix kernel 2 */
    size_t local;
} kdf_plan;

/* Kernel 2 where asked for (items_per_thread 2) or by default at r = 8, as on CUDA; it exists for
 * r = 8 only, so other r run kernel 1 whatever is asked. */
static int kdf_steps(const kiln_gpu_scrypt_kdf_cfg *cfg) { return cfg->r == 8 && cfg->romix_kernel != 1; }

static kiln_status kdf_check(kiln_gpu *g, const kiln_gpu_scrypt_kdf_cfg *cfg, size_t out_len)
{
    if (cfg->N < 2 || (cfg->N & (cfg->N - 1)) || cfg->r < 1 || cfg->p < 1)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt: N must be a power of two >= 2, r and p >= 1");
    if (cfg->N > (UINT64_C(1) << 31))
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt N = %llu is too large for the OpenCL batch (at most 2^31)",
                         (unsigned long long)cfg->N);
    if (out_len == 0 || out_len > 0xffffffffu || (uint64_t)cfg->r * cfg->p > (UINT64_C(1) << 24))
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt: key length or r * p out of the OpenCL kernels' range");
    const int tpb = cfg->threads_per_block;
    if (tpb && (tpb < 32 || tpb > GROUP_MAX || tpb % 32))
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt batch: threads per block %d must be a multiple of 32 in 32..256", tpb);
    const int gap = cfg->lookup_gap;
    if (gap && (gap > 16 || (gap & (gap - 1))))
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt batch: lookup gap %d must be 1, 2, 4, 8 or 16", gap);
    if (cfg->romix_kernel < 0 || cfg->romix_kernel > 2)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt batch: ROMix kernel %d must be 1 (registers) or 2 (steps)",
                         cfg->romix_kernel);
    return little_endian(g);
}

/* Bytes of one lane's slot with gap G (the streaming kernel: N + 2 rows, no gap). */
static uint64_t slot_bytes(const kiln_gpu_scrypt_kdf_cfg *cfg, uint32_t gap)
{
    const uint64_t row = (uint64_t)128 * cfg->r;
    return templated(cfg->r) ? row * (cfg->N / gap) : row * (cfg->N + 2);
}

/* Lanes a ROMix launch holds (at most lanes_total) and the gap: a tuned gap, else the CUDA plan's
 * choice, the gap with the most resident lanes per unit of work, where in kernel 1 a warp waits
 * for the longest recomputation of its 8 quads (E[max of 8] steps) and in kernel 2 each quad pays
 * its own ((G - 1) / 2 steps). */
static kiln_status plan_kdf(kiln_gpu *g, const kiln_gpu_scrypt_kdf_cfg *cfg, uint64_t lanes_total, kdf_plan *p)
{
    if (cfg->N > UINT64_MAX / 128 / cfg->r / 2) return kiln_fail(g->ctx, KILN_ERR_INPUT, "scrypt: 128 r N overflows");
    uint64_t units;
    kiln_status st = compute_units(g, &units);
    if (st != KILN_OK) return st;
    const uint64_t b_lane = (uint64_t)128 * cfg->r;
    const int steps = kdf_steps(cfg);
    /* A hash whose whole scratchpad (no gap) passes the device's largest allocation is refused
     * here, up front, unless a gap was asked for: the automatic gap trades recomputation for more
     * lanes, not for a hash the device cannot hold (N = 2^23, r = 8 on PoCL: 8 GiB a hash past
     * its 4 GiB, which a gap of 16 squeezed into a run of hours; issue 36.11) */
    if (cfg->lookup_gap <= 0) {
        cl_ulong max_alloc = 0;
        st = device_info(g, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc,
                         "clGetDeviceInfo (largest allocation)");
        if (st != KILN_OK) return st;
        const uint64_t whole = slot_bytes(cfg, 1);
        if (whole > max_alloc)
            return kiln_fail(g->ctx, KILN_ERR_INPUT,
                             "scrypt N = %llu, r = %u needs %llu MiB of scratchpad a hash: past %s's largest "
                             "allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE) of %llu MiB",
                             (unsigned long long)cfg->N, (unsigned)cfg->r, (unsigned long long)(whole >> 20), g->name,
                             (unsigned long long)(max_alloc >> 20));
    }
    uint32_t gap = cfg->lookup_gap > 0 ? (uint32_t)cfg->lookup_gap : 0;
    if (!templated(cfg->r)) gap = 1; /* the streaming kernel keeps every row */
    if (gap > cfg->N) gap = (uint32_t)cfg->N;
    if (!gap) {
        double best = -1;
        for (uint32_t G = 1; G <= 16 && G <= cfg->N; G *= 2) {
            mem_plan mp;
            if (plan_memory(g, slot_bytes(cfg, G), b_lane, &mp) != KILN_OK) continue;
            double resident = (double)units * (double)lanes_per_cu(g, cfg->r, G > 1, steps), emax = 0;
            if (resident > (double)mp.lanes) resident = (double)mp.lanes;
            if (resident > (double)lanes_total) resident = (double)lanes_total;
            if (steps) emax = (G - 1) / 2.0;
            else
                for (uint32_t k = 1; k < G; k++) emax += 1 - pow((double)k / G, 8);
            /* kernel 2: lanes^0.6, as the CUDA plan scores it (docs/SCRYPT.md) */
            double score = (steps ? pow(resident, 0.6) : resident) / ((2 + emax) / 2);
            if (score > best) best = score, gap = G;
        }
        if (!gap) gap = 1; /* nothing fits: plan_memory below says so */
    }
    mem_plan mp;
    p->per_slot = slot_bytes(cfg, gap);
    if ((st = plan_memory(g, p->per_slot, b_lane, &mp)) != KILN_OK) return st;
    p->lanes = units * lanes_per_cu(g, cfg->r, gap > 1, steps);
    if (p->lanes > mp.lanes) p->lanes = mp.lanes;
    if (p->lanes > lanes_total) p->lanes = lanes_total;
    p->per_buf = mp.per_buf;
    p->gap = gap;
    p->steps = steps;
    return KILN_OK;
}

kiln_status kiln_ocl_batch_plan(kiln_gpu *g, const kiln_gpu_batch *w, uint64_t n, size_t item_len, uint64_t *slots,
                                uint32_t *gap)
{
    if (w->kind != KILN_GPU_BATCH_KDF) return kiln_fail(g->ctx, KILN_ERR_INPUT, "opencl: only a KDF batch has a plan");
    kiln_status st = kdf_check(g, &w->by.kdf, item_len);
    kdf_plan p;
    if (st == KILN_OK) st = plan_kdf(g, &w->by.kdf, n ? n : 1, &p);
    if (st != KILN_OK) return st;
    *slots = p.lanes;
    *gap = p.gap;
    return KILN_OK;
}

typedef struct kdf_res {
    cl_mem arena, items, B, out;
    cl_kernel in, romix, fin;
    uint8_t *h_arena;
    cl_ulong *h_items;
    romix_pace pace; /* kept from chunk to chunk */
} kdf_res;

/* Items [first, first + n): their passwords and salts packed into one arena, 4 ulongs an item. */
static kiln_status pack(kiln_gpu *g, kdf_res *r, const kiln_scrypt_input *in, size_t first, size_t n)
{
    size_t bytes = 0;
    for (size_t i = first; i < first + n; i++) bytes += in[i].password_len + in[i].salt_len;
    r->h_arena = malloc(bytes ? bytes : 1);
    r->h_items = malloc(n * 4 * sizeof *r->h_items);
    if (!r->h_arena || !r->h_items) return kiln_fail(g->ctx, KILN_ERR_DEVICE, "out of host memory");
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        const kiln_scrypt_input *x = &in[first + i];
        r->h_items[4 * i] = at;
        r->h_items[4 * i + 1] = x->password_len;
        if (x->password_len) memcpy(r->h_arena + at, x->password, x->password_len);
        at += x->password_len;
        r->h_items[4 * i + 2] = at;
        r->h_items[4 * i + 3] = x->salt_len;
        if (x->salt_len) memcpy(r->h_arena + at, x->salt, x->salt_len);
        at += x->salt_len;
    }
    cl_int err;
    r->arena = clCreateBuffer(g->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes ? bytes : 1, r->h_arena, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (passwords and salts)");
    r->items = clCreateBuffer(g->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4 * sizeof *r->h_items,
                              r->h_items, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (items)");
    return KILN_OK;
}

static void kdf_release_chunk(kdf_res *r)
{
    cl_mem *m[] = {&r->arena, &r->items, &r->B, &r->out};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        if (*m[i]) clReleaseMemObject(*m[i]);
        *m[i] = NULL;
    }
    free(r->h_arena);
    free(r->h_items);
    r->h_arena = NULL;
    r->h_items = NULL;
}

/* Items [first, first + n) into out (item_len bytes each): PBKDF2 in, ROMix over p.lanes lanes at
 * a time in launches of part of its steps (romix_launches, each waited for), PBKDF2 out; the
 * keys' read waits for it. */
static kiln_status kdf_chunk(kiln_gpu *g, kdf_res *r, const kiln_gpu_scrypt_kdf_cfg *cfg, const kdf_plan *p,
                             const kiln_gpu_batch_io *io, size_t first, size_t n, float *ms)
{
    kiln_status st = pack(g, r, io->in, first, n);
    if (st != KILN_OK) return st;
    const cl_uint bpi = 4 * cfg->r * cfg->p, out_len = (cl_uint)io->item_len, out_blocks = (out_len + 31) / 32;
    const cl_ulong nn = n;
    cl_int err;
    r->B = clCreateBuffer(g->context, CL_MEM_READ_WRITE, (size_t)n * bpi * 32, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (scrypt B)");
    r->out = clCreateBuffer(g->context, CL_MEM_WRITE_ONLY, (size_t)n * out_len, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (keys)");
    ARG(r->in, 0, r->arena);
    ARG(r->in, 1, r->items);
    ARG(r->in, 2, nn);
    ARG(r->in, 3, bpi);
    ARG(r->in, 4, r->B);
    ARG(r->fin, 0, r->arena);
    ARG(r->fin, 1, r->items);
    ARG(r->fin, 2, nn);
    ARG(r->fin, 3, bpi);
    ARG(r->fin, 4, r->B);
    ARG(r->fin, 5, out_blocks);
    ARG(r->fin, 6, out_len);
    ARG(r->fin, 7, r->out);
    const cl_uint lg_or_r = templated(cfg->r) ? (cl_uint)gap_log2(p->gap) : cfg->r;
    if ((st = romix_args(g, r->romix, r->B, (cl_uint)cfg->N, lg_or_r, p->per_slot)) != KILN_OK) return st;

    cl_event first_ev = NULL, last_ev = NULL;
    st = enqueue(g, r->in, (uint64_t)n * bpi, PBKDF2_GROUP, &first_ev);
    const uint64_t total = (uint64_t)n * cfg->p;
    /* a step of the mix recomputes up to G - 1 rows (the streaming kernel has no gap) */
    const uint32_t mix_cost = templated(cfg->r) ? p->gap : 1;
    for (uint64_t done = 0; st == KILN_OK && done < total;) {
        cl_ulong lane0 = done;
        cl_uint count = (cl_uint)(total - done < p->lanes ? total - done : p->lanes);
        st = kiln_ocl_check(g->ctx, clSetKernelArg(r->romix, 1, sizeof lane0, &lane0), "clSetKernelArg (scrypt)");
        if (st == KILN_OK)
            st = kiln_ocl_check(g->ctx, clSetKernelArg(r->romix, 2, sizeof count, &count), "clSetKernelArg (scrypt)");
        /* kernel 2's from and to follow its local memory */
        if (st == KILN_OK)
            st = romix_launches(g, r->romix, p->steps ? 11 : 10, cfg->N, mix_cost, count, p->local, &r->pace);
        done += count;
        if (st == KILN_OK && done < total && kiln_ctx_interrupt_requested(g->ctx)) st = kiln_interrupted(g->ctx);
    }
    if (st == KILN_OK) st = enqueue(g, r->fin, (uint64_t)n * out_blocks, PBKDF2_GROUP, &last_ev);
    if (st == KILN_OK)
        st = kiln_ocl_check(g->ctx,
                            clEnqueueReadBuffer(g->queue, r->out, CL_TRUE, 0, (size_t)n * out_len,
                                                (uint8_t *)io->out + first * io->item_len, 0, NULL, NULL),
                            "clEnqueueReadBuffer (keys)");
    if (st == KILN_OK) *ms += kiln_ocl_span_ms(first_ev, last_ev);
    if (first_ev) clReleaseEvent(first_ev);
    if (last_ev) clReleaseEvent(last_ev);
    return st;
}

/* The KDF's launch shape: its plan, the items a chunk (one launch's lanes, with B, 128 r p bytes
 * an item, within 64 MiB, at least one item, whose p lanes then take several launches) and the
 * scratchpads for it. */
static kiln_status kdf_shape(kiln_gpu *g, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_gpu_batch_io *io, kdf_plan *p,
                             uint64_t *items)
{
    kiln_status st = plan_kdf(g, cfg, (uint64_t)io->n * cfg->p, p);
    if (st != KILN_OK) return st;
    const uint64_t b_item = (uint64_t)128 * cfg->r * cfg->p;
    *items = p->lanes / cfg->p;
    if (*items > (UINT64_C(64) << 20) / b_item) *items = (UINT64_C(64) << 20) / b_item;
    if (*items < 1) *items = 1;
    if (p->lanes > *items * cfg->p) p->lanes = *items * cfg->p;
    return scratch(g, p->lanes, p->per_slot, p->per_buf);
}

static void kdf_release_kernels(kdf_res *r)
{
    cl_kernel *k[] = {&r->in, &r->romix, &r->fin};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        if (*k[i]) clReleaseKernel(*k[i]);
        *k[i] = NULL;
    }
}

/* Items [*first, n) in chunks, *first advanced past each chunk done. */
static kiln_status kdf_from(kiln_gpu *g, kdf_res *r, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_gpu_batch_io *io,
                            size_t *first, float *ms)
{
    kdf_plan p;
    uint64_t items = 0;
    kiln_status st = kdf_shape(g, cfg, io, &p, &items);
    if (st != KILN_OK) return st;
    if ((st = kiln_ocl_kernel(g, "kiln_scrypt_kdf_in", &r->in)) != KILN_OK ||
        (st = (p.steps ? kiln_ocl_kernel_capped : kiln_ocl_kernel)(g, romix_name(cfg->r, p.gap > 1, p.steps), &r->romix)) !=
            KILN_OK ||
        (st = kiln_ocl_kernel(g, "kiln_scrypt_kdf_out", &r->fin)) != KILN_OK)
        return st;
    if ((st = quad_group(g, r->romix, cfg->threads_per_block ? cfg->threads_per_block : KDF_TPB, &p.local)) != KILN_OK)
        return st;
    if (p.steps && (st = steps_local(g, r->romix, &p.local)) != KILN_OK) return st;
    while (*first < io->n && st == KILN_OK) {
        size_t n = io->n - *first < items ? io->n - *first : (size_t)items;
        st = kdf_chunk(g, r, cfg, &p, io, *first, n, ms);
        kdf_release_chunk(r);
        if (st != KILN_OK) break;
        *first += n;
        if (*first < io->n && kiln_ctx_interrupt_requested(g->ctx)) st = kiln_interrupted(g->ctx);
    }
    return st;
}

static kiln_status kdf(kiln_gpu *g, kdf_res *r, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_gpu_batch_io *io,
                       float *ms)
{
    kiln_status st = kdf_check(g, cfg, io->item_len);
    size_t first = 0;
    while (st == KILN_OK) {
        g->scrypt_alloc_refused = 0;
        st = kdf_from(g, r, cfg, io, &first, ms);
        if (st == KILN_OK || !g->scrypt_alloc_refused || g->scrypt_budget_backoffs >= MAX_BACKOFFS) break;
        /* the chunk that failed starts again from its passwords, with fewer scratchpads */
        g->scrypt_budget_backoffs++;
        kiln_ocl_scrypt_release(g);
        kdf_release_kernels(r);
        st = KILN_OK;
    }
    return st;
}

kiln_status kiln_ocl_scrypt_kdf(kiln_gpu *g, const kiln_gpu_scrypt_kdf_cfg *cfg, const kiln_gpu_batch_io *io,
                                float *gpu_ms)
{
    float ms = 0;
    if (io->n == 0) return KILN_OK;
    kdf_res r;
    memset(&r, 0, sizeof r);
    kiln_status st = kdf(g, &r, cfg, io, &ms);
    kdf_release_chunk(&r);
    kdf_release_kernels(&r);
    if (gpu_ms) *gpu_ms = ms;
    return st;
}
