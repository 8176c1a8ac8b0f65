/* The device bench loop written once: reps launches, each timed alone with the handle's events,
 * and their median. Kernel benches differ only in what one launch is and what has to happen
 * before a given launch (keccak_perm.cu samples the states ahead of the last one). */
#ifndef KILN_CUDA_EVENT_TIMER_CUH
#define KILN_CUDA_EVENT_TIMER_CUH

#include <stdlib.h>

#include "../core/bench.h"
#include "cuda_state.h"

/* launch(): cudaError_t, one launch on st->stream; before(r): cudaError_t, runs ahead of launch r.
 * On a CUDA error the message names `what`. The context's interrupt poll is read before every
 * launch (each is synchronized, so nothing is left running on the stream). */
template <class Launch, class Before>
kiln_status kiln_cuda_time_median(kiln_gpu *st, int reps, const char *what, float *median_ms, Launch launch,
                                  Before before)
{
    float *ms = (float *)calloc((size_t)reps, sizeof(float));
    if (!ms) return kiln_fail(st->ctx, KILN_ERR_DEVICE, "out of host memory");
    cudaError_t e = cudaSuccess;
    for (int r = 0; r < reps && e == cudaSuccess; r++) {
        kiln_ctx_report(st->ctx, "bench", "runs", (uint64_t)r, (uint64_t)reps);
        if (kiln_ctx_interrupt_requested(st->ctx)) {
            free(ms);
            return kiln_interrupted(st->ctx);
        }
        e = before(r);
        if (e == cudaSuccess) e = cudaEventRecord(st->ev_start, st->stream);
        if (e == cudaSuccess) e = launch();
        if (e == cudaSuccess) e = cudaEventRecord(st->ev_stop, st->stream);
        if (e == cudaSuccess) e = cudaEventSynchronize(st->ev_stop);
        if (e == cudaSuccess) e = cudaEventElapsedTime(&ms[r], st->ev_start, st->ev_stop);
    }
    if (e == cudaSuccess) *median_ms = kiln_median_f(ms, (size_t)reps);
    free(ms);
    KILN_CUDA_TRY(e, what);
    return KILN_OK;
}

#endif
