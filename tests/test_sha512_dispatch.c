/* The SHA-512 choices of the CPU dispatch (src/hash/sha512.c): the known-answer self-tests pass
 * for every kernel this CPU can run and fail for deliberately broken ones (a flipped state bit,
 * two lanes' digests swapped), the kernels picked are the ones the CPU's features call for, and a
 * ranking forced down to the portable code (no features) gives the same digests as the one this
 * CPU gets. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/cpu_dispatch.h"
#include "core/cpu_features.h"
#include "hash/sha512_host.h"

static void broken_blocks(uint64_t st[8], const uint8_t *blocks, size_t n)
{
    kiln_sha512_blocks_portable()(st, blocks, n);
    st[5] ^= 1ull << 40; /* one flipped bit, as a wrong rotate count might give */
}

/* Right in lane 0 and wherever all lanes carry the same message, wrong otherwise. */
static void swapped_lanes(const uint64_t iv[8], const uint8_t *const *msg, size_t len, uint8_t *const *out,
                          unsigned outlen)
{
    const uint8_t *in[4] = {msg[0], msg[2], msg[1], msg[3]};
    kiln_sha512_lanes_impl p = *kiln_sha512_lanes_portable();
    for (int k = 0; k < 4; k++) p.hash(iv, &in[k], len, &out[k], outlen);
}

struct blocks_impl {
    kiln_sha512_blocks_fn fn;
};

static int blocks_selftest(const void *impl) { return kiln_sha512_blocks_selftest(((const struct blocks_impl *)impl)->fn); }
static int lanes_selftest(const void *impl) { return kiln_sha512_lanes_selftest(impl); }

/* SHA-384 of eight random messages of len bytes through the lane kernel, then of the first through
 * the compression alone (digest 8). */
static void digests(kiln_sha512_blocks_fn blocks, const kiln_sha512_lanes_impl *lanes, size_t len, uint8_t *out)
{
    unsigned long long seed = 77 + len;
    static uint8_t msgs[8][700];
    const uint8_t *in[8];
    uint8_t *o[8];
    uint64_t iv[8];
    kiln_sha512_iv(KILN_SHA512_VARIANT_384, iv);
    for (int k = 0; k < 8; k++) {
        for (size_t i = 0; i < len; i++) msgs[k][i] = (uint8_t)test_rand(&seed);
        in[k] = msgs[k];
        o[k] = out + 48 * k;
    }
    for (unsigned k = 0; k + lanes->lanes <= 8; k += lanes->lanes) lanes->hash(iv, in + k, len, o + k, 48);
    uint64_t st[8];
    uint8_t tail[2 * KILN_SHA512_BLOCK];
    memcpy(st, iv, sizeof st);
    blocks(st, msgs[0], len / KILN_SHA512_BLOCK);
    memcpy(tail, msgs[0] + len - len % KILN_SHA512_BLOCK, len % KILN_SHA512_BLOCK);
    blocks(st, tail, kiln_sha512_pad(tail, len));
    kiln_sha512_store_digest(st, out + 8 * 48, 48);
}

