/* What the entry points that take the caller's device buffers and stream share
 * (docs/DEVICE_MEMORY.md): every buffer is checked to be device memory of the handle's GPU, and
 * kiln's own temporaries are allocated and freed in the caller's stream's order
 * (cudaMallocAsync/cudaFreeAsync), so nothing is left that a later call could free or reuse
 * while the caller's stream still reads it, and nothing waits on the host. */
#ifndef KILN_CUDA_DEVICE_MEMORY_CUH
#define KILN_CUDA_DEVICE_MEMORY_CUH

#include "cuda_state.h"

/* KILN_ERR_INPUT unless p is device (or managed) memory the handle's GPU can read; NULL is
 * accepted only when bytes is 0. */
kiln_status kiln_cuda_check_device_ptr(kiln_gpu *st, const void *p, size_t bytes, const char *what);

/* A temporary of `bytes` (at least 1) on stream s, 256-byte aligned; freed with kiln_cuda_free_async. */
kiln_status kiln_cuda_alloc_async(kiln_gpu *st, void **p, size_t bytes, cudaStream_t s, const char *what);
/* Frees p (NULL: nothing) once the work queued on s before has run. */
void kiln_cuda_free_async(void *p, cudaStream_t s);

#endif
