/* The nonce-search dispatcher: validates the job, cuts the range into launches of roughly
 * LAUNCH_TARGET_S each, runs them on the chosen backend, and re-verifies every candidate on
 * the CPU from the real header bytes before reporting it. */
#include <stdlib.h>
#include <string.h>

#include "../core/clock.h"
#include "../core/cpu_scan.h"
#include "../core/ctx.h"
#include "../core/gpu.h"
#include "search_list.h"

#define NONCE_SPACE (UINT64_C(1) << 32)
#define CAND_CAP 65536u
#define LAUNCH_TARGET_S 0.05

typedef struct scan_run {
    kiln_ctx *ctx;
    kiln_gpu *gpu; /* the context's GPU, when the backend is a GPU */
    const kiln_scan_job *job;
    const kiln_search_desc *algo;
    uint32_t target_top; /* most significant 32 bits of the target */
    kiln_search_state state; /* per-job state of the algorithm's backends */
    uint32_t *cand;
    uint32_t *verified;
    kiln_scan_result *res;
    kiln_scan_device *devs; /* each device's part (kiln_scan_devices), or NULL */
    double t0; /* when the search started */
    int stop; /* a callback or the interrupt poll asked to stop */
    int interrupted; /* it was the interrupt poll */
    int hit; /* first nonce found and find_all is off */
} scan_run;

/* GPU candidates of [start, start+count); *n may exceed CAND_CAP */
static kiln_status gpu_range(scan_run *r, uint32_t start, uint64_t count, uint64_t *n)
{
    float ms = 0;
    kiln_gpu_search w;
    r->algo->gpu_work(r->ctx, &r->state, &w);
    return r->ctx->gpu->search(r->gpu, &w, start, count, r->cand, CAND_CAP, n, &ms);
}

/* A range over several GPUs: device i searches the i-th of equal slices into its own candidate
 * buffer, and the buffers are joined (the CPU checks them all after). */
typedef struct devices_range {
    scan_run *r;
    uint32_t start;
    uint64_t count;
    uint32_t *cand[KILN_MAX_GPUS];
    uint64_t n[KILN_MAX_GPUS];
    double busy[KILN_MAX_GPUS]; /* each device's time in its own launches */
} devices_range;

/* Device i's slice of [start, start+count) among k devices: the one split, used to run the slices
 * and to count each device's nonces. */
static uint64_t slice_lo(uint64_t count, int i, int k) { return count * (uint64_t)i / (uint64_t)k; }

static void slice(const devices_range *d, int i, uint32_t *start, uint64_t *count)
{
    const int k = d->r->ctx->ngpu;
    *start = d->start + (uint32_t)slice_lo(d->count, i, k);
    *count = slice_lo(d->count, i + 1, k) - slice_lo(d->count, i, k);
}

static kiln_status device_slice(void *arg, int i, kiln_gpu *g)
{
    devices_range *d = arg;
    scan_run r = *d->r; /* this device's view: its handle and candidate buffer */
    r.gpu = g;
    r.cand = d->cand[i];
    uint32_t start;
    uint64_t count;
    slice(d, i, &start, &count);
    d->n[i] = 0;
    if (!count) return KILN_OK;
    double t = kiln_now();
    kiln_status st = gpu_range(&r, start, count, &d->n[i]);
    d->busy[i] = kiln_now() - t;
    return st;
}

static kiln_status devices_range_run(scan_run *r, uint32_t start, uint64_t count, uint64_t *n)
{
    const int k = r->ctx->ngpu;
    devices_range d = {r, start, count, {0}, {0}, {0}};
    kiln_status st = KILN_OK;
    for (int i = 0; i < k && st == KILN_OK; i++)
        if (!(d.cand[i] = malloc(CAND_CAP * sizeof *d.cand[i])))
            st = kiln_fail(r->ctx, KILN_ERR_DEVICE, "out of memory for candidate buffers");
    if (st == KILN_OK) st = kiln_gpu_each(r->ctx, device_slice, &d);
    for (int i = 0; r->devs && i < k; i++) r->devs[i].seconds += d.busy[i];
    *n = 0;
    for (int i = 0; i < k && st == KILN_OK; i++) {
        /* an overflowing device makes the whole range split, as one device's overflow does */
        if (d.n[i] > CAND_CAP || *n + d.n[i] > CAND_CAP) {
            *n = CAND_CAP + 1;
            break;
        }
        memcpy(r->cand + *n, d.cand[i], d.n[i] * sizeof *r->cand);
        *n += d.n[i];
    }
    for (int i = 0; i < k; i++) free(d.cand[i]);
    return st;
}

/* Candidates of one range from the backend; *n may exceed CAND_CAP (then the range is split). */
static kiln_status backend_range(scan_run *r, uint32_t start, uint64_t count, uint64_t *n)
{
    if (r->ctx->backend != KILN_BACKEND_CPU)
        return r->ctx->ngpu > 1 ? devices_range_run(r, start, count, n) : gpu_range(r, start, count, n);
    *n = r->algo->cpu_search(r->ctx->threads, &r->state, start, count, r->cand, CAND_CAP);
    if (*n == UINT64_MAX) return kiln_fail(r->ctx, KILN_ERR_DEVICE, "out of memory for CPU %s", r->algo->cpu_memory);
    return KILN_OK;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Each device's nonces of a range searched to its end: its slice on a set (a range split for too
 * many candidates counts by the split that found them), else the whole range; on one device its
 * busy time is the search's time so far. */
