#include "gpu_backend.h"

#ifdef KILN_HAVE_CUDA
extern const kiln_gpu_ops kiln_cuda_ops; /* src/cuda/cuda_ops.cu */
#endif

const kiln_gpu_ops *kiln_gpu_backend(void)
{
#ifdef KILN_HAVE_CUDA
    return &kiln_cuda_ops;
#else
    return NULL;
#endif
}
