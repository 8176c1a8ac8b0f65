#include "cpu_scan.h"

#include <stdlib.h>

#include "cpu_features.h"

uint64_t kiln_cpu_scan_pieces(kiln_cpu_piece_fn fn, const void *arg, uint32_t piece, size_t scratch_bytes,
                              int threads, uint32_t start, uint64_t count, uint32_t *cand, uint32_t cap)
{
    uint64_t pieces = (count + piece - 1) / piece;
    uint64_t total = 0;
    int oom = 0;
    if (threads <= 0) threads = kiln_cpu_cores();
    if ((uint64_t)threads > pieces) threads = pieces > 0 ? (int)pieces : 1;
#pragma omp parallel num_threads(threads)
    {
        /* a buffer as large as a piece: even a target every nonce meets loses no candidate */
        uint32_t *local = malloc(piece * sizeof *local);
        void *scratch = NULL;
        /* 64-byte aligned so vector rows never split cache lines */
        if (scratch_bytes && posix_memalign(&scratch, 64, scratch_bytes) != 0) scratch = NULL;
        int ok = local && (scratch || !scratch_bytes);
        if (!ok) {
#pragma omp atomic write
            oom = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t p = 0; p < pieces; p++) {
            if (!ok) continue;
            uint64_t off = p * piece;
            uint32_t n = (uint32_t)(count - off < piece ? count - off : piece);
            uint64_t hits = fn(arg, start + (uint32_t)off, n, local, piece, scratch);
            if (hits == 0) continue;
#pragma omp critical(kiln_cpu_scan_candidates)
            {
                for (uint64_t i = 0; i < hits && i < piece; i++)
                    if (total + i < cap) cand[total + i] = local[i];
                total += hits;
            }
        }
        free(local);
        free(scratch);
    }
    return oom ? UINT64_MAX : total;
}
