/* scrypt's pieces and the whole KDF against RFC 7914 (tests/data/rfc7914.json): Salsa20/8,
 * scryptBlockMix, scryptROMix, PBKDF2-HMAC-SHA256 and the four scrypt vectors (the 1 GiB one only
 * with KILN_LONG_TESTS=1), plus HMAC-SHA256 against RFC 4231. The KDF runs with one and with
 * several threads, alone and as a CPU batch. */
#include "check.h"
#include "json_lite.h"
#include "kiln.h"
#include "prim/hmac_sha256.h"
#include "prim/salsa.h"

static void words_from(const uint8_t *b, uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) w[i] = kiln_load_le32(b + 4 * i);
}

static void words_to(const uint32_t *w, uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_store_le32(b + 4 * i, w[i]);
}

static void hex(const uint8_t *b, size_t n, char *out) { kiln_hex_encode(b, n, 0, out); }

static void test_pieces(const char *doc)
{
    jspan arr, o;
    uint8_t in[128], got[128];
    uint32_t X[32], Y[32], V[32 * 16];
    char s[600], h[600];

    CHECK(json_array(doc, "salsa20_8_core", &arr) == 0 && json_next(&arr, &o) == 0, "salsa vector");
    json_str(o, "input", s, sizeof s);
    CHECK(json_unhex(s, in, sizeof in) == 64, "salsa input");
    json_str(o, "output", s, sizeof s);
    words_from(in, X, 16);
    kiln_salsa20_8(X);
    words_to(X, got, 16);
    hex(got, 64, h);
    CHECK_STR(h, s);

    CHECK(json_array(doc, "scrypt_blockmix_salsa8", &arr) == 0 && json_next(&arr, &o) == 0, "blockmix vector");
    json_str(o, "input", s, sizeof s);
    CHECK(json_unhex(s, in, sizeof in) == 128, "blockmix input");
    json_str(o, "output", s, sizeof s);
    words_from(in, X, 32);
    kiln_scrypt_blockmix(X, Y, 1);
    words_to(Y, got, 32);
    hex(got, 128, h);
    CHECK_STR(h, s);

    uint64_t N = 0;
    CHECK(json_array(doc, "scrypt_romix", &arr) == 0 && json_next(&arr, &o) == 0, "romix vector");
    CHECK(json_u64(o, "N", &N) == 0 && N == 16, "romix N");
    json_str(o, "input", s, sizeof s);
    CHECK(json_unhex(s, in, sizeof in) == 128, "romix input");
    json_str(o, "output", s, sizeof s);
    words_from(in, X, 32);
    kiln_scrypt_romix(X, V, Y, N, 1);
    words_to(X, got, 32);
    hex(got, 128, h);
    CHECK_STR(h, s);

    int n = 0;
    CHECK(json_array(doc, "pbkdf2_hmac_sha256", &arr) == 0, "pbkdf2 vectors");
    while (json_next(&arr, &o) == 0) {
        char pw[64], salt[64];
        uint64_t c = 0, len = 0;
        json_str(o, "password", pw, sizeof pw);
        json_str(o, "salt", salt, sizeof salt);
        json_u64(o, "c", &c);
        json_u64(o, "dkLen", &len);
        json_str(o, "output", s, sizeof s);
        CHECK(kiln_pbkdf2_sha256(NULL, pw, strlen(pw), salt, strlen(salt), c, got, len) == KILN_OK, "pbkdf2 %d", n);
        hex(got, len, h);
        CHECK_STR(h, s);
        n++;
    }
    CHECK(n == 2, "two PBKDF2 vectors, got %d", n);

    /* a long output over a long salt, as scrypt's last PBKDF2 makes it (kiln hashes the salt once
     * and polls between blocks): blocks 1001 and the last against Python's
     * hashlib.pbkdf2_hmac("sha256", b"pw", bytes(i % 251 for i in range(300)), 3, 100000) */
    uint8_t salt[300], *big = malloc(100000);
    for (int i = 0; i < 300; i++) salt[i] = (uint8_t)(i % 251);
    CHECK(big && kiln_pbkdf2_sha256(NULL, "pw", 2, salt, sizeof salt, 3, big, 100000) == KILN_OK, "long pbkdf2");
    if (big) {
        hex(big + 32 * 1000, 32, h);
        CHECK_STR(h, "61f0da8a34c9b67596b3934473726cccf12d17e7680ccb96958aef8cc3f1e479");
        hex(big + 100000 - 32, 32, h);
        CHECK_STR(h, "2f82548158992baeee1c014ecbff3fa91e8cdce97e24864544195b5726bcfee3");
    }
    free(big);
}

