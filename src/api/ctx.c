#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/cpu_features.h"
#include "../core/ctx.h"
#include "../core/device_id.h"
#include "../core/gpu.h"
#include "../core/clock.h"
#include "gpu_backend.h"

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

/* Makes the context run on the devices ordinals[0..n) of backend (an ordinal may repeat: logical
 * devices on one GPU); unchanged when one is missing. */
static kiln_status use_gpus(kiln_ctx *ctx, kiln_backend backend, const int *ordinals, int n)
{
    const kiln_gpu_ops *gpu = kiln_gpu_backend_of(backend);
    const char *what = kiln_backend_noun(backend);
    int present = gpu ? gpu->device_count() : 0;
    if (present == 0 && gpu) return kiln_fail(ctx, KILN_ERR_DEVICE, "no %s available", what);
    if (present == 0)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "no %s available (kiln was built without %s)", what,
                         kiln_backend_runtime(backend));
    char names[KILN_MAX_GPUS][sizeof ((kiln_device_info *)0)->name];
    for (int i = 0; i < n; i++) {
        if (ordinals[i] >= present) {
            char spec[32];
            return kiln_fail(ctx, KILN_ERR_DEVICE, "no %s %s (%d present)", what,
                             kiln_device_spec(backend, ordinals[i], spec, sizeof spec), present);
        }
        kiln_device_info info;
        kiln_status st = gpu->device_info(ctx, ordinals[i], &info);
        if (st != KILN_OK) return st;
        snprintf(names[i], sizeof names[i], "%s", info.name);
    }
    /* handles opened on other GPUs must not serve the new ones */
    int same = ctx->ngpu == n && ctx->gpu == gpu;
    for (int i = 0; same && i < n; i++) same = ctx->gpu_ordinal[i] == ordinals[i];
    if (!same) kiln_ctx_close_gpus(ctx);
    ctx->backend = backend;
    ctx->gpu = gpu;
    ctx->ngpu = n;
    for (int i = 0; i < n; i++) ctx->gpu_ordinal[i] = ordinals[i];
    if (n == 1) {
        snprintf(ctx->device_name, sizeof ctx->device_name, "%s", names[0]);
        return KILN_OK;
    }
    /* "2 x NVIDIA H200", or the names joined when they differ */
    int alike = 1;
    for (int i = 1; i < n; i++) alike = alike && strcmp(names[i], names[0]) == 0;
    if (alike) {
        int k = snprintf(ctx->device_name, sizeof ctx->device_name, "%d x ", n);
        memcpy(ctx->device_name + k, names[0], strnlen(names[0], sizeof ctx->device_name - (size_t)k - 1));
        ctx->device_name[k + (int)strnlen(names[0], sizeof ctx->device_name - (size_t)k - 1)] = '\0';
        return KILN_OK;
    }
    size_t k = 0;
    ctx->device_name[0] = '\0';
    for (int i = 0; i < n && k < sizeof ctx->device_name; i++) {
        int w = snprintf(ctx->device_name + k, sizeof ctx->device_name - k, "%s%s", i ? " + " : "", names[i]);
        if (w < 0) break;
        k += (size_t)w;
    }
    return KILN_OK;
}

/* The device named by spec (kiln_device_parse reads it into *set); the context is unchanged when it fails. */
static kiln_status select_device(kiln_ctx *ctx, const char *spec, kiln_device_set *set)
{
    kiln_status st = kiln_device_parse(ctx, spec, set);
    if (st != KILN_OK) return st;
    if (set->backend != KILN_BACKEND_CPU) return use_gpus(ctx, set->backend, set->ordinals, set->count);
    kiln_ctx_close_gpus(ctx);
    ctx->gpu = NULL;
    ctx->ngpu = 0;
    ctx->backend = KILN_BACKEND_CPU;
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s", kiln_cpu_model());
    return KILN_OK;
}

kiln_status kiln_ctx_set_device(kiln_ctx *ctx, const char *spec)
{
    if (!ctx || !spec) return KILN_ERR_INPUT;
    kiln_device_set set;
    kiln_status st = select_device(ctx, spec, &set);
    if (st == KILN_OK) ctx->device_auto = set.form == KILN_DEVICE_AUTO;
    return st;
}

kiln_backend kiln_ctx_backend(const kiln_ctx *ctx) { return ctx ? ctx->backend : KILN_BACKEND_CPU; }

const char *kiln_ctx_device_name(const kiln_ctx *ctx) { return ctx ? ctx->device_name : ""; }

int kiln_ctx_device_count(const kiln_ctx *ctx) { return ctx && ctx->backend != KILN_BACKEND_CPU ? ctx->ngpu : 1; }

int kiln_ctx_device_ordinal(const kiln_ctx *ctx, int i)
{
    if (!ctx || ctx->backend == KILN_BACKEND_CPU || i < 0 || i >= ctx->ngpu) return -1;
    return ctx->gpu_ordinal[i];
}

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
