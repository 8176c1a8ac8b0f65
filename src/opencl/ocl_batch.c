/* Batches on an OpenCL device: digests (one work-item per message; each family's check, kernel
 * and arguments are its own, ocl_hash_family.h), Keccak-f[1600] permutations in the study's three
 * layouts (as src/cuda/keccak_perm.cu) and the scrypt KDF (ocl_scrypt.c). Work-group sizes are the
 * CUDA backend's block sizes (256 for digests, 128 for a state a work-item, 32 states of 25 for
 * the lane layout), capped by what the device takes, and the range is rounded up to whole groups,
 * so a batch of any size does not leave the runtime to pick some divisor of it. */
#include <stdlib.h>

#include "ocl_hash_family.h"
#include "ocl_work.h"

typedef kiln_ocl_batch_res batch_res;

/* The families of KILN_HASH_GPU_FAMILIES, by kiln_hash_gpu_family value (NONE has none). */
#define FAMILY_ENTRY(algo, ID, name) [KILN_HASH_GPU_##ID] = &kiln_ocl_hash_##name,
static const kiln_ocl_hash_family *const families[KILN_HASH_GPU_FAMILY_END] = {KILN_HASH_GPU_FAMILIES(FAMILY_ENTRY)};
#undef FAMILY_ENTRY

static const kiln_ocl_hash_family *family_of(const kiln_gpu_hash_params *p)
{
    return p->family > KILN_HASH_GPU_NONE && p->family < KILN_HASH_GPU_FAMILY_END ? families[p->family] : NULL;
}

kiln_status kiln_ocl_check_digest(kiln_gpu *g, const kiln_gpu_hash_params *p)
{
    const kiln_ocl_hash_family *f = family_of(p);
    if (!f || !f->check(p))
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

/* The largest power of two <= want that k takes on this device (at least 1). */
static kiln_status group_size(kiln_gpu *g, cl_kernel k, size_t want, size_t *local)
{
    size_t most = 0;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(k, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL),
                 "clGetKernelWorkGroupInfo");
    size_t l = 1;
    while (2 * l <= want && 2 * l <= most) l *= 2;
    *local = l;
    return KILN_OK;
}

kiln_status kiln_ocl_run_items(kiln_gpu *g, cl_kernel k, size_t items, size_t local, float *ms)
{
    if (local == 0) return kiln_ocl_run(g, k, items, ms);
    return kiln_ocl_run_local(g, k, (items + local - 1) / local * local, local, ms);
}

kiln_status kiln_ocl_digest_arg(kiln_gpu *g, cl_kernel k, cl_uint i, size_t size, const void *v)
{
    KILN_OCL_TRY(g->ctx, clSetKernelArg(k, i, size, v), "clSetKernelArg");
    return KILN_OK;
}

kiln_status kiln_ocl_digest_open(kiln_gpu *g, const char *name, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    kiln_status st = kiln_ocl_kernel(g, name, k);
    if (st != KILN_OK) return st;
    const cl_int with_offsets = a->with_offsets;
    if ((st = kiln_ocl_digest_arg(g, *k, 0, sizeof a->data, &a->data)) != KILN_OK ||
        (st = kiln_ocl_digest_arg(g, *k, 1, sizeof a->offsets, &a->offsets)) != KILN_OK ||
        (st = kiln_ocl_digest_arg(g, *k, 2, sizeof with_offsets, &with_offsets)) != KILN_OK ||
        (st = kiln_ocl_digest_arg(g, *k, 3, sizeof a->base, &a->base)) != KILN_OK ||
        (st = kiln_ocl_digest_arg(g, *k, 4, sizeof a->msg_len, &a->msg_len)) != KILN_OK)
        return st;
    return kiln_ocl_digest_arg(g, *k, 5, sizeof a->n, &a->n);
}

kiln_status kiln_ocl_digest_plain(kiln_gpu *g, const char *name, const kiln_ocl_digest_args *a, cl_kernel *k)
{
    kiln_status st = kiln_ocl_digest_open(g, name, a, k);
    return st == KILN_OK ? kiln_ocl_digest_arg(g, *k, 6, sizeof a->out, &a->out) : st;
}

/* The digest kernel of p with its arguments set (the family's), in work-groups of up to 256. */
kiln_status kiln_ocl_digest_kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, cl_mem data, cl_mem offsets,
                                   int with_offsets, cl_ulong base, cl_ulong msg_len, cl_ulong n, cl_mem out,
                                   cl_kernel *k, size_t *local)
{
    const kiln_ocl_hash_family *f = family_of(p);
    if (!f) return kiln_ocl_check_digest(g, p);
    const kiln_ocl_digest_args a = {data, offsets, out, with_offsets, base, msg_len, n};
    kiln_status st = f->kernel(g, p, &a, k);
    return st == KILN_OK ? group_size(g, *k, 256, local) : st;
}

/* Local memory of the device, for the permutation layouts that stage states there. */
static kiln_status local_mem(kiln_gpu *g, cl_ulong *bytes)
{
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof *bytes, bytes, NULL),
                 "clGetDeviceInfo");
    return KILN_OK;
}

