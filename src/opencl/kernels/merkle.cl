/* Merkle tree levels over the merges of src/prim/merkle_merge.h (included, so the CPU's and
 * CUDA's own code). The whole tree is one buffer of 32-byte nodes laid out level after level
 * (kiln_tree_level_offset); offsets below are in nodes. A node's word i is bytes 4i..4i+3 read
 * little-endian, which vector loads give on the little-endian devices the host accepts: a node
 * moves as two 16-byte vectors, as in src/cuda/merkle.cu. Every kernel exists once per merge (as
 * CUDA's templates), so each is compiled and given registers for its own merge alone, rather than
 * for the largest of five behind a run-time switch. */
#include "../../prim/merkle_merge.h"
#include "../../prim/merkle_merges.h"

/* Node i of a buffer in address space `space` to and from 8 words: kiln_ocl_node_get/_put for the
 * tree in global memory, kiln_ocl_node_get_local/_put_local for a work-group's level in local
 * memory (OpenCL C 1.2 has no generic address space, so one pair is written for each). */
#define KILN_OCL_NODE_IO(space, suffix)                                                      \
    static inline void kiln_ocl_node_get##suffix(space const uint4 *buf, ulong i, uint32_t w[8]) \
    {                                                                                        \
        const uint4 a = buf[2 * i], b = buf[2 * i + 1];                                      \
        w[0] = a.x, w[1] = a.y, w[2] = a.z, w[3] = a.w;                                      \
        w[4] = b.x, w[5] = b.y, w[6] = b.z, w[7] = b.w;                                      \
    }                                                                                        \
    static inline void kiln_ocl_node_put##suffix(space uint4 *buf, ulong i, const uint32_t w[8]) \
    {                                                                                        \
        buf[2 * i] = (uint4)(w[0], w[1], w[2], w[3]);                                        \
        buf[2 * i + 1] = (uint4)(w[4], w[5], w[6], w[7]);                                    \
    }
KILN_OCL_NODE_IO(__global, )
KILN_OCL_NODE_IO(__local, _local)

/* h levels above a base level in one launch: work-group g takes base nodes [g C, (g + 1) C), C =
 * 2^c_log2 (the group's size times 2^k, a subtree of 2^k leaves per work-item, so every item has
 * work on every level), and merges them h levels up, writing each level to the tree and keeping
 * it in local memory for the next. lv.off[j] and lv.size[j]: where level j of the launch (0 = base)
 * starts and how many nodes it has. Level j >= 1 lives in local half (j + 1) & 1: half 0 holds
 * C/2 nodes (levels 1, 3, ...), half 1 C/4 (levels 2, 4, ...), so level j reads the other half and
 * one barrier a level keeps reads of level j - 1 apart from writes of level j + 1. The group's
 * range ends on an even node of every level below h unless it ends the level, so the odd-level
 * rule applied to the group's own count is the whole level's. A group's number is taken from its
 * global id, not get_group_id, so that a launch may start at a global offset of whole groups
 * (ocl_tree.c cuts long launches into pieces). */
typedef struct kiln_ocl_subtree_levels {
    ulong off[13], size[13]; /* levels 0..h of the launch; 13 = the largest k (12) + 1 */
} kiln_ocl_subtree_levels;

/* One level (kiln_merkle_level_NAME): parent i of the m nodes at `in` is the merge of children 2i
 * and 2i + 1, the last node of an odd level paired with itself; one work-item per parent. And the
 * subtree kernel (kiln_merkle_subtree_NAME) above. MERGE is the prim merge. */
