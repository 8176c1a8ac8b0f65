/* Streaming Keccak sponge on the host: buffering around a permutation chosen once at run time.
 * Whole blocks are absorbed straight from the caller's buffer; only a partial block is XORed in
 * byte by byte, so memory use is the 200-byte state whatever the input length. */
#include <string.h>

#include "../prim/keccak.h"
#include "keccak_host.h"
#include "lanes_groups.h"
#include "kiln.h"

static void permute_portable(uint64_t s[KILN_KECCAK_LANES]) { kiln_keccak_f1600(s); }

static void absorb_portable(uint64_t s[KILN_KECCAK_LANES], const uint8_t *blocks, size_t n, unsigned rate)
{
    for (size_t i = 0; i < n; i++, blocks += rate) {
        kiln_keccak_xor_block(s, blocks, rate);
        kiln_keccak_f1600(s);
    }
}

/* SHA3-256 (rate 136) of a message through impl alone: whole blocks by impl->absorb, the padded
 * last block XORed in and permuted by impl->permute. */
static void sha3_256_via(const kiln_keccak_host_impl *impl, const uint8_t *msg, size_t len, uint8_t out[32])
{
    enum { RATE = 136 };
    uint64_t s[KILN_KECCAK_LANES] = {0};
    uint8_t last[RATE] = {0};
    impl->absorb(s, msg, len / RATE, RATE);
    memcpy(last, msg + len - len % RATE, len % RATE);
    last[len % RATE] = KILN_SHA3_DOMAIN;
    last[RATE - 1] |= 0x80;
    kiln_keccak_xor_block(s, last, RATE);
    impl->permute(s);
    for (int i = 0; i < 32; i++) out[i] = kiln_keccak_get_byte(s, (size_t)i);
}

/* FIPS 202 examples (NIST CSRC, SHA3-256_Msg0.pdf and SHA3-256_1600.pdf): the empty message, and
 * 200 bytes of 0xa3, which spans a full block and a partial one. */
static int selftest(const void *impl)
{
    static const uint8_t empty[32] = {0xa7, 0xff, 0xc6, 0xf8, 0xbf, 0x1e, 0xd7, 0x66, 0x51, 0xc1, 0x47,
                                      0x56, 0xa0, 0x61, 0xd6, 0x62, 0xf5, 0x80, 0xff, 0x4d, 0xe4, 0x3b,
                                      0x49, 0xfa, 0x82, 0xd8, 0x0a, 0x4b, 0x80, 0xf8, 0x43, 0x4a};
    static const uint8_t a3x200[32] = {0x79, 0xf3, 0x8a, 0xde, 0xc5, 0xc2, 0x03, 0x07, 0xa9, 0x8e, 0xf7,
                                       0x6e, 0x83, 0x24, 0xaf, 0xbf, 0xd4, 0x6c, 0xfd, 0x81, 0xb2, 0x2e,
                                       0x39, 0x73, 0xc6, 0x5f, 0xa1, 0xbd, 0x9d, 0xe3, 0x17, 0x87};
    uint8_t msg[200], d0[32], d1[32];
    memset(msg, 0xa3, sizeof msg);
    sha3_256_via(impl, msg, 0, d0);
    sha3_256_via(impl, msg, sizeof msg, d1);
    return memcmp(d0, empty, 32) == 0 && memcmp(d1, a3x200, 32) == 0;
}

static const kiln_keccak_host_impl portable = {"portable", permute_portable, absorb_portable};

/* The scalar BMI kernel ("avx2": all 25 lanes in registers, ANDN in chi) ranks first: on this
 * project's AVX-512 Xeon it hashes SHA3-256 streams at 460 MB/s where the AVX-512 kernel gives 371
 * (OpenSSL 3: 418; experiments/sha3_speed.c); one stream has too little parallelism for 512-bit
 * vectors to pay for their shuffles. */
KILN_CPU_LADDER(ranking, "portable", portable,
    {"avx2", KILN_NEEDS_AVX2 | KILN_NEEDS_BMI, &(const kiln_keccak_host_impl){"avx2", kiln_keccak_f1600_avx2, kiln_keccak_absorb_avx2}, selftest},
    {"avx512", KILN_NEEDS_AVX512, &(const kiln_keccak_host_impl){"avx512", kiln_keccak_f1600_zmm, kiln_keccak_absorb_zmm}, selftest})

