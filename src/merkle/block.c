/* Raw Bitcoin blocks: the 80-byte header, a CompactSize transaction count and the transactions, in
 * the legacy or the segwit (BIP 144) serialization, parsed as Bitcoin Core does. The txid is the
 * sha256d of the non-witness serialization: version, inputs, outputs and lock time, without the
 * marker, flag and witnesses. Every read is bounds-checked; an error names the byte offset. A block
 * over 4,000,000 bytes is refused before anything is parsed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/ctx.h"

/* A block's weight (3 x its size without witnesses + its size) is at most 4,000,000 (Core's
 * MAX_BLOCK_WEIGHT), so no valid block is larger than this many bytes. */
#define MAX_BLOCK_BYTES 4000000u
/* Core refuses CompactSize values above this (MAX_SIZE, 32 MiB). */
#define MAX_COMPACT 0x02000000u
/* The smallest serialized input (outpoint 36 + script length 1 + sequence 4), output (value 8 +
 * script length 1) and transaction (version, two empty counts, lock time). */
#define MIN_INPUT 41
#define MIN_OUTPUT 9
#define MIN_TX 10

typedef struct reader {
    kiln_ctx *ctx;
    const uint8_t *p;
    size_t len, pos;
    char where[96]; /* what is being read, for messages */
} reader;

static kiln_status need(reader *r, size_t n, const char *what)
{
    if (r->len - r->pos >= n) return KILN_OK;
    return kiln_fail(r->ctx, KILN_ERR_INPUT, "truncated block: %s%s needs %zu bytes at offset %zu, %zu left", r->where,
                     what, n, r->pos, r->len - r->pos);
}

static kiln_status skip(reader *r, size_t n, const char *what)
{
    kiln_status st = need(r, n, what);
    if (st == KILN_OK) r->pos += n;
    return st;
}

/* A CompactSize that must be canonical, at most MAX_COMPACT, and (as a count of items at least
 * min_item bytes long, or of bytes when min_item is 1) fit in what is left. */
static kiln_status compact(reader *r, const char *what, size_t min_item, uint64_t *out)
{
    size_t at = r->pos;
    kiln_status st = need(r, 1, what);
    if (st != KILN_OK) return st;
    uint8_t b = r->p[r->pos++];
    int extra = b < 0xfd ? 0 : b == 0xfd ? 2 : b == 0xfe ? 4 : 8;
    uint64_t v = b;
    if (extra) {
        if ((st = need(r, (size_t)extra, what)) != KILN_OK) return st;
        v = 0;
        for (int i = extra - 1; i >= 0; i--) v = v << 8 | r->p[r->pos + (size_t)i];
        r->pos += (size_t)extra;
        uint64_t min = extra == 2 ? 0xfd : extra == 4 ? 0x10000 : UINT64_C(0x100000000);
        if (v < min)
            return kiln_fail(r->ctx, KILN_ERR_INPUT, "malformed block: %s%s at offset %zu is a non-canonical CompactSize",
                             r->where, what, at);
    }
    if (v > MAX_COMPACT)
        return kiln_fail(r->ctx, KILN_ERR_INPUT, "malformed block: %s%s at offset %zu is %llu, above the limit %u",
                         r->where, what, at, (unsigned long long)v, MAX_COMPACT);
    if (v > (r->len - r->pos) / min_item)
        return kiln_fail(r->ctx, KILN_ERR_INPUT,
                         "truncated block: %s%s at offset %zu is %llu, more than the %zu bytes left can hold", r->where,
                         what, at, (unsigned long long)v, r->len - r->pos);
    *out = v;
    return KILN_OK;
}

/* A length-prefixed script. */
static kiln_status script(reader *r)
{
    uint64_t len = 0;
    kiln_status st = compact(r, "script length", 1, &len);
    return st == KILN_OK ? skip(r, (size_t)len, "script") : st;
}

static kiln_status one_input(reader *r)
{
    kiln_status st = skip(r, 36, "outpoint");
    if (st == KILN_OK) st = script(r);
    return st == KILN_OK ? skip(r, 4, "sequence") : st;
}

static kiln_status one_output(reader *r)
{
    kiln_status st = skip(r, 8, "value");
    return st == KILN_OK ? script(r) : st;
}

/* n items read by one(), each named "<what> <i> " in messages. */
static kiln_status each(reader *r, uint64_t n, const char *what, kiln_status (*one)(reader *r))
{
    kiln_status st = KILN_OK;
    size_t base = strlen(r->where);
    for (uint64_t i = 0; i < n && st == KILN_OK; i++) {
        snprintf(r->where + base, sizeof r->where - base, "%s %llu ", what, (unsigned long long)i);
        st = one(r);
    }
    r->where[base] = '\0';
    return st;
}

/* Witness stacks of n inputs; *items receives the total number of stack items. */
static kiln_status witnesses(reader *r, uint64_t n, uint64_t *items)
{
    kiln_status st = KILN_OK;
    uint64_t count = 0, len = 0;
    size_t base = strlen(r->where);
    *items = 0;
    for (uint64_t i = 0; i < n && st == KILN_OK; i++) {
        snprintf(r->where + base, sizeof r->where - base, "witness %llu ", (unsigned long long)i);
        if ((st = compact(r, "item count", 1, &count)) != KILN_OK) break;
        *items += count;
        for (uint64_t k = 0; k < count && st == KILN_OK; k++) {
            if ((st = compact(r, "item length", 1, &len)) != KILN_OK) break;
            st = skip(r, (size_t)len, "item");
        }
    }
    r->where[base] = '\0';
    return st;
}

