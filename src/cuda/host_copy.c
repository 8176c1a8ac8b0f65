/* The host side of the staged copies (host_copy.h). */
#include <omp.h>
#include <string.h>

#include "host_copy.h"

#define COPY_MAX_THREADS 8
#define COPY_SLICE ((size_t)1 << 20) /* below this per thread one thread copies */

void kiln_cuda_host_copy(void *dst, const void *src, size_t bytes, int threads)
{
    if (threads > 1 && bytes / (size_t)threads < COPY_SLICE) threads = (int)(bytes / COPY_SLICE);
    if (threads <= 1) {
        memcpy(dst, src, bytes);
        return;
    }
#pragma omp parallel for num_threads(threads) schedule(static, 1)
    for (int p = 0; p < threads; p++) {
        /* 64-byte aligned slices, so no two threads write one cache line */
        size_t a = (bytes * (size_t)p / (size_t)threads) & ~(size_t)63;
        size_t b = p + 1 == threads ? bytes : (bytes * (size_t)(p + 1) / (size_t)threads) & ~(size_t)63;
        memcpy((char *)dst + a, (const char *)src + a, b - a);
    }
}

int kiln_cuda_copy_threads(const kiln_ctx *ctx)
{
    int cores = ctx && ctx->threads > 0 ? ctx->threads : omp_get_num_procs();
    int devices = ctx && ctx->ngpu > 1 ? ctx->ngpu : 1;
    int t = cores / devices;
    return t < 1 ? 1 : t > COPY_MAX_THREADS ? COPY_MAX_THREADS : t;
}
