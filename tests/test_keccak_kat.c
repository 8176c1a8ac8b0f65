/* Known answers for Keccak-f[1600] and every sponge built on it: the NIST CAVP SHA-3 and SHAKE
 * vectors (ShortMsg, LongMsg, VariableOut), the Keccak team's KATs for the original padding, and
 * XKCP's intermediate values of the permutation. Each digest is computed three ways: the library's
 * streaming API (the host permutation picked at run time), the one-shot helpers, and the pure
 * sponge of src/prim/keccak.h that the GPU kernels also run; and once more through every host
 * kernel this CPU can run (portable, avx2, avx512), forced, whichever the dispatch picked. Those
 * kernels are also compared with the portable permutation on random states, and every sponge over
 * several messages at once (the lanes kernels of batches) goes through the same answers and
 * against the pure sponge on distinct random messages. */
#include <stdlib.h>

#include "check.h"
#include "hash/keccak_host.h"
#include "kiln.h"
#include "prim/keccak.h"
#include "rsp.h"

typedef struct kat_file {
    const char *path;
    kiln_hash_algo algo;
    int min_entries;
} kat_file;

static kiln_keccak_host_impl impls[8];
static int n_impls;
static kiln_keccak_lanes_impl lanes_impls[8];
static int n_lanes;

/* The known answer through every lanes kernel, the message in each of its lanes. */
static void lanes_kat(const uint8_t *msg, size_t len, unsigned rate, uint8_t domain, const uint8_t *md, size_t outlen,
                      const char *where)
{
    if (outlen > rate) return; /* the lanes squeeze one block */
    for (int i = 0; i < n_lanes; i++) {
        const uint8_t *in[8];
        uint8_t dig[8][200], *o[8];
        for (unsigned k = 0; k < lanes_impls[i].lanes; k++) {
            in[k] = msg;
            o[k] = dig[k];
        }
        lanes_impls[i].hash(in, len, rate, domain, o, outlen);
        for (unsigned k = 0; k < lanes_impls[i].lanes; k++)
            CHECK(memcmp(dig[k], md, outlen) == 0, "%s: %s lanes kernel, lane %u differs", where, lanes_impls[i].name, k);
    }
}

/* Every lanes kernel against the pure sponge on distinct random messages, for every rate and
 * domain of the hash algorithms and lengths either side of the block size. */
static void lanes_random(void)
{
    uint64_t seed = 0x6b696c6e;
    for (size_t a = 0; a < kiln_hash_algo_count(); a++) {
        unsigned rate = kiln_hash_rate((kiln_hash_algo)a);
        if (rate == 0) continue; /* not a Keccak sponge */
        uint8_t domain = kiln_hash_domain((kiln_hash_algo)a);
        size_t outlen = kiln_hash_digest_len((kiln_hash_algo)a);
        const size_t lens[] = {0, 1, 7, 8, rate - 2, rate - 1, rate, rate + 1, 2 * rate - 1, 2 * rate, 3 * rate + 5};
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            for (int i = 0; i < n_lanes; i++) {
                const unsigned L = lanes_impls[i].lanes;
                uint8_t *msgs = malloc(L * (lens[li] + 1)), dig[8][200], want[200], *o[8];
                const uint8_t *in[8];
                for (size_t b = 0; b < L * (lens[li] + 1); b++) {
                    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                    msgs[b] = (uint8_t)(seed >> 56);
                }
                for (unsigned k = 0; k < L; k++) {
                    in[k] = msgs + k * (lens[li] + 1);
                    o[k] = dig[k];
                }
                lanes_impls[i].hash(in, lens[li], rate, domain, o, outlen);
                for (unsigned k = 0; k < L; k++) {
                    kiln_keccak_sponge(in[k], lens[li], rate, domain, want, outlen);
                    CHECK(memcmp(dig[k], want, outlen) == 0, "%s, %zu bytes: %s lanes kernel, lane %u differs",
                          kiln_hash_algo_name((kiln_hash_algo)a), lens[li], lanes_impls[i].name, k);
                }
                free(msgs);
            }
        }
    }
}

