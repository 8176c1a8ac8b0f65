/* The digest and permutation batches on every GPU backend of the build (CUDA, OpenCL:
 * gpu_backends.h), against known answers and the CPU: (a) the NIST CAVP and Keccak team files of
 * tests/data, every byte-length entry of a file in one batch through an offset table (SHAKE's
 * variable-output entries one batch each), and FIPS 180-4's "abc" examples for the algorithms
 * without a file; (b) every algorithm at every message length from 0 to 3 rates + 1 bytes back to
 * back (each block boundary, both kernels: one block and several; every byte alignment), XOF
 * outputs of 1 byte and past two blocks, the fixed-length batch below and above a block; (c) fixed
 * lengths each side of the block sizes and of their padding limits, and mixed lengths through
 * offsets, against the CPU's one-shot hash; (d) Keccak-f[1600] in every layout on 1000 states (not
 * a multiple of a group) against the CPU, and the zero state's known image; (e) BLAKE3: the BLAKE3
 * team's test vectors (tests/data/blake3/test_vectors.json, inputs of up to 100 chunks) in one
 * batch with their extended outputs, and b3sum's digest of "abc". The OpenCL program cache is
 * test_opencl_program's. KILN_TEST_PART=I/N runs the algorithms whose index is I modulo N (all
 * their cases), the permutations in part 0: make check runs three parts beside each other
 * (tests/CMakeLists.txt), each compiling its own kernels on PoCL (a minute and more in one test on
 * a busy 2-core machine, with no progress line from CTest meanwhile). */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "gpu_backends.h"
#include "kiln.h"
#include "rsp.h"

static kiln_hash_algo algo_of(const char *name)
{
    kiln_hash_algo a = KILN_HASH_SHA256;
    CHECK(kiln_hash_algo_from_name(NULL, name, &a) == KILN_OK, "algorithm %s", name);
    return a;
}

/* KILN_TEST_PART "I/N": this process's share of the algorithms */
static unsigned part_i, part_n = 1;

static int mine(kiln_hash_algo a) { return (unsigned)a % part_n == part_i; }

static void read_part(void)
{
    const char *p = getenv("KILN_TEST_PART");
    unsigned i, n;
    if (p && sscanf(p, "%u/%u", &i, &n) == 2 && n > 0 && i < n) part_i = i, part_n = n;
    else CHECK(!p || !*p, "KILN_TEST_PART '%s' is not I/N", p);
}

static unsigned block_of(kiln_hash_algo a)
{
    return kiln_hash_rate(a) ? kiln_hash_rate(a) : 64;
}

/* (a) Every byte-length entry of a KAT file (at least `min` of them), one batch; outlen 0: each
 * entry's own output length (SHAKE's variable-output files), a batch of one each. */
static void kat_file(const test_gpu *g, const char *path, const char *algo, size_t outlen, size_t min)
{
    size_t len;
    char *text = rsp_slurp(test_data(path), &len);
    CHECK(text != NULL, "cannot read %s", path);
    if (!text) return;
    kiln_hash_algo a = algo_of(algo);
    rsp_reader r;
    rsp_init(&r, text, len);
    rsp_entry e;
    enum { CAP = 4096, BYTES = 2 << 20 };
    size_t n = 0, bytes = 0;
    uint8_t *data = malloc(BYTES), *want = malloc(CAP * 64);
    uint64_t *off = malloc((CAP + 1) * sizeof *off);
    off[0] = 0;
    int got;
    while ((got = rsp_next(&r, &e)) == 1) {
        size_t mlen = e.len_bits >= 0 ? (size_t)e.len_bits / 8 : e.msg_len;
        if ((e.len_bits >= 0 && e.len_bits % 8) || bytes + mlen > BYTES || n == CAP) {
            rsp_entry_free(&e);
            continue;
        }
        if (outlen == 0) {
            uint8_t d[512];
            uint64_t o[2] = {0, mlen};
            CHECK(e.md_len <= sizeof d, "%s line %ld: output too long", path, e.line);
            if (e.md_len <= sizeof d)
                CHECK(kiln_hash_batch(g->ctx, a, e.msg, o, 1, d, e.md_len) == KILN_OK && memcmp(d, e.md, e.md_len) == 0,
                      "%s line %ld on %s: %s", path, e.line, g->device, kiln_last_error(g->ctx));
            n++;
        } else {
            CHECK(e.md_len == outlen, "%s line %ld: %zu-byte digest", path, e.line, e.md_len);
            memcpy(data + bytes, e.msg, mlen);
            memcpy(want + n * outlen, e.md, outlen);
            bytes += mlen;
            off[++n] = bytes;
        }
        rsp_entry_free(&e);
    }
    CHECK(got == 0, "%s: %s", path, r.err);
    CHECK(n >= min, "%s: only %zu entries", path, n);
    if (outlen) {
        uint8_t *out = malloc(n * outlen);
        kiln_status st = kiln_hash_batch(g->ctx, a, data, off, n, out, outlen);
        CHECK(st == KILN_OK, "%s on %s: %s", path, g->device, kiln_last_error(g->ctx));
        for (size_t i = 0; st == KILN_OK && i < n; i++)
            CHECK(memcmp(out + i * outlen, want + i * outlen, outlen) == 0, "%s on %s: entry %zu differs", path,
                  g->device, i);
        free(out);
    }
    free(text);
    free(data);
    free(want);
    free(off);
}

