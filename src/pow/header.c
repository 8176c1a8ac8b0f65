/* Bitcoin block headers, compact targets and the target comparison. */
#include <string.h>

#include "../core/ctx.h"
#include "../prim/bytes.h"

kiln_status kiln_header_from_hex(kiln_ctx *ctx, const char *hex, uint8_t header[KILN_HEADER_SIZE])
{
    kiln_status st = kiln_hex_decode(ctx, hex, header, KILN_HEADER_SIZE);
    if (st != KILN_OK && ctx) {
        char inner[KILN_ERR_MAX];
        memcpy(inner, ctx->err, sizeof inner);
        kiln_fail(ctx, st, "bad header: %s (a header is 80 bytes = 160 hex characters)", inner);
    }
    return st;
}

uint32_t kiln_header_version(const uint8_t header[KILN_HEADER_SIZE]) { return kiln_load_le32(header); }
uint32_t kiln_header_time(const uint8_t header[KILN_HEADER_SIZE]) { return kiln_load_le32(header + 68); }
uint32_t kiln_header_bits(const uint8_t header[KILN_HEADER_SIZE]) { return kiln_load_le32(header + 72); }
uint32_t kiln_header_nonce(const uint8_t header[KILN_HEADER_SIZE]) { return kiln_load_le32(header + 76); }
void kiln_header_set_nonce(uint8_t header[KILN_HEADER_SIZE], uint32_t nonce) { kiln_store_le32(header + 76, nonce); }

void kiln_header_hash(const uint8_t header[KILN_HEADER_SIZE], uint8_t hash[32])
{
    kiln_sha256d(header, KILN_HEADER_SIZE, hash);
}

/* Decodes len bytes of hex; a failure's message is prefixed with what the value is. */
static kiln_status decode_named(kiln_ctx *ctx, const char *hex, uint8_t *out, size_t len, const char *what,
                                const char *hint)
{
    kiln_status st = kiln_hex_decode(ctx, hex, out, len);
    if (st != KILN_OK && ctx) {
        char inner[KILN_ERR_MAX];
        memcpy(inner, ctx->err, sizeof inner);
        kiln_fail(ctx, st, "bad %s: %s (%s)", what, inner, hint);
    }
    return st;
}

kiln_status kiln_bits_from_hex(kiln_ctx *ctx, const char *hex, uint32_t *bits)
{
    uint8_t b[4];
    kiln_status st = decode_named(ctx, hex, b, 4, "nBits", "nBits is 8 hex digits, e.g. 1d00ffff");
    if (st != KILN_OK) return st;
    *bits = kiln_load_be32(b);
    return KILN_OK;
}

/* The rules of Bitcoin Core's arith_uint256::SetCompact plus CheckProofOfWork's range check. */
kiln_status kiln_target_from_bits(kiln_ctx *ctx, uint32_t bits, uint8_t target[32])
{
    unsigned size = bits >> 24;
    uint32_t word = bits & 0x007fffffu;
    memset(target, 0, 32);
    if (size <= 3) word >>= 8 * (3 - size);
    if (word != 0 && (bits & 0x00800000u))
        return kiln_fail(ctx, KILN_ERR_INPUT, "nBits %08x is negative (sign bit 0x00800000 set)", bits);
    if (word != 0 && (size > 34 || (word > 0xff && size > 33) || (word > 0xffff && size > 32)))
        return kiln_fail(ctx, KILN_ERR_INPUT, "nBits %08x overflows a 256-bit target", bits);
    if (word == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "nBits %08x gives a zero target", bits);
    if (size <= 3) {
        for (int i = 0; i < 3; i++) target[i] = (uint8_t)(word >> (8 * i));
        return KILN_OK;
    }
    for (int i = 0; i < 3; i++) {
        unsigned pos = size - 3 + (unsigned)i;
        if (pos < 32) target[pos] = (uint8_t)(word >> (8 * i));
    }
    return KILN_OK;
}

kiln_status kiln_target_from_hex(kiln_ctx *ctx, const char *hex, uint8_t target[32])
{
    uint8_t be[32];
    kiln_status st = decode_named(ctx, hex, be, 32, "target", "a target is 64 hex digits, most significant first");
    if (st != KILN_OK) return st;
    uint8_t any = 0;
    for (int i = 0; i < 32; i++) any |= be[i];
    /* as nBits with a zero mantissa is refused: only a hash of 0 would meet it */
    if (!any) return kiln_fail(ctx, KILN_ERR_INPUT, "the target is zero: no hash can be expected to meet it");
    for (int i = 0; i < 32; i++) target[i] = be[31 - i];
    return KILN_OK;
}

int kiln_hash_meets_target(const uint8_t hash[32], const uint8_t target[32])
{
    for (int i = 31; i >= 0; i--) {
        if (hash[i] < target[i]) return 1;
        if (hash[i] > target[i]) return 0;
    }
    return 1;
}
