/* The shape of a Merkle tree of n leaves, for host and device: level 0 holds the leaves, a parent
 * level ceil(m/2) nodes (the last node of an odd level pairs with itself), and the whole tree is
 * stored level after level, leaves first. The public kiln_merkle_levels & co. (src/merkle/tree.c)
 * answer from here; the CUDA backend, which lays its device buffer out by the same arithmetic and
 * sits below src/merkle, reads it here rather than calling up into the workload. */
#ifndef KILN_PRIM_MERKLE_SHAPE_H
#define KILN_PRIM_MERKLE_SHAPE_H

#include "kiln_hd.h"

/* Levels of the tree, leaves and root included (0 for no leaves). */
KILN_HD int kiln_tree_levels(uint64_t n)
{
    if (n == 0) return 0;
    int levels = 1;
    for (; n > 1; n = (n + 1) / 2) levels++;
    return levels;
}

/* Nodes of level `level`, or 0 past the root. */
KILN_HD uint64_t kiln_tree_level_size(uint64_t n, int level)
{
    if (level < 0 || level >= kiln_tree_levels(n)) return 0;
    for (int l = 0; l < level; l++) n = (n + 1) / 2;
    return n;
}

/* Index of level `level`'s first node in the stored tree. */
KILN_HD uint64_t kiln_tree_level_offset(uint64_t n, int level)
{
    uint64_t off = 0;
    int levels = kiln_tree_levels(n);
    for (int l = 0; l < level && l < levels; l++, n = (n + 1) / 2) off += n;
    return off;
}

/* Nodes of the whole stored tree. */
KILN_HD uint64_t kiln_tree_size(uint64_t n) { return kiln_tree_level_offset(n, kiln_tree_levels(n)); }

#endif
