/* Search-rate measurement: repeated passes over a fixed real header with a target nothing meets,
 * after a warm-up pass; the rate reported is the median pass. */
#include <stdlib.h>
#include <string.h>

#include "../core/bench.h"
#include "../core/ctx.h"
#include "../core/clock.h"

/* Bitcoin block 125552's header: real data, so the rate is that of real mining work. */
static const char bench_header_hex[] =
    "0100000081cd02ab7e569e8bcd9317e2fe99f2de44d49ab2b8851ba4a308000000000000e320b6c2fffc8d750423db8b1eb942ae7"
    "10e951ed797f7affc8892b0f1fc122bc7f5d74df2b9441a42a14695";

static kiln_status one_pass(kiln_ctx *ctx, kiln_scan_job *job, double *rate)
{
    kiln_scan_result res;
    kiln_status st = kiln_scan(ctx, job, &res);
    if (st != KILN_OK && st != KILN_NOT_FOUND) return st;
    *rate = res.seconds > 0 ? (double)res.hashes / res.seconds : 0;
    return KILN_OK;
}

typedef struct scan_pass {
    kiln_ctx *ctx;
    kiln_scan_job *job;
} scan_pass;

static kiln_status timed_pass(void *user, int index, double *rate)
{
    scan_pass *p = user;
    p->job->header[68] ^= (uint8_t)(index + 1); /* a fresh time field per pass: new work, same cost */
    return one_pass(p->ctx, p->job, rate);
}

kiln_status kiln_bench_scan(kiln_ctx *ctx, kiln_algo algo, double seconds, double *rate)
{
    if (!ctx || !rate) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context or output");
    if (!(seconds > 0 && seconds <= 3600)) return kiln_fail(ctx, KILN_ERR_INPUT, "bench time out of range");
    kiln_scan_job job;
    memset(&job, 0, sizeof job);
    job.algo = algo;
    if (kiln_header_from_hex(ctx, bench_header_hex, job.header) != KILN_OK) return KILN_ERR_DEVICE;
    /* all-zero target: the early test passes about once in 2^32 nonces and nothing verifies */
    job.find_all = 1;

    /* warm-up pass; its rate sizes the measured passes to about a tenth of the time each.
     * scrypt is ~10^4 (CPU) to ~10^3 (GPU) times slower per nonce than sha256d. */
    int scrypt = algo == KILN_ALGO_SCRYPT;
    double warm = 0;
    if (ctx->backend == KILN_BACKEND_CPU) job.count = scrypt ? (UINT64_C(1) << 10) : (UINT64_C(1) << 20);
    else job.count = scrypt ? (UINT64_C(1) << 20) : (UINT64_C(1) << 16);
    /* a GPU's sha256d warm-up grows from 2^16 nonces until a pass takes 0.1 s or reaches 2^30: a
     * data-centre GPU still ends on 2^30 (0.12 s on an H200), while a slow OpenCL device (PoCL on
     * a CPU hashes about 10^6 a second) stops within a second instead of spending minutes on 2^30,
     * which made `kiln tune` there take hours */
    kiln_status st;
    /* a GPU's first pass also loads its kernels (an OpenCL program is built or read from its
     * cache then, a second or more): untimed, or its low rate would end the growth at once and
     * leave every measured pass too short to hide the per-call cost */
    if (ctx->backend != KILN_BACKEND_CPU && (st = one_pass(ctx, &job, &warm)) != KILN_OK) return st;
    for (;;) {
        if ((st = one_pass(ctx, &job, &warm)) != KILN_OK) return st;
        if (ctx->backend == KILN_BACKEND_CPU || scrypt || job.count >= (UINT64_C(1) << 30) ||
            !((double)job.count < warm * 0.1))
            break;
        job.count *= 2;
    }
    /* a GPU scrypt pass must span several waves of resident hash slots to measure a full chip */
    uint64_t pass = (uint64_t)(warm * seconds / 10), min_pass = UINT64_C(1) << 16;
    if (scrypt) min_pass = ctx->backend == KILN_BACKEND_CPU ? (UINT64_C(1) << 10) : (UINT64_C(1) << 19);
    if (pass < min_pass) pass = min_pass;
    if (pass > (UINT64_C(1) << 32)) pass = UINT64_C(1) << 32;
    job.count = pass;

    scan_pass p = {ctx, &job};
    kiln_bench_spec spec = {0, 3, 64, seconds, timed_pass, NULL, &p, ctx};
    return kiln_bench_median(&spec, rate, NULL);
}
