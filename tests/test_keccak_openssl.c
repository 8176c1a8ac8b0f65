/* SHA3-* and SHAKE* against an independent implementation, OpenSSL's EVP digests, over random
 * messages of every length up to a few blocks and random SHAKE output lengths. */
#include <openssl/evp.h>

#include "check.h"
#include "kiln.h"

static void compare(const char *evp_name, kiln_hash_algo algo, int xof)
{
    const EVP_MD *md = EVP_get_digestbyname(evp_name);
    CHECK(md != NULL, "OpenSSL lacks %s", evp_name);
    if (!md) return;
    unsigned long long seed = 0x6f70656e73736cull ^ (unsigned long long)algo;
    static uint8_t msg[700];
    for (size_t i = 0; i < sizeof msg; i++) msg[i] = (uint8_t)test_rand(&seed);
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    int bad = 0;
    for (size_t len = 0; len < sizeof msg; len++) {
        size_t outlen = xof ? 1 + (size_t)(test_rand(&seed) % 500) : kiln_hash_digest_len(algo);
        uint8_t want[512], got[512];
        unsigned int n = 0;
        EVP_DigestInit_ex(c, md, NULL);
        EVP_DigestUpdate(c, msg, len);
        if (xof) EVP_DigestFinalXOF(c, want, outlen);
        else EVP_DigestFinal_ex(c, want, &n);
        kiln_hash(algo, msg, len, got, outlen);
        bad += memcmp(want, got, outlen) != 0;
    }
    CHECK(bad == 0, "%s: %d of %zu lengths differ from OpenSSL", evp_name, bad, sizeof msg);
    EVP_MD_CTX_free(c);
}

int main(void)
{
    compare("SHA3-224", KILN_HASH_SHA3_224, 0);
    compare("SHA3-256", KILN_HASH_SHA3_256, 0);
    compare("SHA3-384", KILN_HASH_SHA3_384, 0);
    compare("SHA3-512", KILN_HASH_SHA3_512, 0);
    compare("SHAKE128", KILN_HASH_SHAKE128, 1);
    compare("SHAKE256", KILN_HASH_SHAKE256, 1);
    return check_summary();
}
