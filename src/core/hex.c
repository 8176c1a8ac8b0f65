/* The hex codec of include/kiln.h. It sits in core, not src/api, because the layers above core
 * parse hex too (pow/header.c: headers, nBits and targets) and calls go down only. */
#include <string.h>

#include "ctx.h"

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

kiln_status kiln_hex_decode(kiln_ctx *ctx, const char *hex, uint8_t *out, size_t len)
{
    if (!hex) return kiln_fail(ctx, KILN_ERR_INPUT, "missing hex string");
    size_t n = strlen(hex);
    /* name a bad character before a bad length: it is the more useful message */
    for (size_t i = 0; i < n; i++) {
        if (hex_value(hex[i]) < 0) {
            unsigned char c = (unsigned char)hex[i];
            if (c >= 0x20 && c < 0x7f)
                return kiln_fail(ctx, KILN_ERR_INPUT, "non-hex character '%c' at position %zu", (char)c, i + 1);
            return kiln_fail(ctx, KILN_ERR_INPUT, "non-hex byte 0x%02x at position %zu", c, i + 1);
        }
    }
    if (n != 2 * len)
        return kiln_fail(ctx, KILN_ERR_INPUT, "expected %zu hex characters, got %zu", 2 * len, n);
    for (size_t i = 0; i < len; i++)
        out[i] = (uint8_t)(hex_value(hex[2 * i]) << 4 | hex_value(hex[2 * i + 1]));
    return KILN_OK;
}

void kiln_hex_encode(const uint8_t *bytes, size_t len, int reversed, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < len; i++) {
        uint8_t b = bytes[reversed ? len - 1 - i : i];
        out[2 * i] = digits[b >> 4];
        out[2 * i + 1] = digits[b & 15];
    }
    out[2 * len] = '\0';
}
