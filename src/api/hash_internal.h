/* Pieces of the batch hashing layer shared with its benchmark. */
#ifndef KILN_API_HASH_INTERNAL_H
#define KILN_API_HASH_INTERNAL_H

#include "kiln.h"
#include "../core/gpu.h"

/* What the GPU batch kernels compute for algo. */
kiln_gpu_hash_params kiln_hash_gpu_params(kiln_hash_algo algo, size_t outlen);
/* Recomputes a sample of the n digests in out on the CPU (all of them when n is small);
 * KILN_ERR_DEVICE naming the first message that differs. offsets NULL: fixed msg_len. */
kiln_status kiln_hash_verify_sample(kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *data, const uint64_t *offsets,
                                    size_t msg_len, size_t n, const uint8_t *out, size_t outlen);
/* The GPU layout AUTO stands for. */
kiln_keccak_layout kiln_keccak_layout_resolve(kiln_keccak_layout layout);

#endif
