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
    uint64_t cls[kClasses]; /* rows in each degree class */
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

/* The bins over the visiting order (src/prim/pagerank_layout.h), whose degree classes are
 * contiguous: a block per row of class 0, then staged runs of rows (relabelled) or G lanes a row
 * (rows through the order). Returns 0, or -1 when the classes do not add up to the rows. */
inline int make_bins(const uint64_t cls[kClasses], bool relabelled, uint64_t rows, Bins *bins,
                     int stage_edges = kStageEdges)
{
    return kiln_pr_make_bins(cls, relabelled, rows, stage_edges, kBlock, bins);
}

} // namespace kiln_pr

#endif
