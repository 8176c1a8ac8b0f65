/* The OpenCL backend's table of operations (core/gpu.h). Required operations it has no kernel for
 * yet answer with an error naming what is missing; the optional ones stay NULL, so the library's
 * fallbacks apply. */
#include "ocl_state.h"

static kiln_status tree_upload(kiln_gpu *g, const uint8_t *leaves, uint64_t n)
{
    (void)leaves, (void)n;
    return kiln_fail(g->ctx, KILN_ERR_DEVICE, "the OpenCL backend has no Merkle trees yet");
}

static kiln_status tree_build(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                              int *launches, float *gpu_ms)
{
    (void)algo, (void)n, (void)cfg, (void)launches, (void)gpu_ms;
    return kiln_fail(g->ctx, KILN_ERR_DEVICE, "the OpenCL backend has no Merkle trees yet");
}

static kiln_status tree_read(kiln_gpu *g, uint64_t first, uint64_t count, uint8_t *out)
{
    (void)first, (void)count, (void)out;
    return kiln_fail(g->ctx, KILN_ERR_DEVICE, "the OpenCL backend has no Merkle trees yet");
}

static kiln_status pagerank(kiln_gpu *g, const kiln_gpu_pr_graph *graph, const kiln_gpu_pr_params *p, double *ranks,
                            kiln_gpu_pr_stats *stats)
{
    (void)graph, (void)p, (void)ranks, (void)stats;
    return kiln_fail(g->ctx, KILN_ERR_DEVICE, "the OpenCL backend has no PageRank yet");
}

const kiln_gpu_ops kiln_opencl_ops = {
    .name = "opencl",
    .device_count = kiln_ocl_device_count,
    .device_info = kiln_ocl_device_info,
    .open = kiln_ocl_open,
    .close = kiln_ocl_close,
    .search = kiln_ocl_search,
    .batch = kiln_ocl_batch,
    .tree_upload = tree_upload,
    .tree_build = tree_build,
    .tree_read = tree_read,
    .pagerank = pagerank,
    .batch_bench = kiln_ocl_batch_bench,
};
