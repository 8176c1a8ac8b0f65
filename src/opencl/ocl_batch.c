/* Batches on an OpenCL device: digests (one work-item per message, kernels/hash_batch.cl),
 * Keccak-f[1600] permutations and the scrypt KDF (ocl_scrypt.c). The layout of a permutation
 * batch is not used: every state is one work-item with its lanes in private memory (the CUDA
 * backend's "thread" layout). */
#include <stdio.h>
#include <stdlib.h>

#include "../prim/sha512.h"
#include "ocl_work.h"

/* The buffers and kernel of one batch, released on every path out. */
typedef struct batch_res {
    cl_mem data, offsets, out;
    cl_kernel k;
} batch_res;

static void release(batch_res *r)
{
    if (r->data) clReleaseMemObject(r->data);
    if (r->offsets) clReleaseMemObject(r->offsets);
    if (r->out) clReleaseMemObject(r->out);
    if (r->k) clReleaseKernel(r->k);
}

kiln_status kiln_ocl_check_digest(kiln_gpu *g, const kiln_gpu_hash_params *p)
{
    int ok = p->family == KILN_HASH_GPU_SHA256   ? p->outlen == 32
             : p->family == KILN_HASH_GPU_KECCAK ? p->rate >= 8 && p->rate < 200 && p->rate % 8 == 0 && p->outlen > 0 &&
                                                       p->outlen <= 0xffffffffu
             : p->family == KILN_HASH_GPU_SHA512
                 ? p->variant >= 0 && p->variant <= 2 && p->outlen == kiln_sha512_digest_len((kiln_sha512_variant)p->variant)
                 : 0;
    if (!ok)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "no OpenCL kernel for hash family %d (rate %u) with %zu output bytes",
                         (int)p->family, p->rate, p->outlen);
    return KILN_OK;
}

static cl_mem buffer(kiln_gpu *g, cl_mem_flags flags, size_t bytes, const void *host, cl_int *err)
{
    /* a zero-sized buffer is invalid: an empty message batch still gets one byte */
    return clCreateBuffer(g->context, flags | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes ? bytes : 1, (void *)host, err);
}

#define ARG(i, v) KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, (i), sizeof(v), &(v)), "clSetKernelArg")

/* The digest kernel of p with its arguments set. */
kiln_status kiln_ocl_digest_kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, cl_mem data, cl_mem offsets,
                                   int with_offsets, cl_ulong base, cl_ulong msg_len, cl_ulong n, cl_mem out,
                                   cl_kernel *k)
{
    batch_res rr = {data, offsets, out, NULL}, *r = &rr;
    /* a Keccak rate of the hash algorithms has its own kernel (hash_batch.cl), any other the generic one */
    char keccak[32] = "kiln_keccak_batch";
    const int per_rate = p->rate == 72 || p->rate == 104 || p->rate == 136 || p->rate == 144 || p->rate == 168;
    if (p->family == KILN_HASH_GPU_KECCAK && per_rate) snprintf(keccak, sizeof keccak, "kiln_keccak_batch_r%u", p->rate);
    const char *name = p->family == KILN_HASH_GPU_SHA256 ? "kiln_sha256_batch"
                       : p->family == KILN_HASH_GPU_SHA512 ? "kiln_sha512_batch"
                                                            : keccak;
    kiln_status st = kiln_ocl_kernel(g, name, &r->k);
    if (st != KILN_OK) return st;
    *k = r->k; /* the caller releases it, also on a failure below */
    ARG(0, r->data);
    ARG(1, r->offsets);
    ARG(2, with_offsets);
    ARG(3, base);
    ARG(4, msg_len);
    ARG(5, n);
    if (p->family == KILN_HASH_GPU_KECCAK && per_rate) {
        cl_uint domain = p->domain, outlen = (cl_uint)p->outlen;
        ARG(6, domain);
        ARG(7, outlen);
        ARG(8, r->out);
    } else if (p->family == KILN_HASH_GPU_KECCAK) {
        cl_uint rate = p->rate, domain = p->domain, outlen = (cl_uint)p->outlen;
        ARG(6, rate);
        ARG(7, domain);
        ARG(8, outlen);
        ARG(9, r->out);
    } else {
        cl_int v = p->family == KILN_HASH_GPU_SHA256 ? p->variant == 1 : p->variant;
        ARG(6, v);
        ARG(7, r->out);
    }
    *k = r->k;
    return KILN_OK;
}

