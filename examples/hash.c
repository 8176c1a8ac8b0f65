/* Hashing: the digest of each argument, computed in one batch on a device.
 *   hash ALGO [--device SPEC] TEXT...     e.g.  hash sha3-256 abc
 * Prints one "<hex>  <text>" line per argument, as sha256sum does for files. ALGO is any name
 * `kiln hash --help` lists; SPEC is cpu, cuda, opencl:0 or auto (the default). */
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
    const char *device = "auto";
    int first = 2;
    if (argc > 3 && strcmp(argv[2], "--device") == 0) device = argv[3], first = 4;
    if (argc <= first) return fprintf(stderr, "usage: hash ALGO [--device SPEC] TEXT...\n"), 2;

    kiln_ctx *ctx = kiln_ctx_new();
    kiln_hash_algo algo;
    if (!ctx) return fprintf(stderr, "hash: out of memory\n"), 3;
    if (kiln_hash_algo_from_name(ctx, argv[1], &algo) != KILN_OK || kiln_ctx_set_device(ctx, device) != KILN_OK)
        return fail(ctx, "hash", 2);

    /* the messages back to back, message i at data[offsets[i] .. offsets[i + 1]) */
    size_t n = (size_t)(argc - first), total = 0, outlen = kiln_hash_digest_len(algo);
    uint64_t *offsets = malloc((n + 1) * sizeof *offsets);
    for (size_t i = 0; i < n; i++) total += strlen(argv[first + i]);
    uint8_t *data = malloc(total + 1), *digests = malloc(n * outlen);
    char *hex = malloc(2 * outlen + 1);
    offsets[0] = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(argv[first + i]);
        memcpy(data + offsets[i], argv[first + i], len);
        offsets[i + 1] = offsets[i] + len;
    }
    int rc = 0;
    if (kiln_hash_batch(ctx, algo, data, offsets, n, digests, outlen) != KILN_OK) {
        fprintf(stderr, "hash: %s\n", kiln_last_error(ctx));
        rc = 3;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        kiln_hex_encode(digests + i * outlen, outlen, 0, hex);
        printf("%s  %s\n", hex, argv[first + i]);
    }
    free(offsets), free(data), free(digests), free(hex);
    kiln_ctx_free(ctx);
    return rc;
}
