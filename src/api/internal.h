/* Library-internal view of the context and the error helpers shared by every layer. */
#ifndef KILN_API_INTERNAL_H
#define KILN_API_INTERNAL_H

#include "kiln.h"

#define KILN_ALGO_COUNT 2
#define KILN_ERR_MAX 256

struct kiln_cuda_state;

struct kiln_ctx {
    kiln_backend backend;
    int gpu; /* CUDA ordinal when backend is CUDA */
    int threads; /* 0 = all online cores */
    char device_name[128];
    kiln_launch launch[KILN_ALGO_COUNT];
    kiln_scrypt_shape scrypt_shape; /* Litecoin search */
    kiln_launch scrypt_kdf_launch; /* GPU batch KDF */
    kiln_scrypt_shape scrypt_kdf_shape;
    struct kiln_cuda_state *cuda; /* opened on first GPU use */
    char err[KILN_ERR_MAX];
};

/* Records a formatted message in ctx (when not NULL) and returns st, so callers can write
 * `return kiln_fail(ctx, KILN_ERR_INPUT, "...", ...);`. */
kiln_status kiln_fail(kiln_ctx *ctx, kiln_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Monotonic seconds. */
double kiln_now(void);

#endif
