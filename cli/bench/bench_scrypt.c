/* kiln bench --algo scrypt-kdf: batch scrypt KDF rate (password hashes per second), by default
 * at N=16384, r=8, p=1 (the parameters of hashcat's -m 8900 benchmark). */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "tune/tune_cache.h"

kiln_status bench_kdf(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a)
{
    tune_cache_apply(ctx, w, kind, NULL);
    kiln_scrypt_params sp = a->sp;
    bench_row r = {w->name, NULL, "H/s", 0, "", ""};
    kiln_status st = kiln_bench_scrypt_kdf(ctx, sp, a->seconds > 0 ? a->seconds : 4, &r.rate);
    if (st != KILN_OK) return st;
    kiln_launch l;
    kiln_scrypt_shape sh;
    kiln_ctx_scrypt_kdf_launch(ctx, &l, &sh);
    int n = snprintf(r.json, sizeof r.json, ", \"N\": %llu, \"r\": %u, \"p\": %u", (unsigned long long)sp.N, sp.r, sp.p);
    if (kiln_ctx_backend(ctx) == KILN_BACKEND_CUDA)
        snprintf(r.json + n, sizeof r.json - (size_t)n,
                 ", \"threads_per_block\": %d, \"lookup_gap\": %d, \"romix_kernel\": %d", l.threads_per_block,
                 sh.lookup_gap, l.items_per_thread);
    char label[128];
    bench_label(w, kind, a, kiln_ctx_backend(ctx) != KILN_BACKEND_CPU, label, sizeof label);
    r.label = label;
    bench_row_print(ctx, &r, a);
    return KILN_OK;
}
