/* Streaming MD5 on the host: md64_stream.h's buffering and padding (the bit count little-endian)
 * around src/prim/md5.h's compression; and batches of equal-length messages through a lane kernel
 * chosen once at run time behind a known-answer self-test. */
#include <string.h>

#include "../core/cpu_dispatch.h"
#include "../prim/md5.h"
#include "lanes_groups.h"
#include "md5_host.h"

static void compress_portable(uint32_t *state, const uint8_t *blocks, size_t n)
{
    for (size_t i = 0; i < n; i++) kiln_md5_compress_bytes(state, blocks + 64 * i);
}

kiln_md5_blocks_fn kiln_md5_blocks(void) { return compress_portable; }

const char *kiln_md5_impl(void) { return "portable"; }

void kiln_md5_init(kiln_md5_ctx *c)
{
    kiln_md5_iv(c->state);
    c->state[4] = 0;
    c->total = 0;
}

void kiln_md5_update(kiln_md5_ctx *c, const void *data, size_t len) { kiln_md64_update(c, compress_portable, data, len); }

void kiln_md5_final(kiln_md5_ctx *c, uint8_t digest[16])
{
    kiln_md64_pad(c, compress_portable, 0);
    for (int i = 0; i < 4; i++) kiln_store_le32(digest + 4 * i, c->state[i]);
}

void kiln_md5(const void *data, size_t len, uint8_t digest[16])
{
    kiln_md5_ctx c;
    kiln_md5_init(&c);
    kiln_md5_update(&c, data, len);
    kiln_md5_final(&c, digest);
}

/* One lane: the stream. */
static void lanes_portable_hash(const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    kiln_md5(msg[0], len, out[0]);
}

static void run_group(void *arg, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    ((const kiln_md5_lanes_impl *)arg)->hash(msg, len, out);
}

/* Lane k hashes RFC 1321's 80-byte test message ("1234567890" eight times, appendix A.5) with
 * every byte XORed with k, so that every message word differs between lanes and a kernel that
 * mixes lanes up fails; one whole block and a one-block tail. Lane 0 is the RFC's example (the
 * whole digest); the others' leading 4 digest bytes are from OpenSSL (Python hashlib.md5). Then
 * the RFC's "abc" in every lane: the tail alone. */
int kiln_md5_lanes_selftest(const kiln_md5_lanes_impl *l)
{
    static const uint8_t rfc_80[16] = {0x57, 0xed, 0xf4, 0xa2, 0x2b, 0xe3, 0xc9, 0x55,
                                       0xac, 0x49, 0xda, 0x2e, 0x21, 0x07, 0xb6, 0x7a};
    static const uint8_t rfc_abc[16] = {0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                        0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};
    static const uint32_t lead[16] = {0x57edf4a2, 0x64edaefb, 0x9185317b, 0x925e50e5, 0xf47d0563, 0x559050e5,
                                      0x73983f3c, 0x8f308ed1, 0x5e95195b, 0xa66bb5ed, 0x37281856, 0x0e0e7947,
                                      0xb03e3202, 0x307df313, 0x79d5f35c, 0xcaa4f2e3};
    static const kiln_lanes_kat kat = {80, 16, rfc_80, rfc_abc, lead, 16};
    return kiln_lanes_kat_check(&kat, l->lanes, run_group, (void *)l);
}

static int lanes_selftest(const void *impl) { return kiln_md5_lanes_selftest(impl); }

static const kiln_md5_lanes_impl lanes_portable = {"portable", 1, lanes_portable_hash};

KILN_CPU_LADDER(lanes_ranking, "portable", lanes_portable,
    {"avx512x16", KILN_NEEDS_AVX512, &(const kiln_md5_lanes_impl){"avx512x16", 16, kiln_md5_lanes_avx512}, lanes_selftest},
    {"avx2x8", KILN_NEEDS_AVX2, &(const kiln_md5_lanes_impl){"avx2x8", 8, kiln_md5_lanes_avx2}, lanes_selftest})

const kiln_md5_lanes_impl *kiln_md5_lanes(void) { return lanes_ranking()->usable[0]->impl; }

const kiln_md5_lanes_impl *kiln_md5_lanes_portable(void) { return &lanes_portable; }

void kiln_md5_batch(const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    const kiln_md5_lanes_impl *l = kiln_md5_lanes();
    size_t i = kiln_lanes_groups(l->lanes, data, msg_len, n, out, KILN_MD5_DIGEST, run_group, (void *)l);
    for (; i < n; i++) kiln_md5(data + i * msg_len, msg_len, out + i * KILN_MD5_DIGEST);
}
