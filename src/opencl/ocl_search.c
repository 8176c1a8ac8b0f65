/* Nonce searches on an OpenCL device: sha256d (kernels/sha256d_search.cl) and Litecoin scrypt
 * (ocl_scrypt.c). Launches cover at most 2^31 nonces, so the device's 32-bit candidate counter
 * cannot wrap; their candidates are joined here.
 *
 * A launch lasts about KILN_OCL_SEARCH_LAUNCH_S by the pace of the one before it (at most twice as
 * many nonces, or 4 times fewer: on a CPU device that other work shares, a launch sized after a
 * quick one ran for seconds), from a first launch the caller sizes, and the interrupt is read
 * between launches: the range a call is given was one launch, which on a CPU device (PoCL hashes
 * sha256d at about 1.4 MH/s on 2 cores) ran for seconds past an interrupt. The pace is a call's
 * own: a GPU spends its first few launches of a call growing to its size. */
#include "../core/clock.h"
#include "../core/sha256d_nonce.h"
#include "ocl_work.h"

#define MAX_LAUNCH (UINT64_C(1) << 31)
#define SHA256D_FIRST (UINT64_C(1) << 18) /* nonces: PoCL's 0.2 s, a GPU's tens of microseconds */

/* The next launch's nonces after n took t seconds, within [1, most]. */
static uint64_t next_launch(uint64_t n, double t, uint64_t most)
{
    double f = t > 0 ? KILN_OCL_SEARCH_LAUNCH_S / t : 2;
    f = f > 2 ? 2 : f < 0.25 ? 0.25 : f;
    const double next = (double)n * f;
    return next >= (double)most ? most : next < 1 ? 1 : (uint64_t)next;
}

typedef struct search_res {
    cl_mem cand, count;
    cl_kernel k;
} search_res;

kiln_status kiln_ocl_search_launches(kiln_gpu *g, kiln_ocl_search_launch launch, void *arg, cl_mem cand_buf,
                                     cl_mem count_buf, uint32_t start, uint64_t count, uint64_t first_launch,
                                     uint64_t per_launch, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                     float *gpu_ms)
{
    uint64_t total = 0, pace = first_launch < 1 ? 1 : first_launch > per_launch ? per_launch : first_launch;
    for (uint64_t done = 0; done < count;) {
        cl_uint first = (cl_uint)(start + done), n = (cl_uint)(count - done < pace ? count - done : pace);
        const double t0 = kiln_now();
        /* a launch's candidates go after those already kept */
        cl_uint kept = (cl_uint)(total < cap ? total : cap), room = cap - kept, zero = 0, found = 0;
        KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, count_buf, CL_FALSE, 0, sizeof zero, &zero, 0, NULL, NULL),
                     "clEnqueueWriteBuffer (candidate count)");
        float ms = 0;
        kiln_status st = launch(g, arg, first, n, room, &ms);
        if (st != KILN_OK) return st;
        *gpu_ms += ms;
        KILN_OCL_TRY(g->ctx, clEnqueueReadBuffer(g->queue, count_buf, CL_TRUE, 0, sizeof found, &found, 0, NULL, NULL),
                     "clEnqueueReadBuffer (candidate count)");
        cl_uint copy = found < room ? found : room;
        if (copy)
            KILN_OCL_TRY(g->ctx,
                         clEnqueueReadBuffer(g->queue, cand_buf, CL_TRUE, 0, copy * sizeof(cl_uint), cand + kept, 0,
                                             NULL, NULL),
                         "clEnqueueReadBuffer (candidates)");
        total += found;
        done += n;
        /* a launch cut short by the range's end says little of the pace */
        if (n >= pace / 2) pace = next_launch(n, kiln_now() - t0, per_launch);
        if (done < count && kiln_ctx_interrupt_requested(g->ctx)) return kiln_interrupted(g->ctx);
    }
    *ncand = total;
    return KILN_OK;
}

/* One sha256d launch in the context's shape: groups of `group` work-items each trying npt nonces,
 * so a launch covers whole groups (the kernel drops the offsets past its count). */
typedef struct sha256d_launch_arg {
    cl_kernel k;
    size_t group;
    cl_uint npt;
} sha256d_launch_arg;