const kiln_keccak_host_impl *kiln_keccak_host_portable(void) { return &portable; }

int kiln_keccak_host_impls(kiln_keccak_host_impl *out, int cap)
{
    return kiln_cpu_ranked_copy(ranking(), out, sizeof *out, cap);
}

const kiln_keccak_host_impl *kiln_keccak_host(void) { return ranking()->usable[0]->impl; }

const char *kiln_keccak_impl(void) { return kiln_keccak_host()->name; }

void kiln_keccak_permute(uint64_t state[25]) { kiln_keccak_host()->permute(state); }

kiln_status kiln_keccak_init(kiln_keccak_stream *s, unsigned rate, uint8_t domain)
{
    if (!s || rate == 0 || rate % 8 != 0 || rate >= KILN_KECCAK_STATE_BYTES || domain == 0) return KILN_ERR_INPUT;
    memset(s, 0, sizeof *s);
    s->rate = rate;
    s->domain = domain;
    return KILN_OK;
}

kiln_status kiln_keccak_absorb(kiln_keccak_stream *s, const void *data, size_t len)
{
    if (!s || s->squeezing || (len && !data)) return KILN_ERR_INPUT;
    const uint8_t *p = data;
    const kiln_keccak_host_impl *impl = kiln_keccak_host();
    if (s->pos) {
        size_t take = s->rate - s->pos < len ? s->rate - s->pos : len;
        for (size_t i = 0; i < take; i++) kiln_keccak_xor_byte(s->state, s->pos + i, p[i]);
        s->pos += (uint32_t)take;
        p += take;
        len -= take;
        if (s->pos < s->rate) return KILN_OK;
        impl->permute(s->state);
        s->pos = 0;
    }
    if (len >= s->rate) {
        size_t n = len / s->rate;
        impl->absorb(s->state, p, n, s->rate);
        p += n * s->rate;
        len -= n * s->rate;
    }
    for (size_t i = 0; i < len; i++) kiln_keccak_xor_byte(s->state, i, p[i]);
    s->pos = (uint32_t)len;
    return KILN_OK;
}

void kiln_keccak_squeeze(kiln_keccak_stream *s, void *out, size_t len)
{
    uint8_t *o = out;
    const kiln_keccak_host_impl *impl = kiln_keccak_host();
    if (!s->squeezing) {
        kiln_keccak_pad(s->state, s->pos, s->rate, s->domain);
        impl->permute(s->state);
        s->squeezing = 1;
        s->pos = 0;
    }
    while (len) {
        if (s->pos == s->rate) {
            impl->permute(s->state);
            s->pos = 0;
        }
        size_t take = s->rate - s->pos < len ? s->rate - s->pos : len;
        for (size_t i = 0; i < take; i++) o[i] = kiln_keccak_get_byte(s->state, s->pos + i);
        s->pos += (uint32_t)take;
        o += take;
        len -= take;
    }
}

static kiln_status oneshot(unsigned rate, uint8_t domain, const void *data, size_t len, uint8_t *out, size_t outlen)
{
    kiln_keccak_stream s;
    kiln_status st = kiln_keccak_init(&s, rate, domain);
    if (st == KILN_OK) st = kiln_keccak_absorb(&s, data, len);
    if (st == KILN_OK) kiln_keccak_squeeze(&s, out, outlen);
    return st;
}

static int fixed_bits_ok(unsigned bits) { return bits == 224 || bits == 256 || bits == 384 || bits == 512; }

kiln_status kiln_sha3(unsigned bits, const void *data, size_t len, uint8_t *out)
{
    if (!fixed_bits_ok(bits) || !out) return KILN_ERR_INPUT;
    return oneshot(200 - bits / 4, KILN_SHA3_DOMAIN, data, len, out, bits / 8);
}

kiln_status kiln_keccak(unsigned bits, const void *data, size_t len, uint8_t *out)
{
    if (!fixed_bits_ok(bits) || !out) return KILN_ERR_INPUT;
    return oneshot(200 - bits / 4, KILN_KECCAK_DOMAIN, data, len, out, bits / 8);
}

