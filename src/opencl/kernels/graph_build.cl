/* The in-edge CSR built on the device (ocl_graph_build.c), the CUDA backend's construction
 * (src/cuda/graph_build.cu) without CUB: every edge becomes a 64-bit key (row << bits | source),
 * a hand-written LSD radix sort orders the keys, the unique ones are compacted (a dropped self loop
 * is the all-ones key, which sorts last and is left out), and the rows' offsets are where the row
 * number of the sorted keys changes. So each row's sources come out ascending and merged, the
 * arrays the CPU build (src/graph/csr_build.c) gives, byte for byte.
 *
 * Work is cut into chunks, one contiguous chunk of keys (or edges) a work-group, walked tile by
 * tile in order: a group's counts (digits, kept keys) go to a table the one-group scan turns into
 * where each group writes, so the sort is stable and every result deterministic, with no 64-bit
 * atomics. Work-groups are KILN_GB_WG items; the host launches every kernel with that size.
 *
 * RMAT edges are drawn here from src/prim/rmat.h, the CPU's own definition. Its host-only setup
 * (kiln_rmat_spec_init) names double, which a device without cl_khr_fp64 cannot compile: there it
 * reads as float, unused, so that the rest of the program still builds. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#else
#define double float
#define KILN_GB_NO_FP64 1
#endif
#include "../../prim/rmat.h"
#ifdef KILN_GB_NO_FP64
#undef double
#endif

#define KILN_GB_WG 256
#define KILN_GB_IPT 4 /* keys a work-item holds in the radix sort's tiles */
#define KILN_GB_TILE (KILN_GB_WG * KILN_GB_IPT)

/* The exclusive prefix of v over the group's items in order, and the group's total. tmp is the
 * group's scratch; the first barrier lets a caller reuse it (and read the last total) at once. */
