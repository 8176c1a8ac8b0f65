/* The GPU table of the tree kind (Merkle trees, src/merkle and src/api/merkle.c): a backend that
 * builds trees on its devices points its core table's `tree` at one of these (core/gpu.h), and
 * leaves it NULL otherwise. The table sits in core, beside the core table rather than beside
 * src/merkle, because the backends that fill it (src/cuda, src/opencl) are below the workloads.
 * Errors as for every GPU operation: into the handle's context, with the status returned. */
#ifndef KILN_CORE_GPU_TREE_H
#define KILN_CORE_GPU_TREE_H

#include <stdint.h>

#include "ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_gpu_merkle_cfg {
    int method; /* KILN_MERKLE_LEVELS or KILN_MERKLE_SUBTREES */
    int k; /* levels per launch of the subtree kernel, 1..12 */
    int tpb; /* threads per block */
    int graph; /* replay the launch sequence as a CUDA graph */
} kiln_gpu_merkle_cfg;

/* Writes leaves [first, first + count) of the tree being built into dst (page-locked, count * 32
 * bytes); called chunk after chunk on the building thread. Anything but KILN_OK ends the build
 * (the callback has written the context's error, or its caller will). */
typedef kiln_status (*kiln_gpu_merkle_fill)(void *user, uint64_t first, uint64_t count, uint8_t *dst);

/* The whole tree lives in device memory owned by the handle, level after level as
 * kiln_merkle_level_offset lays it out, each level made of the one below by the merge of `algo`
 * (src/prim/merkle_merge.h). */
typedef struct kiln_gpu_tree_ops {
    /* ---- required of a table: upload sets level 0; build makes every level above it; read copies
     * nodes [first, first + count) back. */
    kiln_status (*upload)(kiln_gpu *g, const uint8_t *leaves, uint64_t n);
    kiln_status (*build)(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg, int *launches,
                         float *gpu_ms);
    kiln_status (*read)(kiln_gpu *g, uint64_t first, uint64_t count, uint8_t *out);

    /* ---- optional, NULL where the backend has not got it: the library then does without (the
     * bench uploads kiln_merkle_bench_leaves and leaves out the raw rate, nodes are read one by
     * one, leaves are uploaded then built, device memory is refused).
     * random: level 0 pseudo-random from seed, generated on the device (field != 0 makes each u64
     * a canonical Goldilocks element); raw: one launch of ceil(n/2) independent merges; gather:
     * nodes idx[0..count) into out (32 bytes each) in one round trip, for the CPU's checks of a few
     * hundred scattered nodes; build_staged: upload then build in one pipeline, for leaves that come
     * from pageable host memory: the leaves go in chunks through page-locked staging buffers (fill
     * writes leaves [first, first + count) into one on the calling thread while earlier chunks are
     * copied to the device), each chunk's lower levels are merged once it has landed, then the
     * levels above the chunks; the same tree as upload and build (cfg->graph is not used). A fill
     * that fails ends it with that status. Returns with nothing in flight; a failure also frees the
     * staging buffers. */
    kiln_status (*random)(kiln_gpu *g, uint64_t n, uint64_t seed, int field);
    kiln_status (*raw)(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, int tpb, float *gpu_ms);
    kiln_status (*gather)(kiln_gpu *g, const uint64_t *idx, uint64_t count, uint8_t *out);
    kiln_status (*build_staged)(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                                kiln_gpu_merkle_fill fill, void *user, int *launches);
    /* Device memory in and out (docs/DEVICE_MEMORY.md): the tree of n leaves (device memory) into
     * tree (the whole tree as build lays it out; NULL: a temporary), its root into root_dev and/or
     * root_host, on the caller's stream (CUDA: a cudaStream_t as void *); the host waits only for
     * root_host. */
    kiln_status (*build_device)(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                                const void *leaves, void *tree, void *root_dev, uint8_t *root_host, void *stream);
    /* Leaves from rows (kiln_merkle_leaves_from_rows_with, optional: else the CPU hashes them): n
     * rows of row_elems canonical elements of the Poseidon2 merge algo's field (4 or 8 bytes each,
     * host memory) hashed on the device by the leaf hash (src/core/leaf_sponge.h), in chunks; the
     * n leaves to host memory. */
    kiln_status (*rows)(kiln_gpu *g, kiln_merkle_algo algo, kiln_merkle_leaf_hash leaf, const uint8_t *rows,
                        uint64_t n, size_t row_elems, uint8_t *leaves);
} kiln_gpu_tree_ops;

#ifdef __cplusplus
}
#endif

#endif
