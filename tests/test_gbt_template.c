/* getblocktemplate parsing, the coinbase and the block kiln builds, against two real segwit blocks:
 * mainnet 542213 (tests/data/block542213.hex, from bitcoinjs-lib's block fixture "Block with witness
 * commit", commit 248789d2) and testnet3 000000000000045e (tests/data/testnet3_block_000000000000045e.raw). Each
 * block's non-coinbase transactions become a template; then the witness commitment kiln computes
 * from the template's wtxids must equal the one in the real coinbase (for 542213 also bitcoinjs'
 * "witnessCommit"), and the Merkle root from the real coinbase's txid and kiln's branch of the
 * template's txids must equal the real header's. A block with kiln's own coinbase must parse with
 * the library's block parser to the template's transactions. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "kiln.h"
#include "mine/node/coinbase.h"
#include "mine/node/gbt.h"

static uint8_t *load(const char *name, size_t *len)
{
    FILE *f = fopen(test_data(name), "rb");
    if (!f) return NULL;
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    uint8_t *out = malloc(n);
    if (strstr(name, ".hex")) {
        size_t k = 0;
        for (size_t i = 0; i + 1 < n && buf[i] != '\n'; i += 2) {
            unsigned v;
            sscanf((char *)buf + i, "%2x", &v);
            out[k++] = (uint8_t)v;
        }
        n = k;
    } else {
        memcpy(out, buf, n);
    }
    *len = n;
    return out;
}

/* A test-local transaction walker (independent of the library's): the length of the transaction
 * at p, and where its outputs start and end. */
static size_t compact(const uint8_t *p, size_t *at)
{
    uint8_t b = p[(*at)++];
    size_t v = b, k = b == 0xfd ? 2 : b == 0xfe ? 4 : b == 0xff ? 8 : 0;
    if (k) {
        v = 0;
        for (size_t i = 0; i < k; i++) v |= (size_t)p[*at + i] << 8 * i;
        *at += k;
    }
    return v;
}

static size_t tx_len(const uint8_t *p, size_t *outs, size_t *outs_end, size_t *wit)
{
    size_t at = 4;
    int segwit = p[4] == 0 && p[5] == 1;
    if (segwit) at += 2;
    size_t nin = compact(p, &at);
    for (size_t i = 0; i < nin; i++) {
        at += 36;
        at += compact(p, &at);
        at += 4;
    }
    if (outs) *outs = at;
    size_t nout = compact(p, &at);
    for (size_t i = 0; i < nout; i++) {
        at += 8;
        at += compact(p, &at);
    }
    if (outs_end) *outs_end = at;
    if (wit) *wit = at;
    if (segwit)
        for (size_t i = 0; i < nin; i++) {
            size_t items = compact(p, &at);
            for (size_t k = 0; k < items; k++) at += compact(p, &at);
        }
    return at + 4;
}

static void hexs(const uint8_t *b, size_t n, int rev, char *out)
{
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[rev ? n - 1 - i : i]);
}

/* The template of a real block: its transactions but the coinbase, its header's fields. */
static char *make_template(const uint8_t *raw, size_t len, const kiln_block *b, int64_t height, const char *extra,
                           int glue)
{
    size_t cap = len * 2 + 4096 + b->n_tx * 200, o = 0;
    char *j = malloc(cap), h[200];
    hexs(raw + 4, 32, 1, h);
    h[64] = 0;
    uint32_t bits = kiln_header_bits(raw);
    o += (size_t)snprintf(j + o, cap - o,
                          "{\"version\":%u,\"rules\":[\"csv\",\"!segwit\",\"taproot\"],\"vbavailable\":{},\"previousblockhash\":"
                          "\"%s\",\"bits\":\"%08x\",\"height\":%lld,\"curtime\":%u,\"mintime\":%u,\"coinbasevalue\":5000000000,"
                          "\"noncerange\":\"00000000ffffffff\",\"mutable\":[\"time\",\"transactions\",\"prevblock\"]%s,"
                          "\"transactions\":[",
                          kiln_header_version(raw), h, (unsigned)bits, (long long)height, kiln_header_time(raw),
                          kiln_header_time(raw) - 600, extra);
    size_t at = 80 + 1; /* these blocks have fewer than 253 transactions */
    at += tx_len(raw + at, NULL, NULL, NULL);
    for (uint64_t i = 1; i < b->n_tx; i++) {
        size_t l = tx_len(raw + at, NULL, NULL, NULL);
        if (glue && i == 1) { /* the first two transactions as one data field, without ids */
            size_t l2 = tx_len(raw + at + l, NULL, NULL, NULL);
            o += (size_t)snprintf(j + o, cap - o, "{\"data\":\"");
            hexs(raw + at, l + l2, 0, j + o);
            o += 2 * (l + l2);
            o += (size_t)snprintf(j + o, cap - o, "\"}");
            at += l + l2;
            i++;
            continue;
        }
        uint8_t w[32];
        kiln_sha256d(raw + at, l, w);
        o += (size_t)snprintf(j + o, cap - o, "%s{\"data\":\"", i > 1 ? "," : "");
        hexs(raw + at, l, 0, j + o);
        o += 2 * l;
        hexs(b->txids + 32 * i, 32, 1, h);
        o += (size_t)snprintf(j + o, cap - o, "\",\"txid\":\"%.64s\",\"hash\":\"", h);
        hexs(w, 32, 1, h);
        o += (size_t)snprintf(j + o, cap - o, "%.64s\",\"fee\":0}", h);
        at += l;
    }
    snprintf(j + o, cap - o, "]}");
    return j;
}

