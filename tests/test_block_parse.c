/* The raw block parser as a table of malformed blocks and as a fuzz target: truncations of real
 * blocks at every kind of boundary and random byte flips never crash, and every rejection is
 * KILN_ERR_INPUT with a message naming the byte offset. */
#include "check.h"
#include "kiln.h"
#include "test_data_files.h"

static int names_offset(kiln_ctx *ctx) { return strstr(kiln_last_error(ctx), "offset ") != NULL; }

/* A tiny block builder for the table tests. */
typedef struct buf {
    uint8_t b[4096];
    size_t n;
} buf;

static void put(buf *w, const void *p, size_t n)
{
    memcpy(w->b + w->n, p, n);
    w->n += n;
}
static void put8(buf *w, uint8_t v) { put(w, &v, 1); }
static void put32(buf *w, uint32_t v)
{
    for (int i = 0; i < 4; i++) put8(w, (uint8_t)(v >> (8 * i)));
}
static void zeros(buf *w, size_t n)
{
    memset(w->b + w->n, 0, n);
    w->n += n;
}

/* One input (null outpoint, script "ab"), one output (value 1, script "cd"). */
static void legacy_tx(buf *w)
{
    put32(w, 1);
    put8(w, 1);
    zeros(w, 36);
    put8(w, 1);
    put8(w, 0xab);
    put32(w, 0xffffffff);
    put8(w, 1);
    put8(w, 1);
    zeros(w, 7);
    put8(w, 1);
    put8(w, 0xcd);
    put32(w, 0);
}

/* The same transaction in the segwit serialization with a witness stack of `items` items. */
static void segwit_tx(buf *w, uint8_t flag, int items)
{
    put32(w, 1);
    put8(w, 0);
    put8(w, flag);
    put8(w, 1);
    zeros(w, 36);
    put8(w, 1);
    put8(w, 0xab);
    put32(w, 0xffffffff);
    put8(w, 1);
    put8(w, 1);
    zeros(w, 7);
    put8(w, 1);
    put8(w, 0xcd);
    put8(w, (uint8_t)items);
    for (int i = 0; i < items; i++) {
        put8(w, 2);
        put8(w, 0x11);
        put8(w, 0x22);
    }
    put32(w, 0);
}

static void table(kiln_ctx *ctx)
{
    kiln_block b;
    buf w;
    uint8_t legacy_id[32], segwit_id[32];

    w.n = 0;
    zeros(&w, 80);
    put8(&w, 1);
    legacy_tx(&w);
    CHECK(kiln_block_parse(ctx, w.b, w.n, &b) == KILN_OK && b.n_tx == 1 && b.n_segwit == 0, "legacy: %s",
          kiln_last_error(ctx));
    kiln_sha256d(w.b + 81, w.n - 81, legacy_id);
    CHECK(b.n_tx == 1 && memcmp(b.txids, legacy_id, 32) == 0, "legacy txid = sha256d of the transaction");
    kiln_block_free(&b);

    /* the segwit form of the same transaction has the same txid */
    w.n = 0;
    zeros(&w, 80);
    put8(&w, 2);
    segwit_tx(&w, 1, 2);
    legacy_tx(&w);
    CHECK(kiln_block_parse(ctx, w.b, w.n, &b) == KILN_OK && b.n_tx == 2 && b.n_segwit == 1, "segwit: %s",
          kiln_last_error(ctx));
    if (b.n_tx == 2) {
        memcpy(segwit_id, b.txids, 32);
        CHECK(memcmp(segwit_id, legacy_id, 32) == 0, "segwit txid ignores marker, flag and witness");
    }
    kiln_block_free(&b);

    static const struct {
        const char *what;
        uint8_t flag;
        int items;
        const char *message;
    } bad[] = {
        {"unknown flag", 2, 1, "unknown flag"},
        {"empty witness record", 1, 0, "every stack empty"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w.n = 0;
        zeros(&w, 80);
        put8(&w, 1);
        segwit_tx(&w, bad[i].flag, bad[i].items);
        CHECK(kiln_block_parse(ctx, w.b, w.n, &b) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), bad[i].message) &&
                  names_offset(ctx),
              "%s: %s", bad[i].what, kiln_last_error(ctx));
    }

    /* trailing bytes, zero transactions, non-canonical and oversized counts */
    w.n = 0;
    zeros(&w, 80);
    put8(&w, 1);
    legacy_tx(&w);
    put8(&w, 0);
    CHECK(kiln_block_parse(ctx, w.b, w.n, &b) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "follow") &&
              names_offset(ctx),
          "trailing byte: %s", kiln_last_error(ctx));
    w.n = 0;
    zeros(&w, 80);
    put8(&w, 0);
    CHECK(kiln_block_parse(ctx, w.b, w.n, &b) == KILN_ERR_INPUT && names_offset(ctx), "no transactions: %s",
          kiln_last_error(ctx));
    w.n = 0;
    zeros(&w, 80);
    put8(&w, 0xfd);
    put8(&w, 1);
    put8(&w, 0);
    legacy_tx(&w);
    CHECK(kiln_block_parse(ctx, w.b, w.n, &b) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "non-canonical") &&
              strstr(kiln_last_error(ctx), "offset 80"),
          "non-canonical count: %s", kiln_last_error(ctx));
    w.n = 0;
    zeros(&w, 80);
    put8(&w, 0xff);
    for (int i = 0; i < 8; i++) put8(&w, 0xff);
    CHECK(kiln_block_parse(ctx, w.b, w.n, &b) == KILN_ERR_INPUT && names_offset(ctx), "huge count: %s",
          kiln_last_error(ctx));
    CHECK(kiln_block_parse(ctx, w.b, 79, &b) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "header needs 80 bytes at offset 0"),
          "short header: %s", kiln_last_error(ctx));
    CHECK(kiln_block_parse(ctx, NULL, 0, &b) == KILN_ERR_INPUT, "empty");
}

