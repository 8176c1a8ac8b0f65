/* BLAKE2b and BLAKE2s through the hashing front end (kiln_hash_init_params), against answers from
 * outside kiln: the BLAKE2 reference repository's keyed KAT files (blake2b-kat.txt,
 * blake2s-kat.txt) and its unkeyed entries (blake2-kat.json, as .rsp), RFC 7693's appendices A
 * and B ("abc") and appendix E's self-test (every digest length and key length of its grid folded
 * into one BLAKE2 hash whose 32 bytes the RFC prints), streams split at every place of a block,
 * and the ranges Python's hashlib refuses. With an argument: a vector file that
 * test_blake2_hashlib.sh writes from Python's hashlib at test time (every parameter of the
 * parameter block), one vector a line:
 *   algo digest_size key salt person fanout depth leaf_size node_offset node_depth inner_size
 *   last_node message digest
 * byte fields in hex, '-' for empty. */
#include <stdint.h>

#include "check.h"
#include "kiln.h"
#include "rsp.h"

static kiln_hash_algo algo_of(const char *name)
{
    kiln_hash_algo a = KILN_HASH_SHA256;
    CHECK(kiln_hash_algo_from_name(NULL, name, &a) == KILN_OK, "no algorithm %s", name);
    return a;
}

/* Hex to bytes ('-' or "" is empty); NULL on a bad digit. */
static uint8_t *unhex(const char *s, size_t *n)
{
    size_t len = strcmp(s, "-") == 0 ? 0 : strlen(s);
    uint8_t *b = malloc(len / 2 + 1);
    *n = len / 2;
    for (size_t i = 0; i < *n; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) {
            free(b);
            return NULL;
        }
        b[i] = (uint8_t)v;
    }
    return b;
}

/* The digest of msg with params p, in one update, or split at `split` (a second update after it). */
static kiln_status digest(kiln_hash_algo a, const kiln_hash_params *p, const uint8_t *msg, size_t len, size_t split,
                          uint8_t *out, size_t outlen)
{
    kiln_hash_stream s;
    kiln_status st = kiln_hash_init_params(&s, a, p);
    if (split > len) split = len;
    if (st == KILN_OK) st = kiln_hash_update(&s, msg, split);
    if (st == KILN_OK) st = kiln_hash_update(&s, msg + split, len - split);
    if (st == KILN_OK) st = kiln_hash_final(&s, out, outlen);
    return st;
}

/* The reference repository's keyed KAT: "in:", "key:", "hash:" lines, tab-separated, 256 entries
 * (messages of 0..255 bytes under the key 00 01 02 ...); each also split at every byte position
 * of its first two blocks' edges. */
static void keyed_kat(const char *path, const char *algo, size_t outlen)
{
    FILE *f = fopen(test_data(path), "r");
    CHECK(f != NULL, "cannot read %s", path);
    if (!f) return;
    kiln_hash_algo a = algo_of(algo);
    char line[1200], in[1200] = "", key[1200] = "";
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, "in:\t", 4) == 0) snprintf(in, sizeof in, "%s", line + 4);
        else if (strncmp(line, "key:\t", 5) == 0) snprintf(key, sizeof key, "%s", line + 5);
        if (strncmp(line, "hash:\t", 6) != 0) continue;
        size_t mlen, klen, hlen;
        uint8_t *m = unhex(in, &mlen), *k = unhex(key, &klen), *want = unhex(line + 6, &hlen), got[64];
        CHECK(m && k && want && hlen == outlen, "%s entry %d: bad line", path, n);
        kiln_hash_params p = {.key = k, .key_len = klen};
        static const size_t splits[] = {0, 1, 31, 32, 63, 64, 65, 127, 128, 129, 200};
        for (size_t i = 0; m && k && want && i < sizeof splits / sizeof splits[0]; i++) {
            memset(got, 0, sizeof got);
            CHECK(digest(a, &p, m, mlen, splits[i], got, outlen) == KILN_OK && memcmp(got, want, outlen) == 0,
                  "%s entry %d (%zu bytes) split at %zu", path, n, mlen, splits[i]);
        }
        free(m), free(k), free(want);
        n++;
    }
    fclose(f);
    CHECK(n == 256, "%s: %d entries", path, n);
}

