/* A getblocktemplate result (BIP 22, BIP 23, BIP 9 version bits, BIP 141 commitment) parsed and
 * checked: every transaction's data must parse and hash to the txid and hash the node gives, so
 * a block built from the template carries exactly the transactions the node chose. */
#ifndef KILN_SOLO_GBT_H
#define KILN_SOLO_GBT_H

#include <stddef.h>
#include <stdint.h>

#include "kiln.h"

#define GBT_LONGPOLL_MAX 256
#define GBT_AUX_MAX 75

typedef struct gbt_tx {
    const uint8_t *data; /* into gbt_template.txdata */
    size_t len;
} gbt_tx;

typedef struct gbt_template {
    uint32_t version;
    uint8_t prev[32]; /* raw (internal) byte order, as in the header */
    uint32_t bits;
    uint8_t target[32]; /* kiln's target layout (little-endian number) */
    int64_t height;
    uint32_t curtime, mintime;
    int64_t coinbasevalue;
    uint32_t nonce_lo, nonce_hi; /* noncerange, inclusive */
    int time_mutable; /* "time" in mutable (or no mutable list): ntime may move forward */
    int segwit; /* "segwit" among the rules: the block needs a witness commitment */
    size_t ntx;
    gbt_tx *tx;
    uint8_t *txids, *wtxids; /* ntx * 32 raw bytes each */
    uint8_t *txdata; /* all transactions, serialized one after another */
    size_t txdata_len;
    uint8_t commit[64]; /* default_witness_commitment's script, when given */
    size_t commit_len;
    uint8_t aux[GBT_AUX_MAX]; /* coinbaseaux values, concatenated */
    size_t aux_len;
    char longpollid[GBT_LONGPOLL_MAX]; /* "" when the node offers no longpoll */
    char workid[GBT_LONGPOLL_MAX]; /* BIP 22 workid, sent back with submitblock; "" for none */
    char rules[256]; /* the rules, comma separated, for the log */
} gbt_template;

/* Parses the result object of getblocktemplate (JSON text). 0, or -1 with a message naming the
 * field in err. On success free with gbt_free. */
int gbt_parse(const char *json, size_t len, gbt_template *t, char *err, size_t errlen);
void gbt_free(gbt_template *t);

#endif
