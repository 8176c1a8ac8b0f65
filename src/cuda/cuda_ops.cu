/* The CUDA backend's table of operations (core/gpu.h). Filled in as the entry points move to the seam. */
#include <string.h>

#include "../core/gpu.h"

static kiln_gpu_ops make_ops()
{
    kiln_gpu_ops ops;
    memset(&ops, 0, sizeof ops);
    ops.name = "cuda";
    return ops;
}

extern "C" const kiln_gpu_ops kiln_cuda_ops = make_ops();
