/* SHA-256 against FIPS 180-4's examples and, for every message length 0..300 plus random
 * streaming splits, against OpenSSL (an independent implementation, used only here). */
#include <openssl/sha.h>

#include "check.h"
#include "kiln.h"

static void hex_of(const uint8_t d[32], char out[65]) { kiln_hex_encode(d, 32, 0, out); }

int main(void)
{
    /* FIPS 180-4 / NIST CSRC "SHA_All" examples */
    static const struct {
        const char *msg;
        const char *digest;
    } fips[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstno"
         "pqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    };
    char hex[65];
    uint8_t d[32], ref[32];
    for (size_t i = 0; i < sizeof fips / sizeof fips[0]; i++) {
        kiln_sha256(fips[i].msg, strlen(fips[i].msg), d);
        hex_of(d, hex);
        CHECK_STR(hex, fips[i].digest);
    }
    /* one million 'a' (FIPS 180-2 appendix B.3), streamed in uneven pieces */
    kiln_sha256_stream s;
    kiln_sha256_init(&s);
    static uint8_t as[1000];
    memset(as, 'a', sizeof as);
    for (int left = 1000000; left > 0;) {
        int n = left < 997 ? left : 997;
        kiln_sha256_update(&s, as, (size_t)n);
        left -= n;
    }
    kiln_sha256_final(&s, d);
    hex_of(d, hex);
    CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");

    printf("sha256 implementation: %s\n", kiln_sha256_impl());
    unsigned long long seed = 20261121;
    uint8_t msg[300];
    for (size_t len = 0; len <= 300; len++) {
        for (size_t i = 0; i < len; i++) msg[i] = (uint8_t)test_rand(&seed);
        SHA256(msg, len, ref);
        kiln_sha256(msg, len, d);
        CHECK(memcmp(d, ref, 32) == 0, "one-shot length %zu", len);
        /* the same message in three random pieces */
        size_t a = len ? (size_t)(test_rand(&seed) % (len + 1)) : 0;
        size_t b = a + (len - a ? (size_t)(test_rand(&seed) % (len - a + 1)) : 0);
        kiln_sha256_init(&s);
        kiln_sha256_update(&s, msg, a);
        kiln_sha256_update(&s, msg + a, b - a);
        kiln_sha256_update(&s, msg + b, len - b);
        kiln_sha256_final(&s, d);
        CHECK(memcmp(d, ref, 32) == 0, "streamed length %zu split %zu/%zu", len, a, b);
        /* sha256d = SHA256(SHA256(m)) */
        uint8_t once[32];
        SHA256(msg, len, once);
        SHA256(once, 32, ref);
        kiln_sha256d(msg, len, d);
        CHECK(memcmp(d, ref, 32) == 0, "sha256d length %zu", len);
    }
    return check_summary();
}
