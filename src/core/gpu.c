/* The GPU seam's per-context handles. Which backend is compiled in is src/api's to say
 * (api/gpu_backend.c): naming src/cuda's table here would be a call up the layers. */
#include "gpu.h"

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

kiln_status kiln_gpu_lacks(kiln_ctx *ctx, const char *what)
{
    return kiln_fail(ctx, KILN_ERR_DEVICE, "the %s backend cannot %s", ctx->gpu ? ctx->gpu->name : "GPU", what);
}
