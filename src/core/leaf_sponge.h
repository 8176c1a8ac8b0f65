/* Which sponge (src/prim/poseidon2_sponge.h's KILN_P2S_* ids) hashes a row for a Poseidon2 merge
 * and a kiln_merkle_leaf_hash: shared by the CPU (leaves_rows.c) and the GPU backends, so that the
 * pairs each accepts are the same. */
#ifndef KILN_CORE_LEAF_SPONGE_H
#define KILN_CORE_LEAF_SPONGE_H

#include "../prim/poseidon2_sponge.h"
#include "kiln.h"

/* The sponge id, or -1 when the merge has no such leaf hash. */
static inline int kiln_leaf_sponge(kiln_merkle_algo algo, kiln_merkle_leaf_hash leaf)
{
    switch (algo) {
    case KILN_MERKLE_POSEIDON2_BABYBEAR16:
        return leaf == KILN_MERKLE_LEAF_SPONGE ? KILN_P2S_BB16 : leaf == KILN_MERKLE_LEAF_SPONGE24 ? KILN_P2S_BB24 : -1;
    case KILN_MERKLE_POSEIDON2_KOALABEAR16:
        return leaf == KILN_MERKLE_LEAF_SPONGE ? KILN_P2S_KB16 : leaf == KILN_MERKLE_LEAF_SPONGE24 ? KILN_P2S_KB24 : -1;
    case KILN_MERKLE_POSEIDON2_GOLDILOCKS8: return leaf == KILN_MERKLE_LEAF_SPONGE ? KILN_P2S_GL8 : -1;
    case KILN_MERKLE_POSEIDON2_GOLDILOCKS12:
        return leaf == KILN_MERKLE_LEAF_SPONGE ? KILN_P2S_GL12 : leaf == KILN_MERKLE_LEAF_MIDEN ? KILN_P2S_GL12_MIDEN : -1;
    default: return -1;
    }
}

/* Bytes an element of the sponge's field takes in a row. */
static inline size_t kiln_leaf_sponge_elem_size(int id) { return kiln_p2s_goldilocks(id) ? 8 : 4; }

#endif
