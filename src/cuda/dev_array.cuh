/* Device arrays that free themselves, so every early error return in the launch code releases
 * what it allocated. */
#ifndef KILN_CUDA_DEV_ARRAY_CUH
#define KILN_CUDA_DEV_ARRAY_CUH

#include <cuda_runtime.h>
#include <stddef.h>

template <typename T> struct DevArray {
    T *p = nullptr;
    size_t n = 0;
    DevArray() = default;
    DevArray(const DevArray &) = delete;
    DevArray &operator=(const DevArray &) = delete;
    ~DevArray() { reset(); }
    cudaError_t alloc(size_t count)
    {
        reset();
        n = count;
        return cudaMalloc(reinterpret_cast<void **>(&p), (count ? count : 1) * sizeof(T));
    }
    void reset()
    {
        if (p) cudaFree(p);
        p = nullptr;
        n = 0;
    }
    /* Hands the pointer over (the caller frees it). */
    T *release()
    {
        T *q = p;
        p = nullptr;
        n = 0;
        return q;
    }
};

/* Blocks for a grid-stride loop over count items. */
static inline unsigned grid_for(unsigned long long count, int threads, int sm_count)
{
    unsigned long long b = (count + (unsigned long long)threads - 1) / (unsigned long long)threads;
    unsigned long long cap = (unsigned long long)sm_count * 32ull;
    if (b > cap) b = cap;
    return b ? (unsigned)b : 1u;
}

#endif
