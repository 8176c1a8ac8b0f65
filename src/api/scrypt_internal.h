/* The scrypt batch pieces shared by kiln_scrypt_batch and its benchmark. */
#ifndef KILN_API_SCRYPT_INTERNAL_H
#define KILN_API_SCRYPT_INTERNAL_H

#include "../core/gpu.h"
#include "kiln.h"

/* The GPU batch alone, without kiln_scrypt_batch's CPU spot check (the bench measures this).
 * Arguments already checked. */
kiln_status kiln_scrypt_batch_gpu(kiln_ctx *ctx, const kiln_scrypt_input *in, size_t count, kiln_scrypt_params sp,
                                  uint8_t *out, size_t out_len);

/* The GPU KDF batch of sp with the context's launch shape. */
kiln_gpu_batch kiln_scrypt_gpu_batch(const kiln_ctx *ctx, kiln_scrypt_params sp);

#endif
