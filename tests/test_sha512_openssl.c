/* SHA-512, SHA-384 and SHA-512/256 against FIPS 180-4's examples and, for random messages of
 * every length 0..1000 and random streaming splits, against OpenSSL (an independent
 * implementation, used only here): the stream with the compression picked at run time, the
 * portable and the AVX2 compressions alone, every lane kernel the CPU can run with a different message per lane,
 * and the batch helper. SHA-384 has no CAVP file here, so this is its known-answer test. */
#include <openssl/evp.h>

#include "check.h"
#include "core/cpu_features.h"
#include "hash/sha512_host.h"
#include "kiln.h"
#include "prim/sha512.h"

static const EVP_MD *md_of(kiln_sha512_variant v)
{
    return v == KILN_SHA512_VARIANT_384 ? EVP_sha384() : v == KILN_SHA512_VARIANT_512_256 ? EVP_sha512_256() : EVP_sha512();
}

static void openssl_hash(const EVP_MD *md, const uint8_t *m, size_t len, uint8_t *out)
{
    unsigned n = 0;
    CHECK(EVP_Digest(m, len, out, &n, md, NULL) == 1, "EVP_Digest");
}

static void hex_of(const uint8_t *d, size_t n, char *out) { kiln_hex_encode(d, n, 0, out); }

/* The message through one compression function only, padded here. */
static void hash_with(kiln_sha512_blocks_fn blocks, const uint64_t iv[8], const uint8_t *m, size_t len, uint8_t *out,
                      unsigned outlen)
{
    uint64_t st[8];
    uint8_t tail[2 * KILN_SHA512_BLOCK];
    memcpy(st, iv, sizeof st);
    blocks(st, m, len / KILN_SHA512_BLOCK);
    memcpy(tail, m + len - len % KILN_SHA512_BLOCK, len % KILN_SHA512_BLOCK);
    blocks(st, tail, kiln_sha512_pad(tail, len));
    kiln_sha512_store_digest(st, out, outlen);
}

static void fips_examples(void)
{
    static const char two[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                              "mnopqrstnopqrstu";
    static const struct {
        kiln_sha512_variant v;
        const char *msg, *digest;
    } ex[] = {
        {KILN_SHA512_VARIANT_512, "abc",
         "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e"
         "2a9ac94fa54ca49f"},
        {KILN_SHA512_VARIANT_512, two,
         "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd2654"
         "5e96e55b874be909"},
        {KILN_SHA512_VARIANT_384, "abc",
         "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"},
        {KILN_SHA512_VARIANT_384, two,
         "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"},
        {KILN_SHA512_VARIANT_512_256, "abc", "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"},
        {KILN_SHA512_VARIANT_512_256, two, "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a"},
    };
    uint8_t d[64];
    char hex[129];
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        kiln_sha512_variant_hash(ex[i].v, ex[i].msg, strlen(ex[i].msg), d);
        hex_of(d, kiln_sha512_digest_len(ex[i].v), hex);
        CHECK_STR(hex, ex[i].digest);
    }
    /* the one-shot helpers are the variants */
    kiln_sha512("abc", 3, d);
    hex_of(d, 64, hex);
    CHECK_STR(hex, ex[0].digest);
    kiln_sha384("abc", 3, d);
    hex_of(d, 48, hex);
    CHECK_STR(hex, ex[2].digest);
    kiln_sha512_256("abc", 3, d);
    hex_of(d, 32, hex);
    CHECK_STR(hex, ex[4].digest);

    /* one million 'a' (FIPS 180-2 appendix C.3), streamed in uneven pieces */
    static uint8_t as[1000];
    memset(as, 'a', sizeof as);
    kiln_sha512_ctx c;
    kiln_sha512_init(&c, KILN_SHA512_VARIANT_512);
    for (int left = 1000000; left > 0;) {
        int n = left < 997 ? left : 997;
        kiln_sha512_update(&c, as, (size_t)n);
        left -= n;
    }
    kiln_sha512_final(&c, d);
    hex_of(d, 64, hex);
    CHECK_STR(hex, "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb00"
                   "9c5c2c49aa2e4eadb217ad8cc09b");
}

/* The 128-bit length field for sizes no test message reaches: 2^61 + 5 bytes is 2^64 + 40 bits,
 * so the high word is 1; 2^64 - 1 bytes is the largest the stream counts. */