/* The unkeyed entries (.rsp: Len, Msg, MD) through kiln_hash and a byte-at-a-time stream. */
static void unkeyed_rsp(const char *path, const char *algo, size_t outlen)
{
    size_t len;
    char *text = rsp_slurp(test_data(path), &len);
    CHECK(text != NULL, "cannot read %s", path);
    if (!text) return;
    kiln_hash_algo a = algo_of(algo);
    rsp_reader r;
    rsp_init(&r, text, len);
    rsp_entry e;
    int got, n = 0;
    while ((got = rsp_next(&r, &e)) == 1) {
        size_t mlen = (size_t)e.len_bits / 8;
        uint8_t d[64], d2[64];
        CHECK(kiln_hash(a, e.msg, mlen, d, outlen) == KILN_OK && e.md_len == outlen && memcmp(d, e.md, outlen) == 0,
              "%s line %ld", path, e.line);
        kiln_hash_stream s;
        kiln_hash_init(&s, a);
        for (size_t i = 0; i < mlen; i++) kiln_hash_update(&s, e.msg + i, 1);
        CHECK(kiln_hash_final(&s, d2, outlen) == KILN_OK && memcmp(d2, e.md, outlen) == 0, "%s line %ld byte by byte",
              path, e.line);
        rsp_entry_free(&e);
        n++;
    }
    CHECK(got == 0 && n == 256, "%s: %s, %d entries", path, r.err, n);
    free(text);
}

/* RFC 7693 appendix E: selftest_seq, the test's deterministic input. */
static void selftest_seq(uint8_t *out, size_t len, uint32_t seed)
{
    uint32_t a = 0xDEAD4BADu * seed, b = 1;
    for (size_t i = 0; i < len; i++) {
        uint32_t t = a + b;
        a = b;
        b = t;
        out[i] = (uint8_t)(t >> 24);
    }
}

/* RFC 7693 appendix E's blake2b_selftest / blake2s_selftest: unkeyed and keyed digests of four
 * lengths over six message lengths, fed to one 32-byte hash whose result the RFC gives. */
static void rfc_selftest(const char *algo, const size_t md_len[4], const size_t in_len[6], const char *want)
{
    kiln_hash_algo a = algo_of(algo);
    kiln_hash_stream all;
    kiln_hash_params p32 = {.digest_len = 32};
    CHECK(kiln_hash_init_params(&all, a, &p32) == KILN_OK, "%s: 32-byte digest refused", algo);
    uint8_t in[1024], key[64], md[64], res[32];
    for (int i = 0; i < 4; i++) {
        size_t outlen = md_len[i];
        for (int j = 0; j < 6; j++) {
            size_t inlen = in_len[j];
            selftest_seq(in, inlen, (uint32_t)inlen);
            kiln_hash_params p = {.digest_len = outlen};
            CHECK(digest(a, &p, in, inlen, inlen, md, outlen) == KILN_OK, "%s unkeyed %zu/%zu", algo, outlen, inlen);
            kiln_hash_update(&all, md, outlen);
            selftest_seq(key, outlen, (uint32_t)outlen);
            p.key = key;
            p.key_len = outlen;
            CHECK(digest(a, &p, in, inlen, inlen, md, outlen) == KILN_OK, "%s keyed %zu/%zu", algo, outlen, inlen);
            kiln_hash_update(&all, md, outlen);
        }
    }
    char hex[65];
    CHECK(kiln_hash_final(&all, res, 32) == KILN_OK, "%s: final", algo);
    kiln_hex_encode(res, 32, 0, hex);
    CHECK_STR(hex, want);
}

