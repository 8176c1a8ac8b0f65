/* The one device policy: which device a workload runs on under "auto" (include/kiln.h says why). */
#include "../core/gpu.h"

int kiln_ctx_device_auto(const kiln_ctx *ctx) { return ctx ? ctx->device_auto : 0; }

kiln_backend kiln_ctx_pick(const kiln_ctx *ctx, kiln_kind kind, uint64_t work)
{
    if (!ctx || ctx->backend == KILN_BACKEND_CPU) return KILN_BACKEND_CPU;
    const kiln_backend gpu = ctx->backend;
    if (kind == KILN_KIND_GRAPH) /* the CSR build, on any GPU context whose backend has one */
        return work >= KILN_GPU_CSR_MIN_EDGES && (!ctx->gpu || (ctx->gpu->graph && ctx->gpu->graph->csr_from_edges)) ? gpu : KILN_BACKEND_CPU;
    if (!ctx->device_auto) return gpu;
    if (kind == KILN_KIND_HASH && work < KILN_AUTO_HASH_GPU_BYTES) return KILN_BACKEND_CPU;
    return gpu;
}
