/* Batches of equal-length BLAKE2s messages (the default parameter block, unkeyed) through a lane
 * kernel (blake2s_lanes.h) chosen once at run time behind a known-answer self-test; the portable
 * candidate is the stream of blake2.c, one message at a time. */
#include "../core/cpu_dispatch.h"
#include "blake2_host.h"
#include "lanes_groups.h"

static void lanes_portable_hash(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    kiln_blake2_ctx c;
    kiln_blake2_init(&c, KILN_BLAKE2_VARIANT_S, outlen);
    kiln_blake2_update(&c, msg[0], len);
    kiln_blake2_final(&c, out[0]);
}

/* Lane k hashes RFC 1321's 80-byte test message ("1234567890" eight times) with every byte XORed
 * with k, so that every message word differs between lanes and a kernel that mixes lanes up
 * fails; one whole block, then a 16-byte last block. Lane 0's whole digest and the others'
 * leading 4 bytes are from Python's hashlib.blake2s. Then "abc" in every lane, RFC 7693's
 * appendix B: the last block alone. */
int kiln_blake2s_lanes_selftest(const kiln_blake2s_lanes_impl *l)
{
    static const uint8_t lane0[32] = {0xfd, 0xae, 0xdb, 0x29, 0x0a, 0x0d, 0x5a, 0xf9, 0x87, 0x08, 0x64,
                                      0xfe, 0xc2, 0xe0, 0x90, 0x20, 0x09, 0x89, 0xdc, 0x9c, 0xd5, 0x3a,
                                      0x3c, 0x09, 0x21, 0x29, 0xe8, 0x53, 0x5e, 0x8b, 0x4f, 0x66};
    static const uint8_t rfc_abc[32] = {0x50, 0x8c, 0x5e, 0x8c, 0x32, 0x7c, 0x14, 0xe2, 0xe1, 0xa7, 0x2b,
                                        0xa3, 0x4e, 0xeb, 0x45, 0x2f, 0x37, 0x45, 0x8b, 0x20, 0x9e, 0xd6,
                                        0x3a, 0x29, 0x4d, 0x99, 0x9b, 0x4c, 0x86, 0x67, 0x59, 0x82};
    static const uint32_t lead[16] = {0xfdaedb29, 0xca32a983, 0x95614178, 0xd3630b1d, 0xcc7d9d83, 0xf2f9efd5,
                                      0x4c2806fc, 0x73c10f80, 0x60578a5e, 0xa65718ea, 0xeec8d6a7, 0xa58b9ebd,
                                      0x5f26a20e, 0x4c979120, 0x4b78d397, 0x857bd6cb};
    static const kiln_lanes_kat kat = {80, 32, lane0, rfc_abc, lead, 16};
    return kiln_blake2_lanes_kat(l, 32, &kat);
}

static int lanes_selftest(const void *impl) { return kiln_blake2s_lanes_selftest(impl); }

static const kiln_blake2s_lanes_impl lanes_portable = {"portable", 1, lanes_portable_hash};

KILN_CPU_LADDER(lanes_ranking, "portable", lanes_portable,
    {"avx512x16", KILN_NEEDS_AVX512, &(const kiln_blake2s_lanes_impl){"avx512x16", 16, kiln_blake2s_lanes_avx512}, lanes_selftest},
    {"avx2x8", KILN_NEEDS_AVX2, &(const kiln_blake2s_lanes_impl){"avx2x8", 8, kiln_blake2s_lanes_avx2}, lanes_selftest})

const kiln_blake2s_lanes_impl *kiln_blake2s_lanes(void) { return lanes_ranking()->usable[0]->impl; }

const kiln_blake2s_lanes_impl *kiln_blake2s_lanes_portable(void) { return &lanes_portable; }

void kiln_blake2s_batch(unsigned outlen, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    kiln_blake2_lanes_batch(kiln_blake2s_lanes(), KILN_BLAKE2_VARIANT_S, outlen, data, msg_len, n, out);
}
