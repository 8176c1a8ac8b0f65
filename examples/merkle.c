/* Merkle trees: the root of a Bitcoin block's transactions, and an inclusion proof.
 *   merkle [DEVICE] < txids      one txid a line, as explorers show them (byte-reversed hex)
 * Prints the root as a block explorer shows it, then checks the proof of the last transaction
 * against that root. Block 100000's four txids give its header's Merkle root,
 * f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln.h>

/* a txid as shown (byte-reversed) into the byte order the tree hashes */
static int read_txid(kiln_ctx *ctx, const char *line, uint8_t out[32])
{
    uint8_t b[32];
    if (kiln_hex_decode(ctx, line, b, 32) != KILN_OK) return 0;
    for (int i = 0; i < 32; i++) out[i] = b[31 - i];
    return 1;
}

/* An error: its message, the context freed (a program that goes on would keep it), the exit code. */
static int fail(kiln_ctx *ctx, const char *what, int code)
{
    fprintf(stderr, "%s: %s\n", what, kiln_last_error(ctx));
    kiln_ctx_free(ctx);
    return code;
}

int main(int argc, char **argv)
{
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) return fprintf(stderr, "merkle: out of memory\n"), 3;
    if (kiln_ctx_set_device(ctx, argc > 1 ? argv[1] : "auto") != KILN_OK) return fail(ctx, "merkle", 2);

    uint8_t *leaves = NULL, root[32];
    uint64_t n = 0, cap = 0;
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!*line) continue;
        if (n == cap) leaves = realloc(leaves, (cap = cap ? 2 * cap : 64) * 32);
        if (!read_txid(ctx, line, leaves + n * 32)) {
            fprintf(stderr, "merkle: line %llu: %s\n", (unsigned long long)n + 1, kiln_last_error(ctx));
            free(leaves);
            kiln_ctx_free(ctx);
            return 2;
        }
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "merkle: no txid on stdin\n");
        kiln_ctx_free(ctx);
        return 2;
    }

    /* the whole tree too, for the proof */
    uint8_t *tree = malloc(kiln_merkle_tree_size(n) * 32), siblings[64 * 32];
    if (kiln_merkle_build(ctx, KILN_MERKLE_SHA256D, leaves, n, NULL, root, tree) != KILN_OK) {
        free(leaves), free(tree);
        return fail(ctx, "merkle", 3);
    }
    char hex[65];
    kiln_hex_encode(root, 32, 1, hex);
    printf("root=%s\n", hex);

    int count = 0;
    uint64_t last = n - 1;
    kiln_status st = kiln_merkle_proof(ctx, tree, n, last, siblings, &count);
    if (st == KILN_OK)
        st = kiln_merkle_verify(ctx, KILN_MERKLE_SHA256D, leaves + last * 32, last, n, siblings, count, root);
    printf("proof of leaf %llu: %d siblings, %s\n", (unsigned long long)last, count, st == KILN_OK ? "OK" : "FAILED");
    free(leaves), free(tree);
    kiln_ctx_free(ctx);
    return st == KILN_OK ? 0 : 1;
}
