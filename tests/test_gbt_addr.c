/* Payout address decoding against the BIPs' own test vectors (BIP 173 bech32, BIP 350 bech32m and
 * segwit addresses, valid and invalid) and real addresses with known scriptPubKeys from
 * bitcoinjs-lib's test/fixtures/address.json (tests/data/bitcoinjs_address.json, commit 248789d2). */
#include <string.h>

#include "check.h"
#include "mine/node/addr.h"

static void hex(const uint8_t *b, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
    out[2 * n] = '\0';
}

/* BIP 173 "valid Bech32" and BIP 350 "valid Bech32m" strings (checksum level). */
static const char *const BECH32_VALID[] = {
    "A12UEL5L", "a12uel5l", "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs",
    "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw",
    "11qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqc8247j",
    "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w", "?1ezyfcl",
};
static const char *const BECH32M_VALID[] = {
    "A1LQFN3A", "a1lqfn3a", "an83characterlonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11sg7hg6",
    "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx",
    "11llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllludsr8",
    "split1checkupstagehandshakeupstreamerranterredcaperredlc445v", "?1v759aa",
};
/* BIP 173 and BIP 350 invalid strings (the 0x20/0x7f/0x80/0xff ones written with escapes). */
static const char *const BECH32_INVALID[] = {
    "\x20" "1nwldj5", "\x7f" "1axkwrx", "\x80" "1eym55h",
    "an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx", "pzry9x0s0muk",
    "1pzry9x0s0muk", "x1b4n0q5v", "li1dgmt3", "de1lg7wt\xff", "A1G7SGD8", "10a06t8", "1qzzfhee",
    "\x20" "1xj0phk", "\x7f" "1g6xzxy", "\x80" "1vctc34",
    "an84characterslonghumanreadablepartthatcontainsthetheexcludedcharactersbioandnumber11d6pts4", "qyrz8wqd2c9m",
    "1qyrz8wqd2c9m", "y1b0jsk6g", "lt1igcx5c0", "in1muywd", "mm1crxm3i", "au1s5cgom", "M1VUXWEZ", "16plkw9", "1p2gdwpf",
};

