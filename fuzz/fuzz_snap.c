/* SNAP edge lists ("src dst" lines, '#' comments) through kiln_graph_load, as given and with the
 * undirected and self-loop-dropping flags, and weighted ("src dst [weight]"), directed and
 * undirected; gzip input is undone by the same reader. */
#include "fuzz_util.h"
#include "fuzz_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_load_graph(data, size, KILN_GRAPH_SNAP, 0);
    fuzz_load_graph(data, size, KILN_GRAPH_SNAP, KILN_GRAPH_UNDIRECTED | KILN_GRAPH_DROP_SELF_LOOPS);
    fuzz_load_graph(data, size, KILN_GRAPH_SNAP, KILN_GRAPH_WEIGHTED);
    fuzz_load_graph(data, size, KILN_GRAPH_SNAP, KILN_GRAPH_WEIGHTED | KILN_GRAPH_UNDIRECTED);
    return 0;
}
