/* The GPU seam's two pieces of state: which backend is compiled in, and the per-context handles. */
#include "gpu.h"

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

kiln_status kiln_ctx_gpu(kiln_ctx *ctx, int i, kiln_gpu **out)
{
    *out = NULL;
    if (!ctx->gpu || i < 0 || i >= ctx->ngpu) return kiln_fail(ctx, KILN_ERR_DEVICE, "the context has no GPU %d", i);
    if (!ctx->gpu_dev[i]) {
        kiln_status st = ctx->gpu->open(ctx, ctx->gpu_ordinal[i], &ctx->gpu_dev[i]);
        if (st != KILN_OK) return st;
    }
    *out = ctx->gpu_dev[i];
    return KILN_OK;
}

void kiln_ctx_close_gpus(kiln_ctx *ctx)
{
    for (int i = 0; i < KILN_MAX_GPUS; i++) {
        if (ctx->gpu_dev[i]) ctx->gpu->close(ctx->gpu_dev[i]);
        ctx->gpu_dev[i] = NULL;
    }
}
