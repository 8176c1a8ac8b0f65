/* Payout addresses for solo mining: base58check (P2PKH, P2SH) and segwit (BIP 173 bech32 for
 * version 0, BIP 350 bech32m for versions 1+) decoded to the scriptPubKey the coinbase pays, with
 * the network the prefix names, so a mainnet address is refused by a regtest node. */
#ifndef KILN_SOLO_ADDR_H
#define KILN_SOLO_ADDR_H

#include <stddef.h>
#include <stdint.h>

typedef enum addr_type {
    ADDR_P2PKH,
    ADDR_P2SH,
    ADDR_P2WPKH,
    ADDR_P2WSH,
    ADDR_P2TR,
    ADDR_WITNESS_OTHER, /* a valid segwit address of another version or length (BIP 350) */
} addr_type;

/* networks an address prefix can mean (base58 prefixes are shared by testnet, signet, regtest) */
enum { ADDR_MAIN = 1, ADDR_TEST = 2, ADDR_SIGNET = 4, ADDR_REGTEST = 8 };
enum { ADDR_BITCOIN = 0, ADDR_LITECOIN = 1 };

#define ADDR_SCRIPT_MAX 42 /* OP_n, push, 40-byte program */

typedef struct addr_info {
    addr_type type;
    unsigned nets[2]; /* per coin (ADDR_BITCOIN, ADDR_LITECOIN): the ADDR_MAIN... networks it can be of */
    uint8_t script[ADDR_SCRIPT_MAX];
    size_t script_len;
} addr_info;

/* Bech32 string decoding (BIP 173 / BIP 350): hrp (lowercased, hrp_max bytes with its NUL) and
 * the 5-bit data values without the checksum. Returns 1 for bech32, 2 for bech32m, 0 when the
 * string is neither (why in err). */
int bech32_decode(const char *s, char *hrp, size_t hrp_max, uint8_t *data, size_t *data_len, char *err, size_t errlen);

/* Any address of the networks above: 0, or -1 with the reason in err. */
int addr_decode(const char *s, addr_info *out, char *err, size_t errlen);
const char *addr_type_name(addr_type t);
/* An address kiln pays a coinbase to: one of the five types, of `coin`, and (chain not NULL, as
 * getblockchaininfo names it: main, test, testnet4, signet, regtest) of the node's network. */
int addr_payout(const char *s, int coin, const char *chain, addr_info *out, char *err, size_t errlen);

#endif