static void test_hmac(void)
{
    /* RFC 4231 test cases 1, 2 and 6 (a key longer than one block) */
    uint8_t k1[20], k6[131], mac[32];
    char h[65];
    memset(k1, 0x0b, sizeof k1);
    memset(k6, 0xaa, sizeof k6);
    kiln_hmac_sha256(k1, sizeof k1, "Hi There", 8, mac);
    hex(mac, 32, h);
    CHECK_STR(h, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    kiln_hmac_sha256("Jefe", 4, "what do ya want for nothing?", 28, mac);
    hex(mac, 32, h);
    CHECK_STR(h, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    const char *m6 = "Test Using Larger Than Block-Size Key - Hash Key First";
    kiln_hmac_sha256(k6, sizeof k6, m6, strlen(m6), mac);
    hex(mac, 32, h);
    CHECK_STR(h, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

static void test_scrypt(const char *doc)
{
    jspan arr, o;
    int long_tests = getenv("KILN_LONG_TESTS") && strcmp(getenv("KILN_LONG_TESTS"), "1") == 0, n = 0;
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(json_array(doc, "scrypt", &arr) == 0, "scrypt vectors");
    while (json_next(&arr, &o) == 0) {
        char pw[64], salt[64], want[300], h[300], name[64];
        uint64_t N = 0, r = 0, p = 0, len = 0;
        uint8_t out[128];
        json_str(o, "section", name, sizeof name);
        json_str(o, "password", pw, sizeof pw);
        json_str(o, "salt", salt, sizeof salt);
        json_u64(o, "N", &N);
        json_u64(o, "r", &r);
        json_u64(o, "p", &p);
        json_u64(o, "dkLen", &len);
        json_str(o, "output", want, sizeof want);
        n++;
        if (json_true(o, "large") && !long_tests) {
            printf("skipped (long test, set KILN_LONG_TESTS=1): %s, N=%llu r=%llu p=%llu, 1 GiB\n", name,
                   (unsigned long long)N, (unsigned long long)r, (unsigned long long)p);
            continue;
        }
        kiln_scrypt_params sp = {N, (uint32_t)r, (uint32_t)p};
        for (int threads = 1; threads <= 3; threads += 2) {
            kiln_ctx_set_threads(ctx, threads);
            memset(out, 0, sizeof out);
            kiln_status st = kiln_scrypt(ctx, pw, strlen(pw), salt, strlen(salt), sp, out, len);
            CHECK(st == KILN_OK, "%s: %s", name, kiln_last_error(ctx));
            hex(out, len, h);
            CHECK(strcmp(h, want) == 0, "%s with %d threads: got %s", name, threads, h);
        }
        if (N > 16384) continue;
        /* as a CPU batch: the vector three times among other items, every copy equal */
        kiln_scrypt_input in[5];
        uint8_t bout[5 * 64];
        for (int i = 0; i < 5; i++) {
            in[i].password = i % 2 ? "other" : pw;
            in[i].password_len = i % 2 ? 5 : strlen(pw);
            in[i].salt = salt;
            in[i].salt_len = strlen(salt);
        }
        kiln_ctx_set_threads(ctx, 2);
        CHECK(kiln_scrypt_batch(ctx, in, 5, sp, bout, 64) == KILN_OK, "%s batch: %s", name, kiln_last_error(ctx));
        for (int i = 0; i < 5; i += 2) {
            hex(bout + 64 * i, 64, h);
            CHECK(strcmp(h, want) == 0, "%s batch item %d", name, i);
        }
        CHECK(memcmp(bout + 64, bout + 192, 64) == 0 && memcmp(bout + 64, bout, 64) != 0, "%s batch others", name);
    }
    CHECK(n == 4, "four scrypt vectors, got %d", n);
    kiln_ctx_free(ctx);
}

int main(void)
{
    char *doc = json_load(test_data("rfc7914.json"));
    CHECK(doc != NULL, "read %s", test_data("rfc7914.json"));
    if (!doc) return check_summary();
    test_pieces(doc);
    test_hmac();
    test_scrypt(doc);
    free(doc);
    return check_summary();
}