static void count_devices(scan_run *r, uint64_t count)
{
    if (!r->devs) return;
    const int k = r->ctx->backend == KILN_BACKEND_CPU ? 1 : r->ctx->ngpu;
    for (int i = 0; i < k; i++) r->devs[i].hashes += slice_lo(count, i + 1, k) - slice_lo(count, i, k);
    if (k == 1) r->devs[0].seconds = kiln_now() - r->t0;
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
        if (kiln_ctx_interrupt_requested(r->ctx)) {
            r->stop = r->interrupted = 1;
            return KILN_OK;
        }
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
        r->algo->pow_hash(header, hash);
        if (kiln_hash_meets_target(hash, r->job->target)) {
            r->verified[nv++] = nonce;
        } else {
            /* the backend's early test needs the top 32 bits <= the target's; anything else is wrong */
            uint32_t top = (uint32_t)hash[28] | (uint32_t)hash[29] << 8 | (uint32_t)hash[30] << 16 |
                           (uint32_t)hash[31] << 24;
            if (top > r->target_top) r->res->false_candidates++;
        }
    }
    r->res->hashes += count;
    count_devices(r, count);
    if (nv == 0) return KILN_OK;
    qsort(r->verified, nv, sizeof *r->verified, cmp_u32);
    uint32_t report = r->job->find_all ? nv : 1;
    for (uint32_t i = 0; i < report; i++) {
        kiln_header_set_nonce(header, r->verified[i]);
        r->algo->pow_hash(header, hash);
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
    r->algo->prepare(&r->state, r->job->header, r->job->target);
    if (r->ctx->backend == KILN_BACKEND_CPU || r->ctx->ngpu > 1) return KILN_OK; /* several: opened per range */
    return kiln_ctx_gpu(r->ctx, 0, &r->gpu);
}

kiln_status kiln_scan(kiln_ctx *ctx, const kiln_scan_job *job, kiln_scan_result *res)
{
    return kiln_scan_devices(ctx, job, res, NULL, 0);
}

kiln_status kiln_scan_devices(kiln_ctx *ctx, const kiln_scan_job *job, kiln_scan_result *res, kiln_scan_device *devices,
                              int ndevices)
{
    kiln_scan_result local;
    if (!res) res = &local;
    memset(res, 0, sizeof *res);
    if (!ctx || !job) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or job");
    const int ndev = kiln_ctx_device_count(ctx);
    if (devices) {
        if (ndevices < ndev)
            return kiln_fail(ctx, KILN_ERR_INPUT, "room for %d devices' counts, the context has %d", ndevices, ndev);
        for (int i = 0; i < ndev; i++)
            devices[i] = (kiln_scan_device){kiln_ctx_device_ordinal(ctx, i), 0, 0};
    }
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
    r.devs = devices;
    r.algo = kiln_search_desc_of(job->algo);
    r.target_top = (uint32_t)job->target[28] | (uint32_t)job->target[29] << 8 | (uint32_t)job->target[30] << 16 |
                   (uint32_t)job->target[31] << 24;
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
    /* several GPUs take a launch each per range */
    uint64_t chunk = ctx->backend == KILN_BACKEND_CPU ? r.algo->cpu_first_chunk
                                                      : r.algo->gpu_first_chunk * (uint64_t)ctx->ngpu;
    uint64_t max_chunk = ctx->backend == KILN_BACKEND_CPU ? (UINT64_C(1) << 28) : NONCE_SPACE;
    double target_s = ctx->backend != KILN_BACKEND_CPU && r.algo->gpu_range_s > 0 ? r.algo->gpu_range_s
                                                                                    : LAUNCH_TARGET_S;
    double t0 = r.t0 = kiln_now();
    uint64_t done = 0;
    while (done < job->count && st == KILN_OK && !r.stop && !r.hit) {
        /* an interrupt ends the scan at a launch boundary like a callback does: what was done
         * so far (res->hashes, the nonces reported) stays valid */
        kiln_ctx_report(ctx, "scan", "nonces", done, job->count);
        if (kiln_ctx_interrupt_requested(ctx)) {
            r.stop = r.interrupted = 1;
            break;
        }
        uint64_t n = job->count - done < chunk ? job->count - done : chunk;
        double t = kiln_now();
        st = run_range(&r, (uint32_t)(job->start + done), n);
        double dt = kiln_now() - t;
        done += n;
        if (st == KILN_OK && !r.stop && job->on_progress && job->on_progress(job->user, done, job->count))
            r.stop = 1;
        if (dt < target_s / 2 && chunk < max_chunk) chunk *= 2;
        else if (dt > target_s * 2 && chunk > 1024) chunk /= 2;
    }
    res->seconds = kiln_now() - t0;
    if (devices && ndev == 1) devices[0].seconds = res->seconds;
    free(r.cand);
    free(r.verified);
    if (st != KILN_OK) return st;
    if (r.interrupted) return kiln_interrupted(ctx);
    if (r.stop) return KILN_STOPPED;
    return res->found ? KILN_OK : KILN_NOT_FOUND;
}

kiln_status kiln_pow_hash(kiln_algo algo, const uint8_t header[KILN_HEADER_SIZE], uint8_t hash[32])
{
    if ((unsigned)algo >= KILN_ALGO_COUNT) return KILN_ERR_INPUT;
    kiln_search_desc_of(algo)->pow_hash(header, hash);
    return KILN_OK;
}
