/* The streaming API and the CPU batch paths against the one-shot results (which test_keccak_kat
 * holds against the NIST and Keccak team vectors): random split points when absorbing, random
 * pieces when squeezing, every algorithm through the hash front end, the OpenMP batch with
 * offsets in any order, the permutation batch, and the argument checks. */
#include <stdlib.h>

#include "check.h"
#include "kiln.h"

static uint8_t msg[3 * 1024];

static void fill(unsigned long long *seed)
{
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)test_rand(seed);
}

static void split_points(void)
{
    unsigned long long seed = 0x73706c6974ull;
    fill(&seed);
    for (int a = 0; a < (int)kiln_hash_algo_count(); a++) {
        kiln_hash_algo algo = (kiln_hash_algo)a;
        size_t outlen = kiln_hash_is_xof(algo) ? 300 : kiln_hash_digest_len(algo);
        for (int trial = 0; trial < 200; trial++) {
            size_t len = (size_t)(test_rand(&seed) % sizeof msg);
            uint8_t want[300], got[300];
            CHECK(kiln_hash(algo, msg, len, want, outlen) == KILN_OK, "one-shot");
            kiln_hash_stream s;
            CHECK(kiln_hash_init(&s, algo) == KILN_OK, "init");
            size_t done = 0;
            while (done < len) {
                size_t piece = (size_t)(test_rand(&seed) % (trial % 4 == 0 ? 3 : 400));
                if (piece > len - done) piece = len - done;
                CHECK(kiln_hash_update(&s, msg + done, piece) == KILN_OK, "update");
                done += piece;
            }
            if (kiln_hash_is_xof(algo) && kiln_hash_rate(algo)) {
                /* a Keccak XOF: squeeze in random pieces through the Keccak stream directly */
                size_t o = 0;
                while (o < outlen) {
                    size_t piece = 1 + (size_t)(test_rand(&seed) % 200);
                    if (piece > outlen - o) piece = outlen - o;
                    kiln_keccak_squeeze(&s.u.keccak, got + o, piece);
                    o += piece;
                }
            } else {
                CHECK(kiln_hash_final(&s, got, outlen) == KILN_OK, "final");
            }
            CHECK(memcmp(want, got, outlen) == 0, "%s: %zu bytes, trial %d", kiln_hash_algo_name(algo), len, trial);
        }
    }
}

