/* The workload registry and the device policy. The names are the command-line contract's
 * (shared DESIGN.md: `kiln hash`, `kiln merkle`, `kiln mine`, `kiln bench`); the policy's
 * thresholds are the ones include/kiln.h documents. */
#include <string.h>

#include "check.h"
#include "core/ctx.h"
#include "kiln.h"

static const char *const hash_names[] = {"sha256",    "sha256d",   "sha3-224",  "sha3-256",
                                         "sha3-384",  "sha3-512",  "shake128",  "shake256",
                                         "keccak224", "keccak256", "keccak384", "keccak512"};
static const char *const tree_names[] = {"sha256d", "sha256", "sha3-256", "keccak256", "rp64_256", "blake3", "poseidon2_babybear16",
                                          "poseidon2_koalabear16", "poseidon2_goldilocks8", "rpo256",
                                          "poseidon2_goldilocks12"};

static void names_written_once(void)
{
    for (size_t i = 0; i < kiln_workload_count(); i++)
        for (size_t j = i + 1; j < kiln_workload_count(); j++)
            CHECK(strcmp(kiln_workload_at(i)->name, kiln_workload_at(j)->name) != 0, "%s twice",
                  kiln_workload_at(i)->name);
    CHECK(kiln_workload_at(kiln_workload_count()) == NULL, "past the end");
}

static void kinds_and_ids(kiln_ctx *ctx)
{
    for (size_t i = 0; i < sizeof hash_names / sizeof *hash_names; i++) {
        kiln_hash_algo a;
        const kiln_workload *w = kiln_workload_find(ctx, hash_names[i], KILN_KIND_HASH);
        CHECK(w && kiln_hash_algo_from_name(ctx, hash_names[i], &a) == KILN_OK && (int)a == w->hash_algo,
              "hash %s", hash_names[i]);
        CHECK(w && strcmp(kiln_hash_algo_name((kiln_hash_algo)w->hash_algo), hash_names[i]) == 0, "name of %s",
              hash_names[i]);
    }
    for (size_t i = 0; i < sizeof tree_names / sizeof *tree_names; i++) {
        kiln_merkle_algo a;
        CHECK(kiln_merkle_algo_from_name(ctx, tree_names[i], &a) == KILN_OK &&
                  strcmp(kiln_merkle_algo_name(a), tree_names[i]) == 0,
              "merkle %s", tree_names[i]);
    }
    kiln_algo m;
    CHECK(kiln_algo_from_name(ctx, "sha256d", &m) == KILN_OK && m == KILN_ALGO_SHA256D, "mine sha256d");
    CHECK(kiln_algo_from_name(ctx, "scrypt", &m) == KILN_OK && m == KILN_ALGO_SCRYPT, "mine scrypt");
    CHECK(kiln_algo_from_name(ctx, "sha256", &m) == KILN_ERR_INPUT, "sha256 is no proof of work");
    CHECK(strstr(kiln_last_error(ctx), "sha256d or scrypt") != NULL, "message lists the names: %s",
          kiln_last_error(ctx));
    CHECK(kiln_workload_find(ctx, "md4", KILN_KIND_ALL) == NULL, "md4 (unknown)");
    CHECK(kiln_workload_find(ctx, "rp64_256", KILN_KIND_HASH) == NULL, "rp64_256 is no digest");
    kiln_hash_algo h;
    CHECK(kiln_hash_algo_from_name(ctx, NULL, &h) == KILN_ERR_INPUT, "NULL name");
}