static void padding(void)
{
    static const struct {
        uint64_t total;
        unsigned blocks;
        uint64_t hi, lo;
    } cases[] = {
        {0, 1, 0, 0},
        {111, 1, 0, 888},
        {112, 2, 0, 896},
        {(1ull << 61) + 5, 1, 1, 40},
        {~0ull, 2, 7, ~0ull << 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t tail[2 * KILN_SHA512_BLOCK];
        memset(tail, 0xcc, sizeof tail);
        unsigned rem = (unsigned)(cases[i].total % KILN_SHA512_BLOCK), n = kiln_sha512_pad(tail, cases[i].total);
        unsigned end = n * KILN_SHA512_BLOCK;
        int zeros = 1;
        for (unsigned k = rem + 1; k < end - 16; k++) zeros &= tail[k] == 0;
        CHECK(n == cases[i].blocks && tail[rem] == 0x80 && zeros && kiln_load_be64(tail + end - 16) == cases[i].hi &&
                  kiln_load_be64(tail + end - 8) == cases[i].lo && (rem == 0 || tail[rem - 1] == 0xcc),
              "padding of %llu bytes", (unsigned long long)cases[i].total);
    }
}

/* FIPS 180-4 section 5.3.6: the SHA-512/t initial value is SHA-512, started from SHA-512's IV
 * XOR a5a5..., of the string "SHA-512/t". Regenerates SHA-512/256's (the header's constants)
 * and SHA-512/224's, which then goes through kiln_sha512_init_iv with a 28-byte digest (not a
 * whole number of words) against OpenSSL. */
static void sha512_t_ivs(void)
{
    uint64_t ivpp[8], iv256[8], iv224[8], want[8];
    kiln_sha512_iv(KILN_SHA512_VARIANT_512, ivpp);
    for (int i = 0; i < 8; i++) ivpp[i] ^= 0xa5a5a5a5a5a5a5a5ull;
    kiln_sha512_ctx c;
    uint8_t d[64];
    kiln_sha512_init_iv(&c, ivpp, 64);
    kiln_sha512_update(&c, "SHA-512/256", 11);
    kiln_sha512_final(&c, d);
    for (int i = 0; i < 8; i++) iv256[i] = kiln_load_be64(d + 8 * i);
    kiln_sha512_iv(KILN_SHA512_VARIANT_512_256, want);
    CHECK(memcmp(iv256, want, sizeof want) == 0, "SHA-512/256 IV differs from the generated one");

    kiln_sha512_init_iv(&c, ivpp, 64);
    kiln_sha512_update(&c, "SHA-512/224", 11);
    kiln_sha512_final(&c, d);
    for (int i = 0; i < 8; i++) iv224[i] = kiln_load_be64(d + 8 * i);
    unsigned long long seed = 224;
    uint8_t msg[300], ref[64];
    for (size_t len = 0; len <= 300; len += 7) {
        for (size_t i = 0; i < len; i++) msg[i] = (uint8_t)test_rand(&seed);
        openssl_hash(EVP_sha512_224(), msg, len, ref);
        memset(d, 0xee, sizeof d);
        kiln_sha512_init_iv(&c, iv224, 28);
        kiln_sha512_update(&c, msg, len);
        kiln_sha512_final(&c, d);
        CHECK(memcmp(d, ref, 28) == 0 && d[28] == 0xee, "SHA-512/224 length %zu", len);
    }
}

/* Every variant, every length 0..1000: one-shot, streamed in three random pieces, and through
 * each compression function alone, against OpenSSL. */
static void random_lengths(void)
{
    kiln_sha512_blocks_fn fns[2] = {kiln_sha512_blocks_portable(), NULL};
    const char *names[2] = {"portable", "avx2"};
#if defined(KILN_X86_KERNELS)
    if (kiln_cpu()->avx2) fns[1] = kiln_sha512_blocks_avx2;
#endif
    unsigned long long seed = 20261127;
    static uint8_t msg[1001];
    for (int v = 0; v < 3; v++) {
        kiln_sha512_variant var = (kiln_sha512_variant)v;
        unsigned dlen = kiln_sha512_digest_len(var);
        uint64_t iv[8];
        kiln_sha512_iv(var, iv);
        for (size_t len = 0; len <= 1000; len++) {
            for (size_t i = 0; i < len; i++) msg[i] = (uint8_t)test_rand(&seed);
            uint8_t ref[64], d[64];
            openssl_hash(md_of(var), msg, len, ref);
            kiln_sha512_variant_hash(var, msg, len, d);
            CHECK(memcmp(d, ref, dlen) == 0, "variant %d one-shot length %zu", v, len);

            size_t a = len ? (size_t)(test_rand(&seed) % (len + 1)) : 0;
            size_t b = a + (len - a ? (size_t)(test_rand(&seed) % (len - a + 1)) : 0);
            kiln_sha512_ctx c;
            kiln_sha512_init(&c, var);
            kiln_sha512_update(&c, msg, a);
            kiln_sha512_update(&c, msg + a, b - a);
            kiln_sha512_update(&c, msg + b, len - b);
            memset(d, 0, sizeof d);
            kiln_sha512_final(&c, d);
            CHECK(memcmp(d, ref, dlen) == 0, "variant %d streamed length %zu split %zu/%zu", v, len, a, b);

            for (int f = 0; f < 2; f++) {
                if (!fns[f]) continue;
                memset(d, 0, sizeof d);
                hash_with(fns[f], iv, msg, len, d, dlen);
                CHECK(memcmp(d, ref, dlen) == 0, "variant %d %s compression length %zu", v, names[f], len);
            }
        }
    }
    /* an odd and an even number of blocks in one call, where the AVX2 code pairs blocks */
    for (int f = 0; f < 2; f++) {
        if (!fns[f]) continue;
        for (size_t nblk = 1; nblk <= 6; nblk++) {
            static uint8_t big[6 * KILN_SHA512_BLOCK];
            for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)test_rand(&seed);
            uint8_t ref[64], d[64];
            uint64_t iv[8];
            kiln_sha512_iv(KILN_SHA512_VARIANT_512, iv);
            openssl_hash(EVP_sha512(), big, nblk * KILN_SHA512_BLOCK, ref);
            hash_with(fns[f], iv, big, nblk * KILN_SHA512_BLOCK, d, 64);
            CHECK(memcmp(d, ref, 64) == 0, "%s compression, %zu blocks in one call", names[f], nblk);
        }
    }
}

