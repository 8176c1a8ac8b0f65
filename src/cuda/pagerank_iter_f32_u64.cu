/* The PageRank iteration kernels for float ranks over 64-bit offsets: a piece of its own so that
 * nvcc compiles the four pieces in parallel (pagerank_iter.cuh). */
#include "pagerank_iter.cuh"

KILN_PR_ITERATION_FOR(float, unsigned long long)
