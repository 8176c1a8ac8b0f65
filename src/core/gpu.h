/* The one GPU seam: a table of operations per backend (kiln_gpu_backend_of, src/api/gpu_backend.h:
 * CUDA's and OpenCL's, NULL for one this build lacks) that a context set to a GPU holds, and the
 * per-context device handles those operations run on. A context holds a list of devices of one
 * backend (core/ctx.h: gpu_ordinal[], gpu_dev[]); each handle is opened on first use by
 * kiln_ctx_gpu, the only place a device is opened.
 *
 * Every operation reports a failure straight into the owning context (kiln_fail) and returns its
 * status; KILN_ERR_DEVICE for the runtime's errors, KILN_ERR_INPUT where the caller asked for what
 * cannot fit. Implemented by src/cuda (cuda_ops.cu) and src/opencl (ocl_ops.c); the rest of the
 * library includes only this header. */
#ifndef KILN_CORE_GPU_H
#define KILN_CORE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "../prim/rmat.h"
#include "ctx.h"
#include "scrypt_job.h"
#include "sha256d_job.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- graphs and PageRank */

/* A CSR of in-edges built on the device and copied back into malloc'ed host arrays. */
typedef struct kiln_gpu_csr {
    uint64_t n, m;
    uint64_t *offsets; /* n + 1 */
    uint32_t *sources; /* m, ascending within each row */
    uint32_t *outdeg; /* n */
    uint64_t edges_read, self_loops_removed, duplicates_removed;
} kiln_gpu_csr;

typedef struct kiln_gpu_pr_graph {
    uint64_t n, m, dangling;
    const uint64_t *offsets;
    const uint32_t *sources;
    const uint32_t *outdeg;
    /* A weighted graph (else both NULL): the weight of each in-edge, aligned with sources, and each
     * vertex's out-weight sum; a vertex is dangling when it is 0 (outdeg is then not used). */
    const double *weights;
    const double *out_weight;
} kiln_gpu_pr_graph;

/* kiln_pagerank_kernel's values */
enum { KILN_GPU_PR_AUTO = 0, KILN_GPU_PR_GRID = 1, KILN_GPU_PR_CLUSTER = 2, KILN_GPU_PR_PERSISTENT = 4 };

typedef struct kiln_gpu_pr_params {
    double damping, tol;
    int max_iter;
    int use_double; /* float64 ranks instead of float32 */
    int reorder; /* relabel by descending in-degree (else process the rows through an index list) */
    int repeat; /* timed runs of the loop from x0; the median is reported */
    int kernel; /* KILN_GPU_PR_AUTO, _GRID, _PERSISTENT or _CLUSTER */
    /* n values each, already normalized to sum 1 by the API, or NULL: personalization (teleport;
     * NULL uniform), dangling (where dangling rank goes; NULL: the personalization), nstart (x0;
     * NULL uniform). x' = d (A^T y + D q) + (1 - d) p with D the dangling rank. */
    const double *personalization;
    const double *dangling;
    const double *nstart;
} kiln_gpu_pr_params;

typedef struct kiln_gpu_pr_stats {
    int iterations, converged;
    double residual;
    double loop_ms; /* median over the runs, device events */
    double setup_s;
    int kernel; /* the one that ran: KILN_GPU_PR_GRID, _PERSISTENT or _CLUSTER */
} kiln_gpu_pr_stats;

/* ---- PageRank over row parts: several devices of a context, or one process of a split (MPI).
 * A part holds rows [v0, v1) of the in-edge CSR and a whole contribution vector y (y = x / outdeg
 * unweighted, x itself for a dangling vertex and for every vertex of a weighted graph, whose
 * edges carry their share of the source's out-weight) in float32 or float64, in two copies:
 * `cur`, read by a pass, and `next`, whose own rows a pass writes. The host completes `next` from
 * the other parts (pr_part_share, or pr_part_get/put through the host) and flips. */
