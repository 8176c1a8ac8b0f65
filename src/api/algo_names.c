/* The per-kind name functions of the public header, answered from the workload registry so that
 * each name is written once. */
#include <stddef.h>

#include "../core/ctx.h"

/* The registry entry whose id for `kind` is `id`. */
static const kiln_workload *by_id(kiln_kind kind, int id)
{
    for (size_t i = 0; i < kiln_workload_count(); i++) {
        const kiln_workload *w = kiln_workload_at(i);
        int wid = kind == KILN_KIND_SEARCH ? w->search_algo : kind == KILN_KIND_HASH ? w->hash_algo : w->tree_algo;
        if ((w->kinds & kind) && wid == id) return w;
    }
    return NULL;
}

static const char *name_of(kiln_kind kind, int id)
{
    const kiln_workload *w = id >= 0 ? by_id(kind, id) : NULL;
    return w ? w->name : "unknown";
}

kiln_status kiln_algo_from_name(kiln_ctx *ctx, const char *name, kiln_algo *algo)
{
    const kiln_workload *w = kiln_workload_find(ctx, name, KILN_KIND_SEARCH);
    if (!w) return KILN_ERR_INPUT;
    *algo = (kiln_algo)w->search_algo;
    return KILN_OK;
}

const char *kiln_algo_name(kiln_algo algo) { return name_of(KILN_KIND_SEARCH, (int)algo); }

kiln_status kiln_hash_algo_from_name(kiln_ctx *ctx, const char *name, kiln_hash_algo *algo)
{
    const kiln_workload *w = kiln_workload_find(ctx, name, KILN_KIND_HASH);
    if (!w) return KILN_ERR_INPUT;
    *algo = (kiln_hash_algo)w->hash_algo;
    return KILN_OK;
}

const char *kiln_hash_algo_name(kiln_hash_algo algo) { return name_of(KILN_KIND_HASH, (int)algo); }

kiln_status kiln_merkle_algo_from_name(kiln_ctx *ctx, const char *name, kiln_merkle_algo *algo)
{
    const kiln_workload *w = kiln_workload_find(ctx, name, KILN_KIND_TREE);
    if (!w) return KILN_ERR_INPUT;
    *algo = (kiln_merkle_algo)w->tree_algo;
    return KILN_OK;
}

const char *kiln_merkle_algo_name(kiln_merkle_algo algo) { return name_of(KILN_KIND_TREE, (int)algo); }
