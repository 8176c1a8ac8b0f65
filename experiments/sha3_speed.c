/* SHA3-256 / SHAKE128 throughput on the CPU measured the way `openssl speed -evp sha3-256 -bytes N`
 * measures it: one-shot digests of an N-byte buffer in a loop, divided by the process's CPU time
 * (OpenSSL's default divisor is user CPU time, which keeps both figures comparable on a busy
 * machine). With no kernel named it goes through kiln_hash (the dispatch's choice); naming one
 * (portable, avx2, avx512: any that this CPU runs and whose self-test passes) forces that
 * Keccak-f[1600] through the same sponge (whole blocks by its absorb, the padded last block by
 * its permute), which is what kiln_keccak_absorb/squeeze do with it.
 * usage: sha3_speed [N bytes, default 8192] [seconds, default 3] [sha3-256|shake128] [kernel] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/hash/keccak_host.h"
#include "../src/prim/keccak.h"
#include "kiln.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sponge(const kiln_keccak_host_impl *impl, unsigned rate, uint8_t domain, const uint8_t *msg, size_t len,
                   uint8_t *out, size_t outlen)
{
    uint64_t s[KILN_KECCAK_LANES] = {0};
    impl->absorb(s, msg, len / rate, rate);
    size_t done = len - len % rate;
    for (size_t i = 0; i < len % rate; i++) kiln_keccak_xor_byte(s, i, msg[done + i]);
    kiln_keccak_pad(s, len % rate, rate, domain);
    impl->permute(s);
    for (size_t i = 0; i < outlen; i++) out[i] = kiln_keccak_get_byte(s, i); /* outlen <= rate */
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 8192;
    double secs = argc > 2 ? atof(argv[2]) : 3;
    const char *algo = argc > 3 ? argv[3] : "sha3-256";
    const char *want = argc > 4 ? argv[4] : NULL;
    int shake = strcmp(algo, "shake128") == 0;
    unsigned rate = shake ? 168 : 136;
    uint8_t domain = shake ? KILN_KECCAK_DOMAIN_SHAKE : KILN_KECCAK_DOMAIN_SHA3;
    kiln_keccak_host_impl impls[8];
    const kiln_keccak_host_impl *impl = NULL;
    int k = kiln_keccak_host_impls(impls, 8);
    for (int i = 0; want && i < k; i++)
        if (strcmp(impls[i].name, want) == 0) impl = &impls[i];
    if (want && !impl) {
        fprintf(stderr, "kernel %s is not usable on this CPU\n", want);
        return 2;
    }
    uint8_t *buf = malloc(n + 1), d[32];
    if (!buf) return 1;
    for (size_t i = 0; i < n; i++) buf[i] = (uint8_t)(i * 131);
    long count = 0;
    double t0 = cpu_now(), t;
    do {
        for (int j = 0; j < 64; j++) {
            if (impl)
                sponge(impl, rate, domain, buf, n, d, shake ? 16 : 32);
            else
                kiln_hash(shake ? KILN_HASH_SHAKE128 : KILN_HASH_SHA3_256, buf, n, d, shake ? 16 : 32);
            buf[0] ^= d[0];
        }
        count += 64;
    } while ((t = cpu_now() - t0) < secs);
    printf("kiln %s (%s%s) %zu-byte blocks: %.2f MB/s (%ld digests, %.2f s CPU)\n", algo,
           impl ? impl->name : kiln_keccak_impl(), impl ? ", forced" : "", n, (double)count * (double)n / t / 1e6,
           count, t);
    free(buf);
    return 0;
}
