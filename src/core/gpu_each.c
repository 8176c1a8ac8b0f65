/* The one place several devices of a context run at once: a thread per device, each opening its
 * own handle (the threads one after another where a device runs on the host's cores);
 * a failure stops the others at their next interrupt poll and is reported under its device's
 * name. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "gpu.h"

typedef struct each_run {
    kiln_ctx *ctx;
    kiln_gpu_task task;
    void *arg;
    atomic_int failed; /* a device failed: the others stop at their next poll */
    kiln_interrupt_fn user_poll;
    void *user_poll_arg;
} each_run;

typedef struct each_worker {
    each_run *run;
    int index;
    char prefix[64];
    kiln_status st;
} each_worker;

void kiln_gpu_label(const kiln_ctx *ctx, int i, char *out, size_t n)
{
    char spec[32];
    kiln_device_spec(ctx->backend, ctx->gpu_ordinal[i], spec, sizeof spec);
    snprintf(out, n, "%s (device %d of %d)", spec, i + 1, ctx->ngpu);
}

static int poll_with_failure(void *arg)
{
    each_run *r = arg;
    return atomic_load(&r->failed) || (r->user_poll && r->user_poll(r->user_poll_arg));
}

static void *work(void *arg)
{
    each_worker *w = arg;
    each_run *r = w->run;
    kiln_err_set_thread_prefix(w->prefix);
    kiln_gpu *g;
    w->st = kiln_ctx_gpu(r->ctx, w->index, &g);
    if (w->st == KILN_OK) w->st = r->task(r->arg, w->index, g);
    if (w->st != KILN_OK && w->st != KILN_STOPPED) atomic_store(&r->failed, 1);
    kiln_err_set_thread_prefix(NULL);
    return NULL;
}

/* A set with a device on the host's cores runs its tasks one after another (gpu.h, host_cores). */
static int on_host_cores(const kiln_ctx *ctx)
{
    if (!ctx->gpu->host_cores) return 0;
    for (int i = 0; i < ctx->ngpu; i++)
        if (ctx->gpu->host_cores(ctx->gpu_ordinal[i])) return 1;
    return 0;
}

kiln_status kiln_gpu_each(kiln_ctx *ctx, kiln_gpu_task task, void *arg)
{
    const int n = ctx->ngpu;
    if (n == 1) { /* no threads, no prefix: one device behaves as before device sets */
        kiln_gpu *g;
        kiln_status st = kiln_ctx_gpu(ctx, 0, &g);
        return st == KILN_OK ? task(arg, 0, g) : st;
    }
    each_run run = {ctx, task, arg, 0, ctx->interrupt, ctx->interrupt_user};
    each_worker w[KILN_MAX_GPUS];
    pthread_t tid[KILN_MAX_GPUS];
    ctx->interrupt = poll_with_failure;
    ctx->interrupt_user = &run;
    ctx->err[0] = '\0';
    ctx->err_keep_first = 1;
    int started = 0;
    kiln_status st = KILN_OK;
    const int serial = on_host_cores(ctx);
    for (int i = 0; i < n; i++) {
        w[i] = (each_worker){&run, i, "", KILN_OK};
        kiln_gpu_label(ctx, i, w[i].prefix, sizeof w[i].prefix - 2);
        strcat(w[i].prefix, ": ");
        if (serial && atomic_load(&run.failed)) break; /* the devices before failed: the rest stay out */
        if (pthread_create(&tid[i], NULL, work, &w[i]) != 0) {
            atomic_store(&run.failed, 1);
            st = kiln_fail(ctx, KILN_ERR_DEVICE, "cannot start a thread for device %d of %d", i + 1, n);
            break;
        }
        started++;
        if (serial) pthread_join(tid[i], NULL); /* a thread still: the task's context is the same either way */
    }
    for (int i = 0; i < started && !serial; i++) pthread_join(tid[i], NULL);
    ctx->interrupt = run.user_poll;
    ctx->interrupt_user = run.user_poll_arg;
    ctx->err_keep_first = 0;
    if (st != KILN_OK) return st;
    /* a device's failure before an interrupt, an interrupt before success */
    for (int i = 0; i < started; i++)
        if (w[i].st != KILN_OK && w[i].st != KILN_STOPPED) return w[i].st;
    for (int i = 0; i < started; i++)
        if (w[i].st != KILN_OK) return w[i].st;
    return KILN_OK;
}
