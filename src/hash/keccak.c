/* Streaming Keccak sponge on the host: buffering around a permutation chosen once at run time.
 * Whole blocks are absorbed straight from the caller's buffer; only a partial block is XORed in
 * byte by byte, so memory use is the 200-byte state whatever the input length. */
#include <string.h>

#include "../core/cpu_features.h"
#include "../prim/keccak.h"
#include "keccak_host.h"
#include "kiln.h"

static void permute_portable(uint64_t s[KILN_KECCAK_LANES]) { kiln_keccak_f1600(s); }

static void absorb_portable(uint64_t s[KILN_KECCAK_LANES], const uint8_t *blocks, size_t n, unsigned rate)
{
    for (size_t i = 0; i < n; i++, blocks += rate) {
        kiln_keccak_xor_block(s, blocks, rate);
        kiln_keccak_f1600(s);
    }
}

static const kiln_keccak_host_impl portable = {"portable", permute_portable, absorb_portable};
#if defined(KILN_KECCAK_ZMM)
static const kiln_keccak_host_impl avx512 = {"avx512", kiln_keccak_f1600_zmm, kiln_keccak_absorb_zmm};
#endif

const kiln_keccak_host_impl *kiln_keccak_host_portable(void) { return &portable; }

const kiln_keccak_host_impl *kiln_keccak_host(void)
{
    static const kiln_keccak_host_impl *impl;
    if (!impl) { /* idempotent: a racing first call stores the same pointer */
#if defined(KILN_KECCAK_ZMM)
        impl = kiln_cpu()->avx512 ? &avx512 : &portable;
#else
        impl = &portable;
#endif
    }
    return impl;
}

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