/* (e) Every case of the BLAKE3 test vectors (input byte i = i mod 251; the `hash` field, 131 bytes)
 * in one batch through an offset table. The file has one field a line. */
static void blake3_vectors(const test_gpu *g)
{
    FILE *f = fopen(test_data("blake3/test_vectors.json"), "r");
    CHECK(f != NULL, "cannot read blake3/test_vectors.json");
    if (!f) return;
    enum { CAP = 64, OUT = 131, BYTES = 1 << 20 };
    uint8_t *data = malloc(BYTES), *want = malloc(CAP * OUT), *out = malloc(CAP * OUT);
    uint64_t off[CAP + 1] = {0};
    size_t n = 0, len = 0;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        const char *p = strstr(line, "\"input_len\": ");
        if (p) len = strtoul(p + 13, NULL, 10);
        if (!(p = strstr(line, "\"hash\": \"")) || n == CAP || off[n] + len > BYTES) continue;
        char hex[2 * OUT + 1] = "";
        if (strlen(p + 9) > 2 * OUT) memcpy(hex, p + 9, 2 * OUT);
        CHECK(kiln_hex_decode(NULL, hex, want + n * OUT, OUT) == KILN_OK, "hex of %zu", len);
        for (size_t i = 0; i < len; i++) data[off[n] + i] = (uint8_t)(i % 251);
        off[n + 1] = off[n] + len;
        n++;
    }
    fclose(f);
    CHECK(n >= 35, "only %zu BLAKE3 cases", n);
    kiln_status st = kiln_hash_batch(g->ctx, algo_of("blake3"), data, off, n, out, OUT);
    CHECK(st == KILN_OK, "blake3 vectors on %s: %s", g->device, kiln_last_error(g->ctx));
    for (size_t i = 0; st == KILN_OK && i < n; i++)
        CHECK(memcmp(out + i * OUT, want + i * OUT, OUT) == 0, "blake3 of %llu bytes on %s differs",
              (unsigned long long)(off[i + 1] - off[i]), g->device);
    free(data), free(want), free(out);
}

/* FIPS 180-4's "abc" examples, for the algorithms tests/data has no CAVP file of. */
static void abc(const test_gpu *g, const char *algo, const char *hex)
{
    uint8_t want[64], got[64];
    size_t outlen = strlen(hex) / 2;
    CHECK(kiln_hex_decode(NULL, hex, want, outlen) == KILN_OK, "hex");
    CHECK(kiln_hash_batch_fixed(g->ctx, algo_of(algo), (const uint8_t *)"abc", 3, 1, got, outlen) == KILN_OK &&
              memcmp(got, want, outlen) == 0,
          "%s(\"abc\") on %s: %s", algo, g->device, kiln_last_error(g->ctx));
}

