/* The MD5, BLAKE2s and BLAKE2b lane kernels (src/hash/md5_lanes.h, blake2s_lanes.h,
 * blake2b_lanes.h) against OpenSSL (MD5, BLAKE2s-256, BLAKE2b-512: an independent implementation)
 * and against the portable stream: every kernel this CPU can run (one it lacks is skipped, not
 * failed) for every message length 0..300 with a different random message in each lane; BLAKE2
 * also with a shorter digest, against the stream. Then the batches (kiln_md5_batch,
 * kiln_blake2s_batch, kiln_blake2b_batch) for message counts that leave a ragged
 * rest after the last whole group, and the dispatch: the self-tests pass for every kernel the CPU
 * can run and fail for one that swaps two lanes' digests, and the kernel chosen is the one the
 * CPU's features call for. */
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/cpu_features.h"
#include "hash/blake2_host.h"
#include "hash/md5_host.h"

enum { MD5, B2S, B2B };
static const char *const family_names[] = {"md5", "blake2s", "blake2b"};
static const unsigned dlens[] = {16, 32, 64};
enum { MAXLEN = 300, MAXLANES = 16 };

/* One kernel of either family behind one shape. */
typedef struct kernel {
    const char *name;
    unsigned lanes;
    int needs; /* 0, 1: AVX2, 2: AVX-512 */
    kiln_md5_lanes_fn md5;
    kiln_blake2s_lanes_fn b2s;
} kernel;

static void run(const kernel *k, unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    if (k->md5) k->md5(msg, len, out);
    else k->b2s(outlen, msg, len, out);
}

static void openssl_hash(int f, const uint8_t *m, size_t len, uint8_t *out)
{
    unsigned n = 0;
    const EVP_MD *md = f == MD5 ? EVP_md5() : f == B2S ? EVP_blake2s256() : EVP_blake2b512();
    CHECK(EVP_Digest(m, len, out, &n, md, NULL) == 1 && n == dlens[f],
          "EVP_Digest");
}

static void stream_hash(int f, unsigned outlen, const uint8_t *m, size_t len, uint8_t *out)
{
    if (f == MD5) {
        kiln_md5(m, len, out);
        return;
    }
    kiln_blake2_ctx c;
    kiln_blake2_init(&c, f == B2S ? KILN_BLAKE2_VARIANT_S : KILN_BLAKE2_VARIANT_B, outlen);
    kiln_blake2_update(&c, m, len);
    kiln_blake2_final(&c, out);
}

static uint8_t msgs[MAXLANES][MAXLEN];

static void every_length(int f, const kernel *k)
{
    const uint8_t *in[MAXLANES];
    uint8_t digests[MAXLANES][64], *out[MAXLANES], want[64];
    unsigned long long seed = 1234 + (unsigned)f;
    int bad = 0;
    for (size_t len = 0; len <= MAXLEN; len++) {
        for (unsigned l = 0; l < k->lanes; l++) {
            for (size_t i = 0; i < len; i++) msgs[l][i] = (uint8_t)test_rand(&seed);
            in[l] = msgs[l];
            out[l] = digests[l];
        }
        run(k, dlens[f], in, len, out);
        for (unsigned l = 0; l < k->lanes; l++) {
            openssl_hash(f, msgs[l], len, want);
            if (memcmp(digests[l], want, dlens[f]) != 0 && bad++ < 5)
                CHECK(0, "%s %s lane %u differs from OpenSSL at length %zu", family_names[f], k->name, l, len);
            stream_hash(f, dlens[f], msgs[l], len, want);
            if (memcmp(digests[l], want, dlens[f]) != 0 && bad++ < 5)
                CHECK(0, "%s %s lane %u differs from the stream at length %zu", family_names[f], k->name, l, len);
        }
        if (f != MD5) { /* a 20-byte digest: the parameter block changes, not only the cut */
            run(k, 20, in, len, out);
            for (unsigned l = 0; l < k->lanes; l++) {
                stream_hash(f, 20, msgs[l], len, want);
                if (memcmp(digests[l], want, 20) != 0 && bad++ < 5)
                    CHECK(0, "%s %s lane %u, 20-byte digest, differs at length %zu", family_names[f], k->name, l,
                          len);
            }
        }
    }
    CHECK(bad == 0, "%s %s: %d lane digests wrong", family_names[f], k->name, bad);
    printf("%s %s: lengths 0..%d in %u lanes\n", family_names[f], k->name, MAXLEN, k->lanes);
}

/* n messages of len bytes through the chosen kernel's batch, each against OpenSSL: n from 0 to
 * 40 leaves every rest after the whole groups of 4, 8 or 16. */
static void ragged_batches(int f)
{
    static const size_t lens[] = {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 300};
    static uint8_t data[40 * MAXLEN], out[40 * 64 + 1];
    uint8_t want[64];
    unsigned long long seed = 99;
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)test_rand(&seed);
    int bad = 0;
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
        for (size_t n = 0; n <= 40; n++) {
            memset(out, 0xa5, sizeof out);
            if (f == MD5) kiln_md5_batch(data, lens[li], n, out);
            else if (f == B2S) kiln_blake2s_batch(32, data, lens[li], n, out);
            else kiln_blake2b_batch(64, data, lens[li], n, out);
            for (size_t i = 0; i < n; i++) {
                openssl_hash(f, data + i * lens[li], lens[li], want);
                if (memcmp(out + i * dlens[f], want, dlens[f]) != 0 && bad++ < 5)
                    CHECK(0, "%s batch of %zu at length %zu: message %zu wrong", family_names[f], n, lens[li], i);
            }
            if (out[n * dlens[f]] != 0xa5 && bad++ < 5)
                CHECK(0, "%s batch of %zu at length %zu wrote past its digests", family_names[f], n, lens[li]);
        }
    CHECK(bad == 0, "%s batches: %d wrong", family_names[f], bad);
}

