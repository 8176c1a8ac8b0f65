/* Batches of equal-length BLAKE2b messages (the default parameter block, unkeyed) through a lane
 * kernel (blake2b_lanes.h) chosen once at run time behind a known-answer self-test, as
 * blake2s_batch.c does BLAKE2s's; the portable candidate is the stream of blake2.c. */
#include "../core/cpu_dispatch.h"
#include "blake2_host.h"
#include "lanes_groups.h"

static void lanes_portable_hash(unsigned outlen, const uint8_t *const *msg, size_t len, uint8_t *const *out)
{
    kiln_blake2_ctx c;
    kiln_blake2_init(&c, KILN_BLAKE2_VARIANT_B, outlen);
    kiln_blake2_update(&c, msg[0], len);
    kiln_blake2_final(&c, out[0]);
}

/* Lane k hashes "1234567890" sixteen times (160 bytes: one whole block, then a 32-byte last one)
 * with every byte XORed with k, so that every message word differs between lanes and a kernel
 * that mixes lanes up fails. Lane 0's whole digest and the others' leading 4 bytes are from
 * Python's hashlib.blake2b. Then "abc" in every lane, RFC 7693's appendix A: the last block
 * alone. */
int kiln_blake2b_lanes_selftest(const kiln_blake2b_lanes_impl *l)
{
    static const uint8_t lane0[64] = {
        0x6c, 0xf3, 0x84, 0xa2, 0x96, 0x62, 0xcc, 0x95, 0x6b, 0x24, 0x26, 0x1f, 0x48, 0x81, 0x5e, 0xce,
        0x6a, 0xb6, 0xa0, 0x75, 0x15, 0xa6, 0x5d, 0x2b, 0xd8, 0x2f, 0x6e, 0xbd, 0x67, 0x5d, 0x73, 0x6e,
        0x0a, 0xb5, 0xd2, 0x22, 0x33, 0xda, 0x35, 0xf5, 0xcc, 0xa3, 0x72, 0xa6, 0x3b, 0x91, 0xa9, 0x11,
        0xad, 0x50, 0xe6, 0x88, 0x51, 0x18, 0x70, 0xdf, 0x30, 0xb1, 0x45, 0xdc, 0xde, 0x4d, 0xe5, 0x73};
    static const uint8_t rfc_abc[64] = {
        0xba, 0x80, 0xa5, 0x3f, 0x98, 0x1c, 0x4d, 0x0d, 0x6a, 0x27, 0x97, 0xb6, 0x9f, 0x12, 0xf6, 0xe9,
        0x4c, 0x21, 0x2f, 0x14, 0x68, 0x5a, 0xc4, 0xb7, 0x4b, 0x12, 0xbb, 0x6f, 0xdb, 0xff, 0xa2, 0xd1,
        0x7d, 0x87, 0xc5, 0x39, 0x2a, 0xab, 0x79, 0x2d, 0xc2, 0x52, 0xd5, 0xde, 0x45, 0x33, 0xcc, 0x95,
        0x18, 0xd3, 0x8a, 0xa8, 0xdb, 0xf1, 0x92, 0x5a, 0xb9, 0x23, 0x86, 0xed, 0xd4, 0x00, 0x99, 0x23};
    static const uint32_t lead[8] = {0x6cf384a2, 0x05138f35, 0xff566519, 0xd89b9845,
                                     0x80fbeb54, 0x9da72f94, 0xf0c09ce5, 0xf664eaad};
    static const kiln_lanes_kat kat = {160, 64, lane0, rfc_abc, lead, 8};
    return kiln_blake2_lanes_kat(l, 64, &kat);
}

static int lanes_selftest(const void *impl) { return kiln_blake2b_lanes_selftest(impl); }

static const kiln_blake2b_lanes_impl lanes_portable = {"portable", 1, lanes_portable_hash};

KILN_CPU_LADDER(lanes_ranking, "portable", lanes_portable,
    {"avx512x8", KILN_NEEDS_AVX512, &(const kiln_blake2b_lanes_impl){"avx512x8", 8, kiln_blake2b_lanes_avx512}, lanes_selftest},
    {"avx2x4", KILN_NEEDS_AVX2, &(const kiln_blake2b_lanes_impl){"avx2x4", 4, kiln_blake2b_lanes_avx2}, lanes_selftest})

const kiln_blake2b_lanes_impl *kiln_blake2b_lanes(void) { return lanes_ranking()->usable[0]->impl; }

const kiln_blake2b_lanes_impl *kiln_blake2b_lanes_portable(void) { return &lanes_portable; }

void kiln_blake2b_batch(unsigned outlen, const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    kiln_blake2_lanes_batch(kiln_blake2b_lanes(), KILN_BLAKE2_VARIANT_B, outlen, data, msg_len, n, out);
}