#define KILN_OCL_MERKLE(NAME, MERGE)                                                                                   \
    __kernel void kiln_merkle_level_##NAME(__global uint4 *tree, ulong in, ulong m, ulong out)                         \
    {                                                                                                                  \
        ulong i = get_global_id(0), parents = (m + 1) / 2;                                                             \
        if (i >= parents) return;                                                                                      \
        uint32_t l[8], r[8], o[8];                                                                                     \
        kiln_ocl_node_get(tree, in + 2 * i, l);                                                                        \
        kiln_ocl_node_get(tree, in + (2 * i + 1 < m ? 2 * i + 1 : 2 * i), r);                                          \
        MERGE(l, r, o);                                                                                                \
        kiln_ocl_node_put(tree, out + i, o);                                                                           \
    }                                                                                                                  \
                                                                                                                       \
    __kernel void kiln_merkle_subtree_##NAME(__global uint4 *tree, kiln_ocl_subtree_levels lv, int h, int c_log2,     \
                                             __local uint4 *smem)                                                      \
    {                                                                                                                  \
        const ulong c = (ulong)1 << c_log2, first = (ulong)(get_global_id(0) / get_local_size(0)) << c_log2;          \
        const uint lid = get_local_id(0), wg = get_local_size(0);                                                      \
        __local uint4 *half0 = smem, *half1 = smem + c; /* half 0: C/2 nodes, 2 vectors each */                        \
        ulong prev = lv.size[0] - first < c ? lv.size[0] - first : c; /* the group's base nodes */                     \
        ulong m = (prev + 1) / 2;                                                                                      \
        for (ulong i = lid; i < m; i += wg) {                                                                          \
            uint32_t l[8], r[8], o[8];                                                                                 \
            const ulong left = lv.off[0] + first + 2 * i;                                                              \
            kiln_ocl_node_get(tree, left, l);                                                                          \
            kiln_ocl_node_get(tree, 2 * i + 1 < prev ? left + 1 : left, r);                                            \
            MERGE(l, r, o);                                                                                            \
            if (h > 1) kiln_ocl_node_put_local(half0, i, o);                                                           \
            kiln_ocl_node_put(tree, lv.off[1] + (first >> 1) + i, o);                                                  \
        }                                                                                                              \
        prev = m;                                                                                                      \
        for (int j = 2; j <= h; j++) {                                                                                 \
            barrier(CLK_LOCAL_MEM_FENCE);                                                                              \
            __local uint4 *src = j & 1 ? half1 : half0, *dst = j & 1 ? half0 : half1;                                  \
            m = (prev + 1) / 2;                                                                                        \
            for (ulong i = lid; i < m; i += wg) {                                                                      \
                uint32_t l[8], r[8], o[8];                                                                             \
                kiln_ocl_node_get_local(src, 2 * i, l);                                                                \
                kiln_ocl_node_get_local(src, 2 * i + 1 < prev ? 2 * i + 1 : 2 * i, r);                                 \
                MERGE(l, r, o);                                                                                        \
                if (j < h) kiln_ocl_node_put_local(dst, i, o);                                                         \
                kiln_ocl_node_put(tree, lv.off[j] + (first >> j) + i, o);                                              \
            }                                                                                                          \
            prev = m;                                                                                                  \
        }                                                                                                              \
    }

/* a pair of kernels for each line of KILN_MERKLE_MERGES (prim/merkle_merges.h), named by its KERNEL */
#define KILN_OCL_MERKLE_LINE(ID, KERNEL, MERGE, NODE, PAIRS, NAME, SHORT, HELP, SELFTEST) KILN_OCL_MERKLE(KERNEL, MERGE)
KILN_MERKLE_MERGES(KILN_OCL_MERKLE_LINE)
#undef KILN_OCL_MERKLE_LINE

/* Rp64_256 parents of a level of m nodes at `in` (output at `out`), 16 work-items a merge as CUDA's
 * rp64_coop_kernel: item e < 12 of a group of 16 holds state element e (items 12..15 shadow
 * element 0 and store nothing). The narrow levels at a tree's top have too few merges to fill the
 * device one work-item each, so each merge's S-boxes are spread over its state instead. The MDS
 * step exchanges the elements through local memory (xs: one word per work-item, the work-group a
 * multiple of 16). Every work-item runs the same code to the end, also past the last parent (it
 * redoes the last one and stores nothing), so every barrier is reached by the whole group. */
