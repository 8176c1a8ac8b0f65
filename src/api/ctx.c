#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/cpu_features.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../core/clock.h"

kiln_ctx *kiln_ctx_new(void)
{
    kiln_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    ctx->backend = KILN_BACKEND_CPU;
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s", kiln_cpu_model());
    return ctx;
}

void kiln_ctx_free(kiln_ctx *ctx)
{
    if (!ctx) return;
    kiln_ctx_close_gpus(ctx);
    free(ctx);
}

const char *kiln_last_error(const kiln_ctx *ctx)
{
    if (!ctx) return "no context";
    return ctx->err[0] ? ctx->err : "no error";
}

static kiln_status use_gpu(kiln_ctx *ctx, int ordinal)
{
    const kiln_gpu_ops *gpu = kiln_gpu_backend();
    int n = gpu ? gpu->device_count() : 0;
    if (n == 0)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "no CUDA GPU available%s", gpu ? "" : " (kiln was built without CUDA)");
    if (ordinal >= n) return kiln_fail(ctx, KILN_ERR_DEVICE, "no CUDA GPU cuda:%d (%d present)", ordinal, n);
    kiln_device_info info;
    kiln_status st = gpu->device_info(ctx, ordinal, &info);
    if (st != KILN_OK) return st;
    /* A handle opened on another GPU must not serve the new one. */
    if (ctx->ngpu != 1 || ctx->gpu_ordinal[0] != ordinal) kiln_ctx_close_gpus(ctx);
    ctx->backend = KILN_BACKEND_CUDA;
    ctx->gpu = gpu;
    ctx->ngpu = 1;
    ctx->gpu_ordinal[0] = ordinal;
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s", info.name);
    return KILN_OK;
}

/* The device named by spec, auto aside; the context is unchanged when it fails. */
static kiln_status select_device(kiln_ctx *ctx, const char *spec)
{
    if (strcmp(spec, "cpu") == 0) {
        kiln_ctx_close_gpus(ctx);
        ctx->gpu = NULL;
        ctx->ngpu = 0;
        ctx->backend = KILN_BACKEND_CPU;
        snprintf(ctx->device_name, sizeof ctx->device_name, "%s", kiln_cpu_model());
        return KILN_OK;
    }
    if (strcmp(spec, "auto") == 0) return select_device(ctx, kiln_cuda_device_count() > 0 ? "cuda" : "cpu");
    if (strcmp(spec, "cuda") == 0) return use_gpu(ctx, 0);
    if (strncmp(spec, "cuda:", 5) == 0) {
        const char *p = spec + 5;
        int ordinal = 0, digits = 0;
        for (; *p >= '0' && *p <= '9' && digits < 4; p++, digits++) ordinal = ordinal * 10 + (*p - '0');
        if (digits == 0 || *p != '\0')
            return kiln_fail(ctx, KILN_ERR_INPUT, "bad device '%s' (expected cuda:N)", spec);
        return use_gpu(ctx, ordinal);
    }
    return kiln_fail(ctx, KILN_ERR_INPUT, "unknown device '%s' (expected auto, cpu, cuda or cuda:N)", spec);
}

kiln_status kiln_ctx_set_device(kiln_ctx *ctx, const char *spec)
{
    if (!ctx || !spec) return KILN_ERR_INPUT;
    kiln_status st = select_device(ctx, spec);
    if (st == KILN_OK) ctx->device_auto = strcmp(spec, "auto") == 0;
    return st;
}

kiln_backend kiln_ctx_backend(const kiln_ctx *ctx) { return ctx ? ctx->backend : KILN_BACKEND_CPU; }

const char *kiln_ctx_device_name(const kiln_ctx *ctx) { return ctx ? ctx->device_name : ""; }

kiln_status kiln_ctx_set_threads(kiln_ctx *ctx, int threads)
{
    if (!ctx) return KILN_ERR_INPUT;
    if (threads < 0 || threads > 4096)
        return kiln_fail(ctx, KILN_ERR_INPUT, "thread count %d out of range 0..4096", threads);
    ctx->threads = threads;
    return KILN_OK;
}

int kiln_ctx_threads(const kiln_ctx *ctx) { return ctx ? ctx->threads : 0; }

kiln_status kiln_ctx_set_launch(kiln_ctx *ctx, kiln_algo algo, kiln_launch launch)
{
    if (!ctx || (unsigned)algo >= KILN_ALGO_COUNT) return KILN_ERR_INPUT;
    int tpb = launch.threads_per_block, ipt = launch.items_per_thread;
    if (tpb != 0 && (tpb < 32 || tpb > 1024 || tpb % 32 != 0))
        return kiln_fail(ctx, KILN_ERR_INPUT, "threads per block %d must be a multiple of 32 in 32..1024", tpb);
    if (ipt != 0 && (ipt < 1 || ipt > 16 || (ipt & (ipt - 1)) != 0))
        return kiln_fail(ctx, KILN_ERR_INPUT, "items per thread %d must be 1, 2, 4, 8 or 16", ipt);
    ctx->launch[algo] = launch;
    return KILN_OK;
}

kiln_launch kiln_ctx_launch(const kiln_ctx *ctx, kiln_algo algo)
{
    kiln_launch none = {0, 0};
    if (!ctx || (unsigned)algo >= KILN_ALGO_COUNT) return none;
    return ctx->launch[algo];
}

void kiln_ctx_set_interrupt(kiln_ctx *ctx, kiln_interrupt_fn poll, void *user)
{
    if (!ctx) return;
    ctx->interrupt = poll;
    ctx->interrupt_user = user;
}

void kiln_ctx_set_progress(kiln_ctx *ctx, kiln_progress_fn fn, void *user)
{
    if (!ctx) return;
    ctx->progress = fn;
    ctx->progress_user = user;
}
