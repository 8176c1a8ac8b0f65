/* The payout address decoder over any string: an accepted address gives one of the scriptPubKey
 * shapes of its type (base58: P2PKH 25 bytes, P2SH 23; segwit: OP_n, a push of 2..40 bytes, 20 or
 * 32 for version 0), bech32 ones decode the same in upper case, and a refusal says why. */
#include "fuzz_util.h"

#include <ctype.h>

#include "mine/node/addr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstr(data, size);
    addr_info a, b;
    char err[256] = "";
    if (addr_decode(text, &a, err, sizeof err) == 0) {
        const uint8_t *s = a.script;
        FUZZ_CHECK(a.nets[0] || a.nets[1]);
        switch (a.type) {
        case ADDR_P2PKH: FUZZ_CHECK(a.script_len == 25 && s[0] == 0x76 && s[1] == 0xa9 && s[2] == 20); break;
        case ADDR_P2SH: FUZZ_CHECK(a.script_len == 23 && s[0] == 0xa9 && s[1] == 20 && s[22] == 0x87); break;
        case ADDR_P2WPKH: FUZZ_CHECK(a.script_len == 22 && s[0] == 0 && s[1] == 20); break;
        case ADDR_P2WSH: FUZZ_CHECK(a.script_len == 34 && s[0] == 0 && s[1] == 32); break;
        case ADDR_P2TR: FUZZ_CHECK(a.script_len == 34 && s[0] == 0x51 && s[1] == 32); break;
        default:
            FUZZ_CHECK(s[0] >= 0x51 && s[0] <= 0x60 && s[1] >= 2 && s[1] <= 40 && a.script_len == (size_t)s[1] + 2);
        }
        if (a.type >= ADDR_P2WPKH) {
            for (char *p = text; *p; p++) *p = (char)toupper((unsigned char)*p);
            FUZZ_CHECK(addr_decode(text, &b, err, sizeof err) == 0 && b.script_len == a.script_len &&
                       memcmp(a.script, b.script, a.script_len) == 0);
        }
        (void)addr_payout(text, ADDR_BITCOIN, "regtest", &b, err, sizeof err);
    } else {
        FUZZ_CHECK(err[0] != '\0');
    }
    char hrp[100];
    uint8_t d[100];
    size_t n = 0;
    int enc = bech32_decode(text, hrp, sizeof hrp, d, &n, err, sizeof err);
    FUZZ_CHECK(enc >= 0 && enc <= 2);
    if (enc) FUZZ_CHECK(n <= 90 && strlen(hrp) >= 1);
    free(text);
    return 0;
}
