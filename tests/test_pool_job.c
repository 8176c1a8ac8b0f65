/* Stratum job -> block header, cross-checked against a real mined block: Bitcoin block 413567's
 * coinbase transaction, split inside its scriptSig into coinb1 | extranonce1 | extranonce2 |
 * coinb2, with the Merkle branch of transaction 0, goes through a mining.notify line, the
 * Stratum parser and the job builder, and must give the real header and block hash. */
#include <stdio.h>

#include "check.h"
#include "kiln.h"
#include "mine/pool/job.h"
#include "mine/pool/stratum.h"

#define BLOCK_HASH "0000000000000000025aff8be8a55df8f89c77296db6198f272d6577325d4069" /* block413567.json */

static char header_hex[161], hash_hex[65], coinbase_hex[4096], branch_hex[POOL_BRANCH_MAX][65];
static int nbranch, script_off, script_len;

static int load(void)
{
    FILE *f = fopen(test_data("block413567_stratum.txt"), "r");
    if (!f) return -1;
    char line[5000];
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "header %160s", header_hex) == 1) continue;
        if (sscanf(line, "block_hash %64s", hash_hex) == 1) continue;
        if (sscanf(line, "coinbase %4095s", coinbase_hex) == 1) continue;
        if (sscanf(line, "scriptsig %d %d", &script_off, &script_len) == 2) continue;
        if (nbranch < POOL_BRANCH_MAX && sscanf(line, "branch %64s", branch_hex[nbranch]) == 1) nbranch++;
    }
    fclose(f);
    return 0;
}

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

int main(void)
{
    CHECK(load() == 0, "cannot read block413567_stratum.txt");
    CHECK_STR(hash_hex, BLOCK_HASH);
    CHECK(nbranch == 11, "1557 transactions need 11 branch hashes, file has %d", nbranch);
    uint8_t real[80];
    CHECK(kiln_header_from_hex(NULL, header_hex, real) == KILN_OK, "header hex");

    /* the scriptSig holds the BIP34 height push (4 bytes) then miner data: extranonce1 and
     * extranonce2 are the next 4 + 4 bytes (any split inside the scriptSig must work) */
    size_t cb_len = strlen(coinbase_hex) / 2;
    size_t c1 = (size_t)script_off + 4, en1_len = 4, en2_len = 4;
    CHECK(script_len >= 12 && c1 + en1_len + en2_len < cb_len, "scriptSig too short");
    char c1hex[4096] = {0}, en1hex[9] = {0}, en2hex[9] = {0}, c2hex[4096] = {0};
    memcpy(c1hex, coinbase_hex, 2 * c1);
    memcpy(en1hex, coinbase_hex + 2 * c1, 2 * en1_len);
    memcpy(en2hex, coinbase_hex + 2 * (c1 + en1_len), 2 * en2_len);
    strcpy(c2hex, coinbase_hex + 2 * (c1 + en1_len + en2_len));

    /* the notify fields as a pool sends them: prevhash with its 4-byte words swapped, the
     * 32-bit fields as big-endian hex */
    const char *prev_field = "c6c5ce115bd3005e4e0e86083ff6c64729b12b520542b54d0000000000000000";
    char line[16384], branches[POOL_BRANCH_MAX * 70] = "";
    for (int i = 0; i < nbranch; i++) {
        strcat(branches, i ? ",\"" : "\"");
        strcat(branches, branch_hex[i]);
        strcat(branches, "\"");
    }
    snprintf(line, sizeof line,
             "{\"id\":null,\"method\":\"mining.notify\",\"params\":[\"413567\",\"%s\",\"%s\",\"%s\",[%s],\"%08x\","
             "\"%08x\",\"%08x\",true]}",
             prev_field, c1hex, c2hex, branches, le32(real), le32(real + 72), le32(real + 68));
    CHECK(strstr(line, "\"00000004\",\"18058436\",\"57478db3\"") != NULL, "version/nbits/ntime fields");

    stratum_msg m;
    char err[256];
    CHECK(stratum_parse(line, strlen(line), &m, err, sizeof err) == 0, "notify parse: %s", err);
    CHECK(m.kind == ST_NOTIFY, "kind %d", m.kind);
    CHECK(memcmp(m.job.prevhash, real + 4, 32) == 0, "word-swapped prevhash");
    CHECK(m.job.clean == 1 && m.job.nbranch == 11, "clean/branch");

    uint8_t en1[4], en2[4], header[80], hash[32];
    kiln_hex_decode(NULL, en1hex, en1, 4);
    kiln_hex_decode(NULL, en2hex, en2, 4);
    pool_job_header(&m.job, en1, en1_len, en2, en2_len, m.job.version, header);
    kiln_header_set_nonce(header, le32(real + 76));
    CHECK(memcmp(header, real, 80) == 0, "rebuilt header differs from the real one");
    kiln_header_hash(header, hash);
    char hex[65];
    kiln_hex_encode(hash, 32, 1, hex);
    CHECK_STR(hex, BLOCK_HASH);
    uint8_t target[32];
    CHECK(kiln_target_from_bits(NULL, m.job.nbits, target) == KILN_OK && kiln_hash_meets_target(hash, target),
          "the real block meets its nBits target");

    /* extranonce2 as the miner's counter: the same bytes from pool_en2_encode */
    uint8_t en2b[4];
    pool_en2_encode((uint64_t)en2[0] << 24 | (uint64_t)en2[1] << 16 | (uint64_t)en2[2] << 8 | en2[3], 4, en2b);
    CHECK(memcmp(en2b, en2, 4) == 0, "pool_en2_encode is big-endian");

    /* one changed extranonce byte or branch hash gives another header */
    en2[3] ^= 1;
    pool_job_header(&m.job, en1, en1_len, en2, en2_len, m.job.version, header);
    CHECK(memcmp(header + 36, real + 36, 32) != 0, "extranonce2 must change the Merkle root");
    en2[3] ^= 1;
    m.job.branch[10][0] ^= 1;
    pool_job_header(&m.job, en1, en1_len, en2, en2_len, m.job.version, header);
    CHECK(memcmp(header + 36, real + 36, 32) != 0, "the branch must change the Merkle root");

    /* the share a miner submits for it: nonce and ntime as big-endian hex of the 32-bit values */
    char *sub = stratum_submit(7, "worker.1", "413567", en2, 4, le32(real + 68), le32(real + 76), 0, 0);
    CHECK(sub != NULL, "submit");
    char want[200];
    snprintf(want, sizeof want, "\"params\":[\"worker.1\",\"413567\",\"%s\",\"57478db3\",\"7e5fb903\"]", en2hex);
    CHECK(sub && strstr(sub, want), "submit line %s lacks %s", sub ? sub : "", want);
    free(sub);
    stratum_msg_clear(&m);

    /* the Merkle fold itself: no branch leaves the coinbase hash as the root */
    uint8_t cbh[32], root[32];
    memset(cbh, 0x5a, 32);
    pool_merkle_root(cbh, NULL, 0, root);
    CHECK(memcmp(root, cbh, 32) == 0, "empty branch");
    return check_summary();
}
