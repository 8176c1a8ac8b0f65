/* The SHA-extensions compression (kiln_sha256_blocks_shani) against the portable one on random
 * states and data, and against the FIPS 180-2 "abc" digest. Needs a CPU with SHA-NI; elsewhere it
 * skips (test_shani_emulated.c runs the same code on an instruction emulator). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/cpu_features.h"
#include "check.h"
#include "hash/sha256_host.h"
#include "prim/sha256.h"

int main(void)
{
#if defined(KILN_X86_KERNELS)
    if (!kiln_cpu()->sha_ni) {
        printf("no SHA extensions on this CPU (%s): skipped\n", kiln_cpu_model());
        return TEST_SKIP;
    }
    kiln_sha256_blocks_fn portable = kiln_sha256_blocks_portable();

    /* FIPS 180-2 appendix B.1: SHA-256("abc"), one padded block */
    uint8_t block[64] = {'a', 'b', 'c', 0x80};
    block[63] = 24;
    static const uint32_t abc[8] = {0xba7816bfu, 0x8f01cfeau, 0x414140deu, 0x5dae2223u,
                                    0xb00361a3u, 0x96177a9cu, 0xb410ff61u, 0xf20015adu};
    uint32_t st[8];
    kiln_sha256_iv(st);
    kiln_sha256_blocks_shani(st, block, 1);
    CHECK(memcmp(st, abc, sizeof abc) == 0, "SHA-256(\"abc\") differs");

    unsigned long long seed = 314159;
    static uint8_t data[64 * 9 + 1];
    for (int trial = 0; trial < 500; trial++) {
        size_t n = (size_t)(test_rand(&seed) % 9); /* 0..8 blocks */
        size_t off = (size_t)(trial & 1); /* unaligned input as well */
        for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)test_rand(&seed);
        uint32_t a[8], b[8];
        for (int i = 0; i < 8; i++) a[i] = b[i] = (uint32_t)test_rand(&seed);
        kiln_sha256_blocks_shani(a, data + off, n);
        portable(b, data + off, n);
        CHECK(memcmp(a, b, sizeof a) == 0, "trial %d (%zu blocks): states differ", trial, n);
    }
    return check_summary();
#else
    printf("built without SHA-extension support: skipped\n");
    return TEST_SKIP;
#endif
}