/* Each lane kernel with a different random message per lane, lengths 0..300 and a few long
 * ones, every variant; a lane that read or wrote another lane's data would differ. */
static void lanes_one(const kiln_sha512_lanes_impl *l)
{
    unsigned long long seed = 4242 + l->lanes;
    static uint8_t msgs[8][2000];
    uint8_t out[8][64], ref[64];
    const uint8_t *in[8];
    uint8_t *o[8];
    for (unsigned k = 0; k < l->lanes; k++) in[k] = msgs[k], o[k] = out[k];
    static const size_t longer[] = {511, 512, 1023, 1024, 1999};
    int fails = 0;
    for (size_t step = 0; step <= 300 + sizeof longer / sizeof longer[0]; step++) {
        size_t len = step <= 300 ? step : longer[step - 301];
        kiln_sha512_variant var = (kiln_sha512_variant)(step % 3);
        unsigned dlen = kiln_sha512_digest_len(var);
        uint64_t iv[8];
        kiln_sha512_iv(var, iv);
        for (unsigned k = 0; k < l->lanes; k++)
            for (size_t i = 0; i < len; i++) msgs[k][i] = (uint8_t)test_rand(&seed);
        memset(out, 0, sizeof out);
        l->hash(iv, in, len, o, dlen);
        for (unsigned k = 0; k < l->lanes; k++) {
            openssl_hash(md_of(var), msgs[k], len, ref);
            if (memcmp(out[k], ref, dlen) != 0 && fails++ < 5)
                CHECK(0, "%s lane %u, variant %d, length %zu", l->name, k, (int)var, len);
        }
    }
    CHECK(fails == 0, "%s: %d lane digests differ", l->name, fails);
}

static void lanes_and_batch(void)
{
    lanes_one(kiln_sha512_lanes_portable());
    lanes_one(kiln_sha512_lanes());
#if defined(KILN_X86_KERNELS)
    if (kiln_cpu()->avx2) {
        const kiln_sha512_lanes_impl avx2 = {"avx2x4", 4, kiln_sha512_lanes_avx2};
        lanes_one(&avx2);
    }
    if (kiln_cpu()->avx512) {
        const kiln_sha512_lanes_impl avx512 = {"avx512x8", 8, kiln_sha512_lanes_avx512};
        lanes_one(&avx512);
    }
#endif
    /* batches whose count is not a multiple of the lane width: the rest goes one at a time */
    unsigned long long seed = 99;
    static uint8_t data[13 * 200], out[13 * 64];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)test_rand(&seed);
    static const size_t lens[] = {0, 64, 111, 112, 200};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        for (int v = 0; v < 3; v++) {
            kiln_sha512_variant var = (kiln_sha512_variant)v;
            unsigned dlen = kiln_sha512_digest_len(var);
            for (size_t n = 0; n <= 13; n += 1) {
                memset(out, 0, sizeof out);
                kiln_sha512_batch(var, data, lens[li], n, out);
                int bad = 0;
                for (size_t i = 0; i < n; i++) {
                    uint8_t ref[64];
                    openssl_hash(md_of(var), data + i * lens[li], lens[li], ref);
                    bad += memcmp(out + i * dlen, ref, dlen) != 0;
                }
                CHECK(bad == 0, "batch variant %d, %zu messages of %zu bytes: %d differ", v, n, lens[li], bad);
            }
        }
    }
}

int main(void)
{
    printf("sha512 compression: %s, lanes: %s\n", kiln_sha512_impl(), kiln_sha512_lanes()->name);
    fips_examples();
    padding();
    sha512_t_ivs();
    random_lengths();
    lanes_and_batch();
    return check_summary();
}
