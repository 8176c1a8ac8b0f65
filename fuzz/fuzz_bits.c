/* Compact nBits and 64-hex targets.
 *  - kiln_bits_from_hex / kiln_target_from_hex accept exactly 8 / 64 hex digits (a zero target
 *    refused), most significant first.
 *  - kiln_target_from_bits agrees with a model that places the mantissa in a wider number and
 *    calls anything past 256 bits an overflow (rather than restating the consensus conditions).
 *  - Re-encoding a decoded target the way Bitcoin Core's GetCompact does gives the same target
 *    back, and gives the very nBits back when they were in canonical form.
 * The first 4 bytes of the input are also taken as raw nBits, so every value is reachable. */
#include "fuzz_util.h"

#include <ctype.h>

#define WIDE 320 /* bytes: room for any size byte (255) plus the mantissa */

static int is_hex(const char *s, size_t want)
{
    if (strlen(s) != want) return 0;
    for (size_t i = 0; i < want; i++)
        if (!isxdigit((unsigned char)s[i])) return 0;
    return 1;
}

/* Little-endian 256-bit numbers: -1, 0, 1. */
static int cmp256(const uint8_t a[32], const uint8_t b[32])
{
    for (int i = 31; i >= 0; i--)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* GetCompact: the size in bytes, the top three bytes as mantissa, one byte more when the
 * mantissa's top bit would read as a sign. */
static uint32_t encode_compact(const uint8_t t[32])
{
    int size = 32;
    while (size > 0 && t[size - 1] == 0) size--;
    uint32_t word = 0;
    for (int i = 0; i < 3; i++) {
        int pos = size - 1 - i;
        word = word << 8 | (pos >= 0 ? t[pos] : 0);
    }
    if (word & 0x00800000u) {
        word >>= 8;
        size++;
    }
    return (uint32_t)size << 24 | word;
}

/* The model: 0 with the target, or -1 when the nBits are not a usable target. */
static int model_target(uint32_t bits, uint8_t t[32])
{
    unsigned size = bits >> 24;
    uint32_t word = bits & 0x007fffffu;
    if (size < 3) word >>= 8 * (3 - size);
    if (word == 0 || (bits & 0x00800000u)) return -1; /* zero, or negative */
    uint8_t wide[WIDE] = {0};
    unsigned shift = size < 3 ? 0 : size - 3;
    for (unsigned i = 0; i < 3; i++) wide[shift + i] = (uint8_t)(word >> (8 * i));
    for (unsigned i = 32; i < WIDE; i++)
        if (wide[i]) return -1; /* past 256 bits */
    memcpy(t, wide, 32);
    return 0;
}

/* Canonical: what GetCompact writes: a nonzero top mantissa byte below 0x80, or a zero top byte
 * because the next one has its high bit set; sizes below 3 carry zeros in the bytes shifted out. */
static int canonical(uint32_t bits)
{
    unsigned size = bits >> 24;
    uint32_t word = bits & 0x007fffffu;
    if (bits & 0x00800000u) return 0;
    if (!(word >> 16) && !(word & 0x8000u)) return 0;
    if (size < 3 && (word & ((1u << (8 * (3 - size))) - 1))) return 0;
    return 1;
}

static void check_bits(kiln_ctx *ctx, uint32_t bits)
{
    uint8_t t[32], m[32];
    kiln_status st = kiln_target_from_bits(ctx, bits, t);
    int ok = model_target(bits, m) == 0;
    FUZZ_CHECK((st == KILN_OK) == ok);
    if (!ok) {
        FUZZ_CHECK(st == KILN_ERR_INPUT);
        return;
    }
    FUZZ_CHECK(memcmp(t, m, 32) == 0);
    uint32_t again = encode_compact(t);
    uint8_t t2[32];
    FUZZ_CHECK(kiln_target_from_bits(ctx, again, t2) == KILN_OK && memcmp(t, t2, 32) == 0);
    if (canonical(bits)) FUZZ_CHECK(again == bits);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_ctx *ctx = fuzz_ctx();
    if (size >= 4) check_bits(ctx, (uint32_t)data[0] << 24 | data[1] << 16 | data[2] << 8 | data[3]);

    char *s = fuzz_cstr(data, size);
    uint32_t bits;
    kiln_status st = kiln_bits_from_hex(ctx, s, &bits);
    FUZZ_CHECK((st == KILN_OK) == is_hex(s, 8));
    if (st == KILN_OK) {
        FUZZ_CHECK(bits == (uint32_t)strtoul(s, NULL, 16));
        check_bits(ctx, bits);
    }

    uint8_t t[32], be[32];
    st = kiln_target_from_hex(ctx, s, t);
    int hex64 = is_hex(s, 64) && kiln_hex_decode(NULL, s, be, 32) == KILN_OK;
    int nonzero = 0;
    for (int i = 0; hex64 && i < 32; i++) nonzero |= be[i];
    FUZZ_CHECK((st == KILN_OK) == (hex64 && nonzero));
    if (st == KILN_OK) {
        for (int i = 0; i < 32; i++) FUZZ_CHECK(t[i] == be[31 - i]);
        /* the compact form keeps the top three bytes (two when the top one has its high bit
         * set): never above the target, and equal to it once the bytes below are cleared */
        uint8_t c[32], top[32];
        FUZZ_CHECK(kiln_target_from_bits(ctx, encode_compact(t), c) == KILN_OK);
        FUZZ_CHECK(cmp256(c, t) <= 0);
        memcpy(top, t, 32);
        int msb = 31;
        while (top[msb] == 0) msb--;
        int keep = top[msb] & 0x80 ? 2 : 3;
        for (int i = 0; i < msb + 1 - keep; i++) top[i] = 0;
        FUZZ_CHECK(memcmp(c, top, 32) == 0);
    }
    free(s);
    return 0;
}
