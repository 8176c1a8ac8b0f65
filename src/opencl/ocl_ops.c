/* The OpenCL backend's table of operations (core/gpu.h): every required operation, and of the
 * optional ones the batch plan and bench and the PageRank parts (shared through the host: every
 * device has its own context); the others stay NULL, so the library's fallbacks apply (no NCCL:
 * the parts of a split exchange through MPI on the host). */
#include "ocl_work.h"

const kiln_gpu_ops kiln_opencl_ops = {
    .name = "opencl",
    .device_count = kiln_ocl_device_count,
    .device_info = kiln_ocl_device_info,
    .open = kiln_ocl_open,
    .close = kiln_ocl_close,
    .search = kiln_ocl_search,
    .batch = kiln_ocl_batch,
    .tree_upload = kiln_ocl_tree_upload,
    .tree_build = kiln_ocl_tree_build,
    .tree_read = kiln_ocl_tree_read,
    .pagerank = kiln_ocl_pagerank,
    .batch_plan = kiln_ocl_batch_plan,
    .batch_bench = kiln_ocl_batch_bench,
    .pr_part_open = kiln_ocl_pr_part_open,
    .pr_part_relabel = kiln_ocl_pr_part_relabel,
    .pr_part_put = kiln_ocl_pr_part_put,
    .pr_part_get = kiln_ocl_pr_part_get,
    .pr_part_launch = kiln_ocl_pr_part_launch,
    .pr_part_sums = kiln_ocl_pr_part_sums,
    .pr_part_share = kiln_ocl_pr_part_share,
    .pr_part_share_via_host = 1,
    .pr_part_flip = kiln_ocl_pr_part_flip,
    .pr_part_share_seconds = kiln_ocl_pr_part_share_seconds,
    .pr_part_close = kiln_ocl_pr_part_close,
};
