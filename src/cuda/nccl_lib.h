/* NCCL as kiln uses it: libnccl.so.2 opened at run time (a kiln built with nccl.h runs where NCCL
 * is absent, and exchanges by peer copies or through the host there), and the communicator behind
 * kiln_gpu_comm. Internal to src/cuda; only with KILN_HAVE_NCCL. */
#ifndef KILN_CUDA_NCCL_LIB_H
#define KILN_CUDA_NCCL_LIB_H

#ifdef KILN_HAVE_NCCL
#include <nccl.h>

#include "cuda_state.h"

/* The entry points kiln calls, resolved from libnccl.so.2. */
typedef struct kiln_nccl_api {
    ncclResult_t (*get_unique_id)(ncclUniqueId *id);
    ncclResult_t (*comm_init_rank)(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank);
    ncclResult_t (*comm_destroy)(ncclComm_t comm);
    ncclResult_t (*comm_abort)(ncclComm_t comm);
    ncclResult_t (*comm_get_async_error)(ncclComm_t comm, ncclResult_t *err);
    ncclResult_t (*group_start)(void);
    ncclResult_t (*group_end)(void);
    ncclResult_t (*broadcast)(const void *send, void *recv, size_t count, ncclDataType_t type, int root,
                              ncclComm_t comm, cudaStream_t stream);
    ncclResult_t (*send)(const void *buf, size_t count, ncclDataType_t type, int peer, ncclComm_t comm,
                         cudaStream_t stream);
    ncclResult_t (*recv)(void *buf, size_t count, ncclDataType_t type, int peer, ncclComm_t comm, cudaStream_t stream);
    const char *(*get_error_string)(ncclResult_t r);
    int version;
    int broadcast_exchange; /* KILN_NCCL_EXCHANGE=broadcast: the slices by broadcasts, not sends */
} kiln_nccl_api;

/* The loaded library, or NULL when it does not load (or KILN_NCCL=0 asks kiln not to use it). */
const kiln_nccl_api *kiln_nccl(void);

struct kiln_gpu_comm {
    kiln_ctx *ctx;
    int nlocal, nranks, rank0;
    ncclComm_t comm[KILN_MAX_GPUS]; /* comm[i]: rank rank0 + i, the part parts[i] of comm_open */
    int ordinal[KILN_MAX_GPUS];     /* the device and the stream comm[i] works on */
    cudaStream_t stream[KILN_MAX_GPUS];
    int failed; /* an exchange failed or timed out: the communicators were aborted (and are NULL) */
};

/* Seconds a wait on a part's stream may take while it holds an exchange (KILN_EXCHANGE_TIMEOUT,
 * default 300), and the check made while waiting: 0, or a failure recorded in the context (the
 * communicator's asynchronous error, or the timeout) after which every communicator is aborted;
 * KILN_STOPPED, the communicators aborted, when the interrupt is asked for and the wait has lasted
 * KILN_NCCL_INTERRUPT_S. */
#define KILN_NCCL_INTERRUPT_S 0.25
double kiln_nccl_timeout(void);
/* Aborts every communicator of c (a failed exchange: destroying would wait on the dead peers; an
 * interrupt), each on a thread of its own; safe from several threads at once. */
void kiln_nccl_abort(kiln_gpu_comm *c);
/* Waits for the communicators that kiln_cuda_comm_close left aborting on threads of their own (run
 * before a new communicator is made, and at exit). */
void kiln_nccl_settle(void);
kiln_status kiln_nccl_wait(kiln_gpu_comm *c, kiln_gpu *st, double waited);

#endif
#endif
