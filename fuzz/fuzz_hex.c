/* kiln_hex_decode over any string: it succeeds exactly when the string is an even number of hex
 * digits, and then encoding the bytes gives the string back in lower case (and reversed when
 * asked). A failure leaves a message naming the problem. */
#include "fuzz_util.h"

#include <ctype.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_ctx *ctx = fuzz_ctx();
    char *hex = fuzz_cstr(data, size);
    size_t n = strlen(hex), len = n / 2;
    int all_hex = 1;
    for (size_t i = 0; i < n; i++) all_hex = all_hex && isxdigit((unsigned char)hex[i]);

    uint8_t *out = malloc(len + 1);
    char *back = malloc(2 * len + 1), *rev = malloc(2 * len + 1);
    if (!out || !back || !rev) abort();
    kiln_status st = kiln_hex_decode(ctx, hex, out, len);
    FUZZ_CHECK((st == KILN_OK) == (all_hex && n % 2 == 0));
    if (st == KILN_OK) {
        kiln_hex_encode(out, len, 0, back);
        for (size_t i = 0; i < n; i++) FUZZ_CHECK(back[i] == tolower((unsigned char)hex[i]));
        FUZZ_CHECK(back[n] == '\0');
        kiln_hex_encode(out, len, 1, rev);
        for (size_t i = 0; i < len; i++) FUZZ_CHECK(memcmp(rev + 2 * i, back + 2 * (len - 1 - i), 2) == 0);
    } else {
        FUZZ_CHECK(st == KILN_ERR_INPUT && kiln_last_error(ctx)[0] != '\0');
    }
    /* one byte more than the string holds is always a length error */
    FUZZ_CHECK(kiln_hex_decode(ctx, hex, out, len + 1) == KILN_ERR_INPUT);
    free(out);
    free(back);
    free(rev);
    free(hex);
    return 0;
}
