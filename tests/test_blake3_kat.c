/* BLAKE3 against the BLAKE3 team's test vectors (tests/data/blake3/test_vectors.json: inputs of 0 to
 * 102400 bytes, byte i = i mod 251; hash, keyed_hash and derive_key, each an extended output of 131
 * bytes whose first 32 are the default digest). Every case goes through the public stream
 * (kiln_hash_init_params, in pieces of several sizes, so that the context's block, the whole-chunk
 * runs and the subtree pushes all meet the chunk boundaries) and through the host hasher with each
 * kernel this CPU can run; the parameters BLAKE3 refuses are refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/cpu_dispatch.h"
#include "hash/blake3_host.h"
#include "kiln.h"

#define MAX_OUT 256
#define MAX_INPUT 102400

/* The value of "field": "..." on line s, or NULL. The file has one field a line. */
static const char *field(const char *line, const char *name, size_t *len)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": ", name);
    const char *p = strstr(line, pat);
    if (!p) return NULL;
    p += strlen(pat);
    if (*p == '"') {
        const char *q = strchr(++p, '"');
        if (!q) return NULL;
        *len = (size_t)(q - p);
        return p;
    }
    *len = strspn(p, "0123456789");
    return p;
}

static int unhex(const char *h, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(h + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (uint8_t)v;
    }
    return 0;
}

enum { MODE_HASH, MODE_KEYED, MODE_DERIVE };
static const char *const mode_names[] = {"hash", "keyed_hash", "derive_key"};
static char key[33], context[128];
static kiln_hash_algo blake3_id;

/* The public stream, in pieces of `piece` bytes. */
static void via_stream(int mode, const uint8_t *in, size_t len, size_t piece, uint8_t *out, size_t outlen)
{
    kiln_hash_stream s;
    kiln_hash_params p;
    memset(&p, 0, sizeof p);
    if (mode == MODE_KEYED) p.key = (const uint8_t *)key, p.key_len = 32;
    if (mode == MODE_DERIVE) p.context = context, p.context_len = strlen(context);
    CHECK(kiln_hash_init_params(&s, blake3_id, mode == MODE_HASH ? NULL : &p) == KILN_OK, "init");
    for (size_t o = 0; o < len; o += piece) kiln_hash_update(&s, in + o, len - o < piece ? len - o : piece);
    CHECK(kiln_hash_final(&s, out, outlen) == KILN_OK, "final");
}

/* The host hasher with one kernel, the input in one update. */
static void via_kernel(int mode, kiln_blake3_many_fn many, const uint8_t *in, size_t len, uint8_t *out, size_t outlen)
{
    kiln_blake3_ctx c;
    if (mode == MODE_HASH) kiln_blake3_init(&c);
    if (mode == MODE_KEYED) kiln_blake3_init_keyed(&c, (const uint8_t *)key);
    if (mode == MODE_DERIVE) kiln_blake3_init_derive_key(&c, context, strlen(context));
    kiln_blake3_update_with(&c, in, len, many);
    kiln_blake3_final(&c, out, outlen);
}

/* The parameters BLAKE3 takes (a 32-byte key, or a context string) and those it refuses. */
static void params(void)
{
    static const uint8_t k[32];
    kiln_hash_stream s;
    kiln_hash_params p;
    memset(&p, 0, sizeof p);
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_OK, "no parameters");
    p.key = k, p.key_len = 31;
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_ERR_INPUT, "a 31-byte key");
    p.key_len = 33;
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_ERR_INPUT, "a 33-byte key");
    p.key_len = 32, p.context = "c", p.context_len = 1;
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_ERR_INPUT, "a key and a context");
    memset(&p, 0, sizeof p);
    p.digest_len = 16;
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_ERR_INPUT, "a digest length");
    memset(&p, 0, sizeof p);
    p.salt = k, p.salt_len = 8;
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_ERR_INPUT, "a salt");
    memset(&p, 0, sizeof p);
    p.person = k, p.person_len = 8;
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_ERR_INPUT, "a personalization");
    memset(&p, 0, sizeof p);
    p.tree = 1;
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_ERR_INPUT, "tree parameters");
    memset(&p, 0, sizeof p);
    p.context = "", p.context_len = 0;
    CHECK(kiln_hash_init_params(&s, blake3_id, &p) == KILN_OK, "an empty context");
    CHECK(kiln_hash_is_xof(blake3_id) && kiln_hash_digest_len(blake3_id) == 32 && kiln_hash_block_len(blake3_id) == 64,
          "sizes");
    uint8_t out[1];
    kiln_hash_init(&s, blake3_id);
    CHECK(kiln_hash_final(&s, out, 0) == KILN_ERR_INPUT, "an empty output");
    CHECK(kiln_hash_final(&s, out, 1) == KILN_OK && out[0] == 0xaf, "one byte of BLAKE3(\"\")");
}