static void one_block(const char *name, int64_t height, const char *known_commit)
{
    size_t len = 0;
    uint8_t *raw = load(name, &len);
    CHECK(raw != NULL, "cannot read %s", name);
    if (!raw) return;
    kiln_ctx *ctx = kiln_ctx_new();
    kiln_block b;
    CHECK(kiln_block_parse(ctx, raw, len, &b) == KILN_OK, "%s: %s", name, kiln_last_error(ctx));
    char *text = make_template(raw, len, &b, height, "", 0);
    gbt_template t;
    char err[512] = "";
    int r = gbt_parse(text, strlen(text), &t, err, sizeof err);
    CHECK(r == 0, "%s: %s", name, err);
    if (r) return;
    CHECK(t.ntx == b.n_tx - 1, "%s: %zu transactions", name, t.ntx);
    CHECK(memcmp(t.txids, b.txids + 32, t.ntx * 32) == 0, "%s: txids differ", name);
    CHECK(t.segwit, "%s: segwit rule not seen", name);
    CHECK(t.bits == kiln_header_bits(raw), "%s: bits", name);

    /* the real coinbase: its commitment output and its witness reserved value */
    size_t outs, outs_end, wit;
    (void)tx_len(raw + 81, &outs, &outs_end, &wit);
    const uint8_t *cb = raw + 81, *real_commit = NULL;
    for (size_t i = outs; i + 38 <= outs_end; i++)
        if (memcmp(cb + i, "\x6a\x24\xaa\x21\xa9\xed", 6) == 0) real_commit = cb + i;
    CHECK(real_commit != NULL, "%s: no commitment in the real coinbase", name);
    CHECK(cb[wit] == 1 && cb[wit + 1] == 32, "%s: coinbase witness is not one 32-byte item", name);
    uint8_t script[38];
    CHECK(witness_commitment(t.wtxids, t.ntx, cb + wit + 2, script) == 0, "commitment");
    if (real_commit) CHECK(memcmp(script, real_commit, 38) == 0, "%s: witness commitment differs from the real one", name);
    if (known_commit) {
        char h[65];
        hexs(script + 6, 32, 0, h);
        h[64] = 0;
        CHECK_STR(h, known_commit);
    }
    /* the Merkle root with the real coinbase */
    uint8_t branch[32 * MERKLE_BRANCH_MAX], root[32];
    int count = 0;
    CHECK(merkle_branch0(t.txids, t.ntx, branch, &count) == 0, "branch");
    merkle_root_from_branch(b.txids, branch, count, root);
    CHECK(memcmp(root, raw + 36, 32) == 0, "%s: Merkle root from the branch differs from the header's", name);

    /* kiln's coinbase in a whole block: the library's parser must find the template's transactions */
    static const uint8_t payout[] = {0x00, 0x14, 0x75, 0x1e, 0x76, 0xe8, 0x19, 0x91, 0x96, 0xd4, 0x54, 0x94, 0x1c,
                                     0x45, 0xd1, 0xb3, 0xa3, 0x23, 0xf1, 0x43, 0x3b, 0xd6};
    for (uint64_t en = 0; en < 3; en++) {
        cb_params p = {height, (const uint8_t *)"\x01\x02", 2, en * 0x0101010101ull, payout, sizeof payout, 1234567890,
                       script, 38};
        uint8_t mine[CB_MAX], legacy[CB_MAX], txid[32];
        size_t ml = coinbase_build(&p, 1, mine, sizeof mine), ll = coinbase_build(&p, 0, legacy, sizeof legacy);
        CHECK(ml > ll && ml == ll + 2 + 34, "witness serialization adds marker, flag and the reserved value");
        kiln_sha256d(legacy, ll, txid);
        size_t bl = 80 + 1 + ml + t.txdata_len;
        uint8_t *blk = malloc(bl);
        memcpy(blk, raw, 80);
        merkle_root_from_branch(txid, branch, count, blk + 36);
        blk[80] = (uint8_t)(t.ntx + 1);
        memcpy(blk + 81, mine, ml);
        memcpy(blk + 81 + ml, t.txdata, t.txdata_len);
        kiln_block nb;
        int ok = kiln_block_parse(ctx, blk, bl, &nb) == KILN_OK;
        CHECK(ok, "%s: kiln's block does not parse: %s", name, kiln_last_error(ctx));
        if (ok) {
            CHECK(nb.n_tx == b.n_tx, "tx count");
            CHECK(memcmp(nb.txids, txid, 32) == 0, "coinbase txid");
            CHECK(memcmp(nb.txids + 32, b.txids + 32, t.ntx * 32) == 0, "template transactions changed");
            uint8_t full[32];
            CHECK(kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, nb.txids, nb.n_tx, NULL, full, NULL) == KILN_OK, "build");
            CHECK(memcmp(full, blk + 36, 32) == 0, "%s: the header's root is not the tree of the block's txids", name);
            /* BIP 34: the scriptSig starts with the height push */
            uint8_t push[9];
            size_t pl = bip34_push(height, push);
            CHECK(memcmp(mine + 4 + 2 + 1 + 36 + 1, push, pl) == 0, "height push");
            kiln_block_free(&nb);
        }
        free(blk);
    }

    /* hostile templates: each must be refused, naming the field */
    struct {
        const char *from, *to, *want;
    } bad[] = {
        {"\"txid\":\"", "\"txid\":\"0", "txid"},
        {"\"hash\":\"", "\"hash\":\"1", "hash"},
        {"\"csv\"", "\"!frobnicate\"", "frobnicate"},
        {"\"bits\":\"", "\"bits\":\"zz", "bits"},
        {"\"noncerange\":\"00000000ffffffff\"", "\"noncerange\":\"ffffffff00000000\"", "noncerange"},
        {"\"height\":", "\"mweb\":\"00\",\"height\":", "MWEB"},
        {"\"data\":\"", "\"data\":\"00", "not one transaction"},
        {"\"coinbasevalue\":5000000000", "\"coinbasevalue\":-1", "coinbasevalue"},
        {"\"previousblockhash\"", "\"previousblockhashx\"", "previousblockhash"},
        {"\"mintime\"", "\"default_witness_commitment\":\"6a24aa21\",\"mintime\"", "default_witness_commitment"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *at = strstr(text, bad[i].from);
        CHECK(at != NULL, "pattern %s", bad[i].from);
        if (!at) continue;
        size_t pre = (size_t)(at - text), fl = strlen(bad[i].from), tl = strlen(bad[i].to);
        char *m = malloc(strlen(text) + tl + 1);
        memcpy(m, text, pre);
        memcpy(m + pre, bad[i].to, tl);
        strcpy(m + pre + tl, at + fl);
        gbt_template t2;
        err[0] = 0;
        CHECK(gbt_parse(m, strlen(m), &t2, err, sizeof err) != 0 && strstr(err, bad[i].want), "%s: case %zu: %s", name,
              i, err);
        free(m);
    }
    /* two transactions glued into one data field: the boundaries must be the transactions' */
    char *glued = make_template(raw, len, &b, height, "", 1);
    gbt_template t3;
    CHECK(gbt_parse(glued, strlen(glued), &t3, err, sizeof err) != 0 && strstr(err, "transactions[0].data is not one"),
          "%s: glued transactions: %s", name, err);
    free(glued);
    gbt_free(&t);
    free(text);
    kiln_block_free(&b);
    kiln_ctx_free(ctx);
    free(raw);
}

