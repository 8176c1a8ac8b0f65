#include "gbt.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Rules a template may require ("!" prefix, BIP 9) that kiln's blocks honor. */
static const char *const KNOWN_RULES[] = {"segwit", "csv", "taproot", "signet", "testdummy", NULL};

static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = snprintf(err, n, "bad template: ");
    if (k > 0 && (size_t)k < n) vsnprintf(err + k, n - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Exactly n bytes of hex; reversed: the text is a display-order hash. */
static int hex_bytes(const char *s, uint8_t *out, size_t n, int reversed)
{
    if (strlen(s) != 2 * n) return -1;
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[reversed ? n - 1 - i : i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

static const char *str_field(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int int_field(json_t *o, const char *k, int64_t lo, int64_t hi, int64_t *out, int required, char *err, size_t n)
{
    json_t *v = json_object_get(o, k);
    if (!v) return required ? fail(err, n, "no %s", k) : 1;
    if (!json_is_integer(v)) return fail(err, n, "%s is not an integer", k);
    json_int_t x = json_integer_value(v);
    if (x < lo || x > hi) return fail(err, n, "%s %lld out of range", k, (long long)x);
    *out = x;
    return 0;
}

static int has_string(json_t *arr, const char *s)
{
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (json_is_string(v) && strcmp(json_string_value(v), s) == 0) return 1;
    return 0;
}

static int parse_rules(json_t *o, gbt_template *t, char *err, size_t n)
{
    json_t *rules = json_object_get(o, "rules");
    if (!rules) return 0;
    if (!json_is_array(rules)) return fail(err, n, "rules is not an array");
    size_t i;
    json_t *v;
    json_array_foreach(rules, i, v) {
        if (!json_is_string(v)) return fail(err, n, "rules[%zu] is not a string", i);
        const char *r = json_string_value(v);
        const char *name = r[0] == '!' ? r + 1 : r;
        if (strcmp(name, "segwit") == 0) t->segwit = 1;
        int known = 0;
        for (int k = 0; KNOWN_RULES[k]; k++) known |= strcmp(KNOWN_RULES[k], name) == 0;
        if (r[0] == '!' && !known)
            return fail(err, n, "the node requires rule '%s', which kiln does not implement", name);
        size_t used = strlen(t->rules);
        snprintf(t->rules + used, sizeof t->rules - used, "%s%s", used ? "," : "", r);
    }
    return 0;
}

/* Every transaction: hex data that parses (as the one transaction of a block, through the
 * library's block parser) to the txid the node gave; "hash" (BIP 141 wtxid) is its sha256d. */
static int parse_txs(json_t *o, gbt_template *t, char *err, size_t n)
{
    json_t *txs = json_object_get(o, "transactions");
    if (!txs) return fail(err, n, "no transactions");
    if (!json_is_array(txs)) return fail(err, n, "transactions is not an array");
    size_t ntx = json_array_size(txs), total = 0, i;
    json_t *v;
    json_array_foreach(txs, i, v) {
        const char *d = json_is_object(v) ? str_field(v, "data") : NULL;
        if (!d) return fail(err, n, "transactions[%zu] has no data", i);
        size_t l = strlen(d);
        if (l % 2 || l / 2 > 4000000) return fail(err, n, "transactions[%zu].data has %zu hex digits", i, l);
        total += l / 2;
        if (total > 4000000) return fail(err, n, "transactions hold more than 4,000,000 bytes");
    }
    /* each transaction alone in a block (header, count 1, the transaction) for the library's block
     * parser: the data must be exactly one transaction, so the template's boundaries are the
     * block's, and the parser gives its txid */
    size_t longest = 0;
    json_array_foreach(txs, i, v) {
        size_t l = strlen(str_field(v, "data")) / 2;
        if (l > longest) longest = l;
    }
    uint8_t *one = malloc(81 + longest);
    t->tx = calloc(ntx ? ntx : 1, sizeof *t->tx);
    t->txids = malloc(ntx * 32 + 1);
    t->wtxids = malloc(ntx * 32 + 1);
    t->txdata = malloc(total + 1);
    kiln_ctx *ctx = kiln_ctx_new();
    if (!one || !t->tx || !t->txids || !t->wtxids || !t->txdata || !ctx) {
        free(one);
        kiln_ctx_free(ctx);
        return fail(err, n, "out of memory for %zu transactions", ntx);
    }
    memset(one, 0, 80);
    one[80] = 1;
    size_t off = 0;
    json_array_foreach(txs, i, v) {
        const char *d = str_field(v, "data");
        size_t l = strlen(d) / 2;
        kiln_block b;
        if (hex_bytes(d, one + 81, l, 0) != 0) {
            fail(err, n, "transactions[%zu].data is not hex", i);
        } else if (kiln_block_parse(ctx, one, 81 + l, &b) != KILN_OK) {
            fail(err, n, "transactions[%zu].data is not one transaction: %s", i, kiln_last_error(ctx));
        } else {
            memcpy(t->txids + 32 * i, b.txids, 32);
            kiln_block_free(&b);
            memcpy(t->txdata + off, one + 81, l);
            t->tx[i].len = l;
            off += l;
            continue;
        }
        free(one);
        kiln_ctx_free(ctx);
        return -1;
    }
    free(one);
    kiln_ctx_free(ctx);
    t->ntx = ntx;
    t->txdata_len = off;
    off = 0;
    json_array_foreach(txs, i, v) {
        t->tx[i].data = t->txdata + off;
        off += t->tx[i].len;
        kiln_sha256d(t->tx[i].data, t->tx[i].len, t->wtxids + 32 * i);
        uint8_t want[32];
        const char *id = str_field(v, "txid");
        if (id) {
            if (hex_bytes(id, want, 32, 1) != 0) return fail(err, n, "transactions[%zu].txid is not a 64-digit hash", i);
            if (memcmp(want, t->txids + 32 * i, 32) != 0)
                return fail(err, n, "transactions[%zu].txid %s is not the txid of its data", i, id);
        }
        const char *h = str_field(v, "hash");
        if (h) {
            if (hex_bytes(h, want, 32, 1) != 0) return fail(err, n, "transactions[%zu].hash is not a 64-digit hash", i);
            if (memcmp(want, t->wtxids + 32 * i, 32) != 0)
                return fail(err, n, "transactions[%zu].hash %s is not the wtxid of its data", i, h);
        }
    }
    return 0;
}

static int parse(json_t *o, gbt_template *t, char *err, size_t n)
{
    int64_t x = 0;
    int r;
    if (!json_is_object(o)) return fail(err, n, "the result is not an object");
    if (json_object_get(o, "mweb"))
        return fail(err, n, "it has an MWEB extension block (Litecoin with MWEB active): kiln cannot build MWEB blocks");
    if (int_field(o, "version", 0, UINT32_MAX, &x, 1, err, n)) return -1;
    t->version = (uint32_t)x;
    const char *s = str_field(o, "previousblockhash");
    if (!s || hex_bytes(s, t->prev, 32, 1) != 0) return fail(err, n, "previousblockhash is missing or not a 64-digit hash");
    s = str_field(o, "bits");
    uint8_t b4[4];
    if (!s || hex_bytes(s, b4, 4, 0) != 0) return fail(err, n, "bits is missing or not 8 hex digits");
    t->bits = (uint32_t)b4[0] << 24 | (uint32_t)b4[1] << 16 | (uint32_t)b4[2] << 8 | b4[3];
    s = str_field(o, "target");
    uint8_t zero[32] = {0};
    if (s) {
        if (hex_bytes(s, t->target, 32, 1) != 0) return fail(err, n, "target is not 64 hex digits");
    } else if (kiln_target_from_bits(NULL, t->bits, t->target) != KILN_OK) {
        return fail(err, n, "bits %08x is not a valid compact target", (unsigned)t->bits);
    }
    if (memcmp(t->target, zero, 32) == 0) return fail(err, n, "the target is zero");
    if (int_field(o, "height", 0, INT32_MAX, &t->height, 1, err, n)) return -1;
    if (int_field(o, "curtime", 0, UINT32_MAX, &x, 1, err, n)) return -1;
    t->curtime = (uint32_t)x;
    x = 0;
    if ((r = int_field(o, "mintime", 0, UINT32_MAX, &x, 0, err, n)) < 0) return -1;
    t->mintime = (uint32_t)x;
    if (int_field(o, "coinbasevalue", 0, INT64_C(2100000000000000) * 42, &t->coinbasevalue, 1, err, n)) return -1;
    t->nonce_lo = 0;
    t->nonce_hi = UINT32_MAX;
    if ((s = str_field(o, "noncerange"))) {
        uint8_t nr[8];
        if (hex_bytes(s, nr, 8, 0) != 0) return fail(err, n, "noncerange is not 16 hex digits");
        t->nonce_lo = (uint32_t)nr[0] << 24 | (uint32_t)nr[1] << 16 | (uint32_t)nr[2] << 8 | nr[3];
        t->nonce_hi = (uint32_t)nr[4] << 24 | (uint32_t)nr[5] << 16 | (uint32_t)nr[6] << 8 | nr[7];
        if (t->nonce_lo > t->nonce_hi) return fail(err, n, "noncerange %s is empty", s);
    }
    json_t *mut = json_object_get(o, "mutable");
    if (mut && !json_is_array(mut)) return fail(err, n, "mutable is not an array");
    t->time_mutable = !mut || has_string(mut, "time") || has_string(mut, "time/increment");
    if (parse_rules(o, t, err, n)) return -1;
    json_t *vba = json_object_get(o, "vbavailable");
    if (vba && !json_is_object(vba)) return fail(err, n, "vbavailable is not an object");
    if ((s = str_field(o, "default_witness_commitment"))) {
        size_t l = strlen(s) / 2;
        if (l < 38 || l > sizeof t->commit || hex_bytes(s, t->commit, l, 0) != 0 ||
            memcmp(t->commit, "\x6a\x24\xaa\x21\xa9\xed", 6) != 0)
            return fail(err, n, "default_witness_commitment %.80s is not a BIP 141 commitment script", s);
        t->commit_len = l;
    }
    json_t *aux = json_object_get(o, "coinbaseaux");
    if (aux) {
        if (!json_is_object(aux)) return fail(err, n, "coinbaseaux is not an object");
        const char *k;
        json_t *v;
        json_object_foreach(aux, k, v) {
            const char *h = json_is_string(v) ? json_string_value(v) : NULL;
            size_t l = h ? strlen(h) / 2 : 0;
            if (!h || strlen(h) % 2 || t->aux_len + l > sizeof t->aux || hex_bytes(h, t->aux + t->aux_len, l, 0) != 0)
                return fail(err, n, "coinbaseaux.%s is not hex of at most %d bytes in all", k, GBT_AUX_MAX);
            t->aux_len += l;
        }
    }
    if ((s = str_field(o, "longpollid"))) {
        if (strlen(s) >= sizeof t->longpollid) return fail(err, n, "longpollid is longer than %d", GBT_LONGPOLL_MAX - 1);
        strcpy(t->longpollid, s);
    }
    if ((s = str_field(o, "workid"))) {
        if (strlen(s) >= sizeof t->workid) return fail(err, n, "workid is longer than %d", GBT_LONGPOLL_MAX - 1);
        strcpy(t->workid, s);
    }
    return parse_txs(o, t, err, n);
}

int gbt_parse(const char *json, size_t len, gbt_template *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    json_error_t je;
    json_t *o = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
    if (!o) return fail(err, errlen, "not JSON (%s at %d)", je.text, je.position);
    int r = parse(o, t, err, errlen);
    json_decref(o);
    if (r) gbt_free(t);
    return r;
}

void gbt_free(gbt_template *t)
{
    free(t->tx);
    free(t->txids);
    free(t->wtxids);
    free(t->txdata);
    memset(t, 0, sizeof *t);
}
