/* The scrypt batch KDF on the context's device, with a CPU check of a GPU batch, and the launch
 * shapes a context keeps for scrypt (the Litecoin search and the batch KDF). */
#include <stdlib.h>
#include <string.h>

#include "../core/ctx.h"
#include "../core/gpu.h"
#include "../scrypt/scrypt_kdf.h"
#include "scrypt_internal.h"

static kiln_status batch_args(kiln_ctx *ctx, const kiln_scrypt_input *in, size_t count, kiln_scrypt_params sp,
                              uint8_t *out, size_t out_len)
{
    if (!ctx) return KILN_ERR_INPUT;
    if (count == 0) return KILN_OK;
    if (!in || !out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing inputs or output buffer");
    for (size_t i = 0; i < count; i++)
        if ((!in[i].password && in[i].password_len) || (!in[i].salt && in[i].salt_len))
            return kiln_fail(ctx, KILN_ERR_INPUT, "input %zu has a length but no bytes", i);
    if (count > SIZE_MAX / out_len) return kiln_fail(ctx, KILN_ERR_INPUT, "batch output size overflows");
    return kiln_scrypt_check(ctx, sp, out_len);
}

kiln_gpu_batch kiln_scrypt_gpu_batch(const kiln_ctx *ctx, kiln_scrypt_params sp)
{
    return (kiln_gpu_batch){.kind = KILN_GPU_BATCH_KDF,
                            .by.kdf = {sp.N, sp.r, sp.p, ctx->scrypt_kdf_launch.threads_per_block,
                                       ctx->scrypt_kdf_shape.lookup_gap, ctx->scrypt_kdf_launch.items_per_thread}};
}

kiln_status kiln_scrypt_batch_gpu(kiln_ctx *ctx, const kiln_scrypt_input *in, size_t count, kiln_scrypt_params sp,
                                  uint8_t *out, size_t out_len)
{
    kiln_gpu *g;
    kiln_status st = kiln_ctx_gpu(ctx, 0, &g);
    if (st != KILN_OK) return st;
    const kiln_gpu_batch w = kiln_scrypt_gpu_batch(ctx, sp);
    const kiln_gpu_batch_io io = {count, in, NULL, out_len, out};
    return ctx->gpu->batch(g, &w, &io, NULL);
}

kiln_status kiln_scrypt_batch(kiln_ctx *ctx, const kiln_scrypt_input *in, size_t count, kiln_scrypt_params sp,
                              uint8_t *out, size_t out_len)
{
    kiln_status st = batch_args(ctx, in, count, sp, out, out_len);
    if (st != KILN_OK || count == 0) return st;
    if (ctx->backend == KILN_BACKEND_CPU) return kiln_scrypt_batch_cpu(ctx, in, count, sp, out, out_len);
    st = kiln_scrypt_batch_gpu(ctx, in, count, sp, out, out_len);
    if (st != KILN_OK) return st;
    /* a GPU bug must not pass as a result: the last item is recomputed on the CPU */
    uint8_t *check = malloc(out_len);
    if (!check) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for the CPU check");
    const kiln_scrypt_input *last = &in[count - 1];
    st = kiln_scrypt(ctx, last->password, last->password_len, last->salt, last->salt_len, sp, check, out_len);
    if (st == KILN_OK && memcmp(check, out + (count - 1) * out_len, out_len) != 0)
        st = kiln_fail(ctx, KILN_ERR_DEVICE, "GPU scrypt result for item %zu differs from the CPU's", count - 1);
    free(check);
    return st;
}

/* ---- device memory (docs/DEVICE_MEMORY.md) */

kiln_status kiln_scrypt_batch_device(kiln_ctx *ctx, const void *passwords, size_t passwords_len,
                                     const uint64_t *password_offsets, const void *salts, size_t salts_len,
                                     const uint64_t *salt_offsets, size_t count, kiln_scrypt_params sp, void *out,
                                     size_t out_len, void *stream)
{
    if (!ctx) return KILN_ERR_INPUT;
    kiln_status st = kiln_scrypt_check(ctx, sp, out_len);
    if (st != KILN_OK || count == 0) return st;
    if (!password_offsets || !salt_offsets || !out) return kiln_fail(ctx, KILN_ERR_INPUT, "missing offsets or output buffer");
    if (count > SIZE_MAX / out_len || count > SIZE_MAX / 8 - 1) return kiln_fail(ctx, KILN_ERR_INPUT, "batch output size overflows");
    if (ctx->backend == KILN_BACKEND_CPU || !ctx->gpu)
        return kiln_fail(ctx, KILN_ERR_DEVICE, "passwords in device memory need a GPU context, not the CPU");
    if (!ctx->gpu->kdf_device) return kiln_gpu_lacks(ctx, "run the scrypt KDF on device memory");
    kiln_gpu *g;
    if ((st = kiln_ctx_gpu(ctx, 0, &g)) != KILN_OK) return st;
    const kiln_gpu_batch w = kiln_scrypt_gpu_batch(ctx, sp);
    return ctx->gpu->kdf_device(g, &w.by.kdf, passwords, passwords_len, password_offsets, salts, salts_len, salt_offsets,
                                count, out, out_len, stream);
}

/* ---- launch shapes */

static kiln_status check_shape(kiln_ctx *ctx, kiln_scrypt_shape s, int kdf)
{
    if (s.threads_per_hash != 0 && s.threads_per_hash != 4 && (kdf || s.threads_per_hash != 1))
        return kiln_fail(ctx, KILN_ERR_INPUT, "threads per hash %d must be %s", s.threads_per_hash,
                         kdf ? "4 for the batch KDF" : "1 or 4");
    if (s.lookup_gap < 0 || s.lookup_gap > 16 || (s.lookup_gap & (s.lookup_gap - 1)) != 0)
        return kiln_fail(ctx, KILN_ERR_INPUT, "lookup gap %d must be 1, 2, 4, 8 or 16", s.lookup_gap);
    return KILN_OK;
}

kiln_status kiln_ctx_set_scrypt_shape(kiln_ctx *ctx, kiln_scrypt_shape shape)
{
    if (!ctx) return KILN_ERR_INPUT;
    kiln_status st = check_shape(ctx, shape, 0);
    if (st == KILN_OK) ctx->scrypt_shape = shape;
    return st;
}

kiln_scrypt_shape kiln_ctx_scrypt_shape(const kiln_ctx *ctx)
{
    kiln_scrypt_shape none = {0, 0};
    return ctx ? ctx->scrypt_shape : none;
}

kiln_status kiln_ctx_set_scrypt_kdf_launch(kiln_ctx *ctx, kiln_launch launch, kiln_scrypt_shape shape)
{
    if (!ctx) return KILN_ERR_INPUT;
    int tpb = launch.threads_per_block;
    if (tpb != 0 && (tpb < 32 || tpb > 1024 || tpb % 32 != 0))
        return kiln_fail(ctx, KILN_ERR_INPUT, "threads per block %d must be a multiple of 32 in 32..1024", tpb);
    kiln_status st = check_shape(ctx, shape, 1);
    if (st != KILN_OK) return st;
    ctx->scrypt_kdf_launch = launch;
    ctx->scrypt_kdf_shape = shape;
    return KILN_OK;
}

void kiln_ctx_scrypt_kdf_launch(const kiln_ctx *ctx, kiln_launch *launch, kiln_scrypt_shape *shape)
{
    if (launch) *launch = ctx ? ctx->scrypt_kdf_launch : (kiln_launch){0, 0};
    if (shape) *shape = ctx ? ctx->scrypt_kdf_shape : (kiln_scrypt_shape){0, 0};
}
