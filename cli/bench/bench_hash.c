/* The `kiln bench` rows of nonce searches (hashes per second of kiln_scan), hash algorithms
 * (hashes per second for messages of --size bytes) and the Keccak-f[1600] permutation
 * (permutations per second, per GPU layout). */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "tune/tune_cache.h"

static double seconds_or(const bench_args *a, double d) { return a->seconds > 0 ? a->seconds : d; }

kiln_status bench_search(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a)
{
    kiln_algo algo = (kiln_algo)w->search_algo;
    tune_cache_apply(ctx, w, kind, NULL);
    bench_row r = {w->name, NULL, "H/s", 0, "", ""};
    kiln_status st = kiln_bench_scan(ctx, algo, seconds_or(a, 2), &r.rate);
    if (st != KILN_OK) return st;
    /* the shape run: CUDA's searches and OpenCL's sha256d (OpenCL's scrypt has no shape yet) */
    kiln_backend b = kiln_ctx_backend(ctx);
    if (b == KILN_BACKEND_CUDA || (b == KILN_BACKEND_OPENCL && algo == KILN_ALGO_SHA256D)) {
        kiln_launch l = kiln_ctx_launch(ctx, algo);
        int n = snprintf(r.json, sizeof r.json, ", \"threads_per_block\": %d, \"items_per_thread\": %d",
                         l.threads_per_block, l.items_per_thread);
        kiln_scrypt_shape sh = kiln_ctx_scrypt_shape(ctx);
        if (algo == KILN_ALGO_SCRYPT)
            snprintf(r.json + n, sizeof r.json - (size_t)n, ", \"threads_per_hash\": %d, \"lookup_gap\": %d",
                     sh.threads_per_hash, sh.lookup_gap);
    }
    bench_row_print(ctx, &r, a);
    return KILN_OK;
}

kiln_status bench_hash(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a)
{
    int perm = kind == KILN_KIND_PERMUTATION, gpu = kiln_ctx_backend(ctx) != KILN_BACKEND_CPU;
    char label[128];
    bench_label(w, kind, a, gpu, label, sizeof label);
    bench_row r = {w->name, label, perm ? "perm/s" : "H/s", 0, "", ""};
    kiln_status st =
        perm ? kiln_bench_keccak_f1600(ctx, a->layout, a->in_registers ? KILN_BENCH_IN_REGISTERS : 0, seconds_or(a, 2),
                                       &r.rate)
             : kiln_bench_hash(ctx, (kiln_hash_algo)w->hash_algo, (size_t)a->size, a->offsets ? KILN_BENCH_OFFSETS : 0,
                               seconds_or(a, 2), &r.rate);
    if (st != KILN_OK) return st;
    const char *layout = gpu ? kiln_keccak_layout_name(a->layout) : "cpu";
    if (perm) {
        snprintf(r.json, sizeof r.json, ", \"layout\": \"%s\", \"in_registers\": %s", layout,
                 gpu && a->in_registers ? "true" : "false");
    } else {
        snprintf(r.json, sizeof r.json, ", \"message_bytes\": %llu, \"bytes_per_second\": %.0f%s%s",
                 (unsigned long long)a->size, r.rate * (double)a->size, gpu ? ", \"offsets\": " : "",
                 gpu ? (a->offsets ? "true" : "false") : "");
        if (a->size >= 1024) snprintf(r.text, sizeof r.text, "  %.2f GB/s", r.rate * (double)a->size / 1e9);
    }
    bench_row_print(ctx, &r, a);
    return KILN_OK;
}