typedef struct kiln_gpu_pr_part kiln_gpu_pr_part;
/* A communicator between parts (NCCL): one rank a part, the parts of one process or one a process. */
typedef struct kiln_gpu_comm kiln_gpu_comm;
#define KILN_GPU_COMM_ID_BYTES 128
typedef struct kiln_gpu_pr_part_spec {
    uint64_t n, v0, v1;
    const uint64_t *offsets; /* the graph's, indexed by vertex: rows v0..v1 are used */
    const uint32_t *sources; /* indexed by the offsets' values, as the graph's own */
    const double *weights; /* aligned with sources, or NULL (unweighted) */
    const uint32_t *outdeg; /* n */
    const double *out_weight; /* n, or NULL: W = outdeg */
    const double *personalization, *dangling; /* n, normalized, or NULL (uniform; dangling: personalization) */
    double damping;
    int use_double;
} kiln_gpu_pr_part_spec;

/* ---- Merkle trees */
typedef struct kiln_gpu_merkle_cfg {
    int method; /* KILN_MERKLE_LEVELS or KILN_MERKLE_SUBTREES */
    int k; /* levels per launch of the subtree kernel, 1..12 */
    int tpb; /* threads per block */
    int graph; /* replay the launch sequence as a CUDA graph */
} kiln_gpu_merkle_cfg;

/* Writes leaves [first, first + count) of the tree being built into dst (page-locked, count * 32
 * bytes); called chunk after chunk on the building thread. Anything but KILN_OK ends the build
 * (the callback has written the context's error, or its caller will). */
typedef kiln_status (*kiln_gpu_merkle_fill)(void *user, uint64_t first, uint64_t count, uint8_t *dst);

/* ---- batch hashing */
/* The kinds of batch kernel a GPU backend has for digests: an algorithm's descriptor
 * (src/hash/hash_desc.h) names one, with its parameters (rate, domain, variant). */
typedef enum kiln_hash_gpu_family {
    KILN_HASH_GPU_NONE = 0, /* no GPU kernel: the batch runs on the CPU */
    KILN_HASH_GPU_SHA256, /* variant 1: sha256d */
    KILN_HASH_GPU_KECCAK, /* rate and domain */
    KILN_HASH_GPU_SHA512, /* variant: a kiln_sha512_variant (src/prim/sha512.h) */
} kiln_hash_gpu_family;

/* A batch's kernel, from the algorithm's descriptor (src/hash/hash_desc.h): the family
 * (kiln_hash_gpu_family), and its parameters. */
typedef struct kiln_gpu_hash_params {
    kiln_hash_gpu_family family;
    unsigned rate; /* Keccak */
    uint8_t domain; /* Keccak */
    int variant; /* SHA-256: 1 for sha256d; SHA-512: the kiln_sha512_variant */
    size_t outlen;
} kiln_gpu_hash_params;

/* ---- scrypt */
typedef struct kiln_gpu_scrypt_cfg {
    int threads_per_block;
    int hashes_per_thread; /* nonces each resident hash slot runs per launch */
    int threads_per_hash; /* 1 or 4 */
    int lookup_gap; /* 1..16 */
} kiln_gpu_scrypt_cfg;

typedef struct kiln_gpu_scrypt_kdf_cfg {
    uint64_t N;
    uint32_t r, p;
    int threads_per_block; /* 0 = default */
    int lookup_gap; /* 0 = automatic */
    int romix_kernel; /* CUDA, r = 1, 2, 4, 8: 1 = state in registers, 2 = steps with X in shared memory, 0 = 2 at r = 8, else 1 */
} kiln_gpu_scrypt_kdf_cfg;

/* ---- the kinds of work a backend runs. The workloads describe what to run as data (which
 * kernel of a kind, its parameters, its launch shape); a backend compiles and launches a kernel
 * for each kind. The algorithms are values of these descriptors, not operations of the table. */

/* A nonce search: one kernel per proof of work, its per-job state and its launch shape. */
typedef enum kiln_gpu_search_kind {
    KILN_GPU_SEARCH_SHA256D, /* job.sha256d, shape.sha256d */
    KILN_GPU_SEARCH_SCRYPT, /* Litecoin scrypt, the whole hash on the device: job.scrypt, shape.scrypt */
} kiln_gpu_search_kind;

