/* The CUDA backend as the rest of the library sees it: plain C functions, implemented in the .cu
 * files when kiln is built with CUDA and by cuda_none.c otherwise. Errors are written to err. */
#ifndef KILN_CUDA_BACKEND_H
#define KILN_CUDA_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "kiln.h"
#include "../pow/sha256d_job.h"
#include "../scrypt/scrypt_job.h"

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

/* ---- scrypt */

/* Litecoin search launch: 0 fields pick the defaults. */
typedef struct kiln_cuda_scrypt_cfg {
    int threads_per_block;
    int hashes_per_thread; /* nonces each resident hash slot runs per launch */
    int threads_per_hash; /* 1 or 4 */
    int lookup_gap; /* 1..16 */
} kiln_cuda_scrypt_cfg;

/* Litecoin scrypt over [start, start+count): the whole hash on the GPU; candidate semantics as
 * kiln_cuda_sha256d_scan's (top 32 bits of the PoW hash <= job->target_top). */
kiln_status kiln_cuda_scrypt_scan(kiln_cuda_state *st, const kiln_scrypt_job *job, uint32_t start, uint64_t count,
                                  const kiln_cuda_scrypt_cfg *cfg, uint32_t *cand, uint32_t cap, uint64_t *ncand,
                                  float *gpu_ms, char *err, size_t errlen);

typedef struct kiln_cuda_scrypt_kdf_cfg {
    uint64_t N;
    uint32_t r, p;
    int threads_per_block; /* 0 = default */
    int lookup_gap; /* 0 = automatic */
} kiln_cuda_scrypt_kdf_cfg;

/* How the batch KDF would run lanes_total lanes: lanes resident at once and the lookup gap (the
 * configured one, or the automatic choice). KILN_ERR_INPUT when one lane cannot fit. */
kiln_status kiln_cuda_scrypt_kdf_plan(kiln_cuda_state *st, const kiln_cuda_scrypt_kdf_cfg *cfg, uint64_t lanes_total,
                                      size_t out_len, uint64_t *slots, uint32_t *gap, char *err, size_t errlen);

/* Batch scrypt KDF: item i's out_len bytes at out + i * out_len. Parameters already checked.
 * KILN_ERR_INPUT when one lane's scratchpad cannot fit in device memory. */
kiln_status kiln_cuda_scrypt_kdf(kiln_cuda_state *st, const kiln_cuda_scrypt_kdf_cfg *cfg, const kiln_scrypt_input *in,
                                 size_t count, uint8_t *out, size_t out_len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
