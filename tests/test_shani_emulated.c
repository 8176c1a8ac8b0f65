/* The SHA-extension code paths (src/hash/sha256_shani.c, src/pow/sha256d_shani.c) run on every
 * x86-64 CPU: their sources are compiled into this test with the three SHA instructions replaced by
 * a model of the Intel SDM's definitions (sha_ni_emu.h), then checked against the portable
 * compression and the reference sha256d. test_sha256_shani.c and test_sha256d_lanes.c check the
 * real instructions where the CPU has them; this catches a wrong lane order, schedule or round
 * count anywhere the suite runs. */
#if defined(__x86_64__) || defined(__i386__)
#pragma GCC target("sse4.1")
#include "sha_ni_emu.h"

/* distinct names, so the library's own (real-instruction) kernels stay untouched */
#define kiln_sha256_blocks_shani emu_sha256_blocks_shani
#define kiln_sha256d_lanes_shani emu_sha256d_lanes_shani
#include "../src/hash/sha256_shani.c"
#undef RNDS4 /* the two files' macro names overlap */
#undef SCHED /* GROUPS4 (sha256_shani_groups.h) is shared and expands to the new ones */
#include "../src/pow/sha256d_shani.c"
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "hash/sha256_host.h"
#include "pow/sha256d_cpu.h"

int main(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (!__builtin_cpu_supports("sse4.1")) {
        printf("no SSE4.1: skipped\n");
        return TEST_SKIP;
    }
    kiln_sha256_blocks_fn portable = kiln_sha256_blocks_portable();
    unsigned long long seed = 2718;
    static uint8_t data[64 * 5 + 1];
    for (int trial = 0; trial < 200; trial++) {
        size_t n = (size_t)(test_rand(&seed) % 5);
        size_t off = (size_t)(trial & 1);
        for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)test_rand(&seed);
        uint32_t a[8], b[8];
        for (int i = 0; i < 8; i++) a[i] = b[i] = (uint32_t)test_rand(&seed);
        emu_sha256_blocks_shani(a, data + off, n);
        portable(b, data + off, n);
        CHECK(memcmp(a, b, sizeof a) == 0, "blocks trial %d (%zu blocks): states differ", trial, n);
    }

    static const uint32_t counts[] = {1, 2, 3, 16, 301};
    for (int trial = 0; trial < 12; trial++) {
        uint8_t header[80], target[32] = {0};
        for (int i = 0; i < 80; i++) header[i] = (uint8_t)test_rand(&seed);
        uint32_t t7 = trial % 2 ? 0xffffffffu : 0x0fffffffu; /* all pass / about 1 in 16 */
        for (int i = 0; i < 4; i++) target[28 + i] = (uint8_t)(t7 >> (8 * i));
        kiln_sha256d_job job;
        kiln_sha256d_job_init(&job, header, target);
        for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
            uint32_t start = trial == 3 ? UINT32_MAX - counts[c] + 1 : (uint32_t)test_rand(&seed);
            if (start > UINT32_MAX - counts[c] + 1) start = UINT32_MAX - counts[c] + 1;
            uint32_t got[301], want[301];
            uint64_t nw = 0;
            for (uint32_t i = 0; i < counts[c]; i++) {
                uint32_t d[8];
                kiln_sha256d_job_hash(&job, start + i, d);
                if (kiln_bswap32(d[7]) <= t7) want[nw++] = start + i;
            }
            uint64_t ng = emu_sha256d_lanes_shani(&job, start, counts[c], got, counts[c]);
            CHECK(ng == nw && memcmp(got, want, (size_t)nw * sizeof *got) == 0,
                  "lanes trial %d start %u count %u: %llu candidates, want %llu", trial, start, counts[c],
                  (unsigned long long)ng, (unsigned long long)nw);
        }
    }
    return check_summary();
#else
    printf("not an x86 CPU: skipped\n");
    return TEST_SKIP;
#endif
}
