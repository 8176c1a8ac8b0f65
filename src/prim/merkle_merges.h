/* The Merkle merge kinds, listed once: the CPU's table (src/merkle/merge.c), CUDA's kernels
 * (src/cuda/merkle.cu), OpenCL's kernels and their names (src/opencl/kernels/merkle.cl,
 * src/opencl/ocl_tree.c) and the workload registry's rows (src/api/registry.c) are made from it.
 * A new merge is its kiln_merkle_algo value in include/kiln.h (the public ABI: the next number,
 * and KILN_MERKLE_ALGO_COUNT one more), its KILN_HD merge (merkle_merge.h, or a header of its
 * own that merkle_merge.h includes) and one X(...) at the end here. Plain macros, no types: the
 * OpenCL C programs include this header too.
 *
 * X(ID, KERNEL, MERGE, NODE, PAIRS, NAME, SHORT, HELP, SELFTEST):
 *   ID        its kiln_merkle_algo value (kiln.h)
 *   KERNEL    a C identifier: OpenCL's kernels are kiln_merkle_level_KERNEL and kiln_merkle_subtree_KERNEL
 *   MERGE     the KILN_HD merge of 8 words and 8 words (merkle_merge.h), on every backend
 *   NODE      what a node holds: KILN_NODE_BYTES or a field's canonical elements (KILN_NODE_GOLDILOCKS, ...)
 *   PAIRS     the CPU's function merging a level's pairs several at a time (SIMD lanes, defined in
 *             src/merkle/merge.c), or NULL: one merge at a time
 *   NAME      the registry's name for a merge that no hash algorithm (its descriptor's tree) and
 *             no fixed row of the registry names, else NULL; SHORT its short name or NULL, HELP its
 *             one line, SELFTEST its known-answer check (src/api/registry_internal.h) or NULL
 * The backends read ID, KERNEL, MERGE; the rest is the host's. */
#ifndef KILN_PRIM_MERKLE_MERGES_H
#define KILN_PRIM_MERKLE_MERGES_H

#define KILN_MERKLE_MERGES(X)                                                                                          \
    X(KILN_MERKLE_SHA256D, sha256d, kiln_merge_sha256d, KILN_NODE_BYTES, NULL, NULL, NULL, NULL, NULL)                 \
    X(KILN_MERKLE_SHA256, sha256, kiln_merge_sha256, KILN_NODE_BYTES, NULL, NULL, NULL, NULL, NULL)                    \
    X(KILN_MERKLE_SHA3_256, sha3_256, kiln_merge_sha3_256, KILN_NODE_BYTES, pairs_sha3_256, NULL, NULL, NULL, NULL)    \
    X(KILN_MERKLE_KECCAK256, keccak256, kiln_merge_keccak256, KILN_NODE_BYTES, pairs_keccak256, NULL, NULL, NULL,      \
      NULL)                                                                                                            \
    X(KILN_MERKLE_RP64_256, rp64, kiln_merge_rp64, KILN_NODE_GOLDILOCKS, NULL, "rp64_256", "rp64",                     \
      "Rescue Prime over Goldilocks (Winterfell's Rp64_256), for STARK provers", NULL)                                 \
    X(KILN_MERKLE_BLAKE2S, blake2s, kiln_merge_blake2s, KILN_NODE_BYTES, NULL, NULL, NULL, NULL, NULL)                 \
    X(KILN_MERKLE_BLAKE2S_STWO, blake2s_stwo, kiln_merge_blake2s_stwo, KILN_NODE_BYTES, NULL, "blake2s-stwo", "stwo",  \
      "Stwo's Blake2s Merkle node (one BLAKE2s compression from a zero state)", NULL)                                  \
    X(KILN_MERKLE_BLAKE3, blake3, kiln_merge_blake3, KILN_NODE_BYTES, pairs_blake3, NULL, NULL, NULL, NULL)            \
    X(KILN_MERKLE_POSEIDON2_BABYBEAR16, p2_bb16, kiln_merge_p2_bb16, KILN_NODE_BABYBEAR, NULL, "poseidon2_babybear16", \
      NULL, "Poseidon2 over BabyBear, width 16 (Plonky3's Merkle compression), for STARK provers",                     \
      kiln_selftest_poseidon2_babybear16)                                                                              \
    X(KILN_MERKLE_POSEIDON2_KOALABEAR16, p2_kb16, kiln_merge_p2_kb16, KILN_NODE_KOALABEAR, NULL,                       \
      "poseidon2_koalabear16", NULL,                                                                                   \
      "Poseidon2 over KoalaBear, width 16 (Plonky3's Merkle compression), for STARK provers",                          \
      kiln_selftest_poseidon2_koalabear16)                                                                             \
    X(KILN_MERKLE_POSEIDON2_GOLDILOCKS8, p2_gl8, kiln_merge_p2_gl8, KILN_NODE_GOLDILOCKS, NULL,                        \
      "poseidon2_goldilocks8", NULL,                                                                                   \
      "Poseidon2 over Goldilocks, width 8 (Plonky3's Merkle compression), for STARK provers",                          \
      kiln_selftest_poseidon2_goldilocks8)                                                                             \
    X(KILN_MERKLE_RPO256, rpo256, kiln_merge_rpo256, KILN_NODE_GOLDILOCKS, NULL, "rpo256", NULL,                       \
      "Rescue Prime Optimized over Goldilocks (Miden's RPO256), for STARK provers", NULL)                              \
    X(KILN_MERKLE_POSEIDON2_GOLDILOCKS12, p2_gl12, kiln_merge_p2_gl12, KILN_NODE_GOLDILOCKS, NULL,                     \
      "poseidon2_goldilocks12", NULL,                                                                                  \
      "Poseidon2 over Goldilocks, width 12 (miden-crypto's Poseidon2::merge), for STARK provers",                      \
      kiln_selftest_poseidon2_goldilocks12)

#endif
