#include "scrypt_cpu.h"

#include <stdlib.h>
#include <string.h>

#include "../core/cpu_features.h"

int kiln_scrypt_cpu_impls(kiln_scrypt_impl *out, int cap)
{
    kiln_scrypt_impl all[3];
    int n = 0;
    const kiln_cpu_features *cpu = kiln_cpu();
    (void)cpu;
#if defined(KILN_HAVE_AVX512)
    if (cpu->avx512) all[n++] = (kiln_scrypt_impl){"avx512x16", 16, kiln_scrypt_lanes_avx512};
#endif
#if defined(KILN_HAVE_AVX2)
    if (cpu->avx2) all[n++] = (kiln_scrypt_impl){"avx2x8", 8, kiln_scrypt_lanes_avx2};
#endif
    all[n++] = (kiln_scrypt_impl){"scalar", 1, kiln_scrypt_lanes_scalar};
    if (n > cap) n = cap;
    memcpy(out, all, (size_t)n * sizeof *out);
    return n;
}

/* A piece is a few lane groups: small enough to balance two threads over a short range, large
 * enough that the per-call setup is nothing beside 1024-step ROMix. Each thread keeps its own
 * scratch V (lanes * 128 KiB) and a candidate buffer as large as a piece. */
#define GROUPS_PER_PIECE 2u

uint64_t kiln_scrypt_cpu_scan(const kiln_scrypt_impl *impl, int threads, const kiln_scrypt_job *job, uint32_t start,
                              uint64_t count, uint32_t *cand, uint32_t cap)
{
    const uint32_t piece = GROUPS_PER_PIECE * (uint32_t)impl->lanes;
    const size_t v_words = (size_t)impl->lanes * 32 * KILN_SCRYPT_LTC_N;
    uint64_t pieces = (count + piece - 1) / piece;
    uint64_t total = 0;
    int oom = 0;
    if (threads <= 0) threads = kiln_cpu_cores();
    if ((uint64_t)threads > pieces) threads = pieces > 0 ? (int)pieces : 1;
#pragma omp parallel num_threads(threads)
    {
        uint32_t *local = malloc(piece * sizeof *local);
        uint32_t *V = NULL;
        /* 64-byte aligned so vector rows never split cache lines */
        if (posix_memalign((void **)&V, 64, v_words * sizeof *V) != 0) V = NULL;
        if (!local || !V) {
#pragma omp atomic write
            oom = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t p = 0; p < pieces; p++) {
            if (!local || !V) continue;
            uint64_t off = p * piece;
            uint32_t n = (uint32_t)(count - off < piece ? count - off : piece);
            uint64_t hits = impl->fn(job, start + (uint32_t)off, n, local, piece, V);
            if (hits == 0) continue;
#pragma omp critical(kiln_scrypt_candidates)
            {
                for (uint64_t i = 0; i < hits && i < piece; i++)
                    if (total + i < cap) cand[total + i] = local[i];
                total += hits;
            }
        }
        free(local);
        free(V);
    }
    return oom ? UINT64_MAX : total;
}
