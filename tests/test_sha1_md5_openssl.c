/* SHA-1, SHA-224 and MD5 against OpenSSL (an independent implementation, used only here) for
 * random messages of every length 0..1000 and random streaming splits: the one-shot helpers, the
 * streams, the hashing front end, and for SHA-1 every compression this CPU can run alone (the
 * portable one and the SHA extensions), over runs of whole blocks too. Then the CPU dispatch of
 * SHA-1: the self-test passes for every kernel the CPU can run and fails for a broken one, and the
 * kernel chosen is the one the CPU's features call for. FIPS 180-2 appendix C.3's and the million
 * 'a' of MD5 are long-message answers. */
#include <openssl/evp.h>

#include "check.h"
#include "core/cpu_features.h"
#include "hash/md5_host.h"
#include "hash/sha1_host.h"
#include "hash/sha256_host.h"
#include "kiln.h"
#include "prim/sha1.h"

static void openssl_hash(const EVP_MD *md, const uint8_t *m, size_t len, uint8_t *out)
{
    unsigned n = 0;
    CHECK(EVP_Digest(m, len, out, &n, md, NULL) == 1, "EVP_Digest");
}

static kiln_hash_algo algo_named(const char *name)
{
    kiln_hash_algo a = (kiln_hash_algo)0;
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_hash_algo_from_name(ctx, name, &a) == KILN_OK, "%s is a hash algorithm", name);
    kiln_ctx_free(ctx);
    return a;
}

static void sha1_with(kiln_sha1_blocks_fn blocks, const uint8_t *m, size_t len, uint8_t out[20])
{
    kiln_sha1_ctx c;
    kiln_sha1_iv(c.state);
    c.total = 0;
    kiln_md64_update(&c, blocks, m, len);
    kiln_md64_pad(&c, blocks, 1);
    for (int i = 0; i < 5; i++) kiln_store_be32(out + 4 * i, c.state[i]);
}

/* The three streams through a common shape: one-shot, three pieces. */
enum { SHA1, SHA224, MD5 };
static const char *const names[] = {"sha1", "sha224", "md5"};
static const unsigned dlens[] = {20, 28, 16};

static void one_shot(int f, const uint8_t *m, size_t len, uint8_t *d)
{
    if (f == SHA1) kiln_sha1(m, len, d);
    else if (f == SHA224) kiln_sha224(m, len, d);
    else kiln_md5(m, len, d);
}

static void three_pieces(int f, const uint8_t *m, size_t a, size_t b, size_t len, uint8_t *d)
{
    const size_t cut[4] = {0, a, b, len};
    if (f == SHA224) {
        kiln_sha256_stream s;
        uint8_t full[32];
        kiln_sha224_init(&s);
        for (int k = 0; k < 3; k++) kiln_sha256_update(&s, m + cut[k], cut[k + 1] - cut[k]);
        kiln_sha256_final(&s, full);
        memcpy(d, full, 28);
        return;
    }
    kiln_md64_ctx c;
    if (f == SHA1) kiln_sha1_init(&c);
    else kiln_md5_init(&c);
    for (int k = 0; k < 3; k++) {
        if (f == SHA1) kiln_sha1_update(&c, m + cut[k], cut[k + 1] - cut[k]);
        else kiln_md5_update(&c, m + cut[k], cut[k + 1] - cut[k]);
    }
    if (f == SHA1) kiln_sha1_final(&c, d);
    else kiln_md5_final(&c, d);
}