/* Values Python's hashlib refuses (ValueError / OverflowError) are refused here too. */
static void refusals(const char *algo, size_t out_max, size_t key_max, size_t salt_max, uint64_t offset_max)
{
    kiln_hash_algo a = algo_of(algo);
    kiln_hash_stream s;
    uint8_t bytes[80] = {0}, out[64];
    const kiln_hash_params ok_tree = {.tree = 1, .fanout = 0, .depth = 255, .node_offset = offset_max, .node_depth = 255,
                                      .inner_size = out_max, .leaf_size = UINT32_MAX, .last_node = 1};
    CHECK(kiln_hash_init_params(&s, a, &ok_tree) == KILN_OK, "%s: the largest tree fields refused", algo);
    kiln_hash_params bad[] = {
        {.digest_len = out_max + 1},
        {.key = bytes, .key_len = key_max + 1},
        {.salt = bytes, .salt_len = salt_max + 1},
        {.person = bytes, .person_len = salt_max + 1},
        {.key_len = 1}, /* a length without its bytes */
        {.tree = 1, .depth = 0},
        {.tree = 1, .depth = 256},
        {.tree = 1, .depth = 1, .fanout = 256},
        {.tree = 1, .depth = 1, .node_depth = 256},
        {.tree = 1, .depth = 1, .inner_size = (unsigned)out_max + 1},
        {.context = "x", .context_len = 1}, /* BLAKE3's, not BLAKE2's */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(kiln_hash_init_params(&s, a, &bad[i]) == KILN_ERR_INPUT, "%s: bad parameters %zu accepted", algo, i);
    if (offset_max != UINT64_MAX) {
        kiln_hash_params p = {.tree = 1, .depth = 1, .node_offset = offset_max + 1};
        CHECK(kiln_hash_init_params(&s, a, &p) == KILN_ERR_INPUT, "%s: node_offset past 48 bits accepted", algo);
    }
    /* the stream's digest is the length asked for, and no other */
    kiln_hash_params p = {.digest_len = 20};
    CHECK(kiln_hash_init_params(&s, a, &p) == KILN_OK && kiln_hash_final(&s, out, out_max) == KILN_ERR_INPUT,
          "%s: final of the default length after digest_len 20", algo);
}

/* One line of the hashlib vector file; 0 when it does not parse. */
static int vector_line(char *line, long lineno)
{
    char algo[16], key[200], salt[40], person[40], msg[4200], want[200];
    unsigned digest_size, fanout, depth, node_depth, inner_size;
    unsigned long leaf_size;
    unsigned long long node_offset;
    int last_node;
    if (sscanf(line, "%15s %u %199s %39s %39s %u %u %lu %llu %u %u %d %4199s %199s", algo, &digest_size, key, salt,
               person, &fanout, &depth, &leaf_size, &node_offset, &node_depth, &inner_size, &last_node, msg,
               want) != 14)
        return 0;
    size_t klen, slen, plen, mlen, wlen;
    uint8_t *k = unhex(key, &klen), *sa = unhex(salt, &slen), *pe = unhex(person, &plen), *m = unhex(msg, &mlen),
            *w = unhex(want, &wlen), got[64];
    int parsed = k && sa && pe && m && w && wlen == digest_size && wlen <= sizeof got;
    if (parsed) {
        kiln_hash_params p = {.digest_len = digest_size, .key = k, .key_len = klen, .salt = sa, .salt_len = slen,
                              .person = pe, .person_len = plen, .tree = 1, .fanout = fanout, .depth = depth,
                              .leaf_size = (uint32_t)leaf_size, .node_offset = node_offset, .node_depth = node_depth,
                              .inner_size = inner_size, .last_node = last_node};
        kiln_status st = digest(algo_of(algo), &p, m, mlen, mlen / 2, got, wlen);
        CHECK(st == KILN_OK && memcmp(got, w, wlen) == 0, "hashlib vector line %ld (%s): status %d", lineno, algo,
              (int)st);
    }
    free(k), free(sa), free(pe), free(m), free(w);
    return parsed;
}

static void hashlib_vectors(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot read %s", path);
    if (!f) return;
    static char line[8192];
    long n = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n') continue;
        CHECK(vector_line(line, lineno), "%s line %ld does not parse", path, lineno);
        n++;
    }
    fclose(f);
    CHECK(n >= 100, "%s: only %ld vectors", path, n);
    printf("%ld hashlib vectors\n", n);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        hashlib_vectors(argv[1]);
        return check_summary();
    }
    keyed_kat("blake2/blake2b-kat.txt", "blake2b", 64);
    keyed_kat("blake2/blake2s-kat.txt", "blake2s", 32);
    unkeyed_rsp("blake2/blake2b-unkeyed.rsp", "blake2b", 64);
    unkeyed_rsp("blake2/blake2s-unkeyed.rsp", "blake2s", 32);

    /* RFC 7693 appendix A (BLAKE2b-512) and B (BLAKE2s-256) of "abc" */
    uint8_t d[64];
    char hex[129];
    CHECK(kiln_hash(algo_of("blake2b"), "abc", 3, d, 64) == KILN_OK, "blake2b abc");
    kiln_hex_encode(d, 64, 0, hex);
    CHECK_STR(hex, "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
                   "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    CHECK(kiln_hash(algo_of("blake2s"), "abc", 3, d, 32) == KILN_OK, "blake2s abc");
    kiln_hex_encode(d, 32, 0, hex);
    CHECK_STR(hex, "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982");

    /* RFC 7693 appendix E: blake2b_res and blake2s_res */
    static const size_t b_md[4] = {20, 32, 48, 64}, b_in[6] = {0, 3, 128, 129, 255, 1024};
    static const size_t s_md[4] = {16, 20, 28, 32}, s_in[6] = {0, 3, 64, 65, 255, 1024};
    rfc_selftest("blake2b", b_md, b_in, "c23a7800d98123bd10f506c61e29da5603d763b8bbad2e737f5e765a7bccd475");
    rfc_selftest("blake2s", s_md, s_in, "6a411f08ce25adcdfb02aba641451cec53c598b24f4fc787fbdc88797f4c1dfe");

    refusals("blake2b", 64, 64, 16, UINT64_MAX);
    refusals("blake2s", 32, 32, 8, (UINT64_C(1) << 48) - 1);

    /* the other families take no parameters */
    kiln_hash_stream s;
    kiln_hash_params p = {.digest_len = 16};
    CHECK(kiln_hash_init_params(&s, algo_of("sha256"), &p) == KILN_ERR_INPUT, "sha256 took a digest length");
    return check_summary();
}
