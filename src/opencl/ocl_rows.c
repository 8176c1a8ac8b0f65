/* Leaves from rows on an OpenCL device (the tree table's `rows`, kernels/merkle_rows.cl): the rows
 * go to the device in chunks of at most CHUNK_BYTES, one work-item a row hashes each into its leaf,
 * and each chunk's leaves come back before the next is sent; the buffers live for the call. */
#include <stdio.h>

#include "../core/leaf_sponge.h"
#include "ocl_work.h"

#define CHUNK_BYTES ((size_t)64 << 20)
#define GROUP 64 /* work-items a group, or the most the kernel takes */

typedef struct rows_res {
    cl_mem rows, leaves;
    cl_kernel k;
} rows_res;

static void release(rows_res *r)
{
    if (r->rows) clReleaseMemObject(r->rows);
    if (r->leaves) clReleaseMemObject(r->leaves);
    if (r->k) clReleaseKernel(r->k);
}

static kiln_status run(kiln_gpu *g, rows_res *r, int sponge, const uint8_t *rows, uint64_t n, size_t row_elems,
                       uint8_t *leaves)
{
    static const char *const names[] = {"bb16", "kb16", "bb24", "kb24", "gl8", "gl12", "gl12_miden"};
    char name[40];
    snprintf(name, sizeof name, "kiln_rows_%s", names[sponge]);
    kiln_status st = kiln_ocl_kernel(g, name, &r->k);
    if (st != KILN_OK) return st;
    size_t most = 0, local = 1;
    KILN_OCL_TRY(g->ctx, clGetKernelWorkGroupInfo(r->k, g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof most, &most, NULL),
                 "clGetKernelWorkGroupInfo");
    while (2 * local <= GROUP && 2 * local <= most) local *= 2;
    const size_t row_bytes = row_elems * kiln_leaf_sponge_elem_size(sponge);
    uint64_t per = row_bytes ? CHUNK_BYTES / row_bytes : n;
    if (per == 0) per = 1; /* a row over CHUNK_BYTES goes alone */
    if (per > n) per = n;
    cl_int err;
    r->leaves = clCreateBuffer(g->context, CL_MEM_WRITE_ONLY, (size_t)per * 32, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (leaves)");
    /* a zero-sized buffer is invalid: rows of no element still get one byte */
    r->rows = clCreateBuffer(g->context, CL_MEM_READ_ONLY, row_bytes ? (size_t)per * row_bytes : 1, NULL, &err);
    KILN_OCL_TRY(g->ctx, err, "clCreateBuffer (rows)");
    const cl_ulong elems = row_elems;
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 0, sizeof r->rows, &r->rows), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 2, sizeof elems, &elems), "clSetKernelArg");
    KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 3, sizeof r->leaves, &r->leaves), "clSetKernelArg");
    for (uint64_t first = 0; first < n; first += per) {
        if (first && kiln_ctx_interrupt_requested(g->ctx)) return kiln_interrupted(g->ctx);
        const cl_ulong count = n - first < per ? n - first : per;
        if (row_bytes)
            KILN_OCL_TRY(g->ctx,
                         clEnqueueWriteBuffer(g->queue, r->rows, CL_TRUE, 0, (size_t)(count * row_bytes),
                                              rows + first * row_bytes, 0, NULL, NULL),
                         "clEnqueueWriteBuffer (rows)");
        KILN_OCL_TRY(g->ctx, clSetKernelArg(r->k, 1, sizeof count, &count), "clSetKernelArg");
        float ms = 0;
        if ((st = kiln_ocl_run_items(g, r->k, (size_t)count, local, &ms)) != KILN_OK) return st;
        KILN_OCL_TRY(g->ctx,
                     clEnqueueReadBuffer(g->queue, r->leaves, CL_TRUE, 0, (size_t)count * 32, leaves + 32 * first, 0,
                                         NULL, NULL),
                     "clEnqueueReadBuffer (leaves)");
    }
    return KILN_OK;
}

kiln_status kiln_ocl_merkle_rows(kiln_gpu *g, kiln_merkle_algo algo, kiln_merkle_leaf_hash leaf, const uint8_t *rows,
                                 uint64_t n, size_t row_elems, uint8_t *leaves)
{
    const int sponge = kiln_leaf_sponge(algo, leaf);
    if (sponge < 0)
        return kiln_fail(g->ctx, KILN_ERR_INPUT, "merkle algorithm %d has no GPU leaf hash %d", (int)algo, (int)leaf);
    if (n == 0) return KILN_OK;
    rows_res r = {0};
    kiln_status st = run(g, &r, sponge, rows, n, row_elems, leaves);
    release(&r);
    return st;
}
