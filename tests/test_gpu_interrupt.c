/* The long device calls stop soon after the interrupt poll asks, on every GPU backend of the build
 * (CUDA, OpenCL: gpu_backends.h): PageRank iterations (a fixed count queued ahead, and the
 * converging loop), the scrypt batch KDF between waves, the Litecoin search between launches and
 * the benchmarks between runs (and, on OpenCL, between the paced pieces of a run). The poll turns
 * true 0.3 s after the call starts; each call would otherwise run for minutes. Within 1 s, but for
 * OpenCL's PageRank and KDF batch, which have 3 s: their launches are paced to about a quarter of a
 * second on a CPU device that other processes share (PoCL in CI). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "gpu_backends.h"
#include "kiln.h"

static double t_stop;
/* seconds from the poll asking to the call returning: 1, or the backend's for the case */
static double limit; /* seconds from the poll asking to the return */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int poll_clock(void *user)
{
    (void)user;
    return now() >= t_stop;
}

/* The poll says stop `after` seconds from now. */
static void arm(kiln_ctx *ctx, double after)
{
    t_stop = now() + after;
    kiln_ctx_set_interrupt(ctx, poll_clock, NULL);
}

/* The call ran from the arm to now: STOPPED "interrupted" within `limit` seconds of the poll. */
/* A first pass over the cases whose stops are not checked, on every OpenCL device: PoCL compiles a
 * kernel for each work-group size at its first launch, and NVIDIA's driver compiles a program at
 * its first build on a host whose cache is empty (the scrypt batch stopped 23.8 s after the poll
 * on a fresh H200 host, 2026-11-29), seconds that no poll can cut short, so the measured pass must
 * find them compiled. */
static int warming;

static void stopped(kiln_ctx *ctx, kiln_status st, const char *what)
{
    double late = now() - t_stop;
    if (warming) {
        kiln_ctx_set_interrupt(ctx, NULL, NULL);
        return;
    }
    printf("%s: stopped %.3f s after the poll asked\n", what, late);
    CHECK(st == KILN_STOPPED && strcmp(kiln_last_error(ctx), "interrupted") == 0, "%s: status %d, '%s'", what,
          (int)st, kiln_last_error(ctx));
    /* under compute-sanitizer (KILN_TEST_QUICK) every launch is many times slower: stopping at
     * all is what is checked there */
    if (!getenv("KILN_TEST_QUICK")) CHECK(late < limit, "%s: %.3f s after the poll", what, late);
    kiln_ctx_set_interrupt(ctx, NULL, NULL);
}

/* RMAT of `scale`: on CUDA 20 (16 M edges); smaller on OpenCL, whose device may be a CPU (PoCL) */
static void test_pagerank(kiln_ctx *ctx, int scale)
{
    kiln_graph *g = NULL;
    CHECK(kiln_graph_rmat(ctx, scale, 16, 1, 0, &g) == KILN_OK, "rmat: %s", kiln_last_error(ctx));
    if (!g) return;
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    double *ranks = malloc(info.nodes * sizeof *ranks);
    kiln_pagerank_options opt;
    kiln_pagerank_options_init(&opt);
    opt.max_iter = 100000000;
    opt.tol = 0; /* a fixed count: the iterations are queued ahead */
    arm(ctx, 0.3);
    stopped(ctx, kiln_pagerank(ctx, g, &opt, ranks, NULL), "pagerank, fixed count");
    opt.tol = 1e-300; /* never met: the converging loop */
    arm(ctx, 0.3);
    stopped(ctx, kiln_pagerank(ctx, g, &opt, ranks, NULL), "pagerank, converging");
    free(ranks);
    kiln_graph_free(g);
}

static void test_scrypt(kiln_ctx *ctx)
{
    size_t count = 1u << 20;
    kiln_scrypt_input *in = malloc(count * sizeof *in);
    uint8_t *out = malloc(count * 32);
    for (size_t i = 0; i < count; i++) in[i] = (kiln_scrypt_input){"password", 8, "salt", 4};
    kiln_scrypt_params sp = {16384, 8, 1};
    arm(ctx, 0.3);
    stopped(ctx, kiln_scrypt_batch(ctx, in, count, sp, out, 32), "scrypt batch");
    free(in);
    free(out);
}

