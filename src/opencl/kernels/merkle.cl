/* Merkle tree levels over the merges of src/prim/merkle_merge.h (included, so the CPU's and
 * CUDA's own code). The whole tree is one buffer of 8-word nodes laid out level after level
 * (kiln_tree_level_offset); offsets below are in nodes. A node's word i is bytes 4i..4i+3 read
 * little-endian, which a uint load gives on the little-endian devices the host accepts. The
 * algorithm is a kernel argument (a kiln_merkle_algo value): the branch is uniform across every
 * work-item, so it costs nothing next to a merge. */
#include "../../prim/merkle_merge.h"

static void kiln_ocl_merge(int algo, const uint32_t l[8], const uint32_t r[8], uint32_t o[8])
{
    switch (algo) {
    case 0: kiln_merge_sha256d(l, r, o); break;
    case 1: kiln_merge_sha256(l, r, o); break;
    case 2: kiln_merge_sha3_256(l, r, o); break;
    case 3: kiln_merge_keccak256(l, r, o); break;
    default: kiln_merge_rp64(l, r, o); break;
    }
}

static void kiln_ocl_node_get(__global const uint *tree, ulong i, uint32_t w[8])
{
    for (int k = 0; k < 8; k++) w[k] = tree[8 * i + k];
}

static void kiln_ocl_node_put(__global uint *tree, ulong i, const uint32_t w[8])
{
    for (int k = 0; k < 8; k++) tree[8 * i + k] = w[k];
}

/* One level: parent i of the m nodes at `in` is the merge of children 2i and 2i + 1, the last
 * node of an odd level paired with itself. One work-item per parent. */
__kernel void kiln_merkle_level(__global uint *tree, ulong in, ulong m, ulong out, int algo)
{
    ulong i = get_global_id(0), parents = (m + 1) / 2;
    if (i >= parents) return;
    uint32_t l[8], r[8], o[8];
    kiln_ocl_node_get(tree, in + 2 * i, l);
    kiln_ocl_node_get(tree, in + (2 * i + 1 < m ? 2 * i + 1 : 2 * i), r);
    kiln_ocl_merge(algo, l, r, o);
    kiln_ocl_node_put(tree, out + i, o);
}

/* h levels above a base level in one launch: work-group g takes base nodes [g C, (g + 1) C), C =
 * 2^c_log2 (the group's size times 2^k, a subtree of 2^k leaves per work-item, so every item has
 * work on every level), and merges them h levels up, writing each level to the tree and keeping
 * it in local memory for the next. lv.off[j] and lv.size[j]: where level j of the launch (0 = base)
 * starts and how many nodes it has. Level j >= 1 lives in local half (j + 1) & 1: half 0 holds
 * C/2 nodes (levels 1, 3, ...), half 1 C/4 (levels 2, 4, ...), so level j reads the other half and
 * one barrier a level keeps reads of level j - 1 apart from writes of level j + 1. The group's
 * range ends on an even node of every level below h unless it ends the level, so the odd-level
 * rule applied to the group's own count is the whole level's. */
typedef struct kiln_ocl_subtree_levels {
    ulong off[13], size[13]; /* levels 0..h of the launch; 13 = the largest k (12) + 1 */
} kiln_ocl_subtree_levels;

__kernel void kiln_merkle_subtree(__global uint *tree, kiln_ocl_subtree_levels lv, int h, int c_log2, int algo,
                                  __local uint *smem)
{
    const ulong *off = lv.off, *size = lv.size;
    const ulong c = (ulong)1 << c_log2, first = (ulong)get_group_id(0) << c_log2;
    const uint lid = get_local_id(0), wg = get_local_size(0);
    __local uint *half0 = smem, *half1 = smem + 8 * (c / 2);
    ulong prev = size[0] - first < c ? size[0] - first : c; /* this group's nodes of the base level */
    for (int j = 1; j <= h; j++) {
        if (j > 1) barrier(CLK_LOCAL_MEM_FENCE);
        __local uint *src = j & 1 ? half1 : half0, *dst = j & 1 ? half0 : half1;
        ulong m = (prev + 1) / 2;
        for (ulong i = lid; i < m; i += wg) {
            uint32_t l[8], r[8], o[8];
            ulong a = 2 * i, b = 2 * i + 1 < prev ? 2 * i + 1 : 2 * i;
            if (j == 1) {
                kiln_ocl_node_get(tree, off[0] + first + a, l);
                kiln_ocl_node_get(tree, off[0] + first + b, r);
            } else {
                for (int k = 0; k < 8; k++) {
                    l[k] = src[8 * a + k];
                    r[k] = src[8 * b + k];
                }
            }
            kiln_ocl_merge(algo, l, r, o);
            if (j < h)
                for (int k = 0; k < 8; k++) dst[8 * i + k] = o[k];
            kiln_ocl_node_put(tree, off[j] + (first >> j) + i, o);
        }
        prev = m;
    }
}