static void bench_names(kiln_ctx *ctx)
{
    static const struct {
        const char *name;
        int tune;
        kiln_kind kind;
        const char *workload;
    } cases[] = {
        {"sha256d", 0, KILN_KIND_SEARCH, "sha256d"},         {"scrypt", 1, KILN_KIND_SEARCH, "scrypt"},
        {"scrypt-kdf", 0, KILN_KIND_KDF, "scrypt-kdf"},       {"keccakf1600", 0, KILN_KIND_PERMUTATION, "keccakf1600"},
        {"merkle-rp64", 1, KILN_KIND_TREE, "rp64_256"},       {"merkle-rp64_256", 0, KILN_KIND_TREE, "rp64_256"},
        {"merkle-sha256d", 1, KILN_KIND_TREE, "sha256d"},     {"sha3-512", 0, KILN_KIND_HASH, "sha3-512"},
        {"pagerank", 0, KILN_KIND_GRAPH, "pagerank"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        kiln_kind kind = 0;
        const kiln_workload *w = kiln_workload_for_bench(ctx, cases[i].name, KILN_KIND_ALL, cases[i].tune, &kind);
        CHECK(w && kind == cases[i].kind && strcmp(w->name, cases[i].workload) == 0, "bench name %s",
              cases[i].name);
        char buf[48];
        if (w && kind == KILN_KIND_TREE)
            CHECK(strncmp(kiln_workload_bench_name(w, kind, buf, sizeof buf), "merkle-", 7) == 0, "tree bench name");
    }
    kiln_kind kind;
    CHECK(kiln_workload_for_bench(ctx, "sha3-224", KILN_KIND_ALL, 1, &kind) == NULL, "sha3-224 is not tunable");
    CHECK(kiln_workload_for_bench(ctx, "merkle-md5", KILN_KIND_ALL, 0, &kind) == NULL, "merkle-md5");
    /* `kiln tune --algo sha256d` sweeps threads per block 32..1024 by powers of two x nonces per
     * thread 1..16 (README, docs/perf-sha256d.md) */
    kiln_tune_axis axes[4];
    const kiln_workload *w = kiln_workload_find(ctx, "sha256d", KILN_KIND_SEARCH);
    int n = w ? kiln_workload_tune_axes(w, KILN_KIND_SEARCH, axes) : 0;
    CHECK(n == 2 && axes[0].count == 6 && axes[0].values[0] == 32 && axes[0].values[5] == 1024 &&
              axes[1].count == 5 && axes[1].values[4] == 16,
          "sha256d sweep");
    CHECK(w && kiln_workload_tune_axes(w, KILN_KIND_HASH, axes) == 0, "a digest has no sweep");
}

/* The policy on contexts made to look as `--device cpu`, `cuda` and `auto` leave them (no GPU is
 * needed: kiln_ctx_pick only reads the selection). */
static void device_policy(kiln_ctx *ctx)
{
    const uint64_t mib = UINT64_C(1) << 20;
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_SEARCH, 0) == KILN_BACKEND_CPU, "cpu context: search");
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_HASH, 1024 * mib) == KILN_BACKEND_CPU, "cpu context: big hash");
    CHECK(kiln_ctx_pick(NULL, KILN_KIND_HASH, 1024 * mib) == KILN_BACKEND_CPU, "no context");
    ctx->backend = KILN_BACKEND_CUDA;
    ctx->device_auto = 0;
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_HASH, 1) == KILN_BACKEND_CUDA, "explicit GPU: small hash");
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_GRAPH, 1000) == KILN_BACKEND_CPU, "explicit GPU: small graph build");
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_GRAPH, UINT64_C(1) << 22) == KILN_BACKEND_CUDA, "explicit GPU: 2^22 edges");
    ctx->device_auto = 1;
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_SEARCH, 0) == KILN_BACKEND_CUDA, "auto: search");
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_TREE, 2) == KILN_BACKEND_CUDA, "auto: tree");
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_HASH, 255 * mib) == KILN_BACKEND_CPU, "auto: 255 MiB of hashing");
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_HASH, 256 * mib) == KILN_BACKEND_CUDA, "auto: 256 MiB of hashing");
    CHECK(kiln_ctx_pick(ctx, KILN_KIND_GRAPH, (UINT64_C(1) << 22) - 1) == KILN_BACKEND_CPU, "auto: small graph");
    ctx->backend = KILN_BACKEND_CPU;
    ctx->device_auto = 0;
    /* a failed selection leaves the context as it was */
    CHECK(kiln_ctx_set_device(ctx, "auto") == KILN_OK && kiln_ctx_device_auto(ctx), "auto");
    CHECK(kiln_ctx_set_device(ctx, "gpu") == KILN_ERR_INPUT && kiln_ctx_device_auto(ctx), "'gpu' refused");
    CHECK(kiln_ctx_set_device(ctx, "cpu") == KILN_OK && !kiln_ctx_device_auto(ctx), "cpu");
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    names_written_once();
    kinds_and_ids(ctx);
    bench_names(ctx);
    device_policy(ctx);
    kiln_ctx_free(ctx);
    return check_summary();
}
