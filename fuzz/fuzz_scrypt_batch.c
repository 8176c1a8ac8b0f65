/* kiln scrypt --batch's line splitter (cli/scrypt/batch_lines.h) over any bytes: it finds as many
 * passwords as it counts, each inside the input and free of '\n', and the passwords joined by
 * '\n' give the input back (less the '\n' that ends it). */
#include "fuzz_util.h"

#include "scrypt/batch_lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = batch_count(data, size);
    kiln_scrypt_input *in = malloc((n ? n : 1) * sizeof *in);
    uint8_t *back = malloc(size + 1);
    if (!in || !back) abort();
    static const char salt[] = "salt";
    FUZZ_CHECK(batch_split(data, size, salt, 4, in) == n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = in[i].password;
        FUZZ_CHECK(p >= data && p + in[i].password_len <= data + size);
        FUZZ_CHECK(!memchr(p, '\n', in[i].password_len) && in[i].salt == salt && in[i].salt_len == 4);
        memcpy(back + k, p, in[i].password_len);
        k += in[i].password_len;
        if (i + 1 < n || (size && data[size - 1] == '\n')) back[k++] = '\n';
    }
    FUZZ_CHECK(k == size && memcmp(back, data, size) == 0);
    free(in);
    free(back);
    return 0;
}
