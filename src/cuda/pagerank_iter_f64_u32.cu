/* The PageRank iteration kernels for double ranks over uint32_t offsets: a piece of its own so that
 * nvcc compiles the four pieces in parallel (pagerank_iter.cuh). */
#include "pagerank_iter.cuh"

KILN_PR_ITERATION_FOR(double, uint32_t)
KILN_PR_PERSISTENT_FOR(double)
