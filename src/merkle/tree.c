/* Tree shape (src/prim/merkle_shape.h's arithmetic, made public), the CPU builder, inclusion
 * proofs and their verification, written once over the merge kinds of merge.c. */
#include <stdlib.h>
#include <string.h>

#include "../core/ctx.h"
#include "../core/par.h"
#include "../prim/merkle_shape.h"
#include "merkle_internal.h"

#define NODE KILN_MERKLE_NODE_SIZE
/* Merges a thread at least: a level of fewer than twice this is merged on the calling thread, where
 * waking another costs more than the merges (64 merges of sha256d are some 30 microseconds). */
#define MIN_PER_THREAD 1024
/* Merges per thread between interrupt polls: a few ms of the slowest merge (Rescue Prime), and
 * enough that forking the threads again costs nothing beside them. */
#define POLL_PER_THREAD 4096
/* Merges a thread takes at a time: a run of whole pairs goes to the kind's lanes at once. */
#define PAIR_RUN 256

int kiln_merkle_levels(uint64_t n) { return kiln_tree_levels(n); }

uint64_t kiln_merkle_level_size(uint64_t n, int level) { return kiln_tree_level_size(n, level); }

uint64_t kiln_merkle_level_offset(uint64_t n, int level) { return kiln_tree_level_offset(n, level); }

uint64_t kiln_merkle_tree_size(uint64_t n) { return kiln_tree_size(n); }

uint64_t kiln_merkle_merges(uint64_t n)
{
    uint64_t merges = 0;
    for (; n > 1; n = (n + 1) / 2) merges += (n + 1) / 2;
    return merges;
}

/* One run of a level: parents [i0, i1) of the m nodes of `in`. */
typedef struct level_job {
    const kiln_merkle_kind *kind;
    const uint8_t *in;
    uint64_t m;
    uint8_t *out;
    int64_t first, end;
} level_job;

static void merge_run(void *arg, uint64_t run, int slot)
{
    const level_job *j = arg;
    const kiln_merkle_kind *kind = j->kind;
    const uint8_t *in = j->in;
    uint8_t *out = j->out;
    const uint64_t m = j->m;
    (void)slot;
    const int64_t i0 = j->first + (int64_t)run * PAIR_RUN, i1 = j->end - i0 < PAIR_RUN ? j->end : i0 + PAIR_RUN;
    int64_t i = i0;
    /* whole pairs, several at a time where the kind can (the odd level's last node is not) */
    const int64_t whole = 2 * (uint64_t)(i1 - 1) + 1 < m ? i1 : i1 - 1;
    if (kind->pairs && whole > i0) {
        kind->pairs(in + NODE * 2 * (uint64_t)i0, (uint64_t)(whole - i0), out + NODE * (uint64_t)i0);
        i = whole;
    }
    for (; i < i1; i++) {
        uint64_t left = 2 * (uint64_t)i, right = left + 1 < m ? left + 1 : left;
        kiln_merkle_merge_bytes(kind, in + NODE * left, in + NODE * right, out + NODE * (uint64_t)i);
    }
}

/* out[i] = merge(in[2i], in[2i + 1]), the last node of an odd level paired with itself. The level
 * goes in slices of POLL_PER_THREAD merges per thread with an interrupt poll between slices, so a
 * level of millions of nodes still stops within milliseconds. A slice's runs go to kiln_par_for
 * (core/par.h), whose caller waits for no thread that has not begun (an OpenMP region of static
 * runs waited, on busy cores, for each thread a run was given to), on one thread per MIN_PER_THREAD
 * merges at most. *merged counts the tree's merges done, for the progress report out of total.
 * 1 when interrupted, else 0. */
static int merge_level(const kiln_ctx *ctx, const kiln_merkle_kind *kind, const uint8_t *in, uint64_t m,
                       uint8_t *out, int threads, uint64_t *merged, uint64_t total)
{
    int64_t parents = (int64_t)((m + 1) / 2), slice = (int64_t)POLL_PER_THREAD * threads;
    for (int64_t first = 0; first < parents; first += slice) {
        if (first > 0) {
            kiln_ctx_report(ctx, "merkle", "merges", *merged + (uint64_t)first, total);
            if (kiln_ctx_interrupt_requested(ctx)) return 1;
        }
        int64_t end = parents - first < slice ? parents : first + slice;
        level_job j = {kind, in, m, out, first, end};
        const uint64_t runs = (uint64_t)(end - first + PAIR_RUN - 1) / PAIR_RUN;
        kiln_par_for(kiln_threads_for(threads, (uint64_t)(end - first), MIN_PER_THREAD), runs, merge_run, &j);
    }
    *merged += (uint64_t)parents;
    kiln_ctx_report(ctx, "merkle", "merges", *merged, total);
    return kiln_ctx_interrupt_requested(ctx);
}

/* Levels from+1 .. root of a whole tree; 1 when interrupted. */
static int fill_levels(const kiln_ctx *ctx, const kiln_merkle_kind *kind, uint8_t *tree, uint64_t n, int from,
                       int threads)
{
    threads = kiln_threads_auto(threads);
    int levels = kiln_merkle_levels(n);
    uint64_t merged = 0, total = kiln_merkle_merges(kiln_merkle_level_size(n, from));
    for (int l = from; l + 1 < levels; l++) {
        if (merge_level(ctx, kind, tree + NODE * kiln_merkle_level_offset(n, l), kiln_merkle_level_size(n, l),
                        tree + NODE * kiln_merkle_level_offset(n, l + 1), threads, &merged, total))
            return 1;
    }
    return 0;
}

