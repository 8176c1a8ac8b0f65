/* The workload registry: every algorithm name kiln knows, written once, with what it can do. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../core/ctx.h"
#include "../hash/hash_desc.h"
#include "../prim/merkle_merges.h"
#include "registry_internal.h"

#define SEARCH KILN_KIND_SEARCH
#define HASH KILN_KIND_HASH
#define KDF KILN_KIND_KDF
#define TREE KILN_KIND_TREE
#define GRAPH KILN_KIND_GRAPH
#define PERM KILN_KIND_PERMUTATION

/* The rows that are not only a digest, in the registry's order; HASHES marks where the hash
 * algorithms (core/hash_list.h, each row made from its descriptor by hash_row) come in, those that a
 * row here already covers (sha256d, which also mines) left out; MERGES where the Merkle merges no
 * digest names come in (the lines of KILN_MERKLE_MERGES with a NAME, prim/merkle_merges.h). Each
 * row: name, short name, kinds, search/hash/tree ids, GPU kinds, bench kinds, bench-all kinds, tune
 * kinds, help; then the known-answer check `kiln selftest` runs for the entry (NULL: covered by
 * another entry's). */
static const registry_entry fixed[] = {
    {{"sha256d", NULL, SEARCH | HASH | TREE, KILN_ALGO_SHA256D, KILN_HASH_SHA256D, KILN_MERKLE_SHA256D,
     SEARCH | HASH | TREE, SEARCH | TREE, SEARCH, SEARCH | TREE, NULL /* its hash descriptor's */},
     kiln_selftest_sha256d_search},
    {{"scrypt", NULL, SEARCH, KILN_ALGO_SCRYPT, -1, -1, SEARCH, SEARCH, SEARCH, SEARCH,
     "Litecoin's scrypt(N=1024, r=1, p=1) proof of work"},
     kiln_selftest_scrypt_search},
    {{"scrypt-kdf", NULL, KDF, -1, -1, -1, KDF, KDF, 0, KDF, "the scrypt key derivation function (RFC 7914)"},
     kiln_selftest_scrypt_kdf},
    {{NULL, NULL, HASH, -1, -1, -1, 0, 0, 0, 0, NULL}, NULL}, /* HASHES */
    {{"keccakf1600", NULL, PERM, -1, -1, -1, PERM, PERM, PERM, 0, "the bare Keccak-f[1600] permutation"},
     kiln_selftest_keccak},
    {{"pagerank", NULL, GRAPH, -1, -1, -1, GRAPH, GRAPH, 0, 0, "PageRank (NetworkX's definition)"},
     NULL},
    {{NULL, NULL, TREE, -1, -1, -1, 0, 0, 0, 0, NULL}, NULL}, /* MERGES */
};

#define FIXED (sizeof fixed / sizeof fixed[0])
#define MAX_ROWS 64

static registry_entry table[MAX_ROWS];
static size_t rows; /* in table, once built */

/* A digest's row: hashed on both devices (where a GPU kernel exists), benchmarked, its Merkle
 * merge (if any) benchmarked and tuned; checked by its descriptor's known answer. */
static registry_entry hash_row(kiln_hash_algo id, const kiln_hash_desc *d)
{
    const unsigned kinds = HASH | (d->tree >= 0 ? TREE : 0);
    const unsigned gpu = d->gpu != KILN_HASH_GPU_NONE ? kinds : kinds & ~HASH;
    registry_entry e = {{d->name, NULL, kinds, -1, (int)id, d->tree, gpu, kinds, HASH, kinds & TREE, d->help}, NULL};
    return e;
}

/* The merges' rows: each a tree, built on both devices, benchmarked and tuned. */
#define MERGE_ROW(ID, KERNEL, MERGE, NODE, PAIRS, NAME, SHORT, HELP, SELFTEST)                                          \
    {{NAME, SHORT, TREE, -1, -1, ID, TREE, TREE, 0, TREE, HELP}, SELFTEST},
