/* The OpenCL backend's tables of operations (core/gpu.h): the core table without the device
 * memory entry points and page-locked host memory (mem_info an estimate: ocl_memory.c); the tree
 * table's required operations; the graph table with PageRank and its row parts (shared through
 * the host: every device has its own context) and the graph builds (ocl_graph_build.c), without
 * mem_peak; no collective table (the parts of a split exchange through MPI on the host). What is
 * left NULL falls back in the library. */
#include "ocl_work.h"

static const kiln_gpu_tree_ops ocl_tree_ops = {
    .upload = kiln_ocl_tree_upload,
    .build = kiln_ocl_tree_build,
    .read = kiln_ocl_tree_read,
    .rows = kiln_ocl_merkle_rows,
};

static const kiln_gpu_pr_part_ops ocl_part_ops = {
    .open = kiln_ocl_pr_part_open,
    .relabel = kiln_ocl_pr_part_relabel,
    .put = kiln_ocl_pr_part_put,
    .get = kiln_ocl_pr_part_get,
    .launch = kiln_ocl_pr_part_launch,
    .sums = kiln_ocl_pr_part_sums,
    .share = kiln_ocl_pr_part_share,
    .flip = kiln_ocl_pr_part_flip,
    .share_via_host = 1,
    .share_seconds = kiln_ocl_pr_part_share_seconds,
    .close = kiln_ocl_pr_part_close,
};

static const kiln_gpu_graph_ops ocl_graph_ops = {
    .pagerank = kiln_ocl_pagerank,
    .csr_from_edges = kiln_ocl_csr_from_edges,
    .rmat_csr = kiln_ocl_rmat_csr,
    .rmat_part_csr = kiln_ocl_rmat_part_csr,
    .parts = &ocl_part_ops,
    .max_buffer = kiln_ocl_max_buffer,
};

const kiln_gpu_ops kiln_opencl_ops = {
    .name = "opencl",
    .device_count = kiln_ocl_device_count,
    .device_info = kiln_ocl_device_info,
    .open = kiln_ocl_open,
    .close = kiln_ocl_close,
    .search = kiln_ocl_search,
    .batch = kiln_ocl_batch,
    .batch_plan = kiln_ocl_batch_plan,
    .batch_bench = kiln_ocl_batch_bench,
    .mem_info = kiln_ocl_mem_info,
    .host_cores = kiln_ocl_host_cores,
    .tree = &ocl_tree_ops,
    .graph = &ocl_graph_ops,
};
