/* Known answers for the hashing front end, on the context's device: FIPS 202's and the Keccak
 * team's published digests, hashed one by one on the CPU and, on a GPU, as one batch (both the
 * one-block and the multi-block kernels). */
#include <string.h>

#include "hash_internal.h"
#include "registry_internal.h"
#include "../core/ctx.h"

typedef struct hash_kat {
    kiln_hash_algo algo;
    const char *msg; /* repeated to msg_len bytes */
    size_t msg_len;
    const char *digest;
} hash_kat;

static const hash_kat kats[] = {
    /* FIPS 202 example values (NIST CSRC), "abc" and the 200 repetitions of 0xa3 */
    {KILN_HASH_SHA3_256, "abc", 3, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
    {KILN_HASH_SHA3_512, "abc", 3,
     "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"},
    {KILN_HASH_SHA3_256, "\xa3", 200, "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"},
    {KILN_HASH_SHAKE128, "", 0, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"},
    /* the Keccak team's ShortMsgKAT_256, Len = 0 (Ethereum's keccak256 of nothing) */
    {KILN_HASH_KECCAK256, "", 0, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"},
};

kiln_status kiln_selftest_keccak(kiln_ctx *ctx)
{
    enum { N = sizeof kats / sizeof kats[0] };
    uint8_t msgs[N][200], d[64], want[64];
    for (size_t i = 0; i < N; i++) {
        const hash_kat *k = &kats[i];
        size_t unit = k->msg_len ? strlen(k->msg) : 1, outlen = strlen(k->digest) / 2;
        for (size_t j = 0; j < k->msg_len; j++) msgs[i][j] = (uint8_t)k->msg[j % unit];
        if (kiln_hex_decode(ctx, k->digest, want, outlen) != KILN_OK) return KILN_ERR_DEVICE;
        kiln_status st = kiln_hash(k->algo, msgs[i], k->msg_len, d, outlen);
        if (st == KILN_OK && ctx->backend != KILN_BACKEND_CPU) {
            uint64_t offsets[2] = {0, k->msg_len};
            st = kiln_hash_batch(ctx, k->algo, msgs[i], offsets, 1, d, outlen);
            if (st != KILN_OK) return st;
        }
        if (st != KILN_OK || memcmp(d, want, outlen) != 0)
            return kiln_fail(ctx, KILN_NOT_FOUND, "%s known answer %zu failed on %s", kiln_hash_algo_name(k->algo),
                             i + 1, ctx->device_name);
    }
    return KILN_OK;
}
