/* The handle's ring of page-locked buffers (stage.h). */
#include <stdlib.h>

#include "stage.h"

void kiln_cuda_stage_close(kiln_gpu *st)
{
    kiln_cuda_stage *s = st->stage;
    if (!s) return;
    for (int b = 0; b < KILN_CUDA_STAGES; b++) {
        if (s->buf[b]) cudaFreeHost(s->buf[b]);
        if (s->done[b]) cudaEventDestroy(s->done[b]);
    }
    if (s->ready) cudaEventDestroy(s->ready);
    if (s->copy) cudaStreamDestroy(s->copy);
    free(s);
    st->stage = NULL;
}

static kiln_status stage_make(kiln_gpu *st, size_t bytes)
{
    if (!st->stage && !(st->stage = (kiln_cuda_stage *)calloc(1, sizeof *st->stage)))
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "out of host memory");
    kiln_cuda_stage *s = st->stage;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    if (!s->copy) {
        KILN_CUDA_TRY(cudaStreamCreateWithFlags(&s->copy, cudaStreamNonBlocking), "cudaStreamCreate (staged copies)");
        KILN_CUDA_TRY(cudaEventCreateWithFlags(&s->ready, cudaEventDisableTiming), "cudaEventCreate");
        for (int b = 0; b < KILN_CUDA_STAGES; b++)
            KILN_CUDA_TRY(cudaEventCreateWithFlags(&s->done[b], cudaEventDisableTiming), "cudaEventCreate");
    }
    if (bytes <= s->bytes) return KILN_OK;
    for (int b = 0; b < KILN_CUDA_STAGES; b++) {
        if (s->buf[b]) cudaFreeHost(s->buf[b]);
        s->buf[b] = NULL;
    }
    s->bytes = 0;
    for (int b = 0; b < KILN_CUDA_STAGES; b++) {
        cudaError_t e = cudaHostAlloc((void **)&s->buf[b], bytes, cudaHostAllocPortable);
        if (e != cudaSuccess) {
            s->buf[b] = NULL;
            (void)cudaGetLastError();
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "cannot page-lock %d staging buffers of %zu MiB: %s",
                             KILN_CUDA_STAGES, bytes >> 20, cudaGetErrorString(e));
        }
    }
    s->bytes = bytes;
    return KILN_OK;
}

kiln_status kiln_cuda_stage_open(kiln_gpu *st, size_t bytes)
{
    kiln_status s = stage_make(st, bytes ? bytes : 1);
    if (s != KILN_OK) kiln_cuda_stage_close(st);
    return s;
}

/* The work already on the handle's stream before anything queued next on the copy stream. */
static kiln_status copy_after_stream(kiln_gpu *st)
{
    kiln_cuda_stage *s = st->stage;
    KILN_CUDA_TRY(cudaEventRecord(s->ready, st->stream), "cudaEventRecord");
    KILN_CUDA_TRY(cudaStreamWaitEvent(s->copy, s->ready, 0), "cudaStreamWaitEvent");
    return KILN_OK;
}

/* Chunk c goes through buffer c % STAGES: the host waits until that buffer's last copy has
 * finished, fills it and queues its copy; the handle's stream waits for the copy, so the work
 * landed() queues runs on landed bytes while the host fills the next buffer. */
