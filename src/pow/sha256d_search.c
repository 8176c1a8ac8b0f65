/* Bitcoin's proof of work as a nonce search (core/search_desc.h). */
#include <stdio.h>

#include "../core/search_desc.h"
#include "sha256d_cpu.h"

static void prepare(kiln_search_state *s, const uint8_t header[KILN_HEADER_SIZE], const uint8_t target[32])
{
    kiln_sha256d_job_init(&s->sha256d, header, target);
}

static void cpu_impl(char *out, size_t len) { snprintf(out, len, "%s", kiln_sha256d_cpu_name()); }

static void gpu_work(const kiln_ctx *ctx, const kiln_search_state *s, kiln_gpu_search *w)
{
    w->kind = KILN_GPU_SEARCH_SHA256D;
    w->job.sha256d = &s->sha256d;
    w->shape.sha256d = ctx->launch[KILN_ALGO_SHA256D];
}

const kiln_search_desc kiln_sha256d_search = {
    .algo = KILN_ALGO_SHA256D,
    .name = "sha256d",
    .cpu_impl = cpu_impl,
    .pow_hash = kiln_header_hash,
    .prepare = prepare,
    .cpu_search = kiln_sha256d_cpu_search,
    .cpu_memory = "scan buffers",
    .gpu_work = gpu_work,
    .cpu_first_chunk = UINT64_C(1) << 18,
    .gpu_first_chunk = UINT64_C(1) << 26,
};
