/* Known-answer checks run by `kiln selftest`: external vectors only (FIPS 180-4 examples, the
 * Bitcoin genesis block, RFC 7914, a real Litecoin block), on the context's device. */
#include <string.h>

#include "registry_internal.h"
#include "../hash/hash_desc.h"
#include "../core/ctx.h"

typedef struct found_one {
    uint32_t nonce;
    uint8_t hash[32];
    int n;
} found_one;

static int keep_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    found_one *f = user;
    if (f->n++ == 0) {
        f->nonce = nonce;
        memcpy(f->hash, hash, 32);
    }
    return 0;
}

/* A digest's known answer (its descriptor's), hashed on the context's device. */
static kiln_status check_hash_kat(kiln_ctx *ctx, kiln_hash_algo algo)
{
    const kiln_hash_desc *d = kiln_hash_desc_of(algo);
    if (!d || !d->kat_digest || d->digest > 64) return KILN_OK;
    uint8_t out[64];
    char hex[129];
    const uint64_t offsets[2] = {0, d->kat_len};
    kiln_status st = kiln_hash_batch(ctx, algo, (const uint8_t *)d->kat_msg, offsets, 1, out, d->digest);
    if (st != KILN_OK) return st;
    kiln_hex_encode(out, d->digest, 0, hex);
    if (strcmp(hex, d->kat_digest) != 0)
        return kiln_fail(ctx, KILN_NOT_FOUND, "%s known answer on %s gave %s", d->name, ctx->device_name, hex);
    return KILN_OK;
}

/* A real block with its nonce cleared, searched in a window around its real nonce on the context's
 * device: exactly that nonce and the known PoW hash must come back. */
typedef struct block_check {
    const char *what; /* for the message */
    kiln_algo algo;
    const char *header_hex;
    const char *pow_hex; /* PoW hash, byte-reversed as printed */
    uint32_t nonce;
    uint64_t cpu_window, gpu_window; /* the GPU's is large enough to fill it for several launches */
} block_check;

static const block_check blocks[] = {
    {"sha256d search of the Bitcoin genesis block", KILN_ALGO_SHA256D,
     "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f6"
     "17fc81bc3888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c",
     "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f", 2083236893u, 200000, UINT64_C(1) << 31},
    /* Litecoin block of July 2013 (litecoin-project/litecoin scrypt_tests.cpp vector 0) */
    {"scrypt search of a Litecoin block", KILN_ALGO_SCRYPT,
     "020000004c1271c211717198227392b029a64a7971931d351b387bb80db027f270411e398a07046f7d4a08dd"
     "815412a8712f874a7ebf0507e3878bd24e20a3b73fd750a667d2f451eac7471b00de6659",
     "00000000002bef4107f882f6115e0b01f348d21195dacd3582aa2dabd7985806", 1499913728u, 600, UINT64_C(1) << 20},
};

static kiln_status check_block_search(kiln_ctx *ctx, const block_check *b)
{
    kiln_scan_job job;
    memset(&job, 0, sizeof job);
    job.algo = b->algo;
    if (kiln_header_from_hex(ctx, b->header_hex, job.header) != KILN_OK) return KILN_ERR_DEVICE;
    if (kiln_target_from_bits(ctx, kiln_header_bits(job.header), job.target) != KILN_OK) return KILN_ERR_DEVICE;
    kiln_header_set_nonce(job.header, 0);
    found_one f;
    memset(&f, 0, sizeof f);
    job.on_found = keep_found;
    job.user = &f;
    uint64_t window = ctx->backend == KILN_BACKEND_CPU ? b->cpu_window : b->gpu_window;
    job.start = b->nonce - window / 2;
    job.count = window;
    kiln_status st = kiln_scan(ctx, &job, NULL);
    if (st != KILN_OK && st != KILN_NOT_FOUND) return st;
    char hex[65];
    kiln_hex_encode(f.hash, 32, 1, hex);
    if (f.n != 1 || f.nonce != b->nonce || strcmp(hex, b->pow_hex) != 0)
        return kiln_fail(ctx, KILN_NOT_FOUND, "%s on %s did not find nonce %u", b->what, ctx->device_name, b->nonce);
    return KILN_OK;
}

/* RFC 7914 section 12 vector 2 through the context's device (the CPU KDF, or the GPU batch). */
kiln_status kiln_selftest_scrypt_kdf(kiln_ctx *ctx)
{
    static const char want[] = "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff1"
                               "09279d9830dac727afb94a83ee6d8360cbdfa2cc0640";
    kiln_scrypt_input in = {"password", 8, "NaCl", 4};
    kiln_scrypt_params sp = {1024, 8, 16};
    uint8_t out[64];
    char hex[129];
    kiln_status st = kiln_scrypt_batch(ctx, &in, 1, sp, out, sizeof out);
    if (st != KILN_OK) return st;
    kiln_hex_encode(out, sizeof out, 0, hex);
    if (strcmp(hex, want) != 0) return kiln_fail(ctx, KILN_NOT_FOUND, "scrypt RFC 7914 vector 2 on %s gave %s", ctx->device_name, hex);
    return KILN_OK;
}

kiln_status kiln_selftest_sha256d_search(kiln_ctx *ctx) { return check_block_search(ctx, &blocks[0]); }

kiln_status kiln_selftest_scrypt_search(kiln_ctx *ctx) { return check_block_search(ctx, &blocks[1]); }

/* Every registry entry's check, in the registry's order. */
kiln_status kiln_selftest(kiln_ctx *ctx)
{
    if (!ctx) return KILN_ERR_INPUT;
    for (size_t i = 0; i < kiln_workload_count(); i++) {
        kiln_selftest_fn check = kiln_workload_selftest(i);
        const kiln_workload *w = kiln_workload_at(i);
        kiln_status st = check ? check(ctx) : KILN_OK;
        if (st == KILN_OK && (w->kinds & KILN_KIND_HASH)) st = check_hash_kat(ctx, (kiln_hash_algo)w->hash_algo);
        if (st != KILN_OK) return st;
    }
    return KILN_OK;
}
