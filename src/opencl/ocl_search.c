/* Nonce searches on an OpenCL device: sha256d (kernels/sha256d_search.cl) and Litecoin scrypt
 * (ocl_scrypt.c). Launches cover at most 2^31 nonces, so the device's 32-bit candidate counter
 * cannot wrap; their candidates are joined here. */
#include "../core/sha256d_nonce.h"
#include "ocl_work.h"

#define MAX_LAUNCH (UINT64_C(1) << 31)

typedef struct search_res {
    cl_mem cand, count;
    cl_kernel k;
} search_res;

kiln_status kiln_ocl_search_launches(kiln_gpu *g, cl_kernel k, const cl_uint arg[3], cl_mem cand_buf, cl_mem count_buf,
                                     uint32_t start, uint64_t count, uint64_t per_launch, uint32_t *cand, uint32_t cap,
                                     uint64_t *ncand, float *gpu_ms)
{
    uint64_t total = 0;
    for (uint64_t done = 0; done < count;) {
        cl_uint first = (cl_uint)(start + done), n = (cl_uint)(count - done < per_launch ? count - done : per_launch);
        /* a launch's candidates go after those already kept */
        cl_uint kept = (cl_uint)(total < cap ? total : cap), room = cap - kept, zero = 0, found = 0;
        KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, count_buf, CL_FALSE, 0, sizeof zero, &zero, 0, NULL, NULL),
                     "clEnqueueWriteBuffer (candidate count)");
        KILN_OCL_TRY(g->ctx, clSetKernelArg(k, arg[0], sizeof first, &first), "clSetKernelArg");
        KILN_OCL_TRY(g->ctx, clSetKernelArg(k, arg[1], sizeof n, &n), "clSetKernelArg");
        KILN_OCL_TRY(g->ctx, clSetKernelArg(k, arg[2], sizeof room, &room), "clSetKernelArg");
        float ms;
        kiln_status st = kiln_ocl_run(g, k, n, &ms);
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
        if (done < count && kiln_ctx_interrupt_requested(g->ctx)) return kiln_interrupted(g->ctx);
    }
    *ncand = total;
    return KILN_OK;
}

static kiln_status sha256d(kiln_gpu *g, search_res *r, const kiln_sha256d_job *job, uint32_t start, uint64_t count,
                           uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms)
{
    cl_int err;
    r->cand = clCreateBuffer(g->context, CL_MEM_WRITE_ONLY, (cap ? cap : 1) * sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (candidates)");
    r->count = clCreateBuffer(g->context, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (candidate count)");
    kiln_status st = kiln_ocl_kernel(g, "kiln_sha256d_search", &r->k);
    if (st != KILN_OK) return st;
    kiln_sha256d_folded folded;
    kiln_sha256d_fold(&folded, job);
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 0, sizeof folded, &folded), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 3, sizeof r->cand, &r->cand), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 5, sizeof r->count, &r->count), "clSetKernelArg");
    static const cl_uint arg[3] = {1, 2, 4};
    return kiln_ocl_search_launches(g, r->k, arg, r->cand, r->count, start, count, MAX_LAUNCH, cand, cap, ncand, gpu_ms);
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
        kiln_status st = sha256d(g, &r, w->job.sha256d, start, count, cand, cap, ncand, gpu_ms);
        if (r.cand) clReleaseMemObject(r.cand);
        if (r.count) clReleaseMemObject(r.count);
        if (r.k) clReleaseKernel(r.k);
        return st;
    }
    case KILN_GPU_SEARCH_SCRYPT: /* the shape (threads per hash, lookup gap) is not used: ocl_scrypt.c */
        return kiln_ocl_scrypt_search(g, w->job.scrypt, start, count, cand, cap, ncand, gpu_ms);
    }
    return kiln_fail(g->ctx, KILN_ERR_INPUT, "opencl: no search kernel of kind %d", (int)w->kind);
}
