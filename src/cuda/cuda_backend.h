/* The CUDA backend as the rest of the library sees it: plain C functions, implemented in the .cu
 * files when kiln is built with CUDA and by cuda_none.c otherwise. Errors are written to err. */
#ifndef KILN_CUDA_BACKEND_H
#define KILN_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "kiln.h"
#include "../pow/sha256d_job.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_cuda_state kiln_cuda_state;

int kiln_cuda_compiled(void);
/* GPUs the runtime can see; 0 when there is no driver or no device. */
int kiln_cuda_device_count(void);
kiln_status kiln_cuda_device_info(int ordinal, kiln_device_info *out, char *err, size_t errlen);

/* Per-context device state (selected device, found-nonce buffers, events). */
kiln_status kiln_cuda_open(int ordinal, kiln_cuda_state **out, char *err, size_t errlen);
void kiln_cuda_close(kiln_cuda_state *st);

/* One launch over [start, start+count), count <= 2^32 - start. Writes up to cap candidate nonces
 * (byte-swapped digest word 7 <= job->target[7]) to cand, unordered, and their total number to
 * *ncand (which may exceed cap). tpb/ipt of 0 pick the defaults. *gpu_ms receives the kernel
 * time measured with events. */
kiln_status kiln_cuda_sha256d_scan(kiln_cuda_state *st, const kiln_sha256d_job *job, uint32_t start, uint64_t count,
                                   int tpb, int ipt, uint32_t *cand, uint32_t cap, uint64_t *ncand, float *gpu_ms,
                                   char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
