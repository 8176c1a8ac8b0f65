/* CUDA device discovery and the per-context device state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_state.h"
#include "stage.h"

int kiln_cuda_count_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError(); /* no driver or no device: clear the sticky error, report none */
        return 0;
    }
    return n;
}

kiln_status kiln_cuda_device_info(kiln_ctx *ctx, int ordinal, kiln_device_info *out)
{
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, ordinal);
    if (e != cudaSuccess)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "CUDA %s failed: %s", "cudaGetDeviceProperties", cudaGetErrorString(e));
    memset(out, 0, sizeof *out);
    out->backend = KILN_BACKEND_CUDA;
    out->index = ordinal;
    snprintf(out->name, sizeof out->name, "%.127s", p.name);
    out->units = p.multiProcessorCount;
    out->cc_major = p.major;
    out->cc_minor = p.minor;
    out->memory_bytes = (uint64_t)p.totalGlobalMem;
    return KILN_OK;
}

static kiln_status open_state(kiln_gpu *st, int ordinal)
{
    st->ordinal = ordinal;
    KILN_CUDA_TRY(cudaSetDevice(ordinal), "cudaSetDevice");
    KILN_CUDA_TRY(cudaDeviceGetAttribute(&st->sm_count, cudaDevAttrMultiProcessorCount, ordinal),
                  "cudaDeviceGetAttribute");
    KILN_CUDA_TRY(cudaStreamCreateWithFlags(&st->stream, cudaStreamNonBlocking), "cudaStreamCreate");
    KILN_CUDA_TRY(cudaEventCreate(&st->ev_start), "cudaEventCreate");
    KILN_CUDA_TRY(cudaEventCreate(&st->ev_stop), "cudaEventCreate");
    KILN_CUDA_TRY(cudaMalloc(&st->d_cand, KILN_CUDA_CAND_CAP * sizeof(uint32_t)), "cudaMalloc");
    KILN_CUDA_TRY(cudaMalloc(&st->d_count, sizeof(unsigned long long)), "cudaMalloc");
    KILN_CUDA_TRY(cudaMallocHost(&st->h_cand, KILN_CUDA_CAND_CAP * sizeof(uint32_t)), "cudaMallocHost");
    KILN_CUDA_TRY(cudaMallocHost(&st->h_count, sizeof(unsigned long long)), "cudaMallocHost");
    return KILN_OK;
}

kiln_status kiln_cuda_open(kiln_ctx *ctx, int ordinal, kiln_gpu **out)
{
    kiln_gpu *st = (kiln_gpu *)calloc(1, sizeof *st);
    *out = NULL;
    if (!st) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of host memory");
    st->ctx = ctx;
    kiln_status s = open_state(st, ordinal);
    if (s == KILN_OK) *out = st;
    else kiln_cuda_close(st);
    return s;
}

void kiln_cuda_close(kiln_gpu *st)
{
    if (!st) return;
    cudaSetDevice(st->ordinal);
    kiln_cuda_merkle_release(st);
    kiln_cuda_stage_close(st);
    if (st->d_cand) cudaFree(st->d_cand);
    if (st->d_count) cudaFree(st->d_count);
    if (st->h_cand) cudaFreeHost(st->h_cand);
    if (st->h_count) cudaFreeHost(st->h_count);
    if (st->scratch) cudaFree(st->scratch);
    if (st->ev_start) cudaEventDestroy(st->ev_start);
    if (st->ev_stop) cudaEventDestroy(st->ev_stop);
    if (st->stream) cudaStreamDestroy(st->stream);
    free(st);
}

kiln_status kiln_cuda_scratch(kiln_gpu *st, size_t bytes, void **out)
{
    if (bytes > st->scratch_bytes) {
        if (st->scratch) cudaFree(st->scratch);
        st->scratch = NULL;
        st->scratch_bytes = 0;
        KILN_CUDA_TRY(cudaMalloc(&st->scratch, bytes), "cudaMalloc (scratch)");
        st->scratch_bytes = bytes;
    }
    *out = st->scratch;
    return KILN_OK;
}

kiln_status kiln_cuda_mem_info(kiln_gpu *st, uint64_t *free_bytes, uint64_t *total_bytes)
{
    size_t f = 0, t = 0;
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    KILN_CUDA_TRY(cudaMemGetInfo(&f, &t), "cudaMemGetInfo");
    *free_bytes = f;
    *total_bytes = t;
    return KILN_OK;
}

void kiln_cuda_note_memory(kiln_gpu *st)
{
    size_t f = 0, t = 0;
    /* a sample that fails is skipped: the peak is a report, not a check */
    if (cudaMemGetInfo(&f, &t) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    if (t - f > st->mem_peak) st->mem_peak = t - f;
}

uint64_t kiln_cuda_mem_peak(kiln_gpu *st) { return st->mem_peak; }