static void front_end(void)
{
    kiln_hash_algo a;
    for (int i = 0; i < (int)kiln_hash_algo_count(); i++) {
        CHECK(kiln_hash_algo_from_name(NULL, kiln_hash_algo_name((kiln_hash_algo)i), &a) == KILN_OK && (int)a == i,
              "name round trip %d", i);
    }
    kiln_ctx *ctx = kiln_ctx_new();
    /* hashlib's spelling and coreutils users' (any case, '-' or '_') name the same algorithm */
    CHECK(kiln_hash_algo_from_name(ctx, "sha3_256", &a) == KILN_OK && a == KILN_HASH_SHA3_256, "sha3_256");
    CHECK(kiln_hash_algo_from_name(ctx, "SHA3-256", &a) == KILN_OK && a == KILN_HASH_SHA3_256, "SHA3-256");
    CHECK(kiln_hash_algo_from_name(ctx, "sha3_255", &a) == KILN_ERR_INPUT, "unknown name");
    CHECK(strstr(kiln_last_error(ctx), "sha3_255") != NULL, "%s", kiln_last_error(ctx));
    CHECK(kiln_hash_algo_from_name(ctx, NULL, &a) == KILN_ERR_INPUT, "NULL name");
    kiln_ctx_free(ctx);
    CHECK(kiln_hash_digest_len(KILN_HASH_SHA3_224) == 28 && kiln_hash_digest_len(KILN_HASH_KECCAK512) == 64 &&
              kiln_hash_digest_len(KILN_HASH_SHAKE128) == 32 && kiln_hash_digest_len(KILN_HASH_SHAKE256) == 64,
          "digest sizes");
    CHECK(kiln_hash_rate(KILN_HASH_SHA3_256) == 136 && kiln_hash_rate(KILN_HASH_SHAKE128) == 168 &&
              kiln_hash_rate(KILN_HASH_SHA256) == 0 && kiln_hash_domain(KILN_HASH_KECCAK256) == 0x01 &&
              kiln_hash_domain(KILN_HASH_SHAKE256) == 0x1F,
          "sponge parameters");
    uint8_t d[64];
    CHECK(kiln_hash(KILN_HASH_SHA3_256, "", 0, d, 31) == KILN_ERR_INPUT, "wrong digest length");
    CHECK(kiln_hash(KILN_HASH_SHAKE128, "", 0, d, 0) == KILN_ERR_INPUT, "zero XOF length");
    CHECK(kiln_hash((kiln_hash_algo)99, "", 0, d, 32) == KILN_ERR_INPUT, "bad algorithm");
    CHECK(kiln_hash(KILN_HASH_SHA3_256, NULL, 5, d, 32) == KILN_ERR_INPUT, "NULL data");
    CHECK(kiln_sha3(255, "", 0, d) == KILN_ERR_INPUT && kiln_keccak(128, "", 0, d) == KILN_ERR_INPUT &&
              kiln_shake(512, "", 0, d, 8) == KILN_ERR_INPUT,
          "bad sizes");
    /* SHA-256 through the front end equals FIPS 180-4's "abc" and sha256d of it */
    char hex[65];
    kiln_hash(KILN_HASH_SHA256, "abc", 3, d, 32);
    kiln_hex_encode(d, 32, 0, hex);
    CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    uint8_t first[32];
    kiln_sha256("abc", 3, first);
    kiln_sha256(first, 32, first);
    kiln_hash(KILN_HASH_SHA256D, "abc", 3, d, 32);
    CHECK(memcmp(d, first, 32) == 0, "sha256d");

    kiln_keccak_stream s;
    CHECK(kiln_keccak_init(&s, 0, 6) == KILN_ERR_INPUT && kiln_keccak_init(&s, 137, 6) == KILN_ERR_INPUT &&
              kiln_keccak_init(&s, 200, 6) == KILN_ERR_INPUT && kiln_keccak_init(&s, 136, 0) == KILN_ERR_INPUT,
          "bad sponge parameters");
    CHECK(kiln_keccak_init(&s, 192, 0x1F) == KILN_OK, "largest rate");
    CHECK(kiln_keccak_absorb(&s, msg, 500) == KILN_OK, "absorb");
    kiln_keccak_squeeze(&s, d, 10);
    CHECK(kiln_keccak_absorb(&s, msg, 1) == KILN_ERR_INPUT, "absorb after squeeze");
    CHECK(kiln_keccak_absorb(&s, NULL, 0) == KILN_ERR_INPUT, "absorb after squeeze, empty");
}

