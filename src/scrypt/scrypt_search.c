/* Litecoin's proof of work, scrypt(header, header, N=1024, r=1, p=1), as a nonce search
 * (core/search_desc.h). */
#include <stdio.h>

#include "../core/search_desc.h"
#include "scrypt_cpu.h"

static void prepare(kiln_search_state *s, const uint8_t header[KILN_HEADER_SIZE], const uint8_t target[32])
{
    kiln_scrypt_job_init(&s->scrypt, header, target);
}

static void cpu_impl(char *out, size_t len) { snprintf(out, len, "%s", kiln_scrypt_cpu_name()); }

static void gpu_work(const kiln_ctx *ctx, const kiln_search_state *s, kiln_gpu_search *w)
{
    const kiln_launch l = ctx->launch[KILN_ALGO_SCRYPT];
    w->kind = KILN_GPU_SEARCH_SCRYPT;
    w->job.scrypt = &s->scrypt;
    w->shape.scrypt = (kiln_gpu_scrypt_cfg){l.threads_per_block, l.items_per_thread,
                                            ctx->scrypt_shape.threads_per_hash, ctx->scrypt_shape.lookup_gap};
}

const kiln_search_desc kiln_scrypt_search = {
    .algo = KILN_ALGO_SCRYPT,
    .name = "scrypt",
    .cpu_impl = cpu_impl,
    .pow_hash = kiln_scrypt_pow_hash,
    .prepare = prepare,
    .cpu_search = kiln_scrypt_cpu_search,
    .cpu_memory = "scrypt scratchpads",
    .gpu_work = gpu_work,
    .cpu_first_chunk = UINT64_C(1) << 8,
    /* a GPU wave of scrypt slots is ~10^5 hashes at a few MH/s: ranges of ~0.3 s keep it full */
    .gpu_first_chunk = UINT64_C(1) << 19,
    .gpu_range_s = 0.3,
};
