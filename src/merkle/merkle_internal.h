/* What the Merkle layers share: the table of merge kinds, leaf validation, the CPU builder. */
#ifndef KILN_MERKLE_INTERNAL_H
#define KILN_MERKLE_INTERNAL_H

#include <stdint.h>

#include "kiln.h"

/* A merge over nodes held as 8 little-endian words (src/prim/merkle_merge.h). */
typedef void (*kiln_merge_fn)(const uint32_t l[8], const uint32_t r[8], uint32_t out[8]);

/* One merge kind: a line of KILN_MERKLE_MERGES (src/prim/merkle_merges.h), from which merge.c's
 * table, the GPU backends' kernels and the workload registry's row are made. */
typedef struct kiln_merkle_kind {
    kiln_merge_fn merge;
    int field_elements; /* what a node holds: KILN_NODE_BYTES (0), or a field's canonical elements
                           (KILN_NODE_GOLDILOCKS, ..., src/prim/merkle_merge.h) */
    /* out[i] = merge(in[2i], in[2i + 1]) for i < n, several merges at once (the CPU's SIMD lanes),
     * where the merge is a hash of the 64 bytes left || right; NULL: one merge at a time */
    void (*pairs)(const uint8_t *in, uint64_t n, uint8_t *out);
} kiln_merkle_kind;

/* The kind, or an error naming the unknown or missing algorithm. */
kiln_status kiln_merkle_kind_get(kiln_ctx *ctx, kiln_merkle_algo algo, const kiln_merkle_kind **kind);

/* KILN_ERR_INPUT naming the first leaf that is not a valid node for the kind. */
kiln_status kiln_merkle_check_nodes(kiln_ctx *ctx, const kiln_merkle_kind *kind, const uint8_t *nodes, uint64_t n,
                                    const char *what);

/* 1 when all of nodes[0..n) are valid nodes for the kind, else 0; no message and no polls (a
 * quick test for a thread that copies leaves; kiln_merkle_check_nodes names the first bad one). */
int kiln_merkle_nodes_valid(const kiln_merkle_kind *kind, const uint8_t *nodes, uint64_t n);

/* parent = merge(left, right) on byte nodes. */
void kiln_merkle_merge_bytes(const kiln_merkle_kind *kind, const uint8_t *left, const uint8_t *right, uint8_t *out);

/* The CPU backend: builds level after level with `threads` OpenMP threads (0 = all cores). With
 * tree != NULL every level is written there; otherwise two scratch levels are used. */
kiln_status kiln_merkle_build_cpu(kiln_ctx *ctx, const kiln_merkle_kind *kind, const uint8_t *leaves, uint64_t n,
                                  int threads, uint8_t root[32], uint8_t *tree);

/* The merges of a whole tree of n leaves, the unit of its progress reports: n - 1 pairs, plus one
 * self-pairing for each odd level. */
uint64_t kiln_merkle_merges(uint64_t n);

/* The leaves the Merkle benches build (bench_leaves.c): word i (4 little-endian u64 a
 * leaf) is splitmix64's i-th draw from seed 1, made canonical for a field kind (field =
 * kind->field_elements; kiln_node_canon_draw). */
void kiln_merkle_bench_leaves(uint8_t *leaves, uint64_t n, int field);

/* Merges levels of a whole tree in place, from level `from` (already filled) to the root. */
void kiln_merkle_fill_levels(const kiln_merkle_kind *kind, uint8_t *tree, uint64_t n, int from, int threads);

#endif
