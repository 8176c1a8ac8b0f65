/* Headers, compact targets and target comparison against external known answers: the real
 * mainnet headers in tests/data/headers.json and Bitcoin Core's arith_uint256 SetCompact cases. */
#include "check.h"
#include "kiln.h"
#include "real_headers.h"

static void target_hex(const uint8_t t[32], char out[65]) { kiln_hex_encode(t, 32, 1, out); }

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    uint8_t h[80], hash[32], target[32];
    char hex[65];
    for (int i = 0; i < REAL_HEADER_COUNT; i++) {
        const real_header *r = &real_headers[i];
        CHECK(kiln_header_from_hex(ctx, r->header_hex, h) == KILN_OK, "%s: %s", r->name, kiln_last_error(ctx));
        kiln_header_hash(h, hash);
        kiln_hex_encode(hash, 32, 1, hex);
        CHECK_STR(hex, r->block_hash);
        CHECK(kiln_header_nonce(h) == r->nonce, "%s nonce %u", r->name, kiln_header_nonce(h));
        CHECK(kiln_header_bits(h) == r->bits, "%s bits %08x", r->name, kiln_header_bits(h));
        CHECK(kiln_header_time(h) == r->time, "%s time", r->name);
        CHECK(kiln_header_version(h) == r->version, "%s version %08x", r->name, kiln_header_version(h));
        CHECK(kiln_target_from_bits(ctx, r->bits, target) == KILN_OK, "%s", r->name);
        target_hex(target, hex);
        CHECK_STR(hex, r->target_hex);
        CHECK(kiln_hash_meets_target(hash, target), "%s meets its target", r->name);
        /* the same target typed as hex */
        uint8_t t2[32];
        CHECK(kiln_target_from_hex(ctx, r->target_hex, t2) == KILN_OK && memcmp(t2, target, 32) == 0, "%s hex",
              r->name);
        /* a different nonce almost surely does not meet it */
        kiln_header_set_nonce(h, r->nonce ^ 1);
        kiln_header_hash(h, hash);
        CHECK(!kiln_hash_meets_target(hash, target), "%s nonce^1 meets", r->name);
    }

    /* Bitcoin Core src/test/arith_uint256_tests.cpp (SetCompact) and CheckProofOfWork's rules */
    static const struct {
        uint32_t bits;
        kiln_status st;
        const char *target; /* 64 hex digits, or NULL on error */
    } compact[] = {
        {0x00000000, KILN_ERR_INPUT, NULL}, /* zero */
        {0x00123456, KILN_ERR_INPUT, NULL},
        {0x01003456, KILN_ERR_INPUT, NULL},
        {0x02000056, KILN_ERR_INPUT, NULL},
        {0x03000000, KILN_ERR_INPUT, NULL},
        {0x04000000, KILN_ERR_INPUT, NULL},
        {0x00923456, KILN_ERR_INPUT, NULL},
        {0x01803456, KILN_ERR_INPUT, NULL},
        {0x02800056, KILN_ERR_INPUT, NULL},
        {0x03800000, KILN_ERR_INPUT, NULL},
        {0x04800000, KILN_ERR_INPUT, NULL},
        {0x01123456, KILN_OK, "0000000000000000000000000000000000000000000000000000000000000012"},
        {0x01fedcba, KILN_ERR_INPUT, NULL}, /* negative */
        {0x02123456, KILN_OK, "0000000000000000000000000000000000000000000000000000000000001234"},
        {0x03123456, KILN_OK, "0000000000000000000000000000000000000000000000000000000000123456"},
        {0x04123456, KILN_OK, "0000000000000000000000000000000000000000000000000000000012345600"},
        {0x04923456, KILN_ERR_INPUT, NULL}, /* negative */
        {0x05009234, KILN_OK, "0000000000000000000000000000000000000000000000000000000092340000"},
        {0x20123456, KILN_OK, "1234560000000000000000000000000000000000000000000000000000000000"},
        {0xff123456, KILN_ERR_INPUT, NULL}, /* overflow */
        {0x1d00ffff, KILN_OK, "00000000ffff0000000000000000000000000000000000000000000000000000"},
        {0x22000001, KILN_OK, "0100000000000000000000000000000000000000000000000000000000000000"},
        {0x23000001, KILN_ERR_INPUT, NULL}, /* overflow: size > 34 */
        {0x21010000, KILN_ERR_INPUT, NULL}, /* overflow: mantissa > 0xffff at size 33 */
        {0x2100ffff, KILN_OK, "ffff000000000000000000000000000000000000000000000000000000000000"},
        {0x22000100, KILN_ERR_INPUT, NULL}, /* overflow: mantissa > 0xff at size 34 */
    };
    for (size_t i = 0; i < sizeof compact / sizeof compact[0]; i++) {
        memset(target, 0xaa, 32);
        kiln_status st = kiln_target_from_bits(ctx, compact[i].bits, target);
        CHECK(st == compact[i].st, "bits %08x status %d (%s)", compact[i].bits, st, kiln_last_error(ctx));
        if (compact[i].target && st == KILN_OK) {
            target_hex(target, hex);
            CHECK_STR(hex, compact[i].target);
        }
    }

    /* hash <= target is inclusive, compared from the most significant byte (byte 31) */
    uint8_t a[32] = {0}, b[32] = {0};
    a[31] = 1;
    b[31] = 1;
    CHECK(kiln_hash_meets_target(a, b), "equal meets");
    a[0] = 1;
    CHECK(!kiln_hash_meets_target(a, b), "one more in the low byte does not");
    b[30] = 1;
    CHECK(kiln_hash_meets_target(a, b), "higher byte decides");
    kiln_ctx_free(ctx);
    return check_summary();
}