int main(void)
{
    /* BIP 34 heights as Bitcoin Core's CScript() << height writes them (CScriptNum, OP_1..OP_16) */
    static const struct {
        int64_t h;
        const char *hex;
    } push[] = {{0, "00"},          {1, "51"},          {16, "60"},           {17, "0111"},
                {127, "017f"},      {128, "028000"},    {255, "02ff00"},      {256, "020001"},
                {32767, "02ff7f"},  {32768, "03008000"}, {542213, "03054608"}, {8388608, "0400008000"}};
    for (size_t i = 0; i < sizeof push / sizeof *push; i++) {
        uint8_t out[9];
        char h[20];
        size_t n = bip34_push(push[i].h, out);
        hexs(out, n, 0, h);
        h[2 * n] = 0;
        CHECK_STR(h, push[i].hex);
    }
    /* the real coinbase of 542213 starts its scriptSig with 03 054608 (bitcoinjs fixture hex) */
    one_block("block542213.hex", 542213, "4a657fcaa2149342376247e2e283a55a6b92dcc35d4d89e4ac7b74488cb63be2");
    one_block("testnet3_block_000000000000045e.raw", 1000, NULL);
    /* a template without transactions: the branch is empty and the root is the coinbase's txid */
    uint8_t branch[32 * 4], leaf[32] = {7}, root[32];
    int count = -1;
    merkle_branch0(NULL, 0, branch, &count);
    merkle_root_from_branch(leaf, branch, count, root);
    CHECK(count == 0 && memcmp(root, leaf, 32) == 0, "empty template");
    return check_summary();
}