static const registry_entry merges[] = {KILN_MERKLE_MERGES(MERGE_ROW)};
#undef MERGE_ROW

static int covered(kiln_hash_algo id)
{
    for (size_t i = 0; i < FIXED; i++)
        if (fixed[i].w.name && (fixed[i].w.kinds & HASH) && fixed[i].w.hash_algo == (int)id) return 1;
    return 0;
}

static void build(void)
{
    for (size_t i = 0; i < FIXED && rows < MAX_ROWS; i++) {
        if (fixed[i].w.name) {
            table[rows] = fixed[i];
            /* a row that also hashes says what its hash descriptor says of it */
            if (!table[rows].w.help && (table[rows].w.kinds & HASH))
                table[rows].w.help = kiln_hash_desc_of((kiln_hash_algo)table[rows].w.hash_algo)->help;
            rows++;
            continue;
        }
        if (fixed[i].w.kinds == TREE) {
            for (size_t m = 0; m < sizeof merges / sizeof merges[0] && rows < MAX_ROWS; m++)
                if (merges[m].w.name) table[rows++] = merges[m];
            continue;
        }
        for (size_t h = 0; h < kiln_hash_desc_count() && rows < MAX_ROWS; h++)
            if (!covered((kiln_hash_algo)h))
                table[rows++] = hash_row((kiln_hash_algo)h, kiln_hash_desc_of((kiln_hash_algo)h));
    }
}

static pthread_once_t built = PTHREAD_ONCE_INIT;
#define TABLE() pthread_once(&built, build)

size_t kiln_workload_count(void)
{
    TABLE();
    return rows;
}

const kiln_workload *kiln_workload_at(size_t i)
{
    TABLE();
    return i < rows ? &table[i].w : NULL;
}

kiln_selftest_fn kiln_workload_selftest(size_t i)
{
    TABLE();
    return i < rows ? table[i].selftest : NULL;
}

