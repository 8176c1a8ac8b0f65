/* The MD5, BLAKE2s and BLAKE2b lane kernels one by one (the portable one-at-a-time candidate, AVX2,
 * AVX-512), each over CPU time so that a loaded machine still compares them: groups of the
 * kernel's width hashed for 0.2 s of the thread's CPU time, five times, the best kept, for 32-byte
 * and 1024-byte messages. A kernel the CPU lacks is left out; the dispatch's self-tests and
 * tests/test_md5_blake2_lanes_openssl check the digests, this only times them.
 * usage: lanes_speed (built against build/src/libkiln.a, see experiments/README.md) */
#include <stdio.h>
#include <time.h>

#include "../src/core/cpu_features.h"
#include "../src/hash/blake2_host.h"
#include "../src/hash/md5_host.h"

static double thread_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct kernel {
    const char *name;
    unsigned lanes, outlen;
    int needs; /* 0, 1: AVX2, 2: AVX-512 */
    kiln_md5_lanes_fn md5;
    kiln_blake2s_lanes_fn b2; /* BLAKE2s's and BLAKE2b's share the shape */
} kernel;

static uint8_t msgs[16][1024], digests[16][64];

int main(void)
{
    const kernel ks[] = {
        {"md5 portable", 1, 16, 0, kiln_md5_lanes_portable()->hash, NULL},
        {"md5 avx2x8", 8, 16, 1, kiln_md5_lanes_avx2, NULL},
        {"md5 avx512x16", 16, 16, 2, kiln_md5_lanes_avx512, NULL},
        {"blake2s portable", 1, 32, 0, NULL, kiln_blake2s_lanes_portable()->hash},
        {"blake2s avx2x8", 8, 32, 1, NULL, kiln_blake2s_lanes_avx2},
        {"blake2s avx512x16", 16, 32, 2, NULL, kiln_blake2s_lanes_avx512},
        {"blake2b portable", 1, 64, 0, NULL, kiln_blake2b_lanes_portable()->hash},
        {"blake2b avx2x4", 4, 64, 1, NULL, kiln_blake2b_lanes_avx2},
        {"blake2b avx512x8", 8, 64, 2, NULL, kiln_blake2b_lanes_avx512},
    };
    const uint8_t *in[16];
    uint8_t *out[16];
    for (int k = 0; k < 16; k++) {
        for (int i = 0; i < 1024; i++) msgs[k][i] = (uint8_t)(7 * k + i);
        in[k] = msgs[k];
        out[k] = digests[k];
    }
    static const size_t lens[] = {32, 1024};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
        const kernel *k = &ks[i];
        if ((k->needs == 1 && !kiln_cpu()->avx2) || (k->needs == 2 && !kiln_cpu()->avx512)) continue;
        for (int li = 0; li < 2; li++) {
            double best = 1e9;
            for (int rep = 0; rep < 5; rep++) {
                double t0 = thread_cpu(), t;
                long n = 0;
                do {
                    for (int r = 0; r < 64; r++) {
                        if (k->md5) k->md5(in, lens[li], out);
                        else k->b2(k->outlen, in, lens[li], out);
                    }
                    n += 64 * (long)k->lanes;
                } while ((t = thread_cpu() - t0) < 0.2);
                if (t / (double)n < best) best = t / (double)n;
            }
            printf("%-18s %5zu B: %7.2f M messages/s  %5.2f GB/s (CPU time)\n", k->name, lens[li], 1e-6 / best,
                   (double)lens[li] / best * 1e-9);
        }
    }
    return 0;
}
