#include "batch_lines.h"

#include <string.h>

size_t batch_count(const uint8_t *text, size_t len)
{
    size_t n = 0;
    for (const uint8_t *p = text, *end = text + len; p < end; n++) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    return n;
}

size_t batch_split(const uint8_t *text, size_t len, const void *salt, size_t salt_len, kiln_scrypt_input *out)
{
    size_t n = 0;
    for (const uint8_t *p = text, *end = text + len; p < end; n++) {
        const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
        const uint8_t *stop = nl ? nl : end;
        out[n] = (kiln_scrypt_input){p, (size_t)(stop - p), salt, salt_len};
        p = nl ? nl + 1 : end;
    }
    return n;
}