/* (b) */
static void every_length(const test_gpu *g, kiln_hash_algo algo, size_t outlen, unsigned long long *seed)
{
    kiln_ctx *ctx = g->ctx;
    const char *name = kiln_hash_algo_name(algo);
    size_t n = 3 * block_of(algo) + 2; /* lengths 0 .. 3 * rate + 1 */
    uint64_t *offsets = malloc((n + 1) * sizeof *offsets);
    size_t total = n * (n - 1) / 2;
    uint8_t *data = malloc(total + 1), *out = malloc(n * outlen), *want = malloc(outlen);
    for (size_t i = 0; i < total; i++) data[i] = (uint8_t)test_rand(seed);
    offsets[0] = 0;
    for (size_t i = 0; i < n; i++) offsets[i + 1] = offsets[i] + i; /* back to back: every alignment occurs */
    memset(out, 0xa5, n * outlen);
    CHECK(kiln_hash_batch(ctx, algo, data, offsets, n, out, outlen) == KILN_OK, "%s on %s: %s", name, g->device,
          kiln_last_error(ctx));
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        kiln_hash(algo, data + offsets[i], i, want, outlen);
        if (memcmp(want, out + i * outlen, outlen) != 0 && bad++ < 3)
            CHECK(0, "%s, %zu-byte message (offset %llu): %s differs", name, i, (unsigned long long)offsets[i], g->device);
    }
    CHECK(bad == 0, "%s (%zu-byte output) on %s: %d of %zu lengths differ", name, outlen, g->device, bad, n);

    /* only messages shorter than a block: the single-permutation kernel */
    size_t ns = block_of(algo), b = 0;
    CHECK(kiln_hash_batch(ctx, algo, data, offsets, ns, out, outlen) == KILN_OK, "%s", kiln_last_error(ctx));
    for (size_t i = 0; i < ns; i++) {
        kiln_hash(algo, data + offsets[i], i, want, outlen);
        b += memcmp(want, out + i * outlen, outlen) != 0;
    }
    CHECK(b == 0, "%s short kernel on %s: %zu differ", name, g->device, b);
    /* fixed length, below and above one block */
    size_t lens[2] = {block_of(algo) / 2, block_of(algo) + 3};
    for (int k = 0; k < 2; k++) {
        size_t m = total / lens[k] < n ? total / lens[k] : n; /* out holds n digests */
        CHECK(kiln_hash_batch_fixed(ctx, algo, data, lens[k], m, out, outlen) == KILN_OK, "%s", kiln_last_error(ctx));
        int d = 0;
        for (size_t i = 0; i < m; i++) {
            kiln_hash(algo, data + i * lens[k], lens[k], want, outlen);
            d += memcmp(want, out + i * outlen, outlen) != 0;
        }
        CHECK(d == 0, "%s fixed %zu bytes on %s: %d differ", name, lens[k], g->device, d);
    }
    free(offsets), free(data), free(out), free(want);
}

/* (c) n messages against the CPU's one-shot hash: fixed length (offsets NULL) or through offsets. */
static void against_cpu(const test_gpu *g, kiln_hash_algo a, size_t outlen, size_t msg_len, int mixed, size_t n,
                        unsigned long long *seed)
{
    const char *algo = kiln_hash_algo_name(a);
    uint64_t *off = malloc((n + 1) * sizeof *off);
    off[0] = 0;
    for (size_t i = 0; i < n; i++) off[i + 1] = off[i] + (mixed ? test_rand(seed) % 420 : msg_len);
    uint8_t *data = malloc(off[n] + 1), *out = malloc(n * outlen), *want = malloc(outlen);
    for (uint64_t k = 0; k < off[n]; k++) data[k] = (uint8_t)test_rand(seed);
    kiln_status st = mixed ? kiln_hash_batch(g->ctx, a, data, off, n, out, outlen)
                           : kiln_hash_batch_fixed(g->ctx, a, data, msg_len, n, out, outlen);
    CHECK(st == KILN_OK, "%s batch on %s: %s", algo, g->device, kiln_last_error(g->ctx));
    for (size_t i = 0; st == KILN_OK && i < n; i++) {
        kiln_hash(a, data + off[i], (size_t)(off[i + 1] - off[i]), want, outlen);
        CHECK(memcmp(out + i * outlen, want, outlen) == 0, "%s message %zu (%llu bytes, %s) on %s differs from the CPU",
              algo, i, (unsigned long long)(off[i + 1] - off[i]), mixed ? "offsets" : "fixed", g->device);
    }
    free(off);
    free(data);
    free(out);
    free(want);
}

/* (d) Every layout (its own kernel: one state a thread looped or unrolled, or 25 threads a state)
 * on N states, a partial group in each, against the CPU and the known answer. */
static void permutations(const test_gpu *g, kiln_ctx *cpu, unsigned long long *seed)
{
    enum { N = 1000 }; /* not a multiple of the lane layout's 32 states per block */
    uint64_t *start = malloc(N * 200), *st = malloc(N * 200), *ref = malloc(N * 200);
    for (int i = 0; i < N * 25; i++) start[i] = i < 25 ? 0 : test_rand(seed); /* state 0: the zero state */
    memcpy(ref, start, N * 200);
    CHECK(kiln_keccak_f1600_batch(cpu, ref, N, KILN_KECCAK_LAYOUT_AUTO) == KILN_OK, "CPU permutation");
    uint64_t one[25];
    memcpy(one, start + 25, sizeof one);
    kiln_keccak_permute(one);
    CHECK(memcmp(one, ref + 25, sizeof one) == 0, "the CPU batch equals the one-state permutation");
    for (int l = KILN_KECCAK_LAYOUT_AUTO; l <= KILN_KECCAK_LAYOUT_LANE; l++) {
        const char *name = kiln_keccak_layout_name((kiln_keccak_layout)l);
        memcpy(st, start, N * 200);
        CHECK(kiln_keccak_f1600_batch(g->ctx, st, N, (kiln_keccak_layout)l) == KILN_OK, "%s permutation (%s): %s",
              g->device, name, kiln_last_error(g->ctx));
        CHECK(memcmp(st, ref, N * 200) == 0, "%s Keccak-f[1600] (%s layout) differs from the CPU", g->device, name);
        /* Keccak-f[1600] of the zero state, lane 0 (KeccakF-1600-IntermediateValues.txt) */
        CHECK(st[0] == 0xF1258F7940E1DDE7ull, "%s layout: zero state's lane 0: %016llx", name, (unsigned long long)st[0]);
    }
    free(start), free(st), free(ref);
}

