/* The OpenCL backend's table of operations (core/gpu.h): every required operation; the optional
 * ones stay NULL, so the library's fallbacks apply. */
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
};