void kiln_merkle_fill_levels(const kiln_merkle_kind *kind, uint8_t *tree, uint64_t n, int from, int threads)
{
    fill_levels(NULL, kind, tree, n, from, threads);
}

kiln_status kiln_merkle_build_cpu(kiln_ctx *ctx, const kiln_merkle_kind *kind, const uint8_t *leaves, uint64_t n,
                                  int threads, uint8_t root[32], uint8_t *tree)
{
    threads = kiln_threads_auto(threads);
    if (tree) {
        memcpy(tree, leaves, (size_t)n * NODE);
        if (fill_levels(ctx, kind, tree, n, 0, threads)) return kiln_interrupted(ctx);
        memcpy(root, tree + NODE * (kiln_merkle_tree_size(n) - 1), NODE);
        return KILN_OK;
    }
    if (n == 1) {
        memcpy(root, leaves, NODE);
        return KILN_OK;
    }
    /* two scratch levels: level 1 in a, level 2 in b, level 3 in a again, ... */
    uint64_t half = (n + 1) / 2, quarter = (half + 1) / 2;
    uint8_t *a = malloc((size_t)half * NODE), *b = malloc((size_t)quarter * NODE);
    if (!a || !b) {
        free(a);
        free(b);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "out of memory for %llu Merkle nodes", (unsigned long long)half);
    }
    const uint8_t *in = leaves;
    uint8_t *out = a;
    int stopped = 0;
    uint64_t merged = 0, total = kiln_merkle_merges(n);
    for (uint64_t m = n; m > 1 && !stopped; m = (m + 1) / 2) {
        stopped = merge_level(ctx, kind, in, m, out, threads, &merged, total);
        in = out;
        out = out == a ? b : a;
    }
    if (!stopped) memcpy(root, in, NODE);
    free(a);
    free(b);
    return stopped ? kiln_interrupted(ctx) : KILN_OK;
}

kiln_status kiln_merkle_proof(kiln_ctx *ctx, const uint8_t *tree, uint64_t n, uint64_t index, uint8_t *siblings,
                              int *count)
{
    if (!tree || !siblings || !count) return kiln_fail(ctx, KILN_ERR_INPUT, "missing tree or proof buffer");
    if (n == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "a Merkle tree needs at least one leaf");
    if (index >= n)
        return kiln_fail(ctx, KILN_ERR_INPUT, "leaf index %llu out of range (the tree has %llu leaves)",
                         (unsigned long long)index, (unsigned long long)n);
    int levels = kiln_merkle_levels(n);
    uint64_t idx = index;
    for (int l = 0; l + 1 < levels; l++, idx >>= 1) {
        uint64_t sib = idx ^ 1;
        if (sib >= kiln_merkle_level_size(n, l)) sib = idx;
        memcpy(siblings + NODE * l, tree + NODE * (kiln_merkle_level_offset(n, l) + sib), NODE);
    }
    *count = levels - 1;
    return KILN_OK;
}

kiln_status kiln_merkle_verify(kiln_ctx *ctx, kiln_merkle_algo algo, const uint8_t leaf[32], uint64_t index,
                               uint64_t n, const uint8_t *siblings, int count, const uint8_t root[32])
{
    const kiln_merkle_kind *kind = NULL;
    kiln_status st = kiln_merkle_kind_get(ctx, algo, &kind);
    if (st != KILN_OK) return st;
    if (!leaf || !root || (count > 0 && !siblings)) return kiln_fail(ctx, KILN_ERR_INPUT, "missing leaf, root or proof");
    if (count < 0 || count > 64) return kiln_fail(ctx, KILN_ERR_INPUT, "a proof has 0..64 siblings, not %d", count);
    if ((st = kiln_merkle_check_nodes(ctx, kind, leaf, 1, "leaf")) != KILN_OK) return st;
    if ((st = kiln_merkle_check_nodes(ctx, kind, root, 1, "root")) != KILN_OK) return st;
    if ((st = kiln_merkle_check_nodes(ctx, kind, siblings, (uint64_t)count, "sibling")) != KILN_OK) return st;
    if (n > 0) {
        if (index >= n)
            return kiln_fail(ctx, KILN_NOT_FOUND, "leaf index %llu is not in a tree of %llu leaves",
                             (unsigned long long)index, (unsigned long long)n);
        if (count != kiln_merkle_levels(n) - 1)
            return kiln_fail(ctx, KILN_NOT_FOUND, "a tree of %llu leaves has proofs of %d siblings, not %d",
                             (unsigned long long)n, kiln_merkle_levels(n) - 1, count);
    } else if (count < 64 && (index >> count) != 0) {
        return kiln_fail(ctx, KILN_NOT_FOUND, "leaf index %llu does not fit a proof of %d levels",
                         (unsigned long long)index, count);
    }
    uint8_t h[NODE];
    memcpy(h, leaf, NODE);
    uint64_t idx = index;
    for (int l = 0; l < count; l++, idx >>= 1) {
        const uint8_t *sib = siblings + NODE * l;
        if (n > 0 && (idx ^ 1) >= kiln_merkle_level_size(n, l) && memcmp(sib, h, NODE) != 0)
            return kiln_fail(ctx, KILN_NOT_FOUND,
                             "sibling %d must repeat the path's node (the last node of an odd level pairs with itself)",
                             l);
        if (idx & 1) kiln_merkle_merge_bytes(kind, sib, h, h);
        else kiln_merkle_merge_bytes(kind, h, sib, h);
    }
    if (memcmp(h, root, NODE) != 0) return kiln_fail(ctx, KILN_NOT_FOUND, "the proof does not lead to the root");
    return KILN_OK;
}
