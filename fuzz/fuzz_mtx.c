/* Matrix Market coordinate files through kiln_graph_load, forced to that format and told by
 * content (AUTO, which also sniffs the CSR cache magic), unweighted and with the values as
 * weights (undirected too, where a symmetric file's mirrored entries meet their mirrors). */
#include "fuzz_util.h"
#include "fuzz_graph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_load_graph(data, size, KILN_GRAPH_MTX, 0);
    fuzz_load_graph(data, size, KILN_GRAPH_AUTO, 0);
    fuzz_load_graph(data, size, KILN_GRAPH_MTX, KILN_GRAPH_WEIGHTED);
    fuzz_load_graph(data, size, KILN_GRAPH_MTX, KILN_GRAPH_WEIGHTED | KILN_GRAPH_UNDIRECTED);
    return 0;
}
