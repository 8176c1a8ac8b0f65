/* A program using kiln as an installed library, built by tests/test_install.sh with pkg-config
 * (against libkiln.so and libkiln.a) and by find_package(kiln) (CMakeLists.txt here). It checks
 * answers published elsewhere, and it also reaches the library's OpenMP, zlib and CUDA code (scrypt
 * over threads, the graph reader, the "auto" device), so a static link missing any of them fails. */
#include <stdio.h>
#include <string.h>

#include <kiln.h>

static int hex_is(const uint8_t *b, size_t n, const char *want)
{
    char got[2 * 64 + 1];
    for (size_t i = 0; i < n; i++)
        snprintf(got + 2 * i, 3, "%02x", b[i]);
    if (strcmp(got, want) == 0)
        return 1;
    fprintf(stderr, "got  %s\nwant %s\n", got, want);
    return 0;
}

int main(void)
{
    int fail = 0;
    uint8_t d[64];

    /* FIPS 180-2, appendix B.1 */
    kiln_sha256("abc", 3, d);
    fail |= !hex_is(d, 32, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");

    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx || kiln_ctx_set_device(ctx, "auto") != KILN_OK)
        return fprintf(stderr, "kiln_ctx_set_device(auto): %s\n", ctx ? kiln_last_error(ctx) : "no memory"), 1;
    kiln_ctx_set_device(ctx, "cpu");

    /* RFC 7914, section 12: scrypt("password", "NaCl", N=1024, r=8, p=16, 64) */
    kiln_scrypt_params sp = {1024, 8, 16};
    if (kiln_scrypt(ctx, "password", 8, "NaCl", 4, sp, d, 64) != KILN_OK)
        return fprintf(stderr, "kiln_scrypt: %s\n", kiln_last_error(ctx)), 1;
    fail |= !hex_is(d, 64,
                    "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
                    "2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640");

    /* an absent file is refused, by name */
    kiln_graph *g = NULL;
    if (kiln_graph_load(ctx, "/nonexistent/kiln-install-test.el", KILN_GRAPH_AUTO, 0, &g) == KILN_OK ||
        !strstr(kiln_last_error(ctx), "kiln-install-test.el")) {
        fprintf(stderr, "kiln_graph_load of an absent file: %s\n", kiln_last_error(ctx));
        fail = 1;
    }
    kiln_ctx_free(ctx);
    puts(fail ? "FAIL" : "ok");
    return fail;
}