typedef struct kiln_gpu_search {
    kiln_gpu_search_kind kind;
    union {
        const kiln_sha256d_job *sha256d;
        const kiln_scrypt_job *scrypt;
    } job;
    union {
        kiln_launch sha256d;
        kiln_gpu_scrypt_cfg scrypt;
    } shape;
} kiln_gpu_search;

/* A batch: n independent items from host memory, each through one kernel. */
typedef enum kiln_gpu_batch_kind {
    KILN_GPU_BATCH_DIGEST, /* messages -> digests: by.digest names the kernel family and its parameters */
    KILN_GPU_BATCH_PERMUTE, /* Keccak-f[1600] states in place: by.permute, a kiln_keccak_layout other than AUTO */
    KILN_GPU_BATCH_KDF, /* scrypt inputs (kiln_scrypt_input) -> keys: by.kdf */
} kiln_gpu_batch_kind;

typedef struct kiln_gpu_batch {
    kiln_gpu_batch_kind kind;
    union {
        kiln_gpu_hash_params digest;
        kiln_keccak_layout permute;
        kiln_gpu_scrypt_kdf_cfg kdf;
    } by;
} kiln_gpu_batch;

/* A batch's items. DIGEST: message i is in[offsets[i]-offsets[0] .. offsets[i+1]-offsets[0]) or,
 * with offsets NULL, in[i*item_len .. (i+1)*item_len); digests packed into out. PERMUTE: n states
 * of 25 lanes, in == out. KDF: in is n kiln_scrypt_input, key i's item_len bytes at out + i *
 * item_len (parameters already checked). */
typedef struct kiln_gpu_batch_io {
    size_t n;
    const void *in;
    const uint64_t *offsets;
    size_t item_len;
    void *out;
} kiln_gpu_batch_io;

/* A bench of a batch kernel on n device-resident items generated on the device: one warm-up and
 * reps timed launches, their median; the inputs and outputs of nsample evenly spaced items come
 * back for the caller to verify. DIGEST: item_len-byte messages (with_offsets: through an offset
 * table), sample_in nsample messages and sample_out their digests; PERMUTE: item_len permutations
 * per load and store, sample_in and sample_out 25 lanes of each sampled state before and after
 * the last timed launch. */
typedef struct kiln_gpu_bench_spec {
    size_t n, item_len;
    int with_offsets, reps;
    size_t nsample;
} kiln_gpu_bench_spec;

/* The operations. The first group is what every backend implements: its devices and one
 * operation for each kind of work (search, batch, tree, graph). The second is optional: NULL where
 * a backend has not got it, and the library then does without (the CPU builds the graph, a
 * tree's nodes are read one by one, a bench leaves out what it cannot time, the several-device
 * PageRank and the MPI exchange are refused). */
struct kiln_gpu_ops {
    const char *name; /* "cuda", "opencl" */

    /* ======== required */
    /* ---- devices. device_count: GPUs the runtime can see; 0 when there is no driver or no
     * device. open: a handle on GPU `ordinal` whose errors go to ctx. */
    int (*device_count)(void);
    kiln_status (*device_info)(kiln_ctx *ctx, int ordinal, kiln_device_info *out);
    kiln_status (*open)(kiln_ctx *ctx, int ordinal, kiln_gpu **out);
    void (*close)(kiln_gpu *g);

    /* ---- search: one launch over [start, start+count), count <= 2^32 - start: up to cap
     * candidate nonces (those whose most significant hash word meets the target's) go to cand,
     * unordered, and their total number to *ncand (which may exceed cap). *gpu_ms: the kernel
     * time measured with events. */
    kiln_status (*search)(kiln_gpu *g, const kiln_gpu_search *w, uint32_t start, uint64_t count, uint32_t *cand,
                          uint32_t cap, uint64_t *ncand, float *gpu_ms);

