/* Key derivation: scrypt (RFC 7914) of a password and a salt.
 *   scrypt PASSWORD SALT [N r p LENGTH]     e.g.  scrypt password NaCl 1024 8 16 64
 * Prints the derived key as hex (defaults: N 16384, r 8, p 1, 64 bytes). The CPU spreads the p
 * lanes over its cores; many passwords at once go to a GPU through kiln_scrypt_batch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln.h>

/* An error: its message, the context freed (a program that goes on would keep it), the exit code. */
static int fail(kiln_ctx *ctx, const char *what, int code)
{
    fprintf(stderr, "%s: %s\n", what, kiln_last_error(ctx));
    kiln_ctx_free(ctx);
    return code;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 7) return fprintf(stderr, "usage: scrypt PASSWORD SALT [N r p LENGTH]\n"), 2;
    kiln_scrypt_params params = {16384, 8, 1};
    size_t len = 64;
    if (argc == 7) {
        params.N = strtoull(argv[3], NULL, 10);
        params.r = (uint32_t)strtoul(argv[4], NULL, 10);
        params.p = (uint32_t)strtoul(argv[5], NULL, 10);
        len = strtoul(argv[6], NULL, 10);
    }
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) return fprintf(stderr, "scrypt: out of memory\n"), 3;
    /* out-of-range parameters are refused here, naming the one at fault, before any memory is taken */
    if (kiln_scrypt_check(ctx, params, len) != KILN_OK) return fail(ctx, "scrypt", 2);
    uint8_t *key = malloc(len);
    char *hex = malloc(2 * len + 1);
    kiln_status st = kiln_scrypt(ctx, argv[1], strlen(argv[1]), argv[2], strlen(argv[2]), params, key, len);
    if (st == KILN_OK) {
        kiln_hex_encode(key, len, 0, hex);
        puts(hex);
    } else {
        fprintf(stderr, "scrypt: %s\n", kiln_last_error(ctx));
    }
    free(key), free(hex);
    kiln_ctx_free(ctx);
    return st == KILN_OK ? 0 : 3;
}
