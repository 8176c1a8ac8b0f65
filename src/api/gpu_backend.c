#include "gpu_backend.h"

#ifdef KILN_HAVE_CUDA
extern const kiln_gpu_ops kiln_cuda_ops; /* src/cuda/cuda_ops.cu */
#endif
#ifdef KILN_HAVE_OPENCL
extern const kiln_gpu_ops kiln_opencl_ops; /* src/opencl/ocl_ops.c */
#endif

const kiln_gpu_ops *kiln_gpu_backend_of(kiln_backend backend)
{
    switch (backend) {
#ifdef KILN_HAVE_CUDA
    case KILN_BACKEND_CUDA: return &kiln_cuda_ops;
#endif
#ifdef KILN_HAVE_OPENCL
    case KILN_BACKEND_OPENCL: return &kiln_opencl_ops;
#endif
    default: return NULL;
    }
}
