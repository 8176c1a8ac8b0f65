#include "addr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "kiln.h"

static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- bech32 / bech32m (BIP 173, BIP 350) */

static const char CHARSET[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
#define BECH32_CONST 1u
#define BECH32M_CONST 0x2bc830a3u

static uint32_t polymod_step(uint32_t c, uint8_t v)
{
    static const uint32_t gen[5] = {0x3b6a57b2u, 0x26508e6du, 0x1ea119fau, 0x3d4233ddu, 0x2a1462b3u};
    uint32_t top = c >> 25;
    c = (c & 0x1ffffffu) << 5 ^ v;
    for (int i = 0; i < 5; i++)
        if (top >> i & 1) c ^= gen[i];
    return c;
}

int bech32_decode(const char *s, char *hrp, size_t hrp_max, uint8_t *data, size_t *data_len, char *err, size_t errlen)
{
    size_t len = strlen(s);
    if (len > 90) return fail(err, errlen, "longer than 90 characters"), 0;
    int lower = 0, upper = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch < 33 || ch > 126) return fail(err, errlen, "character %zu out of range", i), 0;
        lower |= ch >= 'a' && ch <= 'z';
        upper |= ch >= 'A' && ch <= 'Z';
    }
    if (lower && upper) return fail(err, errlen, "mixed case"), 0;
    const char *sep = strrchr(s, '1');
    if (!sep) return fail(err, errlen, "no separator '1'"), 0;
    size_t hlen = (size_t)(sep - s), dlen = len - hlen - 1;
    if (hlen == 0) return fail(err, errlen, "empty human-readable part"), 0;
    if (dlen < 6) return fail(err, errlen, "checksum too short"), 0;
    if (hlen + 1 > hrp_max) return fail(err, errlen, "human-readable part too long"), 0;
    uint32_t c = 1;
    for (size_t i = 0; i < hlen; i++) {
        char ch = s[i];
        if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        hrp[i] = ch;
        c = polymod_step(c, (uint8_t)((unsigned char)ch >> 5));
    }
    hrp[hlen] = '\0';
    c = polymod_step(c, 0);
    for (size_t i = 0; i < hlen; i++) c = polymod_step(c, (uint8_t)(hrp[i] & 31));
    for (size_t i = 0; i < dlen; i++) {
        char ch = sep[1 + i];
        if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
        const char *p = strchr(CHARSET, ch);
        if (!p || !ch) return fail(err, errlen, "invalid data character '%c'", sep[1 + i]), 0;
        uint8_t v = (uint8_t)(p - CHARSET);
        c = polymod_step(c, v);
        if (i < dlen - 6) data[i] = v;
    }
    *data_len = dlen - 6;
    if (c == BECH32_CONST) return 1;
    if (c == BECH32M_CONST) return 2;
    return fail(err, errlen, "bad checksum"), 0;
}

/* 5-bit groups to bytes; the padding must be under 5 bits and zero (BIP 173). */
static int from5(const uint8_t *in, size_t n, uint8_t *out, size_t cap, size_t *outlen)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        acc = acc << 5 | in[i];
        bits += 5;
        if (bits >= 8) {
            bits -= 8;
            if (o == cap) return -1;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    if (bits >= 5 || (acc & ((1u << bits) - 1))) return -1;
    *outlen = o;
    return 0;
}

/* ---- base58check */

static int base58check(const char *s, uint8_t *out, size_t *outlen, char *err, size_t errlen)
{
    static const char ALPHA[] = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    uint8_t buf[40] = {0}; /* big-endian number */
    size_t len = strlen(s), zeros = 0;
    if (len == 0 || len > 50) return fail(err, errlen, "not an address (length %zu)", len);
    while (s[zeros] == '1') zeros++;
    for (size_t i = 0; i < len; i++) {
        const char *p = s[i] ? strchr(ALPHA, s[i]) : NULL;
        if (!p) return fail(err, errlen, "invalid base58 character '%c'", s[i]);
        uint32_t carry = (uint32_t)(p - ALPHA);
        for (size_t k = sizeof buf; k-- > 0;) {
            carry += 58u * buf[k];
            buf[k] = (uint8_t)carry;
            carry >>= 8;
        }
        if (carry) return fail(err, errlen, "base58 value too long");
    }
    size_t lead = 0;
    while (lead < sizeof buf && buf[lead] == 0) lead++;
    size_t n = zeros + sizeof buf - lead;
    if (n != 25) return fail(err, errlen, "base58 payload is %zu bytes, an address has 25", n);
    memset(out, 0, zeros);
    memcpy(out + zeros, buf + lead, sizeof buf - lead);
    uint8_t h[32];
    kiln_sha256d(out, 21, h);
    if (memcmp(h, out + 21, 4) != 0) return fail(err, errlen, "bad base58check checksum");
    *outlen = 21;
    return 0;
}

/* ---- networks */

typedef struct net_row {
    int coin;
    unsigned nets;
    const char *hrp;
    int p2pkh, p2sh, p2sh_old; /* base58 version bytes (-1: none) */
} net_row;

static const net_row NETS[] = {
    {ADDR_BITCOIN, ADDR_MAIN, "bc", 0x00, 0x05, -1},
    {ADDR_BITCOIN, ADDR_TEST | ADDR_SIGNET, "tb", 0x6f, 0xc4, -1},
    {ADDR_BITCOIN, ADDR_REGTEST, "bcrt", 0x6f, 0xc4, -1},
    {ADDR_LITECOIN, ADDR_MAIN, "ltc", 0x30, 0x32, 0x05},
    {ADDR_LITECOIN, ADDR_TEST, "tltc", 0x6f, 0x3a, 0xc4},
    {ADDR_LITECOIN, ADDR_REGTEST, "rltc", 0x6f, 0x3a, 0xc4},
};
#define NNETS (sizeof NETS / sizeof NETS[0])