/* BIP 350 valid segwit addresses (BIP 173's v0 ones among them) and their scriptPubKeys. */
static const char *const SEGWIT_VALID[][2] = {
    {"BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "0014751e76e8199196d454941c45d1b3a323f1433bd6"},
    {"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
     "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262"},
    {"bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
     "5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6"},
    {"BC1SW50QGDZ25J", "6002751e"},
    {"bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "5210751e76e8199196d454941c45d1b3a323"},
    {"tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
     "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433"},
    {"tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
     "5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433"},
    {"bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
     "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"},
};
/* BIP 350 invalid segwit addresses, then BIP 173's (its v1+ bech32 ones are invalid under BIP 350). */
static const char *const SEGWIT_INVALID[] = {
    "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut",
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
    "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf",
    "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL",
    "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",
    "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47",
    "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4",
    "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R",
    "bc1pw5dgrnzv",
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav",
    "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",
    "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq",
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf",
    "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j",
    "bc1gmk9yu",
    "tc1qw508d6qejxtdg4y5r3zarvary0c5xw7kg3g4ty",
    "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
    "BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2",
    "bc1rw5uspcuh",
    "bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90",
    "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7",
    "bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du",
    "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3pjxtptv",
    /* BIP 173's v1/v2/v16 examples in bech32: valid then, wrong checksum kind now */
    "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx",
    "BC1SW50QA3JX3S",
    "bc1zw508d6qejxtdg4y5r3zarvaryvg6kdaj",
    /* bitcoinjs-lib address.json "invalid" entries */
    "tb1pw508d6qejxtdg4y5r3zarquvzkan", "bc1zw508d6qejxtdg4y5r3zarvaryvq37eag7", "7SeEnXWPaCCALbVrTnszCVGfRU8cGfx",
    "j9ywUkWg2fTQrouxxh5rSZhRvrjMkEUfuiKe", "24kPZCmVgzfkpGdXExy56234MRHrsqQxNWE", "bc1qqqqqqqqqqv9qus",
};

/* bitcoinjs-lib address.json "standard" (scripts written as hex here), with type, coin and network */
typedef struct real_addr {
    const char *addr, *script;
    addr_type type;
    int coin;
    const char *chain;
} real_addr;
static const real_addr REAL[] = {
    {"1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH", "76a914751e76e8199196d454941c45d1b3a323f1433bd688ac", ADDR_P2PKH, ADDR_BITCOIN, "main"},
    {"3LRW7jeCvQCRdPF8S3yUCfRAx4eqXFmdcr", "a914cd7b44d0b03f2d026d1e586d7ae18903b0d385f687", ADDR_P2SH, ADDR_BITCOIN, "main"},
    {"MCZjFcwYJwwYqXAbd3bbnxaCVGs81cp43Z", "a914332bdfb31f688c0be0137c7c038a6d0fea0de0b687", ADDR_P2SH, ADDR_LITECOIN, "main"},
    {"LUxXFcwXFPpRZdMv4aYu6bDwPdC2skQ5YW", "76a9146ac624143d19a3c91d2ac5605f0aebdfeac5b82688ac", ADDR_P2PKH, ADDR_LITECOIN,
     "main"},
    {"mrCDrCybB6J1vRfbwM5hemdJz73FwDBC8r", "76a914751e76e8199196d454941c45d1b3a323f1433bd688ac", ADDR_P2PKH, ADDR_BITCOIN, "test"},
    {"2NByiBUaEXrhmqAsg7BbLpcQSAQs1EDwt5w", "a914cd7b44d0b03f2d026d1e586d7ae18903b0d385f687", ADDR_P2SH, ADDR_BITCOIN, "regtest"},
    {"BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "0014751e76e8199196d454941c45d1b3a323f1433bd6", ADDR_P2WPKH, ADDR_BITCOIN,
     "main"},
    {"tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
     "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262", ADDR_P2WSH, ADDR_BITCOIN, "signet"},
    {"bcrt1qjh3dnrafy8f2zszh5sdqn6c3ycfljh930yza9nt72v30dkw8mlvscn82zx",
     "002095e2d98fa921d2a14057a41a09eb112613f95cb17905d2cd7e5322f6d9c7dfd9", ADDR_P2WSH, ADDR_BITCOIN, "regtest"},
    {"bcrt1qqqqqqqqqqqqqqahrwf6d62emdxmpq8gu3xe9au9fjwc9sxxn4k2qujfh7u",
     "0020000000000000000076e37274dd2b3b69b6101d1c89b25ef0a993b05818d3ad94", ADDR_P2WSH, ADDR_BITCOIN, "regtest"},
    {"bc1p3efq8ujsj0qr5xvms7mv89p8cz0crqdtuxe9ms6grqgxc9sgsntslthf6w",
     "51208e5203f25093c03a199b87b6c39427c09f8181abe1b25dc34818106c160884d7", ADDR_P2TR, ADDR_BITCOIN, "main"},
    {"tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
     "5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433", ADDR_P2TR, ADDR_BITCOIN, "testnet4"},
};

int main(void)
{
    char hrp[100], err[256], got[200];
    uint8_t data[100];
    size_t n;
    for (size_t i = 0; i < sizeof BECH32_VALID / sizeof *BECH32_VALID; i++)
        CHECK(bech32_decode(BECH32_VALID[i], hrp, sizeof hrp, data, &n, err, sizeof err) == 1, "%s: %s", BECH32_VALID[i], err);
    for (size_t i = 0; i < sizeof BECH32M_VALID / sizeof *BECH32M_VALID; i++)
        CHECK(bech32_decode(BECH32M_VALID[i], hrp, sizeof hrp, data, &n, err, sizeof err) == 2, "%s: %s", BECH32M_VALID[i], err);
    for (size_t i = 0; i < sizeof BECH32_INVALID / sizeof *BECH32_INVALID; i++)
        CHECK(bech32_decode(BECH32_INVALID[i], hrp, sizeof hrp, data, &n, err, sizeof err) == 0, "%s accepted", BECH32_INVALID[i]);

    addr_info a;
    for (size_t i = 0; i < sizeof SEGWIT_VALID / sizeof *SEGWIT_VALID; i++) {
        int r = addr_decode(SEGWIT_VALID[i][0], &a, err, sizeof err);
        CHECK(r == 0, "%s: %s", SEGWIT_VALID[i][0], err);
        if (r) continue;
        hex(a.script, a.script_len, got);
        CHECK_STR(got, SEGWIT_VALID[i][1]);
    }
    for (size_t i = 0; i < sizeof SEGWIT_INVALID / sizeof *SEGWIT_INVALID; i++) {
        err[0] = '\0';
        CHECK(addr_decode(SEGWIT_INVALID[i], &a, err, sizeof err) != 0, "%s accepted", SEGWIT_INVALID[i]);
        CHECK(err[0] != '\0', "%s: no reason", SEGWIT_INVALID[i]);
    }
    for (size_t i = 0; i < sizeof REAL / sizeof *REAL; i++) {
        const real_addr *r = &REAL[i];
        int rc = addr_payout(r->addr, r->coin, r->chain, &a, err, sizeof err);
        CHECK(rc == 0, "%s: %s", r->addr, err);
        if (rc) continue;
        hex(a.script, a.script_len, got);
        CHECK_STR(got, r->script);
        CHECK(a.type == r->type, "%s: type %s", r->addr, addr_type_name(a.type));
    }
    /* a base58 checksum error: the last character of a real address changed */
    CHECK(addr_decode("1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMJ", &a, err, sizeof err) != 0 && strstr(err, "checksum"), "%s", err);
    /* payout policy: the node's chain, the coin, and only the five types */
    CHECK(addr_payout("1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH", ADDR_BITCOIN, "regtest", &a, err, sizeof err) != 0 &&
              strstr(err, "regtest"), "%s", err);
    CHECK(addr_payout("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", ADDR_BITCOIN, "test", &a, err, sizeof err) != 0, "mainnet on test");
    CHECK(addr_payout("bcrt1qjh3dnrafy8f2zszh5sdqn6c3ycfljh930yza9nt72v30dkw8mlvscn82zx", ADDR_BITCOIN, "signet", &a, err,
                      sizeof err) != 0, "regtest on signet");
    CHECK(addr_payout("LUxXFcwXFPpRZdMv4aYu6bDwPdC2skQ5YW", ADDR_BITCOIN, "main", &a, err, sizeof err) != 0 &&
              strstr(err, "Bitcoin"), "%s", err);
    CHECK(addr_payout("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", ADDR_LITECOIN, NULL, &a, err, sizeof err) != 0, "btc as ltc");
    CHECK(addr_payout("bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", ADDR_BITCOIN, "main", &a, err, sizeof err) != 0 &&
              strstr(err, "segwit version 2"), "%s", err);
    CHECK(addr_payout("bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y", ADDR_BITCOIN, "main", &a,
                      err, sizeof err) != 0, "40-byte v1 is not P2TR");
    CHECK(addr_payout("", ADDR_BITCOIN, NULL, &a, err, sizeof err) != 0, "empty address");
    return check_summary();
}
