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

/* ---- Keccak / SHA-3 and the SHA-256 family over batches of messages (keccak_batch.cu) */

/* What to compute: a Keccak sponge (rate bytes, domain byte) or, with rate 0, SHA-256 (sha256d:
 * applied twice). outlen bytes per digest. */
typedef struct kiln_cuda_hash_params {
    unsigned rate;
    uint8_t domain;
    int sha256d;
    size_t outlen;
} kiln_cuda_hash_params;

/* n messages from host memory: message i is data[offsets[i]-offsets[0] .. offsets[i+1]-offsets[0])
 * or, with offsets NULL, data[i*msg_len .. (i+1)*msg_len). Digests go to out, packed. *gpu_ms:
 * the kernel time (events). */
kiln_status kiln_cuda_hash_batch(kiln_cuda_state *st, const kiln_cuda_hash_params *p, const uint8_t *data,
                                 const uint64_t *offsets, size_t msg_len, size_t n, uint8_t *out, float *gpu_ms,
                                 char *err, size_t errlen);

/* Benchmark over a device-resident batch of n pseudo-random messages of msg_len bytes (generated
 * on the device): with_offsets != 0 reads an offsets array as the general batch does. Runs one
 * warm-up launch and reps timed launches; *median_ms is the median kernel time. Copies the
 * messages and digests of nsample evenly spaced indices back (sample_msgs: nsample*msg_len bytes,
 * sample_out: nsample*outlen) for the caller to verify. */
kiln_status kiln_cuda_hash_bench(kiln_cuda_state *st, const kiln_cuda_hash_params *p, size_t msg_len, size_t n,
                                 int with_offsets, int reps, float *median_ms, uint8_t *sample_msgs,
                                 uint8_t *sample_out, size_t nsample, char *err, size_t errlen);

/* ---- raw Keccak-f[1600] batches in the three layouts (keccak_perm.cu); layout is a
 * kiln_keccak_layout other than AUTO */

kiln_status kiln_cuda_keccak_f1600_batch(kiln_cuda_state *st, int layout, uint64_t *states, size_t n, float *gpu_ms,
                                         char *err, size_t errlen);

/* Benchmark over n device-resident states permuted in place, iters permutations per load/store
 * (1: each state read and written once per permutation). sample_before/after: 25 lanes of nsample
 * evenly spaced states around the last timed launch (iters permutations apart). */
kiln_status kiln_cuda_keccak_bench(kiln_cuda_state *st, int layout, size_t n, int iters, int reps, float *median_ms,
                                   uint64_t *sample_before, uint64_t *sample_after, size_t nsample, char *err,
                                   size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
