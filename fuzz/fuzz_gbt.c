/* The getblocktemplate parser over any bytes (JSON from the node). An accepted template has a
 * nonzero target, a nonempty nonce range, transactions whose data hash to their wtxids and lie
 * end to end, and a block built from it (kiln's coinbase, the Merkle root from the branch) parses
 * with the library's block parser to the same transactions, its root the tree of their txids. */
#include "fuzz_util.h"

#include "mine/node/coinbase.h"
#include "mine/node/gbt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gbt_template t;
    char err[600] = "";
    if (gbt_parse((const char *)data, size, &t, err, sizeof err) != 0) {
        FUZZ_CHECK(strncmp(err, "bad template: ", 14) == 0);
        return 0;
    }
    static const uint8_t zero[32];
    FUZZ_CHECK(memcmp(t.target, zero, 32) != 0 && t.nonce_lo <= t.nonce_hi);
    size_t off = 0;
    for (size_t i = 0; i < t.ntx; i++) {
        uint8_t w[32];
        FUZZ_CHECK(t.tx[i].data == t.txdata + off);
        kiln_sha256d(t.tx[i].data, t.tx[i].len, w);
        FUZZ_CHECK(memcmp(w, t.wtxids + 32 * i, 32) == 0);
        off += t.tx[i].len;
    }
    FUZZ_CHECK(off == t.txdata_len);
    uint8_t commit[38], branch[32 * MERKLE_BRANCH_MAX], txid[32];
    static const uint8_t payout[22] = {0x00, 0x14};
    int count = 0;
    FUZZ_CHECK(witness_commitment(t.wtxids, t.ntx, zero, commit) == 0);
    FUZZ_CHECK(merkle_branch0(t.txids, t.ntx, branch, &count) == 0);
    FUZZ_CHECK(count == kiln_merkle_levels(t.ntx + 1) - 1);
    cb_params p = {t.height, t.aux, t.aux_len, 42, payout, sizeof payout, t.coinbasevalue,
                   t.commit_len ? t.commit : commit, t.commit_len ? t.commit_len : sizeof commit};
    uint8_t cb[CB_MAX], legacy[CB_MAX];
    size_t cl = coinbase_build(&p, 1, cb, sizeof cb), ll = coinbase_build(&p, 0, legacy, sizeof legacy);
    FUZZ_CHECK(cl > 0 && ll > 0);
    kiln_sha256d(legacy, ll, txid);
    if (t.txdata_len + cl + 100 < 4000000) {
        uint8_t cnt[9];
        size_t cn = put_compact(cnt, t.ntx + 1), bl = 80 + cn + cl + t.txdata_len;
        uint8_t *blk = malloc(bl);
        FUZZ_CHECK(blk != NULL);
        memset(blk, 0, 80);
        merkle_root_from_branch(txid, branch, count, blk + 36);
        memcpy(blk + 80, cnt, cn);
        memcpy(blk + 80 + cn, cb, cl);
        memcpy(blk + 80 + cn + cl, t.txdata, t.txdata_len);
        kiln_block b;
        FUZZ_CHECK(kiln_block_parse(fuzz_ctx(), blk, bl, &b) == KILN_OK);
        FUZZ_CHECK(b.n_tx == t.ntx + 1 && memcmp(b.txids, txid, 32) == 0 &&
                   memcmp(b.txids + 32, t.txids, 32 * t.ntx) == 0);
        uint8_t root[32];
        FUZZ_CHECK(kiln_merkle_build(fuzz_ctx(), KILN_MERKLE_SHA256D, b.txids, b.n_tx, NULL, root, NULL) == KILN_OK);
        FUZZ_CHECK(memcmp(root, blk + 36, 32) == 0);
        kiln_block_free(&b);
        free(blk);
    }
    gbt_free(&t);
    return 0;
}
