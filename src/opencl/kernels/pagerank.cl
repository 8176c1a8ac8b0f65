/* One PageRank iteration (pull over the in-edge CSR), one work-item per row, in float32 or float64
 * ranks (the same body, stamped out for each type by KILN_PR_ITER). Each vertex keeps y = x /
 * out-degree (x itself for a dangling vertex, and for every vertex of a weighted graph, whose edges
 * carry their share of the source's out-weight), so a row sums y over its sources with no division
 * per edge. The row's new x is d * sum + base (+ cp * tp[v]) (+ cq * tq[v]): the host folds the
 * teleport and the previous iteration's dangling mass into the coefficients. Each work-group
 * writes its rows' L1 change and new dangling mass to part[2 * group], part[2 * group + 1]
 * (summed in local memory; the group size is a power of two), which the host adds up. */

#define KILN_PR_ITER(T, NAME)                                                                                         \
    __kernel void NAME(__global const ulong *off, __global const uint *src, __global const uint *odeg,              \
                       __global const T *w, int weighted, __global const T *tp, int has_tp, __global const T *tq,     \
                       int has_tq, __global const T *y_in, __global T *y_out, ulong n, T d, T base, T cp, T cq,       \
                       __global T *part, __local T *scratch)                                                          \
    {                                                                                                                 \
        const ulong v = get_global_id(0);                                                                             \
        const uint lid = get_local_id(0), wg = get_local_size(0);                                                     \
        T res = 0, dang = 0;                                                                                          \
        if (v < n) {                                                                                                  \
            T sum = 0;                                                                                                \
            for (ulong j = off[v]; j < off[v + 1]; j++) sum += weighted ? w[j] * y_in[src[j]] : y_in[src[j]];        \
            T x = d * sum + base;                                                                                     \
            if (has_tp) x += cp * tp[v];                                                                              \
            if (has_tq) x += cq * tq[v];                                                                              \
            const uint od = odeg[v];                                                                                  \
            const T yo = y_in[v], old = (od && !weighted) ? yo * (T)od : yo;                                          \
            res = fabs(x - old);                                                                                      \
            if (od) y_out[v] = weighted ? x : x / (T)od;                                                              \
            else {                                                                                                    \
                y_out[v] = x;                                                                                         \
                dang = x;                                                                                             \
            }                                                                                                         \
        }                                                                                                             \
        scratch[lid] = res;                                                                                           \
        scratch[wg + lid] = dang;                                                                                     \
        for (uint s = wg / 2; s > 0; s /= 2) {                                                                        \
            barrier(CLK_LOCAL_MEM_FENCE);                                                                             \
            if (lid < s) {                                                                                            \
                scratch[lid] += scratch[lid + s];                                                                     \
                scratch[wg + lid] += scratch[wg + lid + s];                                                           \
            }                                                                                                         \
        }                                                                                                             \
        if (lid == 0) {                                                                                               \
            part[2 * get_group_id(0)] = scratch[0];                                                                   \
            part[2 * get_group_id(0) + 1] = scratch[wg];                                                              \
        }                                                                                                             \
    }

KILN_PR_ITER(float, kiln_pr_iter_f32)

/* float64 only where the device has it (the host checks CL_DEVICE_DOUBLE_FP_CONFIG first), so the
 * program still builds on a device without doubles. */
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
KILN_PR_ITER(double, kiln_pr_iter_f64)
#endif
