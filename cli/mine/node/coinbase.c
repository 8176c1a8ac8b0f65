#include "coinbase.h"

#include <stdlib.h>
#include <string.h>

#include "kiln.h"

static void le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> 8 * i);
}

static void le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> 8 * i);
}

size_t put_compact(uint8_t *out, uint64_t v)
{
    if (v < 0xfd) {
        out[0] = (uint8_t)v;
        return 1;
    }
    if (v <= 0xffff) {
        out[0] = 0xfd;
        out[1] = (uint8_t)v;
        out[2] = (uint8_t)(v >> 8);
        return 3;
    }
    if (v <= 0xffffffffu) {
        out[0] = 0xfe;
        le32(out + 1, (uint32_t)v);
        return 5;
    }
    out[0] = 0xff;
    le64(out + 1, v);
    return 9;
}

size_t bip34_push(int64_t height, uint8_t out[9])
{
    if (height == 0) {
        out[0] = 0x00;
        return 1;
    }
    if (height >= 1 && height <= 16) {
        out[0] = (uint8_t)(0x50 + height);
        return 1;
    }
    /* CScriptNum: little-endian magnitude, a sign bit in the top byte (heights are positive) */
    uint8_t num[8];
    size_t n = 0;
    uint64_t v = (uint64_t)height;
    while (v) {
        num[n++] = (uint8_t)v;
        v >>= 8;
    }
    if (num[n - 1] & 0x80) num[n++] = 0;
    out[0] = (uint8_t)n;
    memcpy(out + 1, num, n);
    return n + 1;
}

size_t coinbase_build(const cb_params *p, int witness, uint8_t *out, size_t cap)
{
    uint8_t sig[128];
    size_t s = bip34_push(p->height, sig);
    if (p->aux_len) {
        if (p->aux_len > 75) return 0;
        sig[s++] = (uint8_t)p->aux_len;
        memcpy(sig + s, p->aux, p->aux_len);
        s += p->aux_len;
    }
    sig[s++] = 8;
    le64(sig + s, p->extranonce);
    s += 8;
    static const char tag[] = "/kiln/";
    sig[s++] = (uint8_t)(sizeof tag - 1);
    memcpy(sig + s, tag, sizeof tag - 1);
    s += sizeof tag - 1;
    if (s > 100) return 0;
    if (p->payout_len > 100 || p->commit_len > 100) return 0;
    size_t need = 4 + 2 + 1 + 36 + 1 + s + 4 + 1 + 9 + p->payout_len + 9 + p->commit_len + 1 + 1 + 32 + 4;
    if (need > cap) return 0;
    witness = witness && p->commit;
    size_t o = 0;
    le32(out, 1);
    o += 4;
    if (witness) {
        out[o++] = 0x00;
        out[o++] = 0x01;
    }
    out[o++] = 1;
    memset(out + o, 0, 32);
    memset(out + o + 32, 0xff, 4);
    o += 36;
    out[o++] = (uint8_t)s;
    memcpy(out + o, sig, s);
    o += s;
    memset(out + o, 0xff, 4);
    o += 4;
    out[o++] = p->commit ? 2 : 1;
    le64(out + o, (uint64_t)p->value);
    o += 8;
    out[o++] = (uint8_t)p->payout_len;
    memcpy(out + o, p->payout, p->payout_len);
    o += p->payout_len;
    if (p->commit) {
        le64(out + o, 0);
        o += 8;
        out[o++] = (uint8_t)p->commit_len;
        memcpy(out + o, p->commit, p->commit_len);
        o += p->commit_len;
    }
    if (witness) {
        out[o++] = 1; /* one stack item: the witness reserved value */
        out[o++] = 32;
        memset(out + o, 0, 32);
        o += 32;
    }
    le32(out + o, 0);
    return o + 4;
}

static void merge(const uint8_t *l, const uint8_t *r, uint8_t *out)
{
    (void)kiln_merkle_merge(NULL, KILN_MERKLE_SHA256D, l, r, out);
}

int merkle_branch0(const uint8_t *txids, size_t n, uint8_t *branch, int *count)
{
    *count = 0;
    if (n == 0) return 0;
    /* the level without its node 0 (which depends on the coinbase): level[i] is node i + 1 */
    uint8_t *level = malloc(n * 32);
    if (!level) return -1;
    memcpy(level, txids, n * 32);
    size_t m = n + 1; /* nodes in this level, node 0 included */
    while (m > 1) {
        memcpy(branch + 32 * (size_t)(*count)++, level, 32);
        size_t up = (m + 1) / 2;
        for (size_t i = 1; i < up; i++) {
            const uint8_t *l = level + 32 * (2 * i - 1);
            const uint8_t *r = 2 * i + 1 < m ? level + 32 * (2 * i) : l;
            merge(l, r, level + 32 * (i - 1));
        }
        m = up;
    }
    free(level);
    return 0;
}

void merkle_root_from_branch(const uint8_t leaf[32], const uint8_t *branch, int count, uint8_t root[32])
{
    uint8_t h[32];
    memcpy(h, leaf, 32);
    for (int i = 0; i < count; i++) merge(h, branch + 32 * i, h);
    memcpy(root, h, 32);
}

int witness_commitment(const uint8_t *wtxids, size_t n, const uint8_t reserved[32], uint8_t script[38])
{
    uint8_t branch[32 * MERKLE_BRANCH_MAX], root[32], zero[32] = {0}, both[64];
    int count = 0;
    if (merkle_branch0(wtxids, n, branch, &count) != 0) return -1;
    merkle_root_from_branch(zero, branch, count, root);
    memcpy(both, root, 32);
    memcpy(both + 32, reserved, 32);
    memcpy(script, "\x6a\x24\xaa\x21\xa9\xed", 6);
    kiln_sha256d(both, 64, script + 6);
    return 0;
}
