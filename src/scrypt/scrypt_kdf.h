/* Library-internal entry points of the scrypt KDF on the CPU. */
#ifndef KILN_SCRYPT_KDF_H
#define KILN_SCRYPT_KDF_H

#include "kiln.h"

/* count items on the context's CPU threads (item i's out_len bytes at out + i * out_len): items
 * over threads, or each item's p lanes over threads when there are few items. Arguments already
 * checked. */
kiln_status kiln_scrypt_batch_cpu(kiln_ctx *ctx, const kiln_scrypt_input *in, size_t count, kiln_scrypt_params sp,
                                  uint8_t *out, size_t out_len);

#endif