/* On OpenCL (PoCL, 2026-11-28, a loaded 2-core machine) the search stopped 2.0-2.5 s after the poll
 * asked, and the sha256d, hash and Merkle benchmarks 4.9, 65 and 6.2 s after, while a launch was
 * the whole range or run (the Merkle build's first wait came after 65536 merges); their launches
 * are paced now. A range the backend stops inside is not
 * counted (api/scan.c counts whole ranges): the dispatcher's first scrypt range, 2^19 nonces, is
 * minutes on PoCL, so only CUDA is held to counting its launches. */
static void test_scan(kiln_ctx *ctx, int cuda)
{
    kiln_scan_job job;
    memset(&job, 0, sizeof job); /* a zero target: the whole space would be searched */
    job.algo = KILN_ALGO_SCRYPT;
    job.count = UINT64_C(1) << 32;
    kiln_scan_result res;
    arm(ctx, 0.3);
    stopped(ctx, kiln_scan(ctx, &job, &res), "scrypt search");
    if (cuda) CHECK(res.hashes > 0, "the launches done are counted");
}

/* merkle_leaves: 2^24 on CUDA; 2^21 on OpenCL, whose bench leaves are made on the host before the
 * first poll (no device-side random leaves there: 0.6 s for 2^24 on the 2-core CI machine, more
 * when it is busy, against the poll's 0.3 s) */
static void test_benches(kiln_ctx *ctx, uint64_t merkle_leaves)
{
    double rate;
    arm(ctx, 0.3);
    stopped(ctx, kiln_bench_scan(ctx, KILN_ALGO_SHA256D, 60, &rate), "sha256d bench");
    arm(ctx, 0.3);
    stopped(ctx, kiln_bench_scan(ctx, KILN_ALGO_SCRYPT, 60, &rate), "scrypt bench");
    arm(ctx, 0.3);
    stopped(ctx, kiln_bench_hash(ctx, KILN_HASH_SHA3_256, 64, 0, 60, &rate), "hash bench");
    arm(ctx, 0.3);
    stopped(ctx, kiln_bench_keccak_f1600(ctx, KILN_KECCAK_LAYOUT_UNROLLED, 0, 60, &rate), "Keccak-f[1600] bench");
    kiln_merkle_bench_result mb;
    arm(ctx, 0.3);
    stopped(ctx, kiln_merkle_bench(ctx, KILN_MERKLE_RP64_256, merkle_leaves, NULL, 1000, &mb), "merkle bench");
}

/* Whether g is an OpenCL device on the CPU (PoCL): it shares the cores with whatever else runs
 * (make check's other tests, a busy machine), so a launch sized at a fraction of a second by the
 * one before it can take several times that. */
static int on_cpu(const test_gpu *g)
{
    const char *colon = strchr(g->device, ':');
    kiln_device_info info;
    if (g->backend != KILN_BACKEND_OPENCL || !colon) return 0;
    const int index = kiln_device_index(KILN_BACKEND_OPENCL, atoi(colon + 1));
    return index > 0 && kiln_device_get(index, &info) == KILN_OK &&
           (strstr(info.platform, "Portable Computing Language") || strncmp(info.name, "cpu", 3) == 0);
}

static void run(const test_gpu *g, kiln_ctx *cpu)
{
    (void)cpu;
    const int cuda = g->backend == KILN_BACKEND_CUDA, shared = on_cpu(g);
    /* before pacing: the OpenCL hash bench 57 s, the Merkle bench 2.1-6.2 s, sha256d's 1.7-4.9 s and
     * the scrypt search 2.0-2.5 s on PoCL */
    /* KILN_TEST_PART=0/2: PageRank and the scrypt batch; 1/2: the search and the benchmarks (make
     * check runs the two beside each other: one test was 80 s on a busy 2-core machine with
     * PoCL's kernel cache empty); unset: all */
    const char *part = getenv("KILN_TEST_PART");
    const int first = !part || strcmp(part, "1/2") != 0, second = !part || strcmp(part, "0/2") != 0;
    CHECK(!part || !strcmp(part, "0/2") || !strcmp(part, "1/2"), "KILN_TEST_PART '%s' is not 0/2 or 1/2", part);
    for (warming = !cuda; warming >= 0; warming--) {
        limit = cuda ? 1 : shared ? 4 : 3;
        if (first) {
            test_pagerank(g->ctx, cuda ? 20 : 16);
            test_scrypt(g->ctx);
        }
        limit = shared ? 2 : 1;
        if (second) {
            test_scan(g->ctx, cuda);
            test_benches(g->ctx, cuda ? UINT64_C(1) << 24 : UINT64_C(1) << 21);
        }
    }
    warming = 0;
}

int main(void)
{
    return test_gpu_each(run);
}