static void cpu_batches(void)
{
    unsigned long long seed = 0x6261746368ull;
    fill(&seed);
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, "cpu") == KILN_OK, "cpu");
    enum { N = 777 };
    uint64_t offsets[N + 1];
    uint8_t out[N * 64], want[64];
    for (int a = 0; a < (int)kiln_hash_algo_count(); a++) {
        kiln_hash_algo algo = (kiln_hash_algo)a;
        size_t outlen = kiln_hash_is_xof(algo) ? 45 : kiln_hash_digest_len(algo);
        offsets[0] = test_rand(&seed) % 100;
        for (int i = 0; i < N; i++) offsets[i + 1] = offsets[i] + test_rand(&seed) % 4 % 3 * (test_rand(&seed) % 300);
        if (offsets[N] > sizeof msg) offsets[N] = sizeof msg;
        for (int i = N; i > 0; i--)
            if (offsets[i - 1] > offsets[i]) offsets[i - 1] = offsets[i];
        CHECK(kiln_hash_batch(ctx, algo, msg, offsets, N, out, outlen) == KILN_OK, "%s", kiln_last_error(ctx));
        int bad = 0;
        for (int i = 0; i < N; i++) {
            kiln_hash(algo, msg + offsets[i], (size_t)(offsets[i + 1] - offsets[i]), want, outlen);
            bad += memcmp(want, out + (size_t)i * outlen, outlen) != 0;
        }
        CHECK(bad == 0, "%s: %d of %d batch digests differ", kiln_hash_algo_name(algo), bad, N);
        CHECK(kiln_hash_batch_fixed(ctx, algo, msg, 3, N, out, outlen) == KILN_OK, "%s", kiln_last_error(ctx));
        for (int i = 0, b = 0; i < N; i++) {
            kiln_hash(algo, msg + 3 * i, 3, want, outlen);
            b += memcmp(want, out + (size_t)i * outlen, outlen) != 0;
            if (i == N - 1) CHECK(b == 0, "%s fixed: %d differ", kiln_hash_algo_name(algo), b);
        }
    }
    /* argument checks */
    offsets[0] = 5, offsets[1] = 4;
    CHECK(kiln_hash_batch(ctx, KILN_HASH_SHA3_256, msg, offsets, 1, out, 32) == KILN_ERR_INPUT, "decreasing offsets");
    CHECK(strstr(kiln_last_error(ctx), "decrease") != NULL, "%s", kiln_last_error(ctx));
    CHECK(kiln_hash_batch(ctx, KILN_HASH_SHA3_256, msg, offsets, 0, out, 32) == KILN_OK, "empty batch");
    CHECK(kiln_hash_batch(ctx, KILN_HASH_SHA3_256, msg, NULL, 1, out, 32) == KILN_ERR_INPUT, "no offsets");
    CHECK(kiln_hash_batch(ctx, KILN_HASH_SHA3_256, msg, offsets, 1, out, 64) == KILN_ERR_INPUT, "digest size");
    CHECK(kiln_hash_batch_fixed(ctx, KILN_HASH_SHA3_256, NULL, 4, 2, out, 32) == KILN_ERR_INPUT, "no data");
    CHECK(kiln_hash_batch_fixed(ctx, KILN_HASH_SHA3_256, msg, SIZE_MAX / 2, 3, out, 32) == KILN_ERR_INPUT,
          "size overflow");

    /* permutation batch == one permutation at a time */
    enum { M = 300 };
    uint64_t *st = malloc(M * 200), *ref = malloc(M * 200);
    for (int i = 0; i < M * 25; i++) st[i] = ref[i] = test_rand(&seed);
    CHECK(kiln_keccak_f1600_batch(ctx, st, M, KILN_KECCAK_LAYOUT_LANE) == KILN_OK, "perm batch");
    for (int i = 0; i < M; i++) kiln_keccak_permute(ref + 25 * i);
    CHECK(memcmp(st, ref, M * 200) == 0, "perm batch differs");
    CHECK(kiln_keccak_f1600_batch(ctx, st, M, (kiln_keccak_layout)9) == KILN_ERR_INPUT, "bad layout");
    CHECK(kiln_keccak_f1600_batch(ctx, NULL, 1, KILN_KECCAK_LAYOUT_AUTO) == KILN_ERR_INPUT, "no states");
    kiln_keccak_layout l;
    CHECK(kiln_keccak_layout_from_name(ctx, "lane", &l) == KILN_OK && l == KILN_KECCAK_LAYOUT_LANE, "layout name");
    CHECK(kiln_keccak_layout_from_name(ctx, "warp", &l) == KILN_ERR_INPUT, "unknown layout");
    free(st);
    free(ref);
    kiln_ctx_free(ctx);
}

int main(void)
{
    split_points();
    front_end();
    cpu_batches();
    return check_summary();
}