static void run(const test_gpu *g, kiln_ctx *cpu)
{
    if (mine(algo_of("sha256"))) abc(g, "sha256", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    if (mine(algo_of("sha256d"))) abc(g, "sha256d", "4f8b42c22dd3729b519ba6f68d2da7cc5b2d606d05daed5ad5128cc03e6c6358");
    if (mine(algo_of("sha384")))
        abc(g, "sha384", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
                         "8086072ba1e7cc2358baeca134c825a7");
    static const struct {
        const char *path, *algo;
        size_t outlen, min;
    } kats[] = {
        {"sha3/SHA3_256ShortMsg.rsp", "sha3-256", 32, 51},     {"sha3/SHA3_512ShortMsg.rsp", "sha3-512", 64, 10},
        {"sha3/SHA3_256LongMsg.rsp", "sha3-256", 32, 10},      {"sha3/SHA3_512LongMsg.rsp", "sha3-512", 64, 51},
        {"sha3/SHAKE128ShortMsg.rsp", "shake128", 16, 51},     {"sha3/SHAKE256ShortMsg.rsp", "shake256", 32, 10},
        {"sha3/SHAKE256VariableOut.subset.rsp", "shake256", 0, 10},
        {"keccak/ShortMsgKAT_256.txt", "keccak256", 32, 51},   {"keccak/LongMsgKAT_512.txt", "keccak512", 64, 51},
        {"sha2/SHA512ShortMsg.rsp", "sha512", 64, 10},         {"sha2/SHA512_256ShortMsg.rsp", "sha512-256", 32, 10},
        {"sha2/SHA224ShortMsg.rsp", "sha224", 28, 65},         {"sha2/SHA224LongMsg.rsp", "sha224", 28, 64},
        {"sha1/SHA1ShortMsg.rsp", "sha1", 20, 65},             {"sha1/SHA1LongMsg.rsp", "sha1", 20, 64},
        {"blake2/blake2b-unkeyed.rsp", "blake2b", 64, 256},    {"blake2/blake2s-unkeyed.rsp", "blake2s", 32, 256},
    };
    for (size_t i = 0; i < sizeof kats / sizeof kats[0]; i++)
        if (mine(algo_of(kats[i].algo))) kat_file(g, kats[i].path, kats[i].algo, kats[i].outlen, kats[i].min);
    if (mine(algo_of("md5"))) abc(g, "md5", "900150983cd24fb0d6963f7d28e17f72"); /* RFC 1321 appendix A.5; MD5 has no CAVP file */
    if (mine(algo_of("blake3"))) {
        blake3_vectors(g);
        abc(g, "blake3", "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"); /* b3sum 1.2.0 */
    }

    unsigned long long seed = 0x637564616b6bull;
    /* each side of the block sizes (64, 72, 104, 128, 136, 144, 168) and of their padding limits,
     * and 32 and 64, the lengths of the SHA3-256/Keccak-256 kernels whose message length is a constant */
    static const size_t lens[] = {0, 1, 32, 55, 56, 63, 64, 71, 72, 111, 112, 127, 128, 135, 136, 168, 169, 300,
                                  1024, 1025, 2049}; /* BLAKE3's chunks: one, one and a byte, two and a byte */
    for (int i = 0; i < (int)kiln_hash_algo_count(); i++) {
        kiln_hash_algo a = (kiln_hash_algo)i;
        if (!mine(a)) continue;
        const size_t dlen = kiln_hash_digest_len(a);
        every_length(g, a, dlen, &seed);
        if (kiln_hash_is_xof(a)) {
            every_length(g, a, 1, &seed);
            every_length(g, a, 2 * block_of(a) + 5, &seed); /* output past two blocks */
        }
        const size_t outlen = !kiln_hash_is_xof(a) ? dlen : a == KILN_HASH_SHAKE128 ? 300 : 7;
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) against_cpu(g, a, outlen, lens[l], 0, 5, &seed);
        against_cpu(g, a, outlen, 0, 1, 61, &seed);
    }
    if (part_i == 0) permutations(g, cpu, &seed);
}

int main(void)
{
    read_part();
    return test_gpu_each(run);
}
