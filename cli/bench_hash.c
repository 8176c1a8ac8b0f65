/* The hashing rows of `kiln bench`: hash algorithms (hashes per second for messages of --size
 * bytes) and the raw Keccak-f[1600] permutation (permutations per second, per GPU layout). */
#include <stdio.h>
#include <string.h>

#include "bench_hash.h"
#include "progress.h"

int bench_hash_is_name(const char *name)
{
    kiln_hash_algo a;
    return strcmp(name, "keccakf1600") == 0 ||
           (strcmp(name, "sha256d") != 0 && kiln_hash_algo_from_name(NULL, name, &a) == KILN_OK);
}

kiln_status bench_hash_row(kiln_ctx *ctx, const char *name, const bench_hash_opts *o, int json, int first)
{
    double rate = 0;
    kiln_status st;
    int perm = strcmp(name, "keccakf1600") == 0;
    kiln_hash_algo algo = KILN_HASH_SHA256;
    if (perm) {
        st = kiln_bench_keccak_f1600(ctx, o->layout, o->in_registers ? KILN_BENCH_IN_REGISTERS : 0, o->seconds, &rate);
    } else {
        kiln_hash_algo_from_name(NULL, name, &algo);
        st = kiln_bench_hash(ctx, algo, o->size, o->offsets ? KILN_BENCH_OFFSETS : 0, o->seconds, &rate);
    }
    if (st != KILN_OK) return st;
    int gpu = kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA;
    if (json) {
        printf("%s{\"algo\": \"%s\", \"device\": \"%s\", \"rate\": %.0f, \"unit\": \"%s\"", first ? "" : ", ", name,
               kiln_ctx_device_name(ctx), rate, perm ? "perm/s" : "H/s");
        if (perm) printf(", \"layout\": \"%s\", \"in_registers\": %s", gpu ? kiln_keccak_layout_name(o->layout) : "cpu",
                         gpu && o->in_registers ? "true" : "false");
        else printf(", \"message_bytes\": %zu, \"bytes_per_second\": %.0f", o->size, rate * (double)o->size);
        if (!perm && gpu) printf(", \"offsets\": %s", o->offsets ? "true" : "false");
        printf("}");
    } else {
        char r[32], label[64];
        format_rate(rate, perm ? "perm/s" : "H/s", r, sizeof r);
        if (perm)
            snprintf(label, sizeof label, "%s/%s%s", name, gpu ? kiln_keccak_layout_name(o->layout) : "cpu",
                     gpu && o->in_registers ? "/regs" : "");
        else snprintf(label, sizeof label, "%s/%zuB", name, o->size);
        printf("%-10s %-44s %16s", label, kiln_ctx_device_name(ctx), r);
        if (!perm && o->size >= 1024) printf("  %.2f GB/s", rate * (double)o->size / 1e9);
        printf("\n");
    }
    return KILN_OK;
}
