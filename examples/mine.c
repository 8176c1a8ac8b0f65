/* Mining: a nonce search over a Bitcoin block header.
 *   mine [DEVICE]
 * Searches nonces 2083000000 .. 2083999999 of the genesis block's header (its own target, nBits
 * 1d00ffff) and prints the nonce found and the block hash, the genesis block's:
 *   nonce=2083236893 hash=000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f
 * Every nonce a GPU reports has been recomputed on the CPU before on_found sees it. */
#include <stdio.h>
#include <string.h>

#include <kiln.h>

/* version, previous block (none), Merkle root, time, nBits, nonce (cleared), in serialized order */
static const char *genesis = "01000000"
                             "0000000000000000000000000000000000000000000000000000000000000000"
                             "3ba3edfd7a7b12b27ac72c3e67768f617fc81bc3888a51323a9fb8aa4b1e5e4a"
                             "29ab5f49" "ffff001d" "00000000";

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    char hex[65];
    kiln_hex_encode(hash, 32, 1, hex); /* block hashes are shown byte-reversed */
    printf("nonce=%u hash=%s\n", nonce, hex);
    (void)user;
    return 0;
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
    kiln_scan_job job;
    kiln_scan_result result;
    memset(&job, 0, sizeof job);
    if (!ctx) return fprintf(stderr, "mine: out of memory\n"), 3;
    if (kiln_ctx_set_device(ctx, argc > 1 ? argv[1] : "auto") != KILN_OK ||
        kiln_header_from_hex(ctx, genesis, job.header) != KILN_OK ||
        kiln_target_from_bits(ctx, 0x1d00ffff, job.target) != KILN_OK)
        return fail(ctx, "mine", 2);
    job.algo = KILN_ALGO_SHA256D;
    job.start = 2083000000;
    job.count = 1000000;
    job.on_found = on_found;
    kiln_status st = kiln_scan(ctx, &job, &result);
    if (st == KILN_NOT_FOUND) printf("no nonce in the range\n");
    else if (st != KILN_OK) fprintf(stderr, "mine: %s\n", kiln_last_error(ctx));
    kiln_ctx_free(ctx);
    return st == KILN_OK ? 0 : st == KILN_NOT_FOUND ? 1 : 3;
}