static void random_lengths(void)
{
    const EVP_MD *mds[3] = {EVP_sha1(), EVP_sha224(), EVP_md5()};
    kiln_sha1_blocks_fn kernels[2] = {kiln_sha1_blocks_portable(), NULL};
    const char *kernel_names[2] = {"portable", "sha-ni"};
#if defined(KILN_X86_KERNELS)
    if (kiln_cpu()->sha_ni) kernels[1] = kiln_sha1_blocks_shani;
#endif
    unsigned long long seed = 20261129;
    static uint8_t msg[64 * 101];
    for (int f = 0; f < 3; f++) {
        const kiln_hash_algo algo = algo_named(names[f]);
        for (size_t len = 0; len <= 1000; len++) {
            for (size_t i = 0; i < len; i++) msg[i] = (uint8_t)test_rand(&seed);
            uint8_t ref[32], d[32];
            openssl_hash(mds[f], msg, len, ref);
            memset(d, 0, sizeof d);
            one_shot(f, msg, len, d);
            CHECK(memcmp(d, ref, dlens[f]) == 0, "%s one-shot length %zu", names[f], len);

            size_t a = len ? (size_t)(test_rand(&seed) % (len + 1)) : 0;
            size_t b = a + (len - a ? (size_t)(test_rand(&seed) % (len - a + 1)) : 0);
            memset(d, 0, sizeof d);
            three_pieces(f, msg, a, b, len, d);
            CHECK(memcmp(d, ref, dlens[f]) == 0, "%s streamed length %zu split %zu/%zu", names[f], len, a, b);

            memset(d, 0xee, sizeof d);
            CHECK(kiln_hash(algo, msg, len, d, dlens[f]) == KILN_OK && memcmp(d, ref, dlens[f]) == 0 &&
                      d[dlens[f]] == 0xee,
                  "%s kiln_hash length %zu", names[f], len);

            for (int k = 0; f == SHA1 && k < 2; k++) {
                if (!kernels[k]) continue;
                memset(d, 0, sizeof d);
                sha1_with(kernels[k], msg, len, d);
                CHECK(memcmp(d, ref, 20) == 0, "sha1 %s compression length %zu", kernel_names[k], len);
            }
        }
    }
    /* runs of 1..100 whole blocks through each SHA-1 compression in one call */
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)test_rand(&seed);
    for (size_t blocks = 1; blocks <= 100; blocks += 3) {
        uint8_t ref[20], d[20];
        openssl_hash(EVP_sha1(), msg, 64 * blocks, ref);
        for (int k = 0; k < 2; k++) {
            if (!kernels[k]) continue;
            sha1_with(kernels[k], msg, 64 * blocks, d);
            CHECK(memcmp(d, ref, 20) == 0, "sha1 %s compression of %zu blocks in one call", kernel_names[k], blocks);
        }
    }
}

/* One million 'a', streamed in uneven pieces: FIPS 180-2 appendix C.3 (SHA-1) and its SHA-224
 * counterpart (FIPS 180-2 change notice 1), MD5's as OpenSSL gives it. */
static void million_a(void)
{
    static const char *const want[] = {"34aa973cd4c4daa4f61eeb2bdbad27316534016f",
                                       "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67", NULL};
    static uint8_t as[1000000];
    memset(as, 'a', sizeof as);
    uint8_t ref[32];
    openssl_hash(EVP_md5(), as, sizeof as, ref);
    for (int f = 0; f < 3; f++) {
        const kiln_hash_algo algo = algo_named(names[f]);
        kiln_hash_stream s;
        CHECK(kiln_hash_init(&s, algo) == KILN_OK, "init %s", names[f]);
        for (size_t done = 0; done < sizeof as;) {
            size_t n = sizeof as - done < 997 ? sizeof as - done : 997;
            kiln_hash_update(&s, as + done, n);
            done += n;
        }
        uint8_t d[32];
        char hex[65], refhex[65];
        CHECK(kiln_hash_final(&s, d, dlens[f]) == KILN_OK, "final %s", names[f]);
        kiln_hex_encode(d, dlens[f], 0, hex);
        if (want[f]) {
            CHECK_STR(hex, want[f]);
        } else {
            kiln_hex_encode(ref, 16, 0, refhex);
            CHECK_STR(hex, refhex);
        }
    }
}

static void broken_blocks(uint32_t *st, const uint8_t *blocks, size_t n)
{
    kiln_sha1_blocks_portable()(st, blocks, n);
    st[2] ^= 1u << 7; /* one flipped bit, as a wrong rotate count might give */
}

static void dispatch(void)
{
    CHECK(kiln_sha1_blocks_selftest(kiln_sha1_blocks_portable()), "portable SHA-1 passes its self-test");
    CHECK(!kiln_sha1_blocks_selftest(broken_blocks), "a broken SHA-1 compression fails the self-test");
#if defined(KILN_X86_KERNELS)
    if (kiln_cpu()->sha_ni) {
        CHECK(kiln_sha1_blocks_selftest(kiln_sha1_blocks_shani), "sha-ni SHA-1 passes its self-test");
        CHECK_STR(kiln_sha1_impl(), "sha-ni");
    } else {
        CHECK_STR(kiln_sha1_impl(), "portable");
    }
#else
    CHECK_STR(kiln_sha1_impl(), "portable");
#endif
}

int main(void)
{
    printf("sha1 compression: %s\n", kiln_sha1_impl());
    dispatch();
    random_lengths();
    million_a();
    return check_summary();
}
