/* SHA3-256 throughput on the CPU measured the way `openssl speed -evp sha3-256 -bytes N` measures
 * it: one-shot digests of an N-byte buffer in a loop, divided by the process's CPU time (OpenSSL's
 * default divisor is user CPU time, which keeps both figures comparable on a busy machine).
 * usage: sha3_speed [N bytes, default 8192] [seconds, default 3] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kiln.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 8192;
    double secs = argc > 2 ? atof(argv[2]) : 3;
    uint8_t *buf = malloc(n + 1), d[32];
    if (!buf) return 1;
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i * 131);
    long count = 0;
    double t0 = cpu_now(), t;
    do {
        for (int k = 0; k < 64; k++) {
            kiln_hash(KILN_HASH_SHA3_256, buf, n, d, 32);
            buf[0] ^= d[0];
        }
        count += 64;
    } while ((t = cpu_now() - t0) < secs);
    printf("kiln sha3-256 (%s) %zu-byte blocks: %.2f MB/s (%ld digests, %.2f s CPU)\n", kiln_keccak_impl(), n,
           (double)count * (double)n / t / 1e6, count, t);
    free(buf);
    return 0;
}