int main(void)
{
    CHECK(kiln_hash_algo_from_name(NULL, "blake3", &blake3_id) == KILN_OK, "blake3 is a hash");
    params();
    FILE *f = fopen(test_data("blake3/test_vectors.json"), "r");
    CHECK(f != NULL, "cannot read blake3/test_vectors.json");
    if (!f) return check_summary();
    uint8_t *in = malloc(MAX_INPUT);
    for (size_t i = 0; i < MAX_INPUT; i++) in[i] = (uint8_t)(i % 251);
    /* the kernels this CPU runs (each passed its self-test), the portable one among them */
    static const kiln_blake3_many_impl *kernels[4];
    int nk = 0;
    kernels[nk++] = kiln_blake3_many_portable();
#if defined(KILN_X86_KERNELS)
    static const kiln_blake3_many_impl avx2 = {"avx2", 8, kiln_blake3_many_avx2},
                                       avx512 = {"avx512", 16, kiln_blake3_many_avx512};
    if (kiln_cpu_have() & KILN_NEEDS_AVX2) kernels[nk++] = &avx2;
    if ((kiln_cpu_have() & KILN_NEEDS_AVX512) && (kiln_cpu_have() & KILN_NEEDS_AVX2)) kernels[nk++] = &avx512;
#endif
    char line[1024];
    size_t cases = 0, len = 0, n;
    const char *v;
    while (fgets(line, sizeof line, f)) {
        if ((v = field(line, "key", &n)) && n == 32) memcpy(key, v, 32);
        if ((v = field(line, "context_string", &n)) && n < sizeof context) memcpy(context, v, n), context[n] = 0;
        if ((v = field(line, "input_len", &n))) len = strtoul(v, NULL, 10), cases++;
        for (int mode = 0; mode < 3; mode++) {
            if (!(v = field(line, mode_names[mode], &n)) || n / 2 > MAX_OUT || len > MAX_INPUT) continue;
            uint8_t want[MAX_OUT], got[MAX_OUT];
            size_t outlen = n / 2;
            CHECK(unhex(v, outlen, want) == 0, "bad hex for %zu", len);
            static const size_t pieces[] = {MAX_INPUT, 1, 63, 64, 1000, 1024, 3 * 1024 + 1, 65536};
            for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
                if (pieces[i] < 64 && len > 8192) continue; /* byte-sized pieces: the small cases suffice */
                via_stream(mode, in, len, pieces[i], got, outlen);
                CHECK(memcmp(got, want, outlen) == 0, "%s of %zu bytes in pieces of %zu", mode_names[mode], len,
                      pieces[i]);
            }
            /* the default length is the first 32 bytes; a shorter output is a prefix */
            via_stream(mode, in, len, MAX_INPUT, got, 32);
            CHECK(memcmp(got, want, 32) == 0, "%s of %zu bytes, 32-byte output", mode_names[mode], len);
            via_stream(mode, in, len, MAX_INPUT, got, 7);
            CHECK(memcmp(got, want, 7) == 0, "%s of %zu bytes, 7-byte output", mode_names[mode], len);
            for (int k = 0; k < nk; k++) {
                via_kernel(mode, kernels[k]->fn, in, len, got, outlen);
                CHECK(memcmp(got, want, outlen) == 0, "%s of %zu bytes with the %s kernel", mode_names[mode], len,
                      kernels[k]->name);
            }
        }
    }
    fclose(f);
    free(in);
    CHECK(cases >= 35, "only %zu cases read", cases);
    for (int k = 0; k < nk; k++)
        CHECK(kiln_blake3_many_selftest(kernels[k]->fn), "the %s kernel fails its self-test", kernels[k]->name);
    return check_summary();
}