static kiln_status digest(kiln_gpu *g, const kiln_gpu_hash_params *p, const kiln_gpu_batch_io *io, float *ms,
                          batch_res *r)
{
    kiln_status st = kiln_ocl_check_digest(g, p);
    if (st != KILN_OK || io->n == 0) return st;
    const uint64_t *offsets = io->offsets;
    uint64_t base = offsets ? offsets[0] : 0;
    uint64_t data_len = offsets ? offsets[io->n] - base : (uint64_t)io->item_len * io->n;
    if (io->n > SIZE_MAX / p->outlen) return kiln_fail(g->ctx, KILN_ERR_INPUT, "batch size overflows");
    cl_int err;
    r->data = buffer(g, CL_MEM_READ_ONLY, (size_t)data_len, data_len ? io->in : NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (messages)");
    r->offsets = buffer(g, CL_MEM_READ_ONLY, offsets ? (io->n + 1) * sizeof *offsets : 0, offsets, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (offsets)");
    r->out = buffer(g, CL_MEM_WRITE_ONLY, io->n * p->outlen, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (digests)");
    st = kiln_ocl_digest_kernel(g, p, r->data, r->offsets, offsets != NULL, base, io->item_len, io->n, r->out, &r->k);
    if (st != KILN_OK) return st;
    st = kiln_ocl_run(g, r->k, io->n, ms);
    if (st != KILN_OK) return st;
    KILN_OCL_TRY(g->ctx, clEnqueueReadBuffer(g->queue, r->out, CL_TRUE, 0, io->n * p->outlen, io->out, 0, NULL, NULL),
                 "clEnqueueReadBuffer (digests)");
    return KILN_OK;
}

static kiln_status permute(kiln_gpu *g, const kiln_gpu_batch_io *io, float *ms, batch_res *r)
{
    if (io->n == 0) return KILN_OK;
    if (io->n > SIZE_MAX / 200) return kiln_fail(g->ctx, KILN_ERR_INPUT, "batch size overflows");
    cl_int err;
    r->data = buffer(g, CL_MEM_READ_WRITE, io->n * 200, io->out, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (states)");
    kiln_status st = kiln_ocl_kernel(g, "kiln_keccak_f1600_batch", &r->k);
    if (st != KILN_OK) return st;
    cl_ulong n = io->n;
    cl_uint once = 1;
    ARG(0, r->data);
    ARG(1, n);
    ARG(2, once);
    st = kiln_ocl_run(g, r->k, io->n, ms);
    if (st != KILN_OK) return st;
    KILN_OCL_TRY(g->ctx, clEnqueueReadBuffer(g->queue, r->data, CL_TRUE, 0, io->n * 200, io->out, 0, NULL, NULL),
                 "clEnqueueReadBuffer (states)");
    return KILN_OK;
}

kiln_status kiln_ocl_batch(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_batch_io *io, float *gpu_ms)
{
    float ms = 0;
    batch_res r = {0};
    kiln_status st;
    switch (w->kind) {
    case KILN_GPU_BATCH_DIGEST: st = digest(g, &w->by.digest, io, &ms, &r); break;
    case KILN_GPU_BATCH_PERMUTE: st = permute(g, io, &ms, &r); break;
    case KILN_GPU_BATCH_KDF: return kiln_ocl_scrypt_kdf(g, &w->by.kdf, io, gpu_ms); /* ocl_scrypt.c */
    default: return kiln_fail(g->ctx, KILN_ERR_INPUT, "opencl: no batch kernel of kind %d", (int)w->kind);
    }
    release(&r);
    if (gpu_ms) *gpu_ms = ms;
    return st;
}
