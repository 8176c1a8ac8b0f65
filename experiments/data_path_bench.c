/* Issue 38's data-path rows, in one process on cuda:0 (scripts/device.sh, step data, builds and runs
 * it): the host's page-locked and pageable host-to-device bandwidth (cudaMemcpy of 2 GiB, best of
 * 5), then the whole Merkle builds from host memory (kiln_merkle_bench_build: sha256d 2^26 leaves,
 * rp64_256 2^24) beside their kernels alone (kiln_merkle_bench, leaves resident), a large hash
 * batch from host memory and the device-memory Merkle entry point. Each path's bytes from the host
 * over its time, as a fraction of the page-locked bandwidth. One line a row, "ROW name|ms|..." for
 * the script to tabulate. Linked against libkiln.so and the CUDA runtime.
 *   usage: data_path_bench [SHA256D_LOG2 [RP64_LOG2]] */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kiln.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cuda_ok(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) fprintf(stderr, "data_path_bench: %s: %s\n", what, cudaGetErrorString(e));
    return e == cudaSuccess;
}

/* best of reps copies of bytes from src to the device, in seconds; 0 on failure */
static double h2d_seconds(void *dst, const void *src, size_t bytes, int reps)
{
    double best = 0;
    for (int r = 0; r < reps; r++) {
        double t = now();
        if (!cuda_ok(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy")) return 0;
        t = now() - t;
        if (best == 0 || t < best) best = t;
    }
    return best;
}

static double pinned_bw; /* bytes a second */

/* ROW name|ms|GB/s of host bytes|fraction of the page-locked bandwidth|note */
static void row(const char *name, double seconds, double host_bytes, const char *note)
{
    double bw = seconds > 0 ? host_bytes / seconds : 0;
    printf("ROW %s|%.1f|%.1f|%.2f|%s\n", name, seconds * 1e3, bw / 1e9, pinned_bw > 0 ? bw / pinned_bw : 0, note);
}

static double merkle_whole(kiln_ctx *ctx, kiln_merkle_algo algo, uint64_t n, uint8_t root[32])
{
    kiln_merkle_bench_result r;
    if (kiln_merkle_bench_build(ctx, algo, n, NULL, 5, &r, root) != KILN_OK) {
        fprintf(stderr, "data_path_bench: whole build: %s\n", kiln_last_error(ctx));
        return 0;
    }
    return r.seconds;
}

static double merkle_kernels(kiln_ctx *ctx, kiln_merkle_algo algo, uint64_t n)
{
    kiln_merkle_bench_result r;
    if (kiln_merkle_bench(ctx, algo, n, NULL, 5, &r) != KILN_OK) {
        fprintf(stderr, "data_path_bench: kernels: %s\n", kiln_last_error(ctx));
        return 0;
    }
    return r.seconds;
}

int main(int argc, char **argv)
{
    const int sha_log2 = argc > 1 ? atoi(argv[1]) : 26, rp_log2 = argc > 2 ? atoi(argv[2]) : 24;
    const size_t bytes = (size_t)32 << sha_log2;
    if (!cuda_ok(cudaSetDevice(0), "cudaSetDevice")) return 77;
    void *dev = NULL, *pinned = NULL;
    uint8_t *pageable = malloc(bytes);
    if (!pageable || !cuda_ok(cudaMalloc(&dev, bytes), "cudaMalloc") ||
        !cuda_ok(cudaHostAlloc(&pinned, bytes, cudaHostAllocDefault), "cudaHostAlloc"))
        return 3;
    memset(pageable, 1, bytes); /* touched: the pages exist, as a caller's data would */
    memset(pinned, 1, bytes);
    double tp = h2d_seconds(dev, pinned, bytes, 5), tq = h2d_seconds(dev, pageable, bytes, 5);
    pinned_bw = tp > 0 ? (double)bytes / tp : 0;
    char note[160];
    snprintf(note, sizeof note, "%zu MiB, best of 5", bytes >> 20);
    row("H2D page-locked (cudaMemcpy)", tp, (double)bytes, note);
    row("H2D pageable (cudaMemcpy)", tq, (double)bytes, note);
    cudaFreeHost(pinned);
    cudaFree(dev);
    free(pageable);

    kiln_ctx *ctx = kiln_ctx_new();
    if (kiln_ctx_set_device(ctx, "cuda:0") != KILN_OK) {
        fprintf(stderr, "data_path_bench: %s\n", kiln_last_error(ctx));
        return 3;
    }
    const struct {
        kiln_merkle_algo algo;
        const char *name;
        int log2;
    } trees[] = {{KILN_MERKLE_SHA256D, "sha256d", sha_log2}, {KILN_MERKLE_RP64_256, "rp64_256", rp_log2}};
    for (int i = 0; i < 2; i++) {
        const uint64_t n = UINT64_C(1) << trees[i].log2;
        const double hb = 32.0 * (double)n, copy = pinned_bw > 0 ? hb / pinned_bw : 0;
        uint8_t root[32];
        double whole = merkle_whole(ctx, trees[i].algo, n, root), kern = merkle_kernels(ctx, trees[i].algo, n);
        /* the bound: the copy at the page-locked bandwidth or the kernels, whichever is longer */
        double bound = copy > kern ? copy : kern;
        snprintf(note, sizeof note, "kernels alone %.1f ms, copy at page-locked %.1f ms: %.2fx the longer", kern * 1e3,
                 copy * 1e3, bound > 0 ? whole / bound : 0);
        char name[96];
        snprintf(name, sizeof name, "Merkle %s 2^%d whole build from host, 1 GPU", trees[i].name, trees[i].log2);
        row(name, whole, hb, note);
    }

    /* a hash batch from host memory: 2^24 messages of 64 bytes (1 GiB in, 512 MiB of digests out) */
    {
        const size_t n = (size_t)1 << 24, m = 64;
        uint8_t *msgs = malloc(n * m), *out = malloc(n * 32);
        if (!msgs || !out) return 3;
        for (size_t i = 0; i < n * m; i++) msgs[i] = (uint8_t)(i * 131 + 7);
        memset(out, 0, n * 32);
        double best = 0;
        for (int r = 0; r < 4; r++) { /* the first warms up */
            double t = now();
            if (kiln_hash_batch_fixed(ctx, KILN_HASH_SHA3_256, msgs, m, n, out, 32) != KILN_OK) {
                fprintf(stderr, "data_path_bench: hash batch: %s\n", kiln_last_error(ctx));
                break;
            }
            t = now() - t;
            if (r > 0 && (best == 0 || t < best)) best = t;
        }
        row("hash sha3-256 2^24 x 64 B from host (1 GiB in, 0.5 GiB out)", best, (double)(n * m), "best of 3, CPU spot check included");
        free(msgs);
        free(out);
    }

    /* the device-memory entry point on resident leaves: no host bytes, beside the kernels alone */
    {
        const uint64_t n = UINT64_C(1) << sha_log2;
        uint8_t *tree = NULL, root[32];
        if (!cuda_ok(cudaMalloc((void **)&tree, (size_t)kiln_merkle_tree_size(n) * 32), "cudaMalloc")) return 3;
        cudaMemset(tree, 3, (size_t)n * 32);
        double best = 0;
        for (int r = 0; r < 6; r++) {
            double t = now();
            if (kiln_merkle_build_device(ctx, KILN_MERKLE_SHA256D, tree, n, NULL, tree, NULL, root, NULL) != KILN_OK) {
                fprintf(stderr, "data_path_bench: device build: %s\n", kiln_last_error(ctx));
                break;
            }
            t = now() - t;
            if (r > 0 && (best == 0 || t < best)) best = t;
        }
        char name[96];
        snprintf(name, sizeof name, "Merkle sha256d 2^%d from device memory (kiln_merkle_build_device)", sha_log2);
        row(name, best, 0, "leaves in place, root to host; no host copy");
        cudaFree(tree);
    }
    kiln_ctx_free(ctx);
    return 0;
}
