/* Search-rate measurement: repeated passes over a fixed real header with a target nothing meets,
 * after a warm-up pass; the rate reported is the median pass. */
#include <stdlib.h>
#include <string.h>

#include "../core/ctx.h"
#include "../core/clock.h"

/* Bitcoin block 125552's header: real data, so the rate is that of real mining work. */
static const char bench_header_hex[] =
    "0100000081cd02ab7e569e8bcd9317e2fe99f2de44d49ab2b8851ba4a308000000000000e320b6c2fffc8d750423db8b1eb942ae7"
    "10e951ed797f7affc8892b0f1fc122bc7f5d74df2b9441a42a14695";

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static kiln_status one_pass(kiln_ctx *ctx, kiln_scan_job *job, double *rate)
{
    kiln_scan_result res;
    kiln_status st = kiln_scan(ctx, job, &res);
    if (st != KILN_OK && st != KILN_NOT_FOUND) return st;
    *rate = res.seconds > 0 ? (double)res.hashes / res.seconds : 0;
    return KILN_OK;
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
    else job.count = scrypt ? (UINT64_C(1) << 20) : (UINT64_C(1) << 30);
    kiln_status st = one_pass(ctx, &job, &warm);
    if (st != KILN_OK) return st;
    /* a GPU scrypt pass must span several waves of resident hash slots to measure a full chip */
    uint64_t pass = (uint64_t)(warm * seconds / 10), min_pass = UINT64_C(1) << 16;
    if (scrypt) min_pass = ctx->backend == KILN_BACKEND_CPU ? (UINT64_C(1) << 10) : (UINT64_C(1) << 19);
    if (pass < min_pass) pass = min_pass;
    if (pass > (UINT64_C(1) << 32)) pass = UINT64_C(1) << 32;
    job.count = pass;

    double rates[64];
    int n = 0;
    double t0 = kiln_now();
    while (n < 64 && (n < 3 || kiln_now() - t0 < seconds)) {
        job.header[68] ^= (uint8_t)(n + 1); /* a fresh time field per pass: new work, same cost */
        st = one_pass(ctx, &job, &rates[n]);
        if (st != KILN_OK) return st;
        n++;
    }
    qsort(rates, (size_t)n, sizeof *rates, cmp_double);
    *rate = n % 2 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
    return KILN_OK;
}
