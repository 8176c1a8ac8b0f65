/* MD5's known answers: RFC 1321's test suite (appendix A.5, the seven messages and their digests,
 * quoted here as facts), through the one-shot helper, the stream fed a byte at a time and in two
 * pieces, and the hashing front end (kiln_hash). */
#include <string.h>

#include "check.h"
#include "hash/md5_host.h"
#include "kiln.h"

int main(void)
{
    static const struct {
        const char *msg, *digest;
    } suite[] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_hash_algo md5 = (kiln_hash_algo)0;
    CHECK(kiln_hash_algo_from_name(ctx, "md5", &md5) == KILN_OK, "md5 is a hash algorithm");
    CHECK(kiln_hash_digest_len(md5) == 16 && kiln_hash_block_len(md5) == 64, "md5 sizes");
    for (size_t i = 0; i < sizeof suite / sizeof suite[0]; i++) {
        const char *m = suite[i].msg;
        size_t len = strlen(m);
        uint8_t d[16];
        char hex[33];
        kiln_md5(m, len, d);
        kiln_hex_encode(d, 16, 0, hex);
        CHECK_STR(hex, suite[i].digest);

        kiln_md5_ctx c;
        kiln_md5_init(&c);
        for (size_t k = 0; k < len; k++) kiln_md5_update(&c, m + k, 1);
        memset(d, 0, sizeof d);
        kiln_md5_final(&c, d);
        kiln_hex_encode(d, 16, 0, hex);
        CHECK_STR(hex, suite[i].digest);

        kiln_md5_init(&c);
        kiln_md5_update(&c, m, len / 3);
        kiln_md5_update(&c, m + len / 3, len - len / 3);
        memset(d, 0, sizeof d);
        kiln_md5_final(&c, d);
        kiln_hex_encode(d, 16, 0, hex);
        CHECK_STR(hex, suite[i].digest);

        memset(d, 0, sizeof d);
        CHECK(kiln_hash(md5, m, len, d, 16) == KILN_OK, "kiln_hash md5");
        kiln_hex_encode(d, 16, 0, hex);
        CHECK_STR(hex, suite[i].digest);
    }
    kiln_ctx_free(ctx);
    return check_summary();
}
