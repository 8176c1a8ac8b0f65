#include "sha256d_cpu.h"

#include <stdlib.h>
#include <string.h>

#include "../core/cpu_features.h"
#include "sha256d_simd.h"

int kiln_sha256d_cpu_impls(kiln_sha256d_impl *out, int cap)
{
    kiln_sha256d_impl all[4];
    int n = 0;
    const kiln_cpu_features *cpu = kiln_cpu();
    (void)cpu;
#if defined(KILN_HAVE_AVX512)
    if (cpu->avx512) all[n++] = (kiln_sha256d_impl){"avx512x16", kiln_sha256d_lanes_avx512};
#endif
#if defined(KILN_HAVE_AVX2)
    if (cpu->avx2) all[n++] = (kiln_sha256d_impl){"avx2x8", kiln_sha256d_lanes_avx2};
#endif
#if defined(KILN_HAVE_SHANI)
    if (cpu->sha_ni) all[n++] = (kiln_sha256d_impl){"sha-ni", kiln_sha256d_lanes_shani};
#endif
    all[n++] = (kiln_sha256d_impl){"scalar", kiln_sha256d_lanes_scalar};
    if (n > cap) n = cap;
    memcpy(out, all, (size_t)n * sizeof *out);
    return n;
}

/* Work is cut into pieces small enough to balance the threads and large enough that each SIMD
 * lane kernel call amortises its setup. Each thread has a buffer as large as a piece, so even a
 * target every nonce meets loses no candidate. */
#define PIECE (1u << 14)

uint64_t kiln_sha256d_cpu_scan(const kiln_sha256d_impl *impl, int threads, const kiln_sha256d_job *job,
                               uint32_t start, uint64_t count, uint32_t *cand, uint32_t cap)
{
    uint64_t pieces = (count + PIECE - 1) / PIECE;
    uint64_t total = 0;
    int oom = 0;
    if (threads <= 0) threads = kiln_cpu_cores();
    if ((uint64_t)threads > pieces) threads = pieces > 0 ? (int)pieces : 1;
#pragma omp parallel num_threads(threads)
    {
        uint32_t *local = malloc(PIECE * sizeof *local);
        if (!local) {
#pragma omp atomic write
            oom = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t p = 0; p < pieces; p++) {
            if (!local) continue;
            uint64_t off = p * PIECE;
            uint32_t n = (uint32_t)(count - off < PIECE ? count - off : PIECE);
            uint64_t hits = impl->fn(job, start + (uint32_t)off, n, local, PIECE);
            if (hits == 0) continue;
#pragma omp critical(kiln_sha256d_candidates)
            {
                for (uint64_t i = 0; i < hits; i++)
                    if (total + i < cap) cand[total + i] = local[i];
                total += hits;
            }
        }
        free(local);
    }
    return oom ? UINT64_MAX : total;
}