static int segwit(const char *s, addr_info *out, char *err, size_t errlen)
{
    char hrp[84];
    uint8_t d[90], prog[64];
    size_t dn = 0, pn = 0;
    char why[96];
    int enc = bech32_decode(s, hrp, sizeof hrp, d, &dn, why, sizeof why);
    if (!enc) return fail(err, errlen, "not a valid bech32 address: %s", why);
    const net_row *row = NULL;
    for (size_t i = 0; i < NNETS && !row; i++)
        if (strcmp(NETS[i].hrp, hrp) == 0) row = &NETS[i];
    if (!row) return fail(err, errlen, "unknown address prefix '%s1'", hrp);
    if (dn < 1) return fail(err, errlen, "empty segwit data");
    unsigned ver = d[0];
    if (ver > 16) return fail(err, errlen, "witness version %u is above 16", ver);
    if (from5(d + 1, dn - 1, prog, sizeof prog, &pn) != 0) return fail(err, errlen, "bad padding in the witness program");
    if (pn < 2 || pn > 40) return fail(err, errlen, "witness program of %zu bytes (2..40)", pn);
    if (ver == 0 && pn != 20 && pn != 32) return fail(err, errlen, "version 0 witness program of %zu bytes (20 or 32)", pn);
    if ((ver == 0) != (enc == 1))
        return fail(err, errlen, "witness version %u needs the %s checksum", ver, ver == 0 ? "bech32" : "bech32m");
    out->nets[row->coin] = row->nets;
    out->type = ver == 0 ? (pn == 20 ? ADDR_P2WPKH : ADDR_P2WSH) : ver == 1 && pn == 32 ? ADDR_P2TR : ADDR_WITNESS_OTHER;
    out->script[0] = (uint8_t)(ver ? 0x50 + ver : 0);
    out->script[1] = (uint8_t)pn;
    memcpy(out->script + 2, prog, pn);
    out->script_len = pn + 2;
    return 0;
}

int addr_decode(const char *s, addr_info *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    /* a bech32 address has a '1' after a known prefix; base58 never has a lowercase l or 0 */
    const char *sep = strrchr(s, '1');
    if (sep && sep != s) {
        size_t h = (size_t)(sep - s);
        for (size_t i = 0; i < NNETS; i++)
            if (strlen(NETS[i].hrp) == h && strncasecmp(s, NETS[i].hrp, h) == 0) return segwit(s, out, err, errlen);
        if (strchr(s, '0') || strchr(s, 'l') || strchr(s, 'O') || strchr(s, 'I')) return segwit(s, out, err, errlen);
    }
    uint8_t raw[25];
    size_t n = 0;
    if (base58check(s, raw, &n, err, errlen) != 0) return -1;
    int v = raw[0];
    for (size_t i = 0; i < NNETS; i++) {
        const net_row *r = &NETS[i];
        if (v != r->p2pkh && v != r->p2sh && v != r->p2sh_old) continue;
        out->nets[r->coin] |= r->nets; /* the first match sets the type; every match adds its networks */
        if (out->script_len) continue;
        if (v == r->p2pkh) {
            out->type = ADDR_P2PKH;
            memcpy(out->script, "\x76\xa9\x14", 3);
            memcpy(out->script + 3, raw + 1, 20);
            memcpy(out->script + 23, "\x88\xac", 2);
            out->script_len = 25;
        } else {
            out->type = ADDR_P2SH;
            memcpy(out->script, "\xa9\x14", 2);
            memcpy(out->script + 2, raw + 1, 20);
            out->script[22] = 0x87;
            out->script_len = 23;
        }
    }
    if (!out->script_len) return fail(err, errlen, "unknown address version byte 0x%02x", v);
    return 0;
}

const char *addr_type_name(addr_type t)
{
    switch (t) {
    case ADDR_P2PKH: return "p2pkh";
    case ADDR_P2SH: return "p2sh";
    case ADDR_P2WPKH: return "p2wpkh";
    case ADDR_P2WSH: return "p2wsh";
    case ADDR_P2TR: return "p2tr";
    default: return "witness";
    }
}

static unsigned chain_bits(const char *chain)
{
    if (strcmp(chain, "main") == 0) return ADDR_MAIN;
    if (strcmp(chain, "test") == 0 || strcmp(chain, "testnet4") == 0) return ADDR_TEST;
    if (strcmp(chain, "signet") == 0) return ADDR_SIGNET;
    if (strcmp(chain, "regtest") == 0) return ADDR_REGTEST;
    return 0;
}

int addr_payout(const char *s, int coin, const char *chain, addr_info *out, char *err, size_t errlen)
{
    char why[128];
    if (addr_decode(s, out, why, sizeof why) != 0) return fail(err, errlen, "bad --coinbase-addr '%s': %s", s, why);
    if (out->type == ADDR_WITNESS_OTHER)
        return fail(err, errlen, "--coinbase-addr '%s' is a segwit version %d address of %zu bytes: kiln pays only "
                    "P2PKH, P2SH, P2WPKH, P2WSH and P2TR", s, out->script[0] ? out->script[0] - 0x50 : 0, out->script_len - 2);
    /* base58 version bytes shared by the two coins (0x6f, 0xc4, 0x05) count for either */
    if (!out->nets[coin])
        return fail(err, errlen, "--coinbase-addr '%s' is not a %s address", s, coin == ADDR_LITECOIN ? "Litecoin" : "Bitcoin");
    if (chain) {
        unsigned want = chain_bits(chain);
        if (want && !(out->nets[coin] & want))
            return fail(err, errlen, "--coinbase-addr '%s' is not an address of the node's chain '%s'", s, chain);
    }
    return 0;
}
