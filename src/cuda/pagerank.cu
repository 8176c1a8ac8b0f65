/* PageRank on the GPU.
 *
 * Layout. Vertices are put in descending order of in-degree (CUB radix sort of the degrees), and
 * by default relabelled in that order: the CSR is rebuilt on the device with the new labels and
 * each row's sources sorted (cub::DeviceSegmentedSort). Rows of similar length then sit together
 * in ranges ("bins"), each processed its own way without an index list: a block per row of 2048+
 * edges, and below that a block takes a run of consecutive rows holding at most 4096 edges,
 * loads their sources with every thread (coalesced, two rounds of eight loads in flight per
 * thread), gathers the ranks into shared memory, and then sums each row from there with 1..32
 * lanes per row by bin. The ranks of the high-degree vertices that most edges point
 * from also share a few cache lines after relabelling, so most gathers hit in L2. With reorder
 * off, rows keep their labels and are visited through the sorted index list, G lanes a row.
 *
 * Iteration (one kernel per iteration): each vertex keeps y = x / out-degree (x for a dangling
 * vertex), so a row sums y over its sources with no division per edge (the contribution trick);
 * the same pass writes the next y, and each block adds its share of the L1 change and of the new
 * dangling mass (float64, fire-and-forget atomics) into one of 32 slots of a ring of three. The
 * next iteration's blocks fold the previous ring entry when they start (all alike, so all take the
 * same decision): it gives the teleport term, and when the L1 change is already below N*tol the
 * kernel marks the state done and returns without writing, as every later launch does. No block
 * waits for another, so the host queues batches of iterations (a CUDA graph of launches whose
 * only argument that differs is the iteration number mod 6) and reads the state only between
 * batches, or never when the count is fixed. A graph whose blocks all fit on the chip at once
 * runs the same block code in the persistent kernel instead: one cooperative launch a batch,
 * a grid barrier between iterations (pagerank_iter.cuh).
 *
 * NetworkX's whole definition, x' = d (A^T y + D q) + (1 - d) p, comes in through a template mode
 * so the plain run (unweighted, uniform p and q) compiles to the same code as before:
 *  - MODE_WEIGHTED: the setup turns each edge weight into its share of the source's out-weight,
 *    w[j] / W[src[j]] (NetworkX's stochastic_graph), stored in the rank type beside the sources and
 *    moved with them by the relabelling and the row sort (segmented sort of pairs). The out-degree
 *    array then holds 1 for a vertex with out-weight and 0 for a dangling one (W = 0), so y = x
 *    and the row code is unchanged; only the gather multiplies. Normalizing per edge rather than
 *    dividing x by W keeps float32 exact where W is tiny or huge. Cost: 4 more streamed bytes an
 *    edge with float32 ranks (8 with float64) on top of the 4-byte source and the gathered rank;
 *    staged rows put the product in shared memory, so the staging size does not change.
 *  - MODE_TELEPORT: p and/or q as arrays over the visiting order (relabelled with the rows); the
 *    row update is x = d sum + base + cp p[v] + cq q[v], the coefficients taken per launch from D
 *    (q = p folds into cp, a uniform one into base). 4 or 8 more bytes a row per given vector.
 * nstart only changes the initial y (x0 / out-degree) and the initial dangling mass.
 */
#include "pagerank_solver.cuh"

namespace {

template <typename T, typename Off>
kiln_status run_pagerank(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *prm, double *ranks,
                         kiln_gpu_pr_stats *stats)
{
    const double t_setup = kiln_now();
    Solver<T, Off> sv(st, g, prm);
    kiln_status r;
    if ((r = sv.load_layout()) != KILN_OK || (r = sv.load_vectors()) != KILN_OK || (r = sv.choose_kernel(stats)) != KILN_OK ||
        (r = sv.allocate()) != KILN_OK || (r = sv.capture()) != KILN_OK)
        return r;
    const double dangling0 = start_dangling(g, prm);
    stats->setup_s = kiln_now() - t_setup;

    const int runs = prm->repeat > 1 ? prm->repeat : 1;
    std::vector<double> times;
    for (int run = 0; run < runs; run++) {
        float ms = 0;
        if ((r = sv.start(dangling0)) != KILN_OK || (r = sv.iterate(&ms)) != KILN_OK) return r;
        times.push_back(ms);
    }
    stats->loop_ms = kiln_median(times.data(), times.size());
    return sv.finish(ranks, stats);
}

} // namespace

kiln_status kiln_cuda_pagerank(kiln_gpu *st, const kiln_gpu_pr_graph *g, const kiln_gpu_pr_params *p,
                                          double *ranks, kiln_gpu_pr_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    KILN_CUDA_TRY(cudaSetDevice(st->ordinal), "cudaSetDevice");
    if (g->n == 0 || g->n > 0xfffffffeull || p->max_iter < 1 || (g->weights == nullptr) != (g->out_weight == nullptr)) {
        return kiln_fail(st->ctx, KILN_ERR_INPUT, "PageRank: bad graph or parameters");
    }
    const bool wide = g->m > 0xffffffffull;
    if (p->use_double) {
        return wide ? run_pagerank<double, unsigned long long>(st, g, p, ranks, stats)
                    : run_pagerank<double, uint32_t>(st, g, p, ranks, stats);
    }
    return wide ? run_pagerank<float, unsigned long long>(st, g, p, ranks, stats)
                : run_pagerank<float, uint32_t>(st, g, p, ranks, stats);
}