/* Right in lane 0 and wherever all lanes carry the same message, wrong otherwise. */
static void md5_swapped(const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    for (int k = 0; k < 8; k++) kiln_md5(msg[k ^ (k == 1 || k == 2 ? 3 : 0)], len, out[k]);
}

static void b2b_swapped(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    const kiln_blake2b_lanes_impl *p = kiln_blake2b_lanes_portable();
    for (int k = 0; k < 8; k++) p->hash(outlen, &msg[k ^ (k == 1 || k == 2 ? 3 : 0)], len, &out[k]);
}

static void b2s_swapped(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    const kiln_blake2s_lanes_impl *p = kiln_blake2s_lanes_portable();
    for (int k = 0; k < 8; k++) p->hash(outlen, &msg[k ^ (k == 1 || k == 2 ? 3 : 0)], len, &out[k]);
}

int main(void)
{
    const int avx2 = kiln_cpu()->avx2, avx512 = kiln_cpu()->avx512;
    const kernel md5_kernels[] = {
        {"portable", 1, 0, kiln_md5_lanes_portable()->hash, NULL},
#if defined(KILN_X86_KERNELS)
        {"avx2x8", 8, 1, kiln_md5_lanes_avx2, NULL},
        {"avx512x16", 16, 2, kiln_md5_lanes_avx512, NULL},
#endif
    };
    const kernel b2s_kernels[] = {
        {"portable", 1, 0, NULL, kiln_blake2s_lanes_portable()->hash},
#if defined(KILN_X86_KERNELS)
        {"avx2x8", 8, 1, NULL, kiln_blake2s_lanes_avx2},
        {"avx512x16", 16, 2, NULL, kiln_blake2s_lanes_avx512},
#endif
    };
    const kernel b2b_kernels[] = {
        {"portable", 1, 0, NULL, kiln_blake2b_lanes_portable()->hash},
#if defined(KILN_X86_KERNELS)
        {"avx2x4", 4, 1, NULL, kiln_blake2b_lanes_avx2},
        {"avx512x8", 8, 2, NULL, kiln_blake2b_lanes_avx512},
#endif
    };
    const int nk = (int)(sizeof md5_kernels / sizeof md5_kernels[0]);
    for (int f = MD5; f <= B2B; f++)
        for (int i = 0; i < nk; i++) {
            const kernel *k = f == MD5 ? &md5_kernels[i] : f == B2S ? &b2s_kernels[i] : &b2b_kernels[i];
            if ((k->needs == 1 && !avx2) || (k->needs == 2 && !avx512)) {
                printf("%s %s: skipped, this CPU lacks it\n", family_names[f], k->name);
                continue;
            }
            every_length(f, k);
            kiln_md5_lanes_impl mi = {k->name, k->lanes, k->md5};
            kiln_blake2s_lanes_impl bi = {k->name, k->lanes, k->b2s};
            CHECK(f == MD5 ? kiln_md5_lanes_selftest(&mi)
                           : f == B2S ? kiln_blake2s_lanes_selftest(&bi) : kiln_blake2b_lanes_selftest(&bi),
                  "%s %s fails its self-test", family_names[f], k->name);
        }
    ragged_batches(MD5);
    ragged_batches(B2S);
    ragged_batches(B2B);

    /* the self-tests can fail */
    const kiln_md5_lanes_impl ms = {"swapped", 8, md5_swapped};
    const kiln_blake2s_lanes_impl bs = {"swapped", 8, b2s_swapped};
    CHECK(!kiln_md5_lanes_selftest(&ms), "md5 lanes with swapped digests pass the self-test");
    CHECK(!kiln_blake2s_lanes_selftest(&bs), "blake2s lanes with swapped digests pass the self-test");
    const kiln_blake2b_lanes_impl bb = {"swapped", 8, b2b_swapped};
    CHECK(!kiln_blake2b_lanes_selftest(&bb), "blake2b lanes with swapped digests pass the self-test");

    /* what this CPU gets: the widest kernel it has */
    const char *want = "portable", *want64 = "portable";
#if defined(KILN_X86_KERNELS)
    if (avx2) want = "avx2x8", want64 = "avx2x4";
    if (avx512) want = "avx512x16", want64 = "avx512x8";
#endif
    CHECK_STR(kiln_md5_lanes()->name, want);
    CHECK_STR(kiln_blake2s_lanes()->name, want);
    CHECK_STR(kiln_blake2b_lanes()->name, want64);
    printf("md5 lanes: %s, blake2s lanes: %s, blake2b lanes: %s\n", kiln_md5_lanes()->name, kiln_blake2s_lanes()->name,
           kiln_blake2b_lanes()->name);
    return check_summary();
}