    /* ---- batch (above); *gpu_ms as for a search, NULL when not wanted. */
    kiln_status (*batch)(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_batch_io *io, float *gpu_ms);

    /* ---- tree: the whole tree lives in device memory owned by the handle, level after level
     * as kiln_merkle_level_offset lays it out, each level made of the one below by the merge of
     * `algo` (src/prim/merkle_merge.h). upload sets level 0; build makes every level above it;
     * read copies nodes [first, first + count) back. */
    kiln_status (*tree_upload)(kiln_gpu *g, const uint8_t *leaves, uint64_t n);
    kiln_status (*tree_build)(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                              int *launches, float *gpu_ms);
    kiln_status (*tree_read)(kiln_gpu *g, uint64_t first, uint64_t count, uint8_t *out);

    /* ---- graph: PageRank over an in-edge CSR, ranks[n] in the graph's vertex order. */
    kiln_status (*pagerank)(kiln_gpu *g, const kiln_gpu_pr_graph *graph, const kiln_gpu_pr_params *p, double *ranks,
                            kiln_gpu_pr_stats *stats);

    /* ======== optional */
    /* ---- batches. plan (KDF only): how n items would run (items resident at once and the
     * lookup gap); KILN_ERR_INPUT when one cannot fit. bench: kiln_gpu_bench_spec above. */
    kiln_status (*batch_plan)(kiln_gpu *g, const kiln_gpu_batch *w, uint64_t n, size_t item_len, uint64_t *slots,
                              uint32_t *gap);
    kiln_status (*batch_bench)(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_bench_spec *spec,
                               float *median_ms, void *sample_in, void *sample_out);

    /* ---- trees. random: level 0 pseudo-random from seed, generated on the device (field != 0
     * makes each u64 a canonical Goldilocks element; without it the bench uploads
     * kiln_merkle_bench_leaves); raw: one launch of ceil(n/2)
     * independent merges; gather: nodes idx[0..count) into out (32 bytes each) in one round trip,
     * for the CPU's checks of a few hundred scattered nodes; build_staged: upload then build in
     * one pipeline, for leaves that come from pageable host memory: the leaves go in chunks
     * through page-locked staging buffers (fill writes leaves [first, first + count) into one on
     * the calling thread while earlier chunks are copied to the device), each chunk's lower levels
     * are merged once it has landed, then the levels above the chunks; the same tree as
     * tree_upload and tree_build (cfg->graph is not used). A fill that fails ends it with that
     * status. Returns with nothing in flight; a failure also frees the staging buffers. */
    kiln_status (*tree_random)(kiln_gpu *g, uint64_t n, uint64_t seed, int field);
    kiln_status (*tree_raw)(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, int tpb, float *gpu_ms);
    kiln_status (*tree_gather)(kiln_gpu *g, const uint64_t *idx, uint64_t count, uint8_t *out);
    kiln_status (*tree_build_staged)(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                                     kiln_gpu_merkle_fill fill, void *user, int *launches);

    /* ---- graph builds. Edges (vertex indices below n) -> in-edge CSR, the same arrays as the CPU
     * build; RMAT generated on the device. rmat_part_csr: rows [v0, v1) of the RMAT graph's
     * in-edge CSR, built on this device alone: every edge is drawn here and those whose
     * destination (undirected: either end) is in the rows are kept, so the device never holds
     * more than its rows' edges. out->n is the graph's n; offsets has v1 - v0 + 1 values from 0,
     * sources the part's m; outdeg (n values) counts the part's edges by source (the parts' add
     * up to the graph's); edges_read and self_loops_removed are the whole graph's,
     * duplicates_removed the part's. KILN_ERR_INPUT, before the large allocations, when the
     * part's build needs more memory than the device has free. */
    kiln_status (*csr_from_edges)(kiln_gpu *g, const uint32_t *src, const uint32_t *dst, uint64_t count, uint64_t n,
                                  int undirected, int drop_loops, kiln_gpu_csr *out);
    kiln_status (*rmat_csr)(kiln_gpu *g, const kiln_rmat_spec *spec, int undirected, kiln_gpu_csr *out);
    kiln_status (*rmat_part_csr)(kiln_gpu *g, const kiln_rmat_spec *spec, int undirected, uint64_t v0, uint64_t v1,
                                 kiln_gpu_csr *out);
    /* The device's free and total memory now, and the most it was seen using at the fullest
     * points of the graph builds and the PageRank parts' setup (the runtime's own context and
     * anything else on that device included). */
    kiln_status (*mem_info)(kiln_gpu *g, uint64_t *free_bytes, uint64_t *total_bytes);
    uint64_t (*mem_peak)(kiln_gpu *g);