kiln_status kiln_cuda_stage_in(kiln_gpu *st, uint8_t *dst, const uint8_t *src, size_t total, size_t chunk,
                               kiln_cuda_stage_fill fill, kiln_cuda_stage_landed landed, void *user)
{
    kiln_cuda_stage *s = st->stage;
    if (chunk > total && total > 0) chunk = total;
    if (!s || chunk == 0 || chunk > s->bytes)
        return kiln_fail(st->ctx, KILN_ERR_DEVICE, "staged copy of %zu-byte chunks without a ring that holds them", chunk);
    kiln_status r = copy_after_stream(st);
    if (r != KILN_OK) return r;
    const int threads = kiln_cuda_copy_threads(st->ctx);
    size_t c = 0;
    for (size_t off = 0; off < total; off += chunk, c++) {
        const size_t len = total - off < chunk ? total - off : chunk;
        const int b = (int)(c % KILN_CUDA_STAGES);
        /* also the first time round: an earlier call's last copies may still read the buffer (an
         * event never recorded has fired) */
        KILN_CUDA_TRY(cudaEventSynchronize(s->done[b]), "staged copy to the device");
        if (fill) {
            if ((r = fill(user, off, len, s->buf[b])) != KILN_OK) return r;
        } else {
            kiln_cuda_host_copy(s->buf[b], src + off, len, threads);
        }
        KILN_CUDA_TRY(cudaMemcpyAsync(dst + off, s->buf[b], len, cudaMemcpyHostToDevice, s->copy), "cudaMemcpyAsync (staged)");
        KILN_CUDA_TRY(cudaEventRecord(s->done[b], s->copy), "cudaEventRecord");
        KILN_CUDA_TRY(cudaStreamWaitEvent(st->stream, s->done[b], 0), "cudaStreamWaitEvent");
        if (landed && (r = landed(user, off + len)) != KILN_OK) return r;
    }
    return KILN_OK;
}

/* Up to STAGES chunks in flight to the buffers; the host empties each as its copy fires and
 * refills the buffer with the copy of the chunk STAGES further on. */
kiln_status kiln_cuda_stage_out(kiln_gpu *st, uint8_t *dst, const uint8_t *src, size_t total)
{
    kiln_cuda_stage *s = st->stage;
    if (!s || s->bytes == 0) return kiln_fail(st->ctx, KILN_ERR_DEVICE, "staged copy without a ring");
    kiln_status r = copy_after_stream(st);
    if (r != KILN_OK) return r;
    const size_t chunk = s->bytes;
    const size_t chunks = (total + chunk - 1) / chunk;
    const int threads = kiln_cuda_copy_threads(st->ctx);
    for (size_t c = 0; c < chunks + KILN_CUDA_STAGES; c++) {
        if (c >= KILN_CUDA_STAGES && c - KILN_CUDA_STAGES < chunks) { /* empty chunk c - STAGES */
            const size_t e = c - KILN_CUDA_STAGES, off = e * chunk, len = total - off < chunk ? total - off : chunk;
            const int b = (int)(e % KILN_CUDA_STAGES);
            KILN_CUDA_TRY(cudaEventSynchronize(s->done[b]), "staged copy to the host");
            kiln_cuda_host_copy(dst + off, s->buf[b], len, threads);
        }
        if (c < chunks) { /* its buffer is free: emptied above, or not used yet */
            const size_t off = c * chunk, len = total - off < chunk ? total - off : chunk;
            const int b = (int)(c % KILN_CUDA_STAGES);
            KILN_CUDA_TRY(cudaMemcpyAsync(s->buf[b], src + off, len, cudaMemcpyDeviceToHost, s->copy),
                          "cudaMemcpyAsync (staged)");
            KILN_CUDA_TRY(cudaEventRecord(s->done[b], s->copy), "cudaEventRecord");
        }
    }
    return KILN_OK;
}

kiln_status kiln_cuda_stage_finish(kiln_gpu *st, kiln_status s, const char *work)
{
    cudaError_t ec = st->stage && st->stage->copy ? cudaStreamSynchronize(st->stage->copy) : cudaSuccess;
    cudaError_t ek = cudaStreamSynchronize(st->stream);
    if (s == KILN_OK && ec != cudaSuccess)
        s = kiln_fail(st->ctx, KILN_ERR_DEVICE, "CUDA %s failed: %s", "staged copies", cudaGetErrorString(ec));
    if (s == KILN_OK && ek != cudaSuccess)
        s = kiln_fail(st->ctx, KILN_ERR_DEVICE, "CUDA %s failed: %s", work, cudaGetErrorString(ek));
    if (s != KILN_OK) {
        kiln_cuda_stage_close(st);
        (void)cudaGetLastError();
    }
    return s;
}
