/* Helpers of the device-memory entry points (device_memory.cuh). */
#include "device_memory.cuh"

kiln_status kiln_cuda_check_device_ptr(kiln_gpu *st, const void *p, size_t bytes, const char *what)
{
    if (!p) {
        if (bytes == 0) return KILN_OK;
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "missing %s (a device buffer)", what);
    }
    cudaPointerAttributes a;
    cudaError_t e = cudaPointerGetAttributes(&a, p);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "%s is not a CUDA pointer: %s", what, cudaGetErrorString(e));
    }
    if (a.type == cudaMemoryTypeManaged) return KILN_OK;
    if (a.type != cudaMemoryTypeDevice)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "%s is host memory; this entry point takes device memory", what);
    if (a.device != st->ordinal)
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "%s is on GPU %d, the context's device is GPU %d", what, a.device,
                         st->ordinal);
    return KILN_OK;
}

kiln_status kiln_cuda_alloc_async(kiln_gpu *st, void **p, size_t bytes, cudaStream_t s, const char *what)
{
    *p = NULL;
    cudaError_t e = cudaMallocAsync(p, bytes ? bytes : 1, s);
    if (e != cudaSuccess) {
        *p = NULL;
        (void)cudaGetLastError();
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "cannot allocate %zu MiB of GPU memory (%s) on the caller's stream: %s",
                         bytes >> 20, what, cudaGetErrorString(e));
    }
    return KILN_OK;
}

void kiln_cuda_free_async(void *p, cudaStream_t s)
{
    if (p && cudaFreeAsync(p, s) != cudaSuccess) (void)cudaGetLastError();
}
