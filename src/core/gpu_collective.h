/* The GPU table of the collective kind: a communicator between the devices that hold the row
 * parts of a vector (one rank a part: the parts of one process, or one part a process under MPI),
 * and the exchange that completes every part's copy of the vector from the others' rows. It is a
 * kind of its own, not a workload's: today PageRank's row parts (core/gpu_graph.h) are the parts
 * it exchanges. A backend with a collective library (CUDA with NCCL, in a build that found
 * nccl.h) points its core table's `collective` at one of these; NULL otherwise, and the parts
 * exchange through the host (copies between devices, MPI between processes). */
#ifndef KILN_CORE_GPU_COLLECTIVE_H
#define KILN_CORE_GPU_COLLECTIVE_H

#include <stdint.h>

#include "ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One device's rows of a vector split by rows (core/gpu_graph.h's PageRank part), and a
 * communicator between such parts. */
typedef struct kiln_gpu_pr_part kiln_gpu_pr_part;
typedef struct kiln_gpu_comm kiln_gpu_comm;
#define KILN_GPU_COMM_ID_BYTES 128

/* available: whether the library loads here (libnccl.so.2, and KILN_NCCL is not "0"). id: a new
 * unique id (KILN_GPU_COMM_ID_BYTES), made by one rank and sent to the others (MPI_Bcast). open:
 * ranks rank0 .. rank0 + nlocal - 1 of a communicator of nranks, one for each of parts[0..nlocal)
 * (each on a GPU of its own); a collective call over every rank. allgather: every rank's own rows
 * of the parts' next vector (rank r's are [bounds[r], bounds[r+1])) into every part's next, on the
 * parts' streams, after their passes; the parts' waits then give up with an error after
 * KILN_EXCHANGE_TIMEOUT seconds (default 300) rather than hang on a rank that died. close: with
 * abort 0 after the parts' streams are idle; with abort 1 (a run that failed, whose peers may never
 * answer) at once, before the parts are closed, so that no stream waits on an exchange for ever.
 * All of them, in a table. */
typedef struct kiln_gpu_collective_ops {
    int (*available)(void);
    kiln_status (*id)(kiln_ctx *ctx, void *id);
    kiln_status (*open)(kiln_ctx *ctx, kiln_gpu_pr_part *const *parts, int nlocal, int nranks, int rank0, const void *id,
                        kiln_gpu_comm **out);
    kiln_status (*allgather)(kiln_gpu_comm *c, kiln_gpu_pr_part *const *parts, int count, const uint64_t *bounds);
    void (*close)(kiln_gpu_comm *c, int abort);
} kiln_gpu_collective_ops;

#ifdef __cplusplus
}
#endif

#endif