static kiln_status sha256d_launch(kiln_gpu *g, void *arg, cl_uint first, cl_uint n, cl_uint room, float *ms)
{
    const sha256d_launch_arg *a = arg;
    uint64_t per_group = (uint64_t)a->group * a->npt;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(a->k, 1, sizeof first, &first), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(a->k, 2, sizeof n, &n), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(a->k, 4, sizeof room, &room), "clSetKernelArg");
    return kiln_ocl_run_local(g, a->k, (size_t)((n + per_group - 1) / per_group) * a->group, a->group, ms);
}

/* shape: the context's launch (kiln_ctx_set_launch), 0 fields CUDA's defaults: 512 work-items a
 * group, one nonce each. */
static kiln_status sha256d(kiln_gpu *g, search_res *r, const kiln_sha256d_job *job, kiln_launch shape, uint32_t start,
                           uint64_t count, uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms)
{
    int tpb = shape.threads_per_block > 0 ? shape.threads_per_block : 512;
    int npt = shape.items_per_thread > 0 ? shape.items_per_thread : 1;
    if (tpb < 32 || tpb > 1024 || tpb % 32 != 0)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "threads per block %d not a multiple of 32 in 32..1024", tpb);
    if (npt > 16 || (npt & (npt - 1)) != 0)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "nonces per thread %d not one of 1, 2, 4, 8, 16", npt);
    cl_int err;
    r->cand = clCreateBuffer(g->context, CL_MEM_WRITE_ONLY, (cap ? cap : 1) * sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (candidates)");
    r->count = clCreateBuffer(g->context, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (candidate count)");
    kiln_status st = kiln_ocl_kernel(g, "kiln_sha256d_search", &r->k);
    if (st != KILN_OK) return st;
    /* a group larger than the kernel can run on this device (its registers, the driver's limit) is
     * halved until it fits, as the Merkle kernels' groups are: a tuned shape of another device
     * still runs, at the size this one takes */
    size_t kmax = 0, group = (size_t)tpb;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(r->k, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL),
                 "clGetKernelWorkGroupInfo");
    while (group > 1 && group > kmax) group /= 2;
    kiln_sha256d_folded folded;
    kiln_sha256d_fold(&folded, job);
    cl_uint n_per = (cl_uint)npt;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 0, sizeof folded, &folded), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 3, sizeof r->cand, &r->cand), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 5, sizeof r->count, &r->count), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 6, sizeof n_per, &n_per), "clSetKernelArg");
    sha256d_launch_arg a = {r->k, group, n_per};
    return kiln_ocl_search_launches(g, sha256d_launch, &a, r->cand, r->count, start, count, SHA256D_FIRST, MAX_LAUNCH,
                                    cand, cap, ncand, gpu_ms);
}

kiln_status kiln_ocl_search(kiln_gpu *g, const kiln_gpu_search *w, uint32_t start, uint64_t count, uint32_t *cand,
                            uint32_t cap, uint64_t *ncand, float *gpu_ms)
{
    *ncand = 0;
    float ms = 0;
    if (!gpu_ms) gpu_ms = &ms;
    *gpu_ms = 0;
    if (count > (UINT64_C(1) << 32) - start)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "nonce range past 2^32 (start %u, count %llu)", start,
                         (unsigned long long)count);
    switch (w->kind) {
    case KILN_GPU_SEARCH_SHA256D: {
        search_res r = {0};
        kiln_status st = sha256d(g, &r, w->job.sha256d, w->shape.sha256d, start, count, cand, cap, ncand, gpu_ms);
        if (r.cand) clReleaseMemObject(r.cand);
        if (r.count) clReleaseMemObject(r.count);
        if (r.k) clReleaseKernel(r.k);
        return st;
    }
    case KILN_GPU_SEARCH_SCRYPT: /* ocl_scrypt.c */
        return kiln_ocl_scrypt_search(g, w->job.scrypt, &w->shape.scrypt, start, count, cand, cap, ncand, gpu_ms);
    }
    return kiln_fail(g->ctx, KILN_ERR_INPUT, "opencl: no search kernel of kind %d", (int)w->kind);
}
