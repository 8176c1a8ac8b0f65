/* PageRank on the GPU: the one launch of the grid path's iteration kernel (pagerank_iter.cuh),
 * called by pagerank.cu (a whole graph) and pagerank_part.cu (a part of the rows). */
#ifndef KILN_CUDA_PAGERANK_ITER_H
#define KILN_CUDA_PAGERANK_ITER_H

#include "pagerank_dev.cuh"

namespace kiln_pr {

/* Queues iteration `phase` (its number mod 6) on s, the instantiation picked by the visiting
 * order (Indirect: rows through a.order, not relabelled) and the mode (MODE_* bits). Defined for
 * T float or double and Off uint32_t or unsigned long long (the offset types of CUDA's atomics) (pagerank_iter_<rank>_<offset>.cu). */
template <bool Indirect, typename T, typename Off>
void launch_iteration(const Args<T, Off> &a, int mode, unsigned grid, cudaStream_t s, unsigned phase);

/* The persistent kernel (pagerank_iter.cuh: k iterations a cooperative launch from iteration
 * first_j, the relabelled layout): its resident blocks per SM, and its launch, whose grid must
 * not exceed them times the SMs. Defined for T float or double, Off uint32_t. */
template <typename T, typename Off> cudaError_t persistent_blocks_per_sm(int mode, int *blocks);
template <typename T, typename Off>
cudaError_t launch_persistent(const Args<T, Off> &a, int mode, unsigned grid, cudaStream_t s, unsigned first_j,
                              unsigned k);

} // namespace kiln_pr

#endif