/* One transaction at r->pos: checks it and writes its txid. */
static kiln_status transaction(reader *r, uint64_t index, int *segwit, uint8_t txid[32])
{
    size_t start = r->pos, body, body_end, lock;
    uint64_t n_in = 0, n_out = 0;
    snprintf(r->where, sizeof r->where, "transaction %llu ", (unsigned long long)index);
    kiln_status st = skip(r, 4, "version");
    if (st != KILN_OK) return st;
    body = r->pos;
    if ((st = compact(r, "input count", MIN_INPUT, &n_in)) != KILN_OK) return st;
    uint8_t flags = 0;
    if (n_in == 0) {
        /* an empty input list is the segwit marker when a nonzero flag byte follows */
        size_t at = r->pos;
        if ((st = need(r, 1, "segwit flag")) != KILN_OK) return st;
        flags = r->p[r->pos++];
        if (flags != 0) {
            if (flags != 1)
                return kiln_fail(r->ctx, KILN_ERR_INPUT, "malformed block: %sat offset %zu has unknown flag 0x%02x",
                                 r->where, at, flags);
            body = r->pos;
            if ((st = compact(r, "input count", MIN_INPUT, &n_in)) != KILN_OK) return st;
            if ((st = each(r, n_in, "input", one_input)) != KILN_OK) return st;
            if ((st = compact(r, "output count", MIN_OUTPUT, &n_out)) != KILN_OK) return st;
            if ((st = each(r, n_out, "output", one_output)) != KILN_OK) return st;
        }
    } else {
        if ((st = each(r, n_in, "input", one_input)) != KILN_OK) return st;
        if ((st = compact(r, "output count", MIN_OUTPUT, &n_out)) != KILN_OK) return st;
        if ((st = each(r, n_out, "output", one_output)) != KILN_OK) return st;
    }
    body_end = r->pos;
    *segwit = flags != 0;
    if (flags) {
        uint64_t items;
        size_t at = r->pos;
        if ((st = witnesses(r, n_in, &items)) != KILN_OK) return st;
        if (items == 0)
            return kiln_fail(r->ctx, KILN_ERR_INPUT,
                             "malformed block: %sat offset %zu has a witness record with every stack empty", r->where,
                             at);
    }
    lock = r->pos;
    if ((st = skip(r, 4, "lock time")) != KILN_OK) return st;
    /* non-witness serialization: version | inputs and outputs | lock time (for a transaction with
     * neither inputs nor outputs the bytes read as count and flag are its two empty counts) */
    kiln_sha256_stream s;
    uint8_t once[32];
    kiln_sha256_init(&s);
    kiln_sha256_update(&s, r->p + start, 4);
    kiln_sha256_update(&s, r->p + body, body_end - body);
    kiln_sha256_update(&s, r->p + lock, 4);
    kiln_sha256_final(&s, once);
    kiln_sha256(once, sizeof once, txid);
    return KILN_OK;
}

kiln_status kiln_block_parse(kiln_ctx *ctx, const uint8_t *raw, size_t len, kiln_block *block)
{
    if (!block) return kiln_fail(ctx, KILN_ERR_INPUT, "missing block");
    memset(block, 0, sizeof *block);
    if (!raw && len) return kiln_fail(ctx, KILN_ERR_INPUT, "missing block bytes");
    if (len > MAX_BLOCK_BYTES)
        return kiln_fail(ctx, KILN_ERR_INPUT,
                         "oversized block: more than %u bytes, the most a block of weight 4,000,000 can hold", MAX_BLOCK_BYTES);
    reader r = {ctx, raw, len, 0, ""};
    kiln_status st = need(&r, KILN_HEADER_SIZE, "header");
    if (st != KILN_OK) return st;
    memcpy(block->header, raw, KILN_HEADER_SIZE);
    r.pos = KILN_HEADER_SIZE;
    uint64_t n = 0;
    if ((st = compact(&r, "transaction count", MIN_TX, &n)) != KILN_OK) return st;
    if (n == 0)
        return kiln_fail(ctx, KILN_ERR_INPUT, "malformed block: transaction count at offset %d is 0", KILN_HEADER_SIZE);
    uint8_t *txids = malloc((size_t)n * 32);
    if (!txids) return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu txids", (unsigned long long)n);
    uint64_t segwit_count = 0;
    for (uint64_t i = 0; i < n; i++) {
        int segwit = 0;
        if ((st = transaction(&r, i, &segwit, txids + 32 * i)) != KILN_OK) {
            free(txids);
            return st;
        }
        segwit_count += (uint64_t)segwit;
    }
    if (r.pos != len) {
        free(txids);
        return kiln_fail(ctx, KILN_ERR_INPUT, "malformed block: %zu bytes follow the last transaction at offset %zu",
                         len - r.pos, r.pos);
    }
    block->n_tx = n;
    block->n_segwit = segwit_count;
    block->txids = txids;
    return KILN_OK;
}

void kiln_block_free(kiln_block *block)
{
    if (!block) return;
    free(block->txids);
    block->txids = NULL;
    block->n_tx = 0;
}