    /* ---- PageRank parts (above), one graph pass at a time. open uploads the part's rows and
     * gives their visiting order (order[r]: the part's row at its position r, 0-based within the
     * part); relabel takes the graph's new label of every vertex (old2new, n values: each part's
     * rows keep its range) and lays the rows out in those labels, after which every vector is in
     * the new labels; put/get copy rows [first, first + count) of `cur` from/to the host (elements
     * of 4 or 8 bytes as use_double says); launch starts a pass (cur -> own rows of next) with
     * the last dangling mass on the part's stream, sums waits for it and gives its rows' L1
     * change and new dangling mass; share copies src's own rows of next into dst's next (a peer
     * copy, or a device copy on one GPU), both passes finished; flip makes next current. All of
     * them or none. */
    kiln_status (*pr_part_open)(kiln_gpu *g, const kiln_gpu_pr_part_spec *spec, uint32_t *order, kiln_gpu_pr_part **out);
    kiln_status (*pr_part_relabel)(kiln_gpu_pr_part *p, const kiln_gpu_pr_part_spec *spec, const uint32_t *old2new);
    kiln_status (*pr_part_put)(kiln_gpu_pr_part *p, const void *y, uint64_t first, uint64_t count);
    kiln_status (*pr_part_get)(kiln_gpu_pr_part *p, void *y, uint64_t first, uint64_t count);
    kiln_status (*pr_part_launch)(kiln_gpu_pr_part *p, double dangling);
    kiln_status (*pr_part_sums)(kiln_gpu_pr_part *p, double *res, double *dangling);
    kiln_status (*pr_part_share)(kiln_gpu_pr_part *dst, const kiln_gpu_pr_part *src);
    void (*pr_part_flip)(kiln_gpu_pr_part *p);
    /* whether share goes through host memory (each device its own context) rather than device to
     * device: what a run reports as its exchange */
    int pr_part_share_via_host;
    /* seconds the shares into p took on its stream since the last call (device events) */
    double (*pr_part_share_seconds)(kiln_gpu_pr_part *p);
    void (*pr_part_close)(kiln_gpu_pr_part *p);

    /* ---- a collective library between parts (NCCL; NULL in a build without nccl.h).
     * comm_available: whether it loads here (libnccl.so.2, and KILN_NCCL is not "0"). comm_id: a
     * new unique id (KILN_GPU_COMM_ID_BYTES), made by one rank and sent to the others (MPI_Bcast).
     * comm_open: ranks rank0 .. rank0 + nlocal - 1 of a communicator of nranks, one for each of
     * parts[0..nlocal) (each on a GPU of its own); a collective call over every rank.
     * pr_part_allgather: every rank's own rows of next (rank r's are [bounds[r], bounds[r+1]))
     * into every part's next, on the parts' streams, after their passes; the parts' waits
     * (pr_part_sums, pr_part_get) then give up with an error after KILN_EXCHANGE_TIMEOUT seconds
     * (default 300) rather than hang on a rank that died. comm_close: with abort 0 after the
     * parts' streams are idle; with abort 1 (a run that failed, whose peers may never answer) at
     * once, before the parts are closed, so that no stream waits on an exchange for ever. */
    int (*comm_available)(void);
    kiln_status (*comm_id)(kiln_ctx *ctx, void *id);
    kiln_status (*comm_open)(kiln_ctx *ctx, kiln_gpu_pr_part *const *parts, int nlocal, int nranks, int rank0,
                             const void *id, kiln_gpu_comm **out);
    kiln_status (*pr_part_allgather)(kiln_gpu_comm *c, kiln_gpu_pr_part *const *parts, int count, const uint64_t *bounds);
    void (*comm_close)(kiln_gpu_comm *c, int abort);