static inline ulong kiln_ocl_rp64_mds_lane(ulong s, const uint coef[KILN_RP64_WIDTH], __local ulong *xs, uint lid,
                                          uint base)
{
    barrier(CLK_LOCAL_MEM_FENCE); /* the previous step's reads are done */
    xs[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong lo = 0, hi = 0;
    _Pragma("unroll") for (int j = 0; j < KILN_RP64_WIDTH; j++) {
        const ulong v = xs[base + j];
        lo += (ulong)coef[j] * (uint)v;
        hi += (ulong)coef[j] * (uint)(v >> 32);
    }
    const ulong sum_lo = lo + (hi << 32);
    return kiln_gl_reduce96(sum_lo, (hi >> 32) + (sum_lo < lo));
}

__kernel void kiln_merkle_rp64_coop(__global ulong *tree, ulong in, ulong m, ulong out, __local ulong *xs)
{
    const uint lid = get_local_id(0), lane = lid & 15, base = lid - lane;
    const int e = lane < KILN_RP64_WIDTH ? (int)lane : 0;
    const ulong parents = (m + 1) / 2, g = get_global_id(0) >> 4;
    const ulong i = g < parents ? g : parents - 1;
    uint coef[KILN_RP64_WIDTH];
    _Pragma("unroll") for (int j = 0; j < KILN_RP64_WIDTH; j++)
        coef[j] = kiln_rp64_mds_row((j - e + KILN_RP64_WIDTH) % KILN_RP64_WIDTH);
    const ulong left = in + 2 * i, right = in + (2 * i + 1 < m ? 2 * i + 1 : 2 * i);
    ulong s = e >= 8 ? tree[4 * right + (e - 8)] : e >= 4 ? tree[4 * left + (e - 4)] : e == 0 ? KILN_RP64_RATE : 0;
    _Pragma("unroll") for (int r = 0; r < KILN_RP64_ROUNDS; r++) {
        s = kiln_ocl_rp64_mds_lane(kiln_rp64_pow7(s), coef, xs, lid, base);
        s = kiln_gl_add(s, kiln_rp64_ark(0, r * KILN_RP64_WIDTH + e));
        s = kiln_ocl_rp64_mds_lane(kiln_rp64_pow_inv7(s), coef, xs, lid, base);
        s = kiln_gl_add(s, kiln_rp64_ark(1, r * KILN_RP64_WIDTH + e));
    }
    if (g < parents && lane >= 4 && lane < 8) tree[4 * (out + i) + (lane - 4)] = s;
}

/* rpo256's narrow levels, as kiln_merkle_rp64_coop: miden's layout (left in elements 0..3, right in
 * 4..7, capacity 8..11 zero, digest 0..3) and RPO's round (MDS, + ARK1, x^7, MDS, + ARK2, x^(1/7)). */
__kernel void kiln_merkle_rpo256_coop(__global ulong *tree, ulong in, ulong m, ulong out, __local ulong *xs)
{
    const uint lid = get_local_id(0), lane = lid & 15, base = lid - lane;
    const int e = lane < KILN_RPO_WIDTH ? (int)lane : 0;
    const ulong parents = (m + 1) / 2, g = get_global_id(0) >> 4;
    const ulong i = g < parents ? g : parents - 1;
    uint coef[KILN_RPO_WIDTH];
    _Pragma("unroll") for (int j = 0; j < KILN_RPO_WIDTH; j++)
        coef[j] = kiln_rp64_mds_row((j - e + KILN_RPO_WIDTH) % KILN_RPO_WIDTH);
    const ulong left = in + 2 * i, right = in + (2 * i + 1 < m ? 2 * i + 1 : 2 * i);
    ulong s = e >= 8 ? 0 : e >= 4 ? tree[4 * right + (e - 4)] : tree[4 * left + e];
    _Pragma("unroll") for (int r = 0; r < KILN_RPO_ROUNDS; r++) {
        s = kiln_ocl_rp64_mds_lane(s, coef, xs, lid, base);
        s = kiln_rp64_pow7(kiln_gl_add(s, kiln_rpo_ark(0, r * KILN_RPO_WIDTH + e)));
        s = kiln_ocl_rp64_mds_lane(s, coef, xs, lid, base);
        s = kiln_rp64_pow_inv7(kiln_gl_add(s, kiln_rpo_ark(1, r * KILN_RPO_WIDTH + e)));
    }
    if (g < parents && lane < 4) tree[4 * (out + i) + lane] = s;
}