/* The sponge through one host kernel: whole blocks by its absorb, the rest by its permute. */
static void impl_sponge(const kiln_keccak_host_impl *impl, const uint8_t *msg, size_t len, unsigned rate,
                        uint8_t domain, uint8_t *out, size_t outlen)
{
    uint64_t s[25] = {0};
    impl->absorb(s, msg, len / rate, rate);
    size_t done = len - len % rate;
    for (size_t i = 0; i < len % rate; i++) kiln_keccak_xor_byte(s, i, msg[done + i]);
    kiln_keccak_pad(s, len % rate, rate, domain);
    impl->permute(s);
    for (size_t i = 0, pos = 0; i < outlen; i++, pos++) {
        if (pos == rate) {
            impl->permute(s);
            pos = 0;
        }
        out[i] = kiln_keccak_get_byte(s, pos);
    }
}

static const kat_file files[] = {
    {"sha3/SHA3_224ShortMsg.rsp", KILN_HASH_SHA3_224, 100},   {"sha3/SHA3_256ShortMsg.rsp", KILN_HASH_SHA3_256, 100},
    {"sha3/SHA3_384ShortMsg.rsp", KILN_HASH_SHA3_384, 100},   {"sha3/SHA3_512ShortMsg.rsp", KILN_HASH_SHA3_512, 70},
    {"sha3/SHA3_224LongMsg.rsp", KILN_HASH_SHA3_224, 100},    {"sha3/SHA3_256LongMsg.rsp", KILN_HASH_SHA3_256, 100},
    {"sha3/SHA3_512LongMsg.rsp", KILN_HASH_SHA3_512, 100},    {"sha3/SHAKE128ShortMsg.rsp", KILN_HASH_SHAKE128, 300},
    {"sha3/SHAKE256ShortMsg.rsp", KILN_HASH_SHAKE256, 250},   {"sha3/SHAKE128LongMsg.rsp", KILN_HASH_SHAKE128, 100},
    {"sha3/SHAKE256LongMsg.rsp", KILN_HASH_SHAKE256, 100},    {"sha3/SHAKE128VariableOut.subset.rsp", KILN_HASH_SHAKE128, 28},
    {"sha3/SHAKE256VariableOut.subset.rsp", KILN_HASH_SHAKE256, 21}, {"keccak/ShortMsgKAT_224.txt", KILN_HASH_KECCAK224, 256},
    {"keccak/ShortMsgKAT_256.txt", KILN_HASH_KECCAK256, 256}, {"keccak/ShortMsgKAT_384.txt", KILN_HASH_KECCAK384, 256},
    {"keccak/ShortMsgKAT_512.txt", KILN_HASH_KECCAK512, 256}, {"keccak/LongMsgKAT_256.txt", KILN_HASH_KECCAK256, 65},
    {"keccak/LongMsgKAT_512.txt", KILN_HASH_KECCAK512, 65},
};

static void one_file(const kat_file *f)
{
    size_t len;
    char *text = rsp_slurp(test_data(f->path), &len);
    CHECK(text != NULL, "cannot read %s", f->path);
    if (!text) return;
    rsp_reader r;
    rsp_init(&r, text, len);
    rsp_entry e;
    int n = 0, got;
    while ((got = rsp_next(&r, &e)) == 1) {
        /* VariableOut files give the input length in their section header only */
        CHECK(e.len_bits < 0 || e.len_bits % 8 == 0, "%s line %ld: bit-length message", f->path, e.line);
        size_t mlen = e.len_bits >= 0 ? (size_t)e.len_bits / 8 : e.msg_len, outlen = e.md_len;
        uint8_t *d1 = malloc(outlen), *d2 = malloc(outlen), *d3 = malloc(outlen);
        CHECK(kiln_hash(f->algo, e.msg, mlen, d1, outlen) == KILN_OK, "%s line %ld", f->path, e.line);
        CHECK(memcmp(d1, e.md, outlen) == 0, "%s line %ld: kiln_hash differs", f->path, e.line);
        kiln_keccak_sponge(e.msg, mlen, kiln_hash_rate(f->algo), kiln_hash_domain(f->algo), d2, outlen);
        CHECK(memcmp(d2, e.md, outlen) == 0, "%s line %ld: prim sponge differs", f->path, e.line);
        unsigned bits = (unsigned)(200 - kiln_hash_rate(f->algo)) * 4; /* capacity / 2, in bits */
        kiln_status st = kiln_hash_domain(f->algo) == KILN_SHA3_DOMAIN ? kiln_sha3(bits, e.msg, mlen, d3)
                         : kiln_hash_is_xof(f->algo) ? kiln_shake(bits, e.msg, mlen, d3, outlen)
                                                     : kiln_keccak(bits, e.msg, mlen, d3);
        CHECK(st == KILN_OK && memcmp(d3, e.md, outlen) == 0, "%s line %ld: one-shot helper differs", f->path, e.line);
        lanes_kat(e.msg, mlen, kiln_hash_rate(f->algo), kiln_hash_domain(f->algo), e.md, outlen, f->path);
        for (int i = 0; i < n_impls; i++) {
            memset(d3, 0, outlen);
            impl_sponge(&impls[i], e.msg, mlen, kiln_hash_rate(f->algo), kiln_hash_domain(f->algo), d3, outlen);
            CHECK(memcmp(d3, e.md, outlen) == 0, "%s line %ld: %s kernel differs", f->path, e.line, impls[i].name);
        }
        free(d1), free(d2), free(d3);
        rsp_entry_free(&e);
        n++;
    }
    CHECK(got == 0, "%s: %s", f->path, r.err);
    CHECK(n >= f->min_entries, "%s: %d entries, expected at least %d", f->path, n, f->min_entries);
    printf("%-40s %4d entries\n", f->path, n);
    free(text);
}