/* A block of one transaction whose output script fills it to `total` bytes (over 65,680, for the
 * script length to take its 4-byte CompactSize). */
static uint8_t *block_of_size(size_t total)
{
    uint8_t *p = calloc(total, 1), *q = p + 80;
    size_t script = total - 145;
    *q++ = 1; /* one transaction */
    *q++ = 1; /* version 1 */
    q += 3;
    *q++ = 1; /* one input: null outpoint, empty script, sequence 0 */
    q += 36 + 1 + 4;
    *q++ = 1; /* one output: value 0, a script of `script` bytes */
    q += 8;
    *q++ = 0xfe;
    for (int i = 0; i < 4; i++) *q++ = (uint8_t)(script >> (8 * i));
    return p; /* the script and the lock time are zeros */
}

/* No block can be larger than 4,000,000 bytes (its weight is at most 4,000,000 units and every
 * byte weighs at least one); one byte more is refused before parsing, naming the limit. The
 * parser does not weigh blocks, so a 4,000,000-byte block without witnesses still parses. */
static void size_limit(kiln_ctx *ctx)
{
    kiln_block b;
    uint8_t *p = block_of_size(100000);
    CHECK(kiln_block_parse(ctx, p, 100000, &b) == KILN_OK && b.n_tx == 1, "100,000-byte block: %s", kiln_last_error(ctx));
    kiln_block_free(&b);
    free(p);
    p = block_of_size(4000000);
    CHECK(kiln_block_parse(ctx, p, 4000000, &b) == KILN_OK && b.n_tx == 1, "4,000,000-byte block: %s",
          kiln_last_error(ctx));
    kiln_block_free(&b);
    free(p);
    p = block_of_size(4000001);
    CHECK(kiln_block_parse(ctx, p, 4000001, &b) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "4000000 bytes"),
          "4,000,001-byte block: %s", kiln_last_error(ctx));
    free(p);
}

/* Parses a damaged copy: success or KILN_ERR_INPUT naming an offset, nothing else. */
static int parse_ok_or_offset(kiln_ctx *ctx, const uint8_t *p, size_t n, int must_fail)
{
    kiln_block b;
    kiln_status st = kiln_block_parse(ctx, p, n, &b);
    if (st == KILN_OK) {
        kiln_block_free(&b);
        return !must_fail;
    }
    return st == KILN_ERR_INPUT && names_offset(ctx);
}

static void fuzz(kiln_ctx *ctx, const char *file, int truncations, int flips)
{
    size_t len;
    unsigned char *raw = slurp(test_data(file), &len);
    CHECK(raw != NULL, "%s", file);
    if (!raw) return;
    unsigned char *copy = malloc(len);
    unsigned long long seed = len;
    int bad = 0;
    /* every cut in the first 600 bytes (header, counts, first transactions) and random ones after */
    for (int i = 0; i < truncations; i++) {
        size_t cut = i < 600 && (size_t)i < len ? (size_t)i : (size_t)(test_rand(&seed) % len);
        memcpy(copy, raw, cut);
        if (!parse_ok_or_offset(ctx, copy, cut, 1)) {
            bad++;
            fprintf(stderr, "  %s cut at %zu: %s\n", file, cut, kiln_last_error(ctx));
        }
    }
    CHECK(bad == 0, "%s: %d truncations not rejected with an offset", file, bad);
    bad = 0;
    for (int i = 0; i < flips; i++) {
        memcpy(copy, raw, len);
        int k = 1 + (int)(test_rand(&seed) % 3);
        for (int j = 0; j < k; j++) copy[test_rand(&seed) % len] ^= (uint8_t)(1 + test_rand(&seed) % 255);
        if (!parse_ok_or_offset(ctx, copy, len, 0)) {
            bad++;
            fprintf(stderr, "  %s flip %d: %s\n", file, i, kiln_last_error(ctx));
        }
    }
    CHECK(bad == 0, "%s: %d byte-flipped blocks gave neither a parse nor an offset", file, bad);
    free(copy);
    free(raw);
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    table(ctx);
    size_limit(ctx);
    fuzz(ctx, "testnet3_block_000000000000045e.raw", 3000, 3000);
    fuzz(ctx, "block413567.raw", 700, 40);
    kiln_ctx_free(ctx);
    return check_summary();
}