    /* Page-locked host memory (portable: pinned for every device's context), which copies to and
     * from the devices reach at the link's speed (a slice staged every pass); NULL when it cannot
     * be had (then use malloc). Allocate it with a device current in the thread. */
    void *(*host_pinned_alloc)(size_t bytes);
    void (*host_pinned_free)(void *p);

    /* ---- device memory in, device memory out (docs/DEVICE_MEMORY.md): buffers in the device's
     * memory and the caller's stream (CUDA: a cudaStream_t as void *). Everything is enqueued on
     * that stream, nothing is copied to or from the host, and the host waits only for root_host.
     * hash: message i is data[offsets[i] .. offsets[i+1]) or, offsets NULL, data[i * msg_len ..),
     * digests packed into out. tree: the tree of n leaves into tree (the whole tree as tree_build
     * lays it out; NULL: a temporary), its root into root_dev and/or root_host. kdf: scrypt item
     * i's password pw[pw_off[i] .. pw_off[i+1]), its salt likewise, its key at out + i * out_len
     * (parameters already checked). */
    kiln_status (*hash_device)(kiln_gpu *g, const kiln_gpu_hash_params *p, const void *data, size_t data_len,
                               const uint64_t *offsets, size_t msg_len, size_t n, void *out, void *stream);
    kiln_status (*tree_build_device)(kiln_gpu *g, kiln_merkle_algo algo, uint64_t n, const kiln_gpu_merkle_cfg *cfg,
                                     const void *leaves, void *tree, void *root_dev, uint8_t *root_host, void *stream);
    kiln_status (*kdf_device)(kiln_gpu *g, const kiln_gpu_scrypt_kdf_cfg *cfg, const void *pw, size_t pw_bytes,
                              const uint64_t *pw_off, const void *salt, size_t salt_bytes, const uint64_t *salt_off,
                              size_t count, void *out, size_t out_len, void *stream);
};

/* The context's i-th GPU, opened on first use. KILN_ERR_DEVICE (in ctx) when the context has no
 * such GPU or it cannot be opened. */
kiln_status kiln_ctx_gpu(kiln_ctx *ctx, int i, kiln_gpu **out);
/* Runs task(arg, i, handle of GPU i) for every GPU of the context, each in a thread of its own
 * (one GPU: in the calling thread), and returns when all have. A failing task stops the others at
 * their next interrupt poll; its message, prefixed with its device as kiln_gpu_label names it
 * ("cuda:1 (device 2 of 2): ", "opencl:0 (device 1 of 2): "), is the context's error and its
 * status the result; else KILN_STOPPED when one was interrupted.
 * Tasks must not call the caller's callbacks (they are not thread-safe): they fill per-device
 * results that the caller merges. */
typedef kiln_status (*kiln_gpu_task)(void *arg, int i, kiln_gpu *g);
kiln_status kiln_gpu_each(kiln_ctx *ctx, kiln_gpu_task task, void *arg);
/* The name kiln_gpu_each puts before a device's message, as its device spec names it: "cuda:1
 * (device 2 of 2)", "opencl:0 (device 1 of 3)"; i is the device's index in the context's set. */
void kiln_gpu_label(const kiln_ctx *ctx, int i, char *out, size_t n);

/* What a caller answers when the context's backend has not got an optional operation:
 * KILN_ERR_DEVICE, "the <backend> backend cannot <what>". */
kiln_status kiln_gpu_lacks(kiln_ctx *ctx, const char *what);

/* Closes every GPU handle of the context (the list itself stays). */
void kiln_ctx_close_gpus(kiln_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif
