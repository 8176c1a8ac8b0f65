/* The host side of the staged copies (stage.h), in C with OpenMP: a page-locked buffer is filled
 * from pageable memory by a few threads, since one core's memcpy is slower than the link. No CUDA
 * here, so the file builds (unused) without it too. */
#ifndef KILN_CUDA_HOST_COPY_H
#define KILN_CUDA_HOST_COPY_H

#include <stddef.h>

#include "../core/ctx.h"

#ifdef __cplusplus
extern "C" {
#endif
/* memcpy on up to `threads` threads (fewer when the slices would be under 1 MiB) */
void kiln_cuda_host_copy(void *dst, const void *src, size_t bytes, int threads);
/* The threads one device's host copies take: the context's cores (or --threads) over its
 * devices, 1 to 8. */
int kiln_cuda_copy_threads(const kiln_ctx *ctx);
#ifdef __cplusplus
}
#endif

#endif
