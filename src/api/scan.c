/* The nonce-search dispatcher: validates the job, cuts the range into launches of roughly
 * LAUNCH_TARGET_S each, runs them on the chosen backend, and re-verifies every candidate on
 * the CPU from the real header bytes before reporting it. */
#include <stdlib.h>
#include <string.h>

#include "../cuda/cuda_backend.h"
#include "../pow/sha256d_cpu.h"
#include "internal.h"

#define NONCE_SPACE (UINT64_C(1) << 32)
#define CAND_CAP 65536u
#define LAUNCH_TARGET_S 0.05

typedef struct scan_run {
    kiln_ctx *ctx;
    const kiln_scan_job *job;
    kiln_sha256d_job prep;
    kiln_sha256d_impl cpu_impl;
    uint32_t *cand;
    uint32_t *verified;
    kiln_scan_result *res;
    int stop; /* a callback asked to stop */
    int hit; /* first nonce found and find_all is off */
} scan_run;

/* Candidates of one range from the backend; *n may exceed CAND_CAP (then the range is split). */
static kiln_status backend_range(scan_run *r, uint32_t start, uint64_t count, uint64_t *n)
{
    kiln_ctx *ctx = r->ctx;
    if (ctx->backend == KILN_BACKEND_CPU) {
        *n = kiln_sha256d_cpu_scan(&r->cpu_impl, ctx->threads, &r->prep, start, count, r->cand, CAND_CAP);
        if (*n == UINT64_MAX) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for CPU scan buffers");
        return KILN_OK;
    }
    char err[KILN_ERR_MAX];
    float ms = 0;
    kiln_launch l = ctx->launch[r->job->algo];
    kiln_status st = kiln_cuda_sha256d_scan(ctx->cuda, &r->prep, start, count, l.threads_per_block,
                                            l.items_per_thread, r->cand, CAND_CAP, n, &ms, err, sizeof err);
    if (st != KILN_OK) return kiln_fail(ctx, st, "%s", err);
    return KILN_OK;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Runs one range; splits it while the candidates overflow the buffer (very easy targets). */
static kiln_status run_range(scan_run *r, uint32_t start, uint64_t count)
{
    uint64_t n = 0;
    kiln_status st = backend_range(r, start, count, &n);
    if (st != KILN_OK) return st;
    if (n > CAND_CAP) {
        if (count < 2) return kiln_fail(r->ctx, KILN_ERR_DEVICE, "backend reported %llu candidates for one nonce",
                                        (unsigned long long)n);
        uint64_t half = count / 2;
        st = run_range(r, start, half);
        if (st != KILN_OK || r->stop || r->hit) return st;
        return run_range(r, start + (uint32_t)half, count - half);
    }
    uint8_t header[KILN_HEADER_SIZE], hash[32];
    memcpy(header, r->job->header, sizeof header);
    uint32_t nv = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t nonce = r->cand[i];
        if (nonce - start >= count) { /* outside the range asked for: a backend bug */
            r->res->false_candidates++;
            continue;
        }
        kiln_header_set_nonce(header, nonce);
        kiln_header_hash(header, hash);
        if (kiln_hash_meets_target(hash, r->job->target)) {
            r->verified[nv++] = nonce;
        } else {
            /* the backend's early test needs the top 32 bits <= the target's; anything else is wrong */
            uint32_t top = (uint32_t)hash[28] | (uint32_t)hash[29] << 8 | (uint32_t)hash[30] << 16 |
                           (uint32_t)hash[31] << 24;
            if (top > r->prep.target[7]) r->res->false_candidates++;
        }
    }
    r->res->hashes += count;
    if (nv == 0) return KILN_OK;
    qsort(r->verified, nv, sizeof *r->verified, cmp_u32);
    uint32_t report = r->job->find_all ? nv : 1;
    for (uint32_t i = 0; i < report; i++) {
        kiln_header_set_nonce(header, r->verified[i]);
        kiln_header_hash(header, hash);
        r->res->found++;
        if (r->job->on_found && r->job->on_found(r->job->user, r->verified[i], hash)) {
            r->stop = 1;
            break;
        }
    }
    if (!r->job->find_all) r->hit = 1;
    return KILN_OK;
}

static kiln_status prepare_backend(scan_run *r)
{
    kiln_ctx *ctx = r->ctx;
    if (ctx->backend == KILN_BACKEND_CPU) {
        kiln_sha256d_cpu_impls(&r->cpu_impl, 1);
        return KILN_OK;
    }
    if (!ctx->cuda) {
        char err[KILN_ERR_MAX];
        kiln_status st = kiln_cuda_open(ctx->gpu, &ctx->cuda, err, sizeof err);
        if (st != KILN_OK) return kiln_fail(ctx, st, "%s", err);
    }
    return KILN_OK;
}

kiln_status kiln_scan(kiln_ctx *ctx, const kiln_scan_job *job, kiln_scan_result *res)
{
    kiln_scan_result local;
    if (!res) res = &local;
    memset(res, 0, sizeof *res);
    if (!ctx || !job) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or job");
    if ((unsigned)job->algo >= KILN_ALGO_COUNT) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown algorithm %d", job->algo);
    if (job->start >= NONCE_SPACE)
        return kiln_fail(ctx, KILN_ERR_INPUT, "start nonce %llu is past 2^32 - 1", (unsigned long long)job->start);
    if (job->count > NONCE_SPACE - job->start)
        return kiln_fail(ctx, KILN_ERR_INPUT, "range start %llu + count %llu runs past 2^32",
                         (unsigned long long)job->start, (unsigned long long)job->count);

    scan_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.job = job;
    r.res = res;
    kiln_sha256d_job_init(&r.prep, job->header, job->target);
    kiln_status st = prepare_backend(&r);
    if (st != KILN_OK) return st;
    r.cand = malloc(CAND_CAP * sizeof *r.cand);
    r.verified = malloc(CAND_CAP * sizeof *r.verified);
    if (!r.cand || !r.verified) {
        free(r.cand);
        free(r.verified);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for candidate buffers");
    }

    /* first launches are short and grow until one takes about LAUNCH_TARGET_S */
    uint64_t chunk = ctx->backend == KILN_BACKEND_CPU ? (UINT64_C(1) << 18) : (UINT64_C(1) << 26);
    uint64_t max_chunk = ctx->backend == KILN_BACKEND_CPU ? (UINT64_C(1) << 28) : NONCE_SPACE;
    double t0 = kiln_now();
    uint64_t done = 0;
    while (done < job->count && st == KILN_OK && !r.stop && !r.hit) {
        uint64_t n = job->count - done < chunk ? job->count - done : chunk;
        double t = kiln_now();
        st = run_range(&r, (uint32_t)(job->start + done), n);
        double dt = kiln_now() - t;
        done += n;
        if (st == KILN_OK && !r.stop && job->on_progress && job->on_progress(job->user, done, job->count))
            r.stop = 1;
        if (dt < LAUNCH_TARGET_S / 2 && chunk < max_chunk) chunk *= 2;
        else if (dt > LAUNCH_TARGET_S * 2 && chunk > 1024) chunk /= 2;
    }
    res->seconds = kiln_now() - t0;
    free(r.cand);
    free(r.verified);
    if (st != KILN_OK) return st;
    if (r.stop) return KILN_STOPPED;
    return res->found ? KILN_OK : KILN_NOT_FOUND;
}
