/* The BLAKE3 choices of the CPU dispatch (src/hash/blake3.c): the known-answer self-test passes
 * for every kernel this CPU can run and fails for deliberately broken ones (a flipped bit in one
 * lane, two lanes swapped), the kernel picked is the one the CPU's features call for, and every
 * kernel gives the portable one's chaining values for any count of inputs (full and short groups),
 * any count of blocks, both strides, counters that carry into their high word, and the flags;
 * batches of equal-length messages give the stream's digests. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/cpu_dispatch.h"
#include "core/cpu_features.h"
#include "hash/blake3_host.h"

/* Right except for input 3's chaining value, one bit off. */
static void flipped(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len, const uint32_t key[8],
                    uint64_t counter, int increment, uint32_t flags, uint32_t fs, uint32_t fe, uint8_t *out)
{
    kiln_blake3_many_portable()->fn(in, stride, n, blocks, last_len, key, counter, increment, flags, fs, fe, out);
    if (n > 3) out[32 * 3 + 5] ^= 0x10;
}

/* Inputs 0 and 1 exchanged (their counters with them): right wherever the two are alike. */
static void swapped(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len, const uint32_t key[8],
                    uint64_t counter, int increment, uint32_t flags, uint32_t fs, uint32_t fe, uint8_t *out)
{
    kiln_blake3_many_fn p = kiln_blake3_many_portable()->fn;
    p(in, stride, n, blocks, last_len, key, counter, increment, flags, fs, fe, out);
    if (n < 2) return;
    uint8_t t[32];
    p(in + stride, stride, 1, blocks, last_len, key, counter, increment, flags, fs, fe, t);
    p(in, stride, 1, blocks, last_len, key, counter + (increment ? 1 : 0), increment, flags, fs, fe, out + 32);
    memcpy(out, t, 32);
}

static uint8_t data[64 * 1024 + 64];

static void against_portable(const kiln_blake3_many_impl *k)
{
    unsigned long long seed = 41;
    static const uint64_t counters[] = {0, 5, 0xfffffffbull, 0x1fffffff0ull};
    uint32_t key[8];
    for (int i = 0; i < 8; i++) key[i] = (uint32_t)test_rand(&seed);
    for (size_t n = 1; n <= 40; n++) {
        for (size_t blocks = 1; blocks <= 16; blocks += (blocks < 3 ? 1 : 6)) {
            size_t stride = blocks == 1 && n % 2 ? 64 : 1024;
            uint64_t counter = counters[n % 4];
            int increment = n % 3 != 0;
            uint32_t flags = (uint32_t)(n % 5 == 0 ? KILN_BLAKE3_KEYED_HASH : 0);
            uint32_t last_len = n % 4 == 1 ? (uint32_t)(n + blocks) % 64 : 64; /* a short last block */
            uint8_t want[32 * 41], got[32 * 41];
            kiln_blake3_many_portable()->fn(data, stride, n, blocks, last_len, key, counter, increment, flags,
                                            KILN_BLAKE3_CHUNK_START, KILN_BLAKE3_CHUNK_END, want);
            memset(got, 0xee, sizeof got);
            k->fn(data, stride, n, blocks, last_len, key, counter, increment, flags, KILN_BLAKE3_CHUNK_START,
                  KILN_BLAKE3_CHUNK_END, got);
            CHECK(memcmp(got, want, 32 * n) == 0,
                  "%s: %zu inputs of %zu blocks (the last %u bytes), stride %zu, counter %llx%s", k->name, n, blocks,
                  last_len, stride, (unsigned long long)counter, increment ? " incremented" : "");
            CHECK(got[32 * n] == 0xee, "%s: %zu inputs: wrote past the last chaining value", k->name, n);
        }
    }
}

int main(void)
{
    unsigned long long seed = 7;
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)test_rand(&seed);
    const kiln_blake3_many_impl *portable = kiln_blake3_many_portable();
    CHECK(kiln_blake3_many_selftest(portable->fn), "the portable kernel fails its self-test");
    CHECK(!kiln_blake3_many_selftest(flipped), "a kernel with a flipped bit passes the self-test");
    CHECK(!kiln_blake3_many_selftest(swapped), "a kernel with swapped lanes passes the self-test");

    const char *want = "portable";
#if defined(KILN_X86_KERNELS)
    const kiln_blake3_many_impl avx2 = {"avx2", 8, kiln_blake3_many_avx2},
                                avx512 = {"avx512", 16, kiln_blake3_many_avx512};
    if (kiln_cpu()->avx2) {
        want = "avx2";
        CHECK(kiln_blake3_many_selftest(avx2.fn), "the avx2 kernel fails its self-test");
        against_portable(&avx2);
    }
    if (kiln_cpu()->avx2 && kiln_cpu()->avx512) {
        want = "avx512";
        CHECK(kiln_blake3_many_selftest(avx512.fn), "the avx512 kernel fails its self-test");
        against_portable(&avx512);
    }
#endif
    CHECK_STR(kiln_blake3_many()->name, want);

    /* batches: one chunk or less through the kernel (whole blocks in place, other lengths in padded
     * slots), longer messages through the stream */
    static const size_t lens[] = {64, 128, 1024, 0, 1, 32, 63, 100, 1000, 1025, 2048};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        size_t n = 19;
        uint8_t got[32 * 19], one[32];
        kiln_blake3_batch(data, lens[i], n, got);
        for (size_t j = 0; j < n; j++) {
            kiln_blake3_ctx c;
            kiln_blake3_init(&c);
            kiln_blake3_update(&c, data + j * lens[i], lens[i]);
            kiln_blake3_final(&c, one, 32);
            CHECK(memcmp(got + 32 * j, one, 32) == 0, "batch of %zu-byte messages, message %zu", lens[i], j);
        }
    }
    return check_summary();
}
