/* kiln_header_from_hex over any string: only 160 hex digits are a header, and the fields read
 * from it are the little-endian words at their offsets in the decoded bytes. */
#include "fuzz_util.h"

#include <ctype.h>

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_ctx *ctx = fuzz_ctx();
    char *hex = fuzz_cstr(data, size);
    size_t n = strlen(hex);
    int all_hex = n == 2 * KILN_HEADER_SIZE;
    for (size_t i = 0; all_hex && i < n; i++) all_hex = isxdigit((unsigned char)hex[i]) != 0;

    uint8_t h[KILN_HEADER_SIZE];
    kiln_status st = kiln_header_from_hex(ctx, hex, h);
    FUZZ_CHECK((st == KILN_OK) == all_hex);
    if (st == KILN_OK) {
        char back[2 * KILN_HEADER_SIZE + 1];
        kiln_hex_encode(h, KILN_HEADER_SIZE, 0, back);
        for (size_t i = 0; i < n; i++) FUZZ_CHECK(back[i] == tolower((unsigned char)hex[i]));
        FUZZ_CHECK(kiln_header_version(h) == le32(h));
        FUZZ_CHECK(kiln_header_time(h) == le32(h + 68));
        FUZZ_CHECK(kiln_header_bits(h) == le32(h + 72));
        FUZZ_CHECK(kiln_header_nonce(h) == le32(h + 76));
        uint8_t old[KILN_HEADER_SIZE], before[32], after[32];
        memcpy(old, h, sizeof old);
        kiln_header_hash(h, before);
        kiln_header_set_nonce(h, ~le32(old + 76));
        FUZZ_CHECK(le32(h + 76) == ~le32(old + 76) && memcmp(h, old, 76) == 0);
        kiln_header_hash(h, after);
        FUZZ_CHECK(memcmp(before, after, 32) != 0);
    } else {
        FUZZ_CHECK(st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "bad header") != NULL);
    }
    free(hex);
    return 0;
}