static ulong kiln_gb_scan(ulong v, __local ulong *tmp, ulong *total)
{
    const uint lid = get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < KILN_GB_WG; off <<= 1) {
        const ulong t = lid >= off ? tmp[lid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += t;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *total = tmp[KILN_GB_WG - 1];
    return tmp[lid] - v;
}

/* The group's chunk [*c0, *c1) of n items, chunk items a group. */
static void kiln_gb_chunk(ulong n, ulong chunk, ulong *c0, ulong *c1)
{
    const ulong a = (ulong)get_group_id(0) * chunk;
    *c0 = a < n ? a : n;
    *c1 = n - *c0 < chunk ? n : *c0 + chunk;
}

/* The dropped self loop's key: all 2 * bits significant bits set. */
static ulong kiln_gb_sentinel(uint bits) { return bits == 32 ? ~0UL : (1UL << (2 * bits)) - 1; }

static kiln_rmat_spec kiln_gb_spec(int scale, ulong edge_base, ulong ta, ulong tab, ulong tabc)
{
    kiln_rmat_spec s;
    s.scale = scale;
    s.edge_factor = 0;
    s.edge_base = edge_base;
    s.perm_base = 0;
    s.ta = ta;
    s.tab = tab;
    s.tabc = tabc;
    return s;
}

/* ---- edge keys. Key (dst, src) of edge e, and (src, dst) at count + e when undirected; a self
 * loop dropped becomes the sentinel. loops[group]: the group's self loops. */
__kernel void kiln_gb_edge_keys(__global const uint *src, __global const uint *dst, ulong count, uint bits,
                                uint undirected, uint drop_loops, __global ulong *keys, __global ulong *loops)
{
    __local ulong tmp[KILN_GB_WG];
    const ulong sentinel = kiln_gb_sentinel(bits);
    ulong mine = 0;
    for (ulong e = get_global_id(0); e < count; e += get_global_size(0)) {
        const uint s = src[e], d = dst[e];
        const int drop = s == d && drop_loops;
        mine += s == d;
        keys[e] = drop ? sentinel : (ulong)d << bits | s;
        if (undirected) keys[count + e] = drop ? sentinel : (ulong)s << bits | d;
    }
    ulong total;
    kiln_gb_scan(mine, tmp, &total);
    if (get_local_id(0) == 0) loops[get_group_id(0)] = total;
}

/* RMAT edge e's keys through the label permutation perm; self loops are always dropped. */
__kernel void kiln_gb_rmat_keys(int scale, ulong edge_base, ulong ta, ulong tab, ulong tabc,
                                __global const uint *perm, ulong count, uint bits, uint undirected,
                                __global ulong *keys, __global ulong *loops)
{
    __local ulong tmp[KILN_GB_WG];
    const kiln_rmat_spec spec = kiln_gb_spec(scale, edge_base, ta, tab, tabc);
    const ulong sentinel = kiln_gb_sentinel(bits);
    ulong mine = 0;
    for (ulong e = get_global_id(0); e < count; e += get_global_size(0)) {
        uint rs, rd;
        kiln_rmat_edge(&spec, e, &rs, &rd);
        const uint s = perm[rs], d = perm[rd];
        mine += s == d;
        keys[e] = s == d ? sentinel : (ulong)d << bits | s;
        if (undirected) keys[count + e] = s == d ? sentinel : (ulong)s << bits | d;
    }
    ulong total;
    kiln_gb_scan(mine, tmp, &total);
    if (get_local_id(0) == 0) loops[get_group_id(0)] = total;
}

/* The keys of rows [v0, v1) among RMAT edges [c0, c1) of the group's chunk: edge e goes to the part
 * as (d - v0) << sbits | s when its destination d is in the rows and, undirected, as
 * (s - v0) << sbits | d when its source is; self loops are dropped. Counting (write 0): part[group]
 * is the group's kept keys and loops[group] its self loops. Writing: the group's keys go, in edge
 * order, from part[group] (the counts scanned). A source's label is looked up only when the edge is
 * kept, to spare perm's random reads. */
__kernel void kiln_gb_rmat_part_keys(int scale, ulong edge_base, ulong ta, ulong tab, ulong tabc,
                                     __global const uint *perm, ulong count, ulong chunk, uint v0, uint v1,
                                     uint sbits, uint undirected, uint write, __global ulong *keys,
                                     __global ulong *part, __global ulong *loops)
{
    __local ulong tmp[KILN_GB_WG];
    const kiln_rmat_spec spec = kiln_gb_spec(scale, edge_base, ta, tab, tabc);
    const uint lid = get_local_id(0);
    ulong c0, c1, kept = 0, nloops = 0, base = write ? part[get_group_id(0)] : 0;
    kiln_gb_chunk(count, chunk, &c0, &c1);
    for (ulong t0 = c0; t0 < c1; t0 += KILN_GB_WG) {
        const ulong e = t0 + lid;
        uint s = 0, d = 0, a = 0, b = 0;
        if (e < c1) {
            uint rs, rd;
            kiln_rmat_edge(&spec, e, &rs, &rd);
            if (rs == rd) {
                nloops++; /* perm is a bijection: a raw self loop is a labelled one */
            } else {
                d = perm[rd];
                a = d >= v0 && d < v1;
                if (a || undirected) {
                    s = perm[rs];
                    b = undirected && s >= v0 && s < v1;
                }
            }
        }
        if (!write) {
            kept += a + b;
            continue;
        }
        ulong total;
        const ulong at = base + kiln_gb_scan(a + b, tmp, &total);
        if (a) keys[at] = (ulong)(d - v0) << sbits | s;
        if (b) keys[at + a] = (ulong)(s - v0) << sbits | d;
        base += total;
    }
    if (write) return;
    ulong total;
    kiln_gb_scan(kept, tmp, &total);
    if (lid == 0) part[get_group_id(0)] = total;
    kiln_gb_scan(nloops, tmp, &total);
    if (lid == 0) loops[get_group_id(0)] = total;
}

/* ---- the RMAT label permutation, as the CPU threads make it (src/graph/rmat.c): vertex keys are
 * distinct uniform 64-bit values, bucketed by their top `scale` bits (about one a bucket), each
 * bucket then put in key order. perm[k] is the vertex with the k-th smallest key. */
__kernel void kiln_gb_perm_keys(int scale, ulong perm_base, ulong n, __global ulong *key, __global uint *cnt)
{
    kiln_rmat_spec spec;
    spec.perm_base = perm_base;
    for (ulong v = get_global_id(0); v < n; v += get_global_size(0)) {
        const ulong k = kiln_rmat_perm_key(&spec, v);
        key[v] = k;
        atomic_inc(&cnt[k >> (64 - scale)]);
    }
}

/* Each vertex into its bucket (start: the buckets' offsets; cur zeroed: their fill). */
__kernel void kiln_gb_perm_scatter(int scale, ulong n, __global const ulong *key, __global const ulong *start,
                                   __global uint *cur, __global uint *perm)
{
    for (ulong v = get_global_id(0); v < n; v += get_global_size(0)) {
        const ulong b = key[v] >> (64 - scale);
        perm[start[b] + atomic_inc(&cur[b])] = (uint)v;
    }
}

/* Each bucket in key order (insertion: a bucket holds a few vertices). */
__kernel void kiln_gb_perm_sort(ulong n, __global const ulong *key, __global const ulong *start, __global uint *perm)
{
    for (ulong b = get_global_id(0); b < n; b += get_global_size(0)) {
        const ulong lo = start[b], hi = start[b + 1];
        for (ulong i = lo + 1; i < hi; i++) {
            const uint v = perm[i];
            const ulong kv = key[v];
            ulong j = i;
            for (; j > lo && key[perm[j - 1]] > kv; j--) perm[j] = perm[j - 1];
            perm[j] = v;
        }
    }
}

/* ---- exclusive scans. Of 32-bit counts a[0..n) into out[0..n): each group's chunk sum into
 * part[group] (scan_parts), those scanned (scan_small), then each chunk scanned from its base
 * (scan_apply). */
__kernel void kiln_gb_scan_parts(__global const uint *a, ulong n, ulong chunk, __global ulong *part)
{
    __local ulong tmp[KILN_GB_WG];
    ulong c0, c1, sum = 0;
    kiln_gb_chunk(n, chunk, &c0, &c1);
    for (ulong i = c0 + get_local_id(0); i < c1; i += KILN_GB_WG) sum += a[i];
    ulong total;
    kiln_gb_scan(sum, tmp, &total);
    if (get_local_id(0) == 0) part[get_group_id(0)] = total;
}

__kernel void kiln_gb_scan_apply(__global const uint *a, ulong n, ulong chunk, __global const ulong *part,
                                 __global ulong *out)
{
    __local ulong tmp[KILN_GB_WG];
    ulong c0, c1, base = part[get_group_id(0)];
    kiln_gb_chunk(n, chunk, &c0, &c1);
    for (ulong t0 = c0; t0 < c1; t0 += KILN_GB_WG) {
        const ulong i = t0 + get_local_id(0);
        const ulong v = i < c1 ? a[i] : 0;
        ulong total;
        const ulong ex = kiln_gb_scan(v, tmp, &total);
        if (i < c1) out[i] = base + ex;
        base += total;
    }
}

/* a[0..len) in place, exclusive, and the total at a[len]: one work-group, each item a contiguous
 * slice. */
__kernel void kiln_gb_scan_small(__global ulong *a, ulong len)
{
    __local ulong tmp[KILN_GB_WG];
    const uint lid = get_local_id(0);
    const ulong per = (len + KILN_GB_WG - 1) / KILN_GB_WG;
    const ulong s0 = (ulong)lid * per < len ? (ulong)lid * per : len;
    const ulong s1 = len - s0 < per ? len : s0 + per;
    ulong sum = 0;
    for (ulong i = s0; i < s1; i++) sum += a[i];
    ulong total;
    ulong run = kiln_gb_scan(sum, tmp, &total);
    for (ulong i = s0; i < s1; i++) {
        const ulong v = a[i];
        a[i] = run;
        run += v;
    }
    if (lid == 0) a[len] = total;
}

/* ---- the LSD radix sort, 8 bits a pass from `shift`. hist[digit * groups + group]: the digit's
 * keys in the group's chunk, scanned (scan_small) into where the group writes them. */
__kernel void kiln_gb_radix_hist(__global const ulong *keys, ulong n, ulong chunk, uint shift, __global ulong *hist)
{
    __local uint h[256];
    const uint lid = get_local_id(0);
    ulong c0, c1;
    kiln_gb_chunk(n, chunk, &c0, &c1);
    h[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong i = c0 + lid; i < c1; i += KILN_GB_WG) atomic_inc(&h[(uint)(keys[i] >> shift) & 255u]);
    barrier(CLK_LOCAL_MEM_FENCE);
    hist[(ulong)lid * get_num_groups(0) + get_group_id(0)] = h[lid];
}

/* The group's chunk, tile by tile: the tile is sorted by the digit in local memory (four stable
 * splits of 2 bits, each one scan of four 16-bit counts packed in a ulong: a tile's counts stay
 * below 2^16), then each key goes to its digit's next place. A short last tile is padded with
 * all-ones keys, which sort after the tile's own and are not written. */
__kernel void kiln_gb_radix_scatter(__global const ulong *in, __global ulong *out, ulong n, ulong chunk, uint shift,
                                    __global const ulong *hist)
{
    __local ulong buf[2][KILN_GB_TILE];
    __local ulong run[256], tmp[KILN_GB_WG];
    __local uint first[256], last[256];
    const uint lid = get_local_id(0);
    ulong c0, c1;
    kiln_gb_chunk(n, chunk, &c0, &c1);
    run[lid] = hist[(ulong)lid * get_num_groups(0) + get_group_id(0)];
    for (ulong t0 = c0; t0 < c1; t0 += KILN_GB_TILE) {
        const uint valid = c1 - t0 < KILN_GB_TILE ? (uint)(c1 - t0) : KILN_GB_TILE;
        for (uint j = 0; j < KILN_GB_IPT; j++) {
            const uint p = lid + j * KILN_GB_WG;
            buf[0][p] = p < valid ? in[t0 + p] : ~0UL;
        }
        first[lid] = 0;
        last[lid] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        int cur = 0;
        for (uint r = 0; r < 8; r += 2) {
            ulong k[KILN_GB_IPT], c = 0;
            for (uint j = 0; j < KILN_GB_IPT; j++) {
                k[j] = buf[cur][lid * KILN_GB_IPT + j];
                c += 1UL << (16 * ((uint)(k[j] >> (shift + r)) & 3u));
            }
            ulong total;
            ulong ex = kiln_gb_scan(c, tmp, &total);
            const ulong f0 = total & 0xffff, f1 = total >> 16 & 0xffff, f2 = total >> 32 & 0xffff;
            const ulong base[4] = {0, f0, f0 + f1, f0 + f1 + f2};
            for (uint j = 0; j < KILN_GB_IPT; j++) {
                const uint d2 = (uint)(k[j] >> (shift + r)) & 3u;
                buf[cur ^ 1][base[d2] + (ex >> (16 * d2) & 0xffff)] = k[j];
                ex += 1UL << (16 * d2);
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            cur ^= 1;
        }
        /* each digit's first and last place in the sorted tile */
        for (uint j = 0; j < KILN_GB_IPT; j++) {
            const uint p = lid + j * KILN_GB_WG;
            if (p >= valid) continue;
            const uint d = (uint)(buf[cur][p] >> shift) & 255u;
            if (p == 0 || ((uint)(buf[cur][p - 1] >> shift) & 255u) != d) first[d] = p;
            if (p == valid - 1 || ((uint)(buf[cur][p + 1] >> shift) & 255u) != d) last[d] = p + 1;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint j = 0; j < KILN_GB_IPT; j++) {
            const uint p = lid + j * KILN_GB_WG;
            if (p >= valid) continue;
            const uint d = (uint)(buf[cur][p] >> shift) & 255u;
            out[run[d] + (p - first[d])] = buf[cur][p];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        run[lid] += last[lid] - first[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* ---- the sorted keys merged: key i is kept when it differs from key i - 1 and is not the
 * sentinel (has_sentinel). Counting: part[group] is the group's kept keys; writing: the group's
 * kept keys go in order from part[group] (the counts scanned). */
static int kiln_gb_keep(__global const ulong *k, ulong i, uint has_sentinel, ulong sentinel)
{
    const ulong v = k[i];
    return (i == 0 || k[i - 1] != v) && !(has_sentinel && v == sentinel);
}

__kernel void kiln_gb_uniq_count(__global const ulong *keys, ulong n, ulong chunk, uint has_sentinel, ulong sentinel,
                                 __global ulong *part)
{
    __local ulong tmp[KILN_GB_WG];
    ulong c0, c1, kept = 0;
    kiln_gb_chunk(n, chunk, &c0, &c1);
    for (ulong i = c0 + get_local_id(0); i < c1; i += KILN_GB_WG) kept += kiln_gb_keep(keys, i, has_sentinel, sentinel);
    ulong total;
    kiln_gb_scan(kept, tmp, &total);
    if (get_local_id(0) == 0) part[get_group_id(0)] = total;
}

__kernel void kiln_gb_uniq_write(__global const ulong *keys, ulong n, ulong chunk, uint has_sentinel, ulong sentinel,
                                 __global const ulong *part, __global ulong *out)
{
    __local ulong tmp[KILN_GB_WG];
    ulong c0, c1, base = part[get_group_id(0)];
    kiln_gb_chunk(n, chunk, &c0, &c1);
    for (ulong t0 = c0; t0 < c1; t0 += KILN_GB_WG) {
        const ulong i = t0 + get_local_id(0);
        const uint keep = i < c1 && kiln_gb_keep(keys, i, has_sentinel, sentinel);
        ulong total;
        const ulong at = base + kiln_gb_scan(keep, tmp, &total);
        if (keep) out[at] = keys[i];
        base += total;
    }
}

/* ---- the CSR from the m merged keys: sources, out-degrees (zeroed before), and the offsets of
 * the rows from the first key's row to the last one's: key i starts every row after the previous
 * key's up to its own (the host fills the rows before the first key with 0 and after the last with
 * m). */
__kernel void kiln_gb_csr_rows(__global const ulong *uk, ulong m, uint bits, __global ulong *off,
                               __global uint *sources, __global uint *outdeg)
{
    const ulong mask = (1UL << bits) - 1;
    for (ulong i = get_global_id(0); i < m; i += get_global_size(0)) {
        const ulong k = uk[i], r = k >> bits;
        const uint s = (uint)(k & mask);
        sources[i] = s;
        atomic_inc(&outdeg[s]);
        const ulong lo = i ? (uk[i - 1] >> bits) + 1 : r;
        for (ulong v = lo; v <= r; v++) off[v] = i;
    }
}
