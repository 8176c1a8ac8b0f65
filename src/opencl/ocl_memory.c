/* The device memory an OpenCL handle may count on (core/gpu.h's mem_info, the graph table's
 * max_buffer). OpenCL has no free-memory query: the total is CL_DEVICE_GLOBAL_MEM_SIZE and "free"
 * is an estimate, the total less what this handle holds (the scrypt scratchpads and the Merkle tree
 * it keeps between calls) and less 1/32 of the total for the driver's own context and the
 * program. Other handles and processes on the device are not seen. Separately, no one buffer may
 * pass CL_DEVICE_MAX_MEM_ALLOC_SIZE (at least a quarter of the memory; NVIDIA's driver gives a
 * quarter, PoCL 4 GiB). */
#include "ocl_work.h"

kiln_status kiln_ocl_mem_info(kiln_gpu *g, uint64_t *free_bytes, uint64_t *total_bytes)
{
    cl_ulong total = 0;
    KILN_OCL_TRY(g->ctx, clGetDeviceInfo(g->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof total, &total, NULL),
                 "clGetDeviceInfo (global memory)");
    const uint64_t held = (uint64_t)g->scrypt_nbuf * g->scrypt_buf_bytes + g->tree_cap * 32, reserve = total / 32;
    *total_bytes = total;
    *free_bytes = total > held + reserve ? total - held - reserve : 0;
    return KILN_OK;
}

uint64_t kiln_ocl_max_buffer(kiln_gpu *g)
{
    cl_ulong max_alloc = 0;
    if (clGetDeviceInfo(g->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL) != CL_SUCCESS)
        return 0;
    return max_alloc;
}