kiln_status kiln_ocl_perm_kernel(kiln_gpu *g, kiln_keccak_layout layout, cl_mem states, cl_ulong n, cl_uint iters,
                                 cl_kernel *k, size_t *items, size_t *local)
{
    batch_res rr = {states, NULL, NULL, NULL}, *r = &rr;
    const char *name = layout == KILN_KECCAK_LAYOUT_THREAD     ? "kiln_keccak_perm_thread"
                       : layout == KILN_KECCAK_LAYOUT_UNROLLED ? "kiln_keccak_perm_unrolled"
                       : layout == KILN_KECCAK_LAYOUT_LANE     ? "kiln_keccak_perm_lane"
                                                               : NULL;
    if (!name) return kiln_fail(g->ctx, KILN_ERR_INPUT, "opencl: no Keccak-f[1600] kernel for layout %d", (int)layout);
    kiln_status st = kiln_ocl_kernel(g, name, &r->k);
    if (st != KILN_OK) return st;
    *k = r->k;
    ARG(0, r->data);
    ARG(1, n);
    ARG(2, iters);
    cl_ulong lmem = 0;
    if (layout == KILN_KECCAK_LAYOUT_THREAD) {
        *items = (size_t)n;
        return group_size(g, r->k, 128, local);
    }
    if ((st = local_mem(g, &lmem)) != KILN_OK) return st;
    if (layout == KILN_KECCAK_LAYOUT_UNROLLED) {
        /* 200 bytes of local memory a work-item */
        if ((st = group_size(g, r->k, 128, local)) != KILN_OK) return st;
        while (*local > 1 && 200 * (cl_ulong)*local > lmem) *local /= 2;
        KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 3, 200 * *local, NULL), "clSetKernelArg");
        *items = (size_t)n;
        return KILN_OK;
    }
    /* lane: whole states of 25 work-items a group, 32 where the device takes 800 work-items;
     * 2 x 200 + 40 bytes of local memory a state */
    size_t most = 0;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(r->k, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL),
                 "clGetKernelWorkGroupInfo");
    size_t per = 32;
    while (per > 1 && (25 * per > most || 440 * (cl_ulong)per > lmem)) per /= 2;
    if (25 * per > most || 440 * (cl_ulong)per > lmem)
        return kiln_fail(g->ctx, KILN_ERR_DEVICE, "opencl: the device cannot run 25 work-items a state");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 3, 200 * per, NULL), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 4, 200 * per, NULL), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 5, 40 * per, NULL), "clSetKernelArg");
    *local = 25 * per;
    *items = (size_t)(n * 25);
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
    /* 16 zero bytes past the messages: the kernels read whole 8-byte words, two at an unaligned
     * offset, so the last message's words may reach past its end */
    static const uint8_t pad[16] = {0};
    r->data = buffer(g, CL_MEM_READ_ONLY, (size_t)data_len + sizeof pad, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (messages)");
    if (data_len)
        KILN_OCL_TRY(g->ctx, clEnqueueWriteBuffer(g->queue, r->data, CL_TRUE, 0, (size_t)data_len, io->in, 0, NULL, NULL),
                     "clEnqueueWriteBuffer (messages)");
    KILN_OCL_TRY(g->ctx,
                 clEnqueueWriteBuffer(g->queue, r->data, CL_TRUE, (size_t)data_len, sizeof pad, pad, 0, NULL, NULL),
                 "clEnqueueWriteBuffer (messages)");
    r->offsets = buffer(g, CL_MEM_READ_ONLY, offsets ? (io->n + 1) * sizeof *offsets : 0, offsets, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (offsets)");
    r->out = buffer(g, CL_MEM_WRITE_ONLY, io->n * p->outlen, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (digests)");
    size_t local = 0;
    st = kiln_ocl_digest_kernel(g, p, r->data, r->offsets, offsets != NULL, base, io->item_len, io->n, r->out, &r->k,
                                &local);
    if (st != KILN_OK) return st;
    st = kiln_ocl_run_items(g, r->k, io->n, local, ms);
    if (st != KILN_OK) return st;
    KILN_OCL_TRY(g->ctx, clEnqueueReadBuffer(g->queue, r->out, CL_TRUE, 0, io->n * p->outlen, io->out, 0, NULL, NULL),
                 "clEnqueueReadBuffer (digests)");
    return KILN_OK;
}

static kiln_status permute(kiln_gpu *g, kiln_keccak_layout layout, const kiln_gpu_batch_io *io, float *ms,
                           batch_res *r)
{
    if (io->n == 0) return KILN_OK;
    if (io->n > SIZE_MAX / 200) return kiln_fail(g->ctx, KILN_ERR_INPUT, "batch size overflows");
    cl_int err;
    r->data = buffer(g, CL_MEM_READ_WRITE, io->n * 200, io->out, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (states)");
    size_t items = 0, local = 0;
    kiln_status st = kiln_ocl_perm_kernel(g, layout, r->data, io->n, 1, &r->k, &items, &local);
    if (st != KILN_OK) return st;
    st = kiln_ocl_run_items(g, r->k, items, local, ms);
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
    case KILN_GPU_BATCH_PERMUTE: st = permute(g, w->by.permute, io, &ms, &r); break;
    case KILN_GPU_BATCH_KDF: return kiln_ocl_scrypt_kdf(g, &w->by.kdf, io, gpu_ms); /* ocl_scrypt.c */
    default: return kiln_fail(g->ctx, KILN_ERR_INPUT, "opencl: no batch kernel of kind %d", (int)w->kind);
    }
    kiln_ocl_batch_release(&r);
    if (gpu_ms) *gpu_ms = ms;
    return st;
}
