/* PageRank's arithmetic, written once for the CPU reference (graph/pagerank_cpu.c), the CUDA
 * kernels (cuda/pagerank_dev.cuh) and the OpenCL kernels (opencl/kernels/pagerank.cl).
 *
 * NetworkX's definition, x' = d (A^T y + D q) + (1 - d) p, with D the rank the previous iteration
 * left on dangling vertices, p the personalization (teleport) vector and q the dangling vector
 * (q = p when not given), each uniform (1/n) when not given. Row v's new rank is then
 *     x = d * sum + uniform / n + cp * p[v] + cq * q[v]
 * with sum the row's gathered y. A vector that is given keeps its own coefficient; one that is not
 * folds into `uniform`, the weight of the uniform vector, which the caller scales by 1/n its own
 * way (the CPU divides by n, the GPUs multiply by a 1/n they were handed): that is the one step
 * the backends take differently, as they did before this header, so none of their results moved. */
#ifndef KILN_PRIM_PAGERANK_H
#define KILN_PRIM_PAGERANK_H

#include "kiln_hd.h"

/* The coefficients' type: float64, except in OpenCL C on a device without it (cl_khr_fp64; the
 * kernel source enables the extension before it includes this header). */
#if defined(KILN_OPENCL_C) && !defined(cl_khr_fp64)
typedef float kiln_pr_real;
#else
typedef double kiln_pr_real;
#endif

typedef struct kiln_pr_coef {
    kiln_pr_real d; /* of the row's sum: the damping */
    kiln_pr_real uniform; /* of the uniform vector 1/n: p's and q's shares when not given */
    kiln_pr_real cp, cq; /* of p[v] and q[v], when given */
} kiln_pr_coef;

/* The coefficients of an iteration whose previous one left `dangling` rank on dangling vertices;
 * has_p / has_q: whether p / q are given as vectors. With both given nothing folds: cp = 1 - d,
 * cq = d D (the CPU's general pass uses that form and supplies 1/n itself where one is absent). */
KILN_HD kiln_pr_coef kiln_pr_coefficients(kiln_pr_real damping, kiln_pr_real dangling, int has_p, int has_q)
{
    const kiln_pr_real teleport = 1 - damping, dd = damping * dangling;
    kiln_pr_coef c;
    c.d = damping;
    c.uniform = 0;
    c.cp = 0;
    c.cq = 0;
    if (has_p) c.cp = teleport;
    else c.uniform = teleport;
    if (has_q) c.cq = dd;
    else if (has_p) c.cp += dd;
    else c.uniform += dd;
    return c;
}

/* The GPU hosts' start (C and CUDA host code; not in OpenCL C, whose kernels take D from the
 * host). */
#ifndef KILN_OPENCL_C
/* Whether vertex v is dangling: on a weighted graph (out_weight given) when its out-weight is 0,
 * else when it has no out-edges. */
KILN_HD int kiln_pr_dangles(const uint32_t *outdeg, const double *out_weight, uint64_t v)
{
    return out_weight ? !(out_weight[v] > 0) : outdeg[v] == 0;
}

/* The rank the start vector (nstart, or uniform when NULL) puts on dangling vertices, added in
 * vertex order: the first iteration's D. */
KILN_HD double kiln_pr_start_dangling(uint64_t n, const uint32_t *outdeg, const double *out_weight,
                                      const double *nstart)
{
    double d = 0;
    for (uint64_t v = 0; v < n; v++)
        if (kiln_pr_dangles(outdeg, out_weight, v)) d += nstart ? nstart[v] : 1.0 / (double)n;
    return d;
}
#endif

#endif