int main(void)
{
    const struct blocks_impl portable = {kiln_sha512_blocks_portable()}, broken = {broken_blocks};
    const kiln_sha512_lanes_impl swapped = {"swapped", 4, swapped_lanes};

    /* the self-tests can fail */
    CHECK(kiln_sha512_blocks_selftest(portable.fn), "portable compression fails its self-test");
    CHECK(!kiln_sha512_blocks_selftest(broken_blocks), "a broken compression passes the self-test");
    CHECK(kiln_sha512_lanes_selftest(kiln_sha512_lanes_portable()), "portable lanes fail their self-test");
    CHECK(!kiln_sha512_lanes_selftest(&swapped), "lanes with swapped digests pass the self-test");

    /* what this CPU gets: the fastest kernel it has, which therefore passed its self-test */
    const char *want_blocks = "portable", *want_lanes = "portable";
#if defined(KILN_X86_KERNELS)
    if (kiln_cpu()->avx2) want_blocks = "avx2", want_lanes = "avx2x4";
    if (kiln_cpu()->avx512) want_lanes = "avx512x8";
#endif
    CHECK_STR(kiln_sha512_impl(), want_blocks);
    CHECK_STR(kiln_sha512_lanes()->name, want_lanes);
    CHECK(kiln_sha512_blocks_selftest(kiln_sha512_blocks()), "the chosen compression fails its self-test");
    CHECK(kiln_sha512_lanes_selftest(kiln_sha512_lanes()), "the chosen lanes fail their self-test");
    printf("sha512 compression: %s, lanes: %s\n", kiln_sha512_impl(), kiln_sha512_lanes()->name);

    /* rankings built like the library's: a broken fastest entry falls back, and with no CPU
     * features the portable code is what remains */
#if defined(KILN_X86_KERNELS)
    const struct blocks_impl avx2 = {kiln_sha512_blocks_avx2};
    const kiln_sha512_lanes_impl avx2x4 = {"avx2x4", 4, kiln_sha512_lanes_avx2};
    const kiln_sha512_lanes_impl avx512x8 = {"avx512x8", 8, kiln_sha512_lanes_avx512};
#endif
    const kiln_cpu_candidate blocks_list[] = {
        {"broken", 0, &broken, blocks_selftest},
#if defined(KILN_X86_KERNELS)
        {"avx2", KILN_NEEDS_AVX2, &avx2, blocks_selftest},
#endif
        {"portable", 0, &portable, NULL},
    };
    const kiln_cpu_candidate lanes_list[] = {
        {"swapped", 0, &swapped, lanes_selftest},
#if defined(KILN_X86_KERNELS)
        {"avx512x8", KILN_NEEDS_AVX512, &avx512x8, lanes_selftest},
        {"avx2x4", KILN_NEEDS_AVX2, &avx2x4, lanes_selftest},
#endif
        {"portable", 0, kiln_sha512_lanes_portable(), NULL},
    };
    const int nb = (int)(sizeof blocks_list / sizeof *blocks_list), nl = (int)(sizeof lanes_list / sizeof *lanes_list);
    kiln_cpu_ranking rb, rl, pb, pl;
    kiln_cpu_rank(blocks_list, nb, kiln_cpu_have(), &rb);
    kiln_cpu_rank(lanes_list, nl, kiln_cpu_have(), &rl);
    CHECK(rb.n >= 1 && strcmp(rb.usable[0]->name, want_blocks) == 0, "compression ranking starts with %s",
          rb.n ? rb.usable[0]->name : "nothing");
    CHECK(rl.n >= 1 && strcmp(rl.usable[0]->name, want_lanes) == 0, "lanes ranking starts with %s",
          rl.n ? rl.usable[0]->name : "nothing");
    kiln_cpu_rank(blocks_list, nb, 0, &pb);
    kiln_cpu_rank(lanes_list, nl, 0, &pl);
    CHECK(pb.n == 1 && strcmp(pb.usable[0]->name, "portable") == 0, "forced compression ranking");
    CHECK(pl.n == 1 && strcmp(pl.usable[0]->name, "portable") == 0, "forced lanes ranking");

    /* the forced portable choice and this CPU's choice agree */
    static const size_t lens[] = {0, 1, 64, 111, 112, 127, 128, 239, 240, 256, 699};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        uint8_t fast[9 * 48], slow[9 * 48];
        digests(((const struct blocks_impl *)rb.usable[0]->impl)->fn, rl.usable[0]->impl, lens[i], fast);
        digests(((const struct blocks_impl *)pb.usable[0]->impl)->fn, pl.usable[0]->impl, lens[i], slow);
        CHECK(memcmp(fast, slow, sizeof fast) == 0, "chosen and portable differ at length %zu", lens[i]);
        CHECK(memcmp(fast, fast + 8 * 48, 48) == 0, "lane 0 and the compression differ at length %zu", lens[i]);
    }
    return check_summary();
}