/* 200 bytes written as hex pairs separated by spaces, on the line after `label`. */
static int state_after(const char *text, const char *label, int which, uint64_t s[25])
{
    const char *p = text;
    for (int k = 0; k <= which; k++) {
        p = strstr(p, label);
        if (!p) return -1;
        p += strlen(label);
    }
    uint8_t b[200];
    for (int i = 0; i < 200; i++) {
        while (*p == ' ' || *p == '\n' || *p == '\r') p++;
        int hi = rsp_hexval(p[0]), lo = rsp_hexval(p[1]);
        if (hi < 0 || lo < 0) return -1;
        b[i] = (uint8_t)(hi << 4 | lo);
        p += 2;
    }
    for (int i = 0; i < 25; i++) s[i] = kiln_keccak_load_le64(b + 8 * i);
    return 0;
}

/* The k-th "After iota:" block: 5 lines of 5 lanes as 64-bit hex words, lane x + 5y. */
static int lanes_after_iota(const char *text, int k, uint64_t s[25])
{
    const char *p = text;
    for (int i = 0; i <= k; i++) {
        p = strstr(p, "After iota:");
        if (!p) return -1;
        p += 11;
    }
    for (int i = 0; i < 25; i++) {
        char *end;
        s[i] = strtoull(p, &end, 16);
        if (end == p) return -1;
        p = end;
    }
    return 0;
}

static void intermediate_values(void)
{
    size_t len;
    char *text = rsp_slurp(test_data("keccak/KeccakF-1600-IntermediateValues.txt"), &len);
    CHECK(text != NULL, "cannot read the intermediate values");
    if (!text) return;
    for (int ex = 0; ex < 2; ex++) {
        uint64_t in[25], want[25], s[25];
        CHECK(state_after(text, "Input of permutation:", ex, in) == 0, "example %d input", ex);
        CHECK(state_after(text, "State after permutation:", ex, want) == 0, "example %d output", ex);
        for (int i = 0; i < n_impls; i++) {
            memcpy(s, in, sizeof s);
            impls[i].permute(s);
            CHECK(memcmp(s, want, sizeof s) == 0, "example %d, %s permutation", ex, impls[i].name);
        }
        memcpy(s, in, sizeof s);
        kiln_keccak_f1600_looped(s);
        CHECK(memcmp(s, want, sizeof s) == 0, "example %d, looped permutation", ex);
        memcpy(s, in, sizeof s);
        kiln_keccak_permute(s);
        CHECK(memcmp(s, want, sizeof s) == 0, "example %d, kiln_keccak_permute", ex);
        /* round by round: the state after iota of round r from the one after round r - 1 */
        uint64_t prev[25], next[25], out[25];
        memcpy(prev, in, sizeof prev);
        for (int r = 0; r < 24; r++) {
            CHECK(lanes_after_iota(text, 24 * ex + r, next) == 0, "example %d round %d lanes", ex, r);
            kiln_keccak_round(prev, out, kiln_keccak_rc(r));
            CHECK(memcmp(out, next, sizeof out) == 0, "example %d round %d", ex, r);
            memcpy(prev, next, sizeof prev);
        }
    }
    /* the round constants and rho offsets as the file lists them */
    for (int r = 0; r < 24; r++) {
        char key[32];
        snprintf(key, sizeof key, "RC[%02d][0][0] = ", r);
        const char *p = strstr(text, key);
        CHECK(p && strtoull(p + strlen(key), NULL, 16) == kiln_keccak_rc(r), "RC[%d]", r);
    }
    for (int i = 0; i < 25; i++) {
        char key[32];
        snprintf(key, sizeof key, "RhoOffset[%d][%d] = ", i % 5, i / 5);
        const char *p = strstr(text, key);
        CHECK(p && strtol(p + strlen(key), NULL, 10) == kiln_keccak_rho(i), "rho offset of lane %d", i);
    }
    free(text);
}

