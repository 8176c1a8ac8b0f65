/* Device state behind kiln_cuda_state, shared by the .cu files. */
#ifndef KILN_CUDA_STATE_H
#define KILN_CUDA_STATE_H

#include <cuda_runtime.h>
#include <stdio.h>

#include "cuda_backend.h"

/* Capacity of the device's found-nonce buffer; more candidates than this in one launch make the
 * host split the launch (it only happens with very easy targets). */
#define KILN_CUDA_CAND_CAP 4096u

struct kiln_cuda_state {
    int ordinal;
    int sm_count;
    cudaStream_t stream;
    cudaEvent_t ev_start, ev_stop;
    uint32_t *d_cand; /* KILN_CUDA_CAND_CAP nonces */
    unsigned long long *d_count; /* candidates found, may exceed the capacity */
    uint32_t *h_cand; /* pinned copies */
    unsigned long long *h_count;
    struct kiln_cuda_merkle *merkle; /* device tree and graph of merkle.cu, made on first use */
    void *scratch; /* large per-context work memory (scrypt scratchpads), grown on demand */
    size_t scratch_bytes;
};

/* At least `bytes` of the context's scratch in *out (old contents not kept). KILN_ERR_DEVICE
 * with the CUDA message when it cannot be had. Implemented in device.cu. */
kiln_status kiln_cuda_scratch(kiln_cuda_state *st, size_t bytes, void **out, char *err, size_t errlen);

/* Evaluates a CUDA runtime call; on failure writes "what: message" into err and returns
 * KILN_ERR_DEVICE from the enclosing function. */
#define KILN_CUDA_TRY(call, what)                                                                  \
    do {                                                                                           \
        cudaError_t kiln_e_ = (call);                                                              \
        if (kiln_e_ != cudaSuccess) {                                                              \
            snprintf(err, errlen, "CUDA %s failed: %s", (what), cudaGetErrorString(kiln_e_));      \
            return KILN_ERR_DEVICE;                                                                \
        }                                                                                          \
    } while (0)

#endif
