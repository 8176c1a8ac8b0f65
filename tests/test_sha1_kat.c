/* Known answers for SHA-1 and SHA-224: the NIST CAVP byte-oriented vectors, short messages (0 to
 * 64 bytes, so one and two padded blocks) and long ones (up to some 6 KiB, runs of whole blocks).
 * Each digest is computed by the one-shot helper, the stream fed a byte at a time and in one
 * piece, the hashing front end (kiln_hash, its descriptor, listed in core/hash_list.h), and for SHA-1 by each
 * compression this CPU can run alone (the portable one, the SHA extensions), padded here. MD5's
 * answers are RFC 1321's (test_md5_rfc1321.c). */
#include <stdlib.h>

#include "check.h"
#include "core/cpu_features.h"
#include "hash/sha1_host.h"
#include "hash/sha256_host.h"
#include "kiln.h"
#include "prim/sha1.h"
#include "rsp.h"

/* The message through one SHA-1 compression function only, padded here. */
static void sha1_with(kiln_sha1_blocks_fn blocks, const uint8_t *m, size_t len, uint8_t out[20])
{
    kiln_sha1_ctx c;
    kiln_sha1_iv(c.state);
    c.total = 0;
    kiln_md64_update(&c, blocks, m, len);
    kiln_md64_pad(&c, blocks, 1);
    for (int i = 0; i < 5; i++) kiln_store_be32(out + 4 * i, c.state[i]);
}

static kiln_hash_algo algo_named(const char *name)
{
    kiln_hash_algo a = (kiln_hash_algo)0;
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_hash_algo_from_name(ctx, name, &a) == KILN_OK, "%s is a hash algorithm", name);
    kiln_ctx_free(ctx);
    return a;
}

typedef struct kat_file {
    const char *path;
    const char *algo;
    unsigned dlen;
    int min_entries;
} kat_file;

static const kat_file files[] = {
    {"sha1/SHA1ShortMsg.rsp", "sha1", 20, 65},
    {"sha1/SHA1LongMsg.rsp", "sha1", 20, 64},
    {"sha2/SHA224ShortMsg.rsp", "sha224", 28, 65},
    {"sha2/SHA224LongMsg.rsp", "sha224", 28, 64},
};

static void one_file(const kat_file *f)
{
    size_t len;
    char *text = rsp_slurp(test_data(f->path), &len);
    CHECK(text != NULL, "cannot read %s", f->path);
    if (!text) return;
    const int is_sha1 = f->dlen == 20;
    const kiln_hash_algo algo = algo_named(f->algo);
    CHECK(kiln_hash_digest_len(algo) == f->dlen && kiln_hash_block_len(algo) == 64, "%s sizes", f->algo);
    kiln_sha1_blocks_fn kernels[2] = {kiln_sha1_blocks_portable(), NULL};
    const char *kernel_names[2] = {"portable", "sha-ni"};
#if defined(KILN_X86_KERNELS)
    if (kiln_cpu()->sha_ni) kernels[1] = kiln_sha1_blocks_shani;
#endif
    rsp_reader r;
    rsp_init(&r, text, len);
    rsp_entry e;
    int n = 0, got;
    while ((got = rsp_next(&r, &e)) == 1) {
        CHECK(e.len_bits >= 0 && e.len_bits % 8 == 0, "%s line %ld: not a byte-length entry", f->path, e.line);
        CHECK(e.md_len == f->dlen, "%s line %ld: %zu-byte digest, want %u", f->path, e.line, e.md_len, f->dlen);
        size_t mlen = (size_t)e.len_bits / 8; /* Len = 0 is written with Msg = 00 */
        uint8_t d[32];

        memset(d, 0, sizeof d);
        if (is_sha1) kiln_sha1(e.msg, mlen, d);
        else kiln_sha224(e.msg, mlen, d);
        CHECK(memcmp(d, e.md, f->dlen) == 0, "%s line %ld: one-shot differs", f->path, e.line);

        memset(d, 0, sizeof d);
        if (is_sha1) {
            kiln_sha1_ctx c;
            kiln_sha1_init(&c);
            for (size_t i = 0; i < mlen; i++) kiln_sha1_update(&c, e.msg + i, 1); /* a byte at a time */
            kiln_sha1_final(&c, d);
        } else {
            kiln_sha256_stream s;
            uint8_t full[32];
            kiln_sha224_init(&s);
            for (size_t i = 0; i < mlen; i++) kiln_sha256_update(&s, e.msg + i, 1);
            kiln_sha256_final(&s, full);
            memcpy(d, full, 28);
        }
        CHECK(memcmp(d, e.md, f->dlen) == 0, "%s line %ld: byte-wise stream differs", f->path, e.line);

        memset(d, 0, sizeof d);
        CHECK(kiln_hash(algo, e.msg, mlen, d, f->dlen) == KILN_OK, "%s line %ld: kiln_hash", f->path, e.line);
        CHECK(memcmp(d, e.md, f->dlen) == 0, "%s line %ld: kiln_hash differs", f->path, e.line);

        for (int k = 0; is_sha1 && k < 2; k++) {
            if (!kernels[k]) continue;
            memset(d, 0, sizeof d);
            sha1_with(kernels[k], e.msg, mlen, d);
            CHECK(memcmp(d, e.md, 20) == 0, "%s line %ld: %s compression differs", f->path, e.line, kernel_names[k]);
        }
        rsp_entry_free(&e);
        n++;
    }
    CHECK(got == 0, "%s: %s", f->path, r.err);
    CHECK(n >= f->min_entries, "%s: %d entries, expected at least %d", f->path, n, f->min_entries);
    printf("%-28s %4d entries\n", f->path, n);
    free(text);
}

int main(void)
{
    printf("sha1 compression: %s (sha-ni on this CPU: %s)\n", kiln_sha1_impl(), kiln_cpu()->sha_ni ? "yes" : "no");
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) one_file(&files[i]);
    return check_summary();
}