kiln_status kiln_shake(unsigned bits, const void *data, size_t len, uint8_t *out, size_t outlen)
{
    if ((bits != 128 && bits != 256) || (outlen && !out)) return KILN_ERR_INPUT;
    return oneshot(200 - bits / 4, KILN_SHAKE_DOMAIN, data, len, out, outlen);
}

/* ---- several messages at once */

static void lanes_portable_hash(const uint8_t *const *msg, size_t len, unsigned rate, uint8_t domain,
                                uint8_t *const *out, size_t outlen)
{
    (void)oneshot(rate, domain, msg[0], len, out[0], outlen);
}

/* Lane k's message is lane 0's with every byte XORed with k, so a kernel that mixes up lanes
 * fails; lane 0 is FIPS 202's 200 bytes of 0xa3 (SHA3-256, one full block and a partial one, the
 * same known answer as the permutations'), the others are checked against the one-state sponge. */
static int lanes_selftest(const void *impl)
{
    const kiln_keccak_lanes_impl *l = impl;
    static const uint8_t a3x200[32] = {0x79, 0xf3, 0x8a, 0xde, 0xc5, 0xc2, 0x03, 0x07, 0xa9, 0x8e, 0xf7,
                                       0x6e, 0x83, 0x24, 0xaf, 0xbf, 0xd4, 0x6c, 0xfd, 0x81, 0xb2, 0x2e,
                                       0x39, 0x73, 0xc6, 0x5f, 0xa1, 0xbd, 0x9d, 0xe3, 0x17, 0x87};
    enum { MAX = 8, LEN = 200 };
    if (l->lanes == 0 || l->lanes > MAX) return 0;
    uint8_t msgs[MAX][LEN], digests[MAX][32], want[32];
    const uint8_t *in[MAX];
    uint8_t *o[MAX];
    for (unsigned k = 0; k < l->lanes; k++) {
        memset(msgs[k], 0xa3 ^ (int)k, LEN);
        in[k] = msgs[k];
        o[k] = digests[k];
    }
    l->hash(in, LEN, 136, KILN_SHA3_DOMAIN, o, 32);
    int ok = memcmp(digests[0], a3x200, 32) == 0;
    for (unsigned k = 1; k < l->lanes; k++) {
        oneshot(136, KILN_SHA3_DOMAIN, msgs[k], LEN, want, 32);
        ok &= memcmp(digests[k], want, 32) == 0;
    }
    return ok;
}

static const kiln_keccak_lanes_impl lanes_portable = {"portable", 1, lanes_portable_hash};

KILN_CPU_LADDER(lanes_ranking, "portable", lanes_portable,
    {"avx512x8", KILN_NEEDS_AVX512, &(const kiln_keccak_lanes_impl){"avx512x8", 8, kiln_keccak_x8_avx512}, lanes_selftest},
    {"avx2x4", KILN_NEEDS_AVX2, &(const kiln_keccak_lanes_impl){"avx2x4", 4, kiln_keccak_x4_avx2}, lanes_selftest})

const kiln_keccak_lanes_impl *kiln_keccak_lanes(void) { return lanes_ranking()->usable[0]->impl; }

int kiln_keccak_lanes_impls(kiln_keccak_lanes_impl *out, int cap)
{
    return kiln_cpu_ranked_copy(lanes_ranking(), out, sizeof *out, cap);
}

typedef struct sponge_group {
    const kiln_keccak_lanes_impl *l;
    unsigned rate;
    uint8_t domain;
    size_t outlen;
} sponge_group;

static void run_group(void *arg, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    const sponge_group *g = arg;
    g->l->hash(msg, len, g->rate, g->domain, out, g->outlen);
}

void kiln_keccak_batch(unsigned rate, uint8_t domain, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out,
                       size_t outlen)
{
    sponge_group g = {kiln_keccak_lanes(), rate, domain, outlen};
    size_t i = kiln_lanes_groups(g.l->lanes, data, msg_len, n, out, outlen, run_group, &g);
    for (; i < n; i++) (void)oneshot(rate, domain, data + i * msg_len, msg_len, out + i * outlen, outlen);
}