void kiln_workload_list(unsigned kinds, int which, char *out, size_t len)
{
    TABLE();
    int bench = which == 1, tune = which == 2;
    const char *names[64];
    char bufs[64][48];
    int n = 0;
    for (size_t i = 0; i < rows && n < 64; i++) {
        for (unsigned k = 1; k <= KILN_KIND_PERMUTATION && n < 64; k <<= 1) {
            if (!(kinds & k & table[i].w.kinds)) continue;
            if (bench && !(table[i].w.bench_kinds & k)) continue;
            if (tune && !(table[i].w.tune_kinds & k)) continue;
            names[n] = bench || tune ? kiln_workload_bench_name(&table[i].w, (kiln_kind)k, bufs[n], sizeof bufs[n])
                                     : table[i].w.name;
            n++;
            if (!bench && !tune) break;
        }
    }
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n && used < len; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int w = snprintf(out + used, len - used, "%s%s", sep, names[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

static const char *kind_word(unsigned kinds)
{
    switch (kinds) {
    case KILN_KIND_SEARCH: return "mining ";
    case KILN_KIND_HASH: return "hash ";
    case KILN_KIND_TREE: return "merkle ";
    default: return "";
    }
}

/* Whether a name the user typed names `known`: without regard to case, and with its dashes and
 * underscores optional, as coreutils' and hashlib's spellings differ from kiln's (SHA256,
 * sha-256, sha3_256 for sha256 and sha3-256). No two of kiln's names are alike this way
 * (tests/test_algo_names.c). The one place --algo is matched. */
static int name_is(const char *typed, const char *known)
{
    for (;;) {
        while (*typed == '-' || *typed == '_') typed++;
        while (*known == '-' || *known == '_') known++;
        if (!*typed || !*known) return !*typed && !*known;
        char a = *typed++, b = *known++;
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z') b = (char)(b - 'A' + 'a');
        if (a != b) return 0;
    }
}

const kiln_workload *kiln_workload_find(kiln_ctx *ctx, const char *name, unsigned kinds)
{
    TABLE();
    for (size_t i = 0; name && i < rows; i++)
        if ((table[i].w.kinds & kinds) && name_is(name, table[i].w.name)) return &table[i].w;
    char list[1024];
    kiln_workload_list(kinds, 0, list, sizeof list);
    kiln_fail(ctx, KILN_ERR_INPUT, "unknown %salgorithm '%s' (expected %s)", kind_word(kinds), name ? name : "", list);
    return NULL;
}

const char *kiln_workload_bench_name(const kiln_workload *w, kiln_kind kind, char *buf, size_t len)
{
    if (kind == KILN_KIND_TREE) snprintf(buf, len, "merkle-%s", w->short_name ? w->short_name : w->name);
    else snprintf(buf, len, "%s", w->name);
    return buf;
}

const kiln_workload *kiln_workload_for_bench(kiln_ctx *ctx, const char *name, unsigned kinds, int tune,
                                             kiln_kind *kind)
{
    TABLE();
    for (size_t i = 0; name && i < rows; i++) {
        const kiln_workload *w = &table[i].w;
        unsigned usable = w->kinds & kinds & (tune ? w->tune_kinds : w->bench_kinds);
        for (unsigned k = 1; k <= KILN_KIND_PERMUTATION; k <<= 1) {
            if (!(usable & k)) continue;
            char buf[48];
            int match = name_is(name, kiln_workload_bench_name(w, (kiln_kind)k, buf, sizeof buf));
            if (!match && k == KILN_KIND_TREE) match = strncmp(name, "merkle-", 7) == 0 && name_is(name + 7, w->name);
            if (match) {
                if (kind) *kind = (kiln_kind)k;
                return w;
            }
        }
    }
    char list[1024];
    kiln_workload_list(kinds, tune ? 2 : 1, list, sizeof list);
    kiln_fail(ctx, KILN_ERR_INPUT, "unknown algorithm '%s' (expected %s)", name ? name : "", list);
    return NULL;
}

/* The sweeps of `kiln tune`: what each tunable kind's launch is made of. */
static const int tpb_all[] = {32, 64, 128, 256, 512, 1024};
static const int items_pow2[] = {1, 2, 4, 8, 16};
static const int scrypt_tph[] = {1, 4};
static const int scrypt_gap[] = {1, 2, 4, 8};
static const int kdf_tpb[] = {64, 128, 256};
static const int kdf_kernel[] = {1, 2}; /* CUDA ROMix: state in registers; per-quad steps, X in shared memory */
static const int merkle_k[] = {1, 2, 3, 4, 5, 6, 7, 8};
static const int scrypt_tpb[] = {32, 64, 128, 256};
static const int scrypt_waves[] = {1, 2, 4};

#define AXIS(label, arr) ((kiln_tune_axis){label, arr, (int)(sizeof arr / sizeof arr[0])})

int kiln_workload_tune_axes(const kiln_workload *w, kiln_kind kind, kiln_tune_axis axes[4])
{
    if (!w || !(w->tune_kinds & kind)) return 0;
    switch (kind) {
    case KILN_KIND_SEARCH:
        if (w->search_algo == KILN_ALGO_SCRYPT) {
            axes[0] = AXIS("threads per hash", scrypt_tph);
            axes[1] = AXIS("lookup gap", scrypt_gap);
            axes[2] = AXIS("threads per block", scrypt_tpb);
            axes[3] = AXIS("waves per launch", scrypt_waves);
            return 4;
        }
        axes[0] = AXIS("threads per block", tpb_all);
        axes[1] = AXIS("nonces per thread", items_pow2);
        return 2;
    case KILN_KIND_KDF:
        axes[0] = AXIS("threads per block", kdf_tpb);
        axes[1] = AXIS("lookup gap", scrypt_gap);
        axes[2] = AXIS("ROMix kernel", kdf_kernel);
        return 3;
    case KILN_KIND_TREE:
        axes[0] = AXIS("threads per block", tpb_all);
        axes[1] = AXIS("subtree height k", merkle_k);
        return 2;
    default: return 0;
    }
}
