/* Known answers for SHA-512 and SHA-512/256: the NIST CAVP byte-oriented short messages (0 to
 * 128 bytes, so one and two padded blocks, the padding alone in a block of its own included).
 * Each digest is computed four ways: the one-shot helper and the stream (the compression picked
 * at run time), the portable compression alone, and the lane kernel picked at run time with the
 * message in every lane. SHA-384 has no CAVP file here: test_sha512_openssl checks it. */
#include <stdlib.h>

#include "check.h"
#include "hash/sha512_host.h"
#include "prim/sha512.h"
#include "rsp.h"

typedef struct kat_file {
    const char *path;
    kiln_sha512_variant variant;
    int min_entries;
} kat_file;

static const kat_file files[] = {
    {"sha2/SHA512ShortMsg.rsp", KILN_SHA512_VARIANT_512, 129},
    {"sha2/SHA512_256ShortMsg.rsp", KILN_SHA512_VARIANT_512_256, 129},
};

/* The message through one compression function only, padded here. */
static void hash_with(kiln_sha512_blocks_fn blocks, kiln_sha512_variant v, const uint8_t *m, size_t len, uint8_t *out)
{
    uint64_t st[8];
    uint8_t tail[2 * KILN_SHA512_BLOCK];
    kiln_sha512_iv(v, st);
    blocks(st, m, len / KILN_SHA512_BLOCK);
    memcpy(tail, m + len - len % KILN_SHA512_BLOCK, len % KILN_SHA512_BLOCK);
    blocks(st, tail, kiln_sha512_pad(tail, len));
    kiln_sha512_store_digest(st, out, kiln_sha512_digest_len(v));
}

static void one_file(const kat_file *f)
{
    size_t len;
    char *text = rsp_slurp(test_data(f->path), &len);
    CHECK(text != NULL, "cannot read %s", f->path);
    if (!text) return;
    const kiln_sha512_lanes_impl *lanes = kiln_sha512_lanes();
    unsigned dlen = kiln_sha512_digest_len(f->variant);
    uint64_t iv[8];
    kiln_sha512_iv(f->variant, iv);
    rsp_reader r;
    rsp_init(&r, text, len);
    rsp_entry e;
    int n = 0, got;
    while ((got = rsp_next(&r, &e)) == 1) {
        CHECK(e.len_bits >= 0 && e.len_bits % 8 == 0, "%s line %ld: not a byte-length entry", f->path, e.line);
        CHECK(e.md_len == dlen, "%s line %ld: %zu-byte digest, want %u", f->path, e.line, e.md_len, dlen);
        size_t mlen = (size_t)e.len_bits / 8; /* Len = 0 is written with Msg = 00 */
        uint8_t d[64], lane_out[8][64];
        kiln_sha512_variant_hash(f->variant, e.msg, mlen, d);
        CHECK(memcmp(d, e.md, dlen) == 0, "%s line %ld: one-shot differs", f->path, e.line);

        kiln_sha512_ctx c;
        kiln_sha512_init(&c, f->variant);
        for (size_t i = 0; i < mlen; i++) kiln_sha512_update(&c, e.msg + i, 1); /* a byte at a time */
        memset(d, 0, sizeof d);
        kiln_sha512_final(&c, d);
        CHECK(memcmp(d, e.md, dlen) == 0, "%s line %ld: byte-wise stream differs", f->path, e.line);

        memset(d, 0, sizeof d);
        hash_with(kiln_sha512_blocks_portable(), f->variant, e.msg, mlen, d);
        CHECK(memcmp(d, e.md, dlen) == 0, "%s line %ld: portable compression differs", f->path, e.line);

        const uint8_t *in[8];
        uint8_t *out[8];
        for (unsigned k = 0; k < lanes->lanes; k++) {
            in[k] = e.msg;
            out[k] = lane_out[k];
        }
        memset(lane_out, 0, sizeof lane_out);
        lanes->hash(iv, in, mlen, out, dlen);
        for (unsigned k = 0; k < lanes->lanes; k++)
            CHECK(memcmp(lane_out[k], e.md, dlen) == 0, "%s line %ld: %s lane %u differs", f->path, e.line,
                  lanes->name, k);
        rsp_entry_free(&e);
        n++;
    }
    CHECK(got == 0, "%s: %s", f->path, r.err);
    CHECK(n >= f->min_entries, "%s: %d entries, expected at least %d", f->path, n, f->min_entries);
    printf("%-32s %4d entries\n", f->path, n);
    free(text);
}

int main(void)
{
    printf("sha512 compression: %s, lanes: %s\n", kiln_sha512_impl(), kiln_sha512_lanes()->name);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) one_file(&files[i]);
    return check_summary();
}