/* Every usable kernel against the portable permutation on random states, one permutation at a
 * time and through absorb at every rate the library uses (and a few blocks in a row). */
static void random_states(void)
{
    unsigned long long x = 0x9e3779b97f4a7c15ull;
    const kiln_keccak_host_impl *ref = kiln_keccak_host_portable();
    static const unsigned rates[] = {72, 104, 136, 144, 168};
    uint8_t blocks[5 * 168];
    for (int t = 0; t < 1000; t++) {
        uint64_t in[25], want[25], got[25];
        for (int i = 0; i < 25; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            in[i] = x;
        }
        for (size_t i = 0; i < sizeof blocks; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            blocks[i] = (uint8_t)x;
        }
        unsigned rate = rates[t % 5];
        size_t nb = (size_t)(t % 6);
        for (int i = 0; i < n_impls; i++) {
            memcpy(want, in, sizeof want);
            ref->permute(want);
            memcpy(got, in, sizeof got);
            impls[i].permute(got);
            CHECK(memcmp(got, want, sizeof got) == 0, "random state %d: %s permutation", t, impls[i].name);
            memcpy(want, in, sizeof want);
            ref->absorb(want, blocks, nb, rate);
            memcpy(got, in, sizeof got);
            impls[i].absorb(got, blocks, nb, rate);
            CHECK(memcmp(got, want, sizeof got) == 0, "random state %d: %s absorb, %zu blocks of %u", t,
                  impls[i].name, nb, rate);
        }
    }
    printf("random states: %d kernels against the portable permutation\n", n_impls);
}

/* Keccak-256 of 16,777,216 copies of a 64-byte text (1 GiB), streamed: only with KILN_LONG_TESTS=1. */
static void extremely_long(void)
{
    const char *env = getenv("KILN_LONG_TESTS");
    if (!env || strcmp(env, "1") != 0) {
        printf("extremely long message: skipped (KILN_LONG_TESTS=1 runs it)\n");
        return;
    }
    size_t len;
    char *text = rsp_slurp(test_data("keccak/ExtremelyLongMsgKAT_256.txt"), &len);
    CHECK(text != NULL, "cannot read the extremely long KAT");
    if (!text) return;
    rsp_reader r;
    rsp_entry e;
    rsp_init(&r, text, len);
    CHECK(rsp_next(&r, &e) == 1 && e.repeat == 16777216 && e.msg_len == 64, "%s", r.err);
    uint8_t buf[64 * 1024], d[32];
    for (size_t i = 0; i < sizeof buf; i += 64) memcpy(buf + i, e.msg, 64);
    kiln_keccak_stream s;
    kiln_keccak_init(&s, 136, KILN_KECCAK_DOMAIN);
    for (long i = 0; i < e.repeat / 1024; i++) kiln_keccak_absorb(&s, buf, sizeof buf);
    kiln_keccak_squeeze(&s, d, 32);
    CHECK(e.md_len == 32 && memcmp(d, e.md, 32) == 0, "1 GiB Keccak-256");
    rsp_entry_free(&e);
    free(text);
}

int main(void)
{
    printf("host Keccak-f[1600]: %s\n", kiln_keccak_impl());
    n_impls = kiln_keccak_host_impls(impls, 8);
    CHECK(n_impls >= 1 && strcmp(impls[0].name, kiln_keccak_impl()) == 0 &&
              strcmp(impls[n_impls - 1].name, "portable") == 0,
          "%d usable kernels", n_impls);
    for (int i = 0; i < n_impls; i++) printf("usable kernel: %s\n", impls[i].name);
    n_lanes = kiln_keccak_lanes_impls(lanes_impls, 8);
    CHECK(n_lanes >= 1 && strcmp(lanes_impls[n_lanes - 1].name, "portable") == 0, "%d usable lanes kernels", n_lanes);
    for (int i = 0; i < n_lanes; i++) printf("usable lanes kernel: %s (%u lanes)\n", lanes_impls[i].name, lanes_impls[i].lanes);
    random_states();
    lanes_random();
    intermediate_values();
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) one_file(&files[i]);
    extremely_long();
    return check_summary();
}
