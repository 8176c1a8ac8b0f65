/* The whole Merkle build timed: kiln_merkle_build over leaves in host memory, on whatever devices
 * the context has. kiln_merkle_bench times one GPU's kernels on leaves already there, which says
 * nothing of a device set, whose build also cuts the leaves, copies a range to each device and
 * merges the top on the CPU; this times all of that, the same way on one device, a set and the
 * CPU, so the figures compare and the roots must agree. */
#include <stdlib.h>
#include <string.h>

#include "../core/bench.h"
#include "../core/clock.h"
#include "../core/ctx.h"
#include "../core/mem_limit.h"
#include "../merkle/merkle_internal.h"

typedef struct build_pass {
    kiln_ctx *ctx;
    kiln_merkle_algo algo;
    const uint8_t *leaves;
    uint64_t n;
    const kiln_merkle_opts *opts;
    uint8_t *root;
} build_pass;

static kiln_status build_once(void *user, int index, double *seconds)
{
    build_pass *p = user;
    (void)index;
    double t = kiln_now();
    kiln_status st = kiln_merkle_build(p->ctx, p->algo, p->leaves, p->n, p->opts, p->root, NULL);
    *seconds = kiln_now() - t;
    return st;
}

kiln_status kiln_merkle_bench_build(kiln_ctx *ctx, kiln_merkle_algo algo, uint64_t n, const kiln_merkle_opts *opts,
                                    int reps, kiln_merkle_bench_result *res, uint8_t root[32])
{
    if (!ctx || !res || !root) return kiln_fail(ctx, KILN_ERR_INPUT, "missing context, result or root");
    memset(res, 0, sizeof *res);
    if ((unsigned)algo >= KILN_MERKLE_ALGO_COUNT) return kiln_fail(ctx, KILN_ERR_INPUT, "unknown merkle algorithm");
    if (n < 2 || n > (UINT64_C(1) << 40))
        return kiln_fail(ctx, KILN_ERR_INPUT, "benchmarking needs 2 to 2^40 leaves, not %llu", (unsigned long long)n);
    kiln_status st = kiln_mem_check(ctx, (double)n * KILN_MERKLE_NODE_SIZE, "%llu Merkle leaves in host memory",
                                    (unsigned long long)n);
    if (st != KILN_OK) return st;
    uint8_t *leaves = malloc((size_t)n * KILN_MERKLE_NODE_SIZE);
    if (!leaves) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu leaves", (unsigned long long)n);
    kiln_merkle_bench_leaves(leaves, n, algo == KILN_MERKLE_RP64_256 || algo == KILN_MERKLE_RPO256);
    if (reps <= 0) reps = 10;
    if (reps > KILN_BENCH_MAX_RUNS) reps = KILN_BENCH_MAX_RUNS;
    /* on a GPU one untimed build first: device contexts, buffers and module loads are not the
     * build's; the CPU has none to warm (and an rp64_256 tree of 2^24 leaves takes it a minute) */
    build_pass p = {ctx, algo, leaves, n, opts, root};
    kiln_bench_spec spec = {kiln_ctx_backend(ctx) == KILN_BACKEND_CPU ? 0 : 1, reps, reps, 0, build_once, NULL, &p, ctx};
    st = kiln_bench_median(&spec, &res->seconds, NULL);
    free(leaves);
    if (st != KILN_OK) return st;
    res->leaves = n;
    if (res->seconds > 0) res->rate = (double)(n - 1) / res->seconds;
    return KILN_OK;
}
