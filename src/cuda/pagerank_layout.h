/* PageRank on the GPU: laying out rows for the iteration kernel (pagerank_iter.h). A layout is
 * rows [row0, row0 + rows) of the graph's in-edge CSR on one device: loaded and put in visiting
 * order (descending in-degree, stable; layout_load), then relabelled in that order with every
 * source mapped to its new label and each row's sources sorted (layout_relabel), and cut into
 * bins of like rows (make_bins). A whole graph is one layout whose sources map through the
 * inverse of its own order (pagerank.cu); the parts of several devices or processes
 * (pagerank_part.cu) each order their own rows, and the map of the sources is the union of all
 * the parts' orders, so each part's labels stay its own range and the parts can exchange slices
 * of one vector. The kernels and CUB calls behind these functions are compiled once, in
 * pagerank_layout.cu, for the rank and offset types the two callers use. */
#ifndef KILN_CUDA_PAGERANK_LAYOUT_H
#define KILN_CUDA_PAGERANK_LAYOUT_H

#include <string.h>

#include "cuda_state.h"
#include "dev_array.cuh"
#include "pagerank_dev.cuh"

namespace kiln_pr {

/* Rows [row0, row0 + rows) of a graph with n vertices, in host memory. */
struct LayoutInput {
    uint64_t n, row0, rows;
    const uint64_t *offsets; /* the graph's, indexed by vertex */
    const uint32_t *sources; /* indexed by the offsets' values */
    const double *weights; /* aligned with sources, or NULL (unweighted) */
    const uint32_t *outdeg; /* n */
    const double *out_weight; /* n, or NULL (unweighted) */
};

/* The rows on the device, by local row (0 .. rows); after layout_relabel the local row is the
 * visiting position and the sources are new labels. */
template <typename T, typename Off> struct Layout {
    uint64_t rows = 0, edges = 0;
    DevArray<Off> off; /* rows + 1, from 0 */
    DevArray<uint32_t> src; /* edges */
    DevArray<T> wsh; /* weighted: each edge's share of its source's out-weight */
    DevArray<uint32_t> odeg; /* rows: out-degree, or 1 / 0 (weighted) */
    DevArray<uint32_t> order; /* visiting position -> local row */
    DevArray<uint32_t> deg_sorted; /* in-degrees in visiting order, until layout_relabel */
    unsigned long long cls[kClasses]; /* rows in each degree class */
};

/* Uploads the rows and finds their visiting order and degree classes. */
template <typename T, typename Off> kiln_status layout_load(kiln_gpu *st, const LayoutInput &in, Layout<T, Off> &L);

/* Puts the rows in visiting order, each source mapped through old2new (a device array over the
 * graph's n labels) and each row's sources sorted. */
template <typename T, typename Off>
kiln_status layout_relabel(kiln_gpu *st, Layout<T, Off> &L, const uint32_t *old2new);

/* n host values, by row: out[i] = host[perm[i]] (host[i] without perm) in the type O. */
template <typename O>
kiln_status upload_vector(kiln_gpu *st, const double *host, const uint32_t *perm, uint64_t n, DevArray<O> &out);

/* The bins over the visiting order, whose degree classes are contiguous: a block per row of
 * class 0, then staged runs of rows (relabelled) or G lanes a row (rows through the order).
 * Returns 0, or -1 when the classes do not add up to the rows. */
inline int make_bins(const unsigned long long cls[kClasses], bool relabelled, uint64_t rows, Bins *bins,
                     int stage_edges = kStageEdges)
{
    memset(bins, 0, sizeof *bins);
    uint64_t row = 0, block = 0;
    for (int c = 0; c < kClasses; c++) {
        if (cls[c] == 0) continue;
        const int k = bins->count++;
        int kind, l2, rpb;
        if (c == 0) {
            kind = KIND_BLOCK, l2 = 8, rpb = 1;
        } else if (!relabelled) {
            /* G lanes a row, each group taking 2 (G >= 16) or 4 rows */
            kind = KIND_LANES;
            l2 = class_lanes_log2(c);
            rpb = (kBlock >> l2) * (l2 >= 4 ? 2 : 4);
        } else {
            /* as many consecutive rows as fit stage_edges (at most kStageEdges), at least one and
             * at most kStageRowsMax */
            kind = KIND_STAGED;
            l2 = class_lanes_log2(c);
            rpb = stage_edges / class_max_degree(c);
            if (rpb < 1) rpb = 1;
            if (rpb > kStageRowsMax) rpb = kStageRowsMax;
        }
        bins->kind[k] = kind;
        bins->lanes_log2[k] = l2;
        bins->rows_per_block[k] = rpb;
        bins->row_begin[k] = row;
        bins->block_begin[k] = block;
        row += cls[c];
        block += (cls[c] + (uint64_t)rpb - 1) / (uint64_t)rpb;
    }
    bins->row_begin[bins->count] = row;
    bins->block_begin[bins->count] = block;
    return row == rows && block > 0 && block <= 0x7fffffffull ? 0 : -1;
}

} // namespace kiln_pr

#endif
