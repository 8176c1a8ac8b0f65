/* The context as the library sees it, and the error helper every layer uses. This is the bottom
 * of the library: it includes only the public header and src/prim. */
#ifndef KILN_CORE_CTX_H
#define KILN_CORE_CTX_H

#include "kiln.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_ALGO_COUNT 2 /* kiln_algo values */
#define KILN_ERR_MAX 512
#define KILN_MAX_GPUS KILN_MAX_DEVICES /* include/kiln.h */

typedef struct kiln_gpu kiln_gpu; /* one opened GPU of one context (core/gpu.h) */
typedef struct kiln_gpu_ops kiln_gpu_ops;

struct kiln_ctx {
    kiln_backend backend;
    int device_auto; /* the device was asked for as "auto": workloads apply kiln_ctx_pick */
    /* The GPU backend's operations (src/cuda's or src/opencl's), NULL when backend is KILN_BACKEND_CPU. */
    const kiln_gpu_ops *gpu;
    /* The context's GPUs: ordinals, and their handles opened on first use by kiln_ctx_gpu. */
    int ngpu;
    int gpu_ordinal[KILN_MAX_GPUS];
    kiln_gpu *gpu_dev[KILN_MAX_GPUS];
    int threads; /* 0 = all online cores */
    char device_name[128];
    kiln_launch launch[KILN_ALGO_COUNT];
    kiln_scrypt_shape scrypt_shape; /* Litecoin search */
    kiln_launch scrypt_kdf_launch; /* GPU batch KDF */
    kiln_scrypt_shape scrypt_kdf_shape;
    uint64_t memory_limit; /* kiln_ctx_set_memory_limit; 0: none */
    kiln_interrupt_fn interrupt; /* kiln_ctx_set_interrupt */
    void *interrupt_user;
    kiln_progress_fn progress; /* kiln_ctx_set_progress */
    void *progress_user;
    int progress_busy; /* a report under way (src/core/progress.c) */
    /* while several devices run at once (kiln_gpu_each): the first error message stays */
    int err_keep_first;
    char err[KILN_ERR_MAX];
};

/* Records a formatted message in ctx (when not NULL) and returns st, so callers can write
 * `return kiln_fail(ctx, KILN_ERR_INPUT, "...", ...);`. */
kiln_status kiln_fail(kiln_ctx *ctx, kiln_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The calling thread's prefix for the messages kiln_fail records ("opencl:1 (device 2 of 2): "), or
 * NULL: set by kiln_gpu_each in each device's thread, so that a failure names its device. */
void kiln_err_set_thread_prefix(const char *prefix);

/* Nonzero when the caller's interrupt poll asks to stop (ctx may be NULL: never). Long loops call
 * it between launches, iterations or chunks and then return kiln_interrupted(ctx). */
int kiln_ctx_interrupt_requested(const kiln_ctx *ctx);
/* Records "interrupted" and returns KILN_STOPPED. */
kiln_status kiln_interrupted(kiln_ctx *ctx);
/* Both in one: KILN_OK, or kiln_interrupted(ctx) when the poll asks to stop. */
kiln_status kiln_ctx_poll(kiln_ctx *ctx);

/* Hands the context's progress hook (kiln_ctx_set_progress) where a stage stands; nothing without
 * a hook (ctx may be NULL). Called beside an interrupt poll, never more often. A report due while
 * another thread's is under way is dropped, so the hook never runs twice at once. */
void kiln_ctx_report(const kiln_ctx *ctx, const char *stage, const char *unit, uint64_t done, uint64_t total);
/* The same with PageRank's residual (L1 change of the last iteration). */
void kiln_ctx_report_residual(const kiln_ctx *ctx, const char *stage, const char *unit, uint64_t done, uint64_t total,
                              double residual);
/* Nonzero when ctx has a progress hook: loops count their work across threads only then. */
int kiln_ctx_has_progress(const kiln_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
