/* The one GPU seam: tables of operations per backend (kiln_gpu_backend_of, src/api/gpu_backend.h:
 * CUDA's and OpenCL's, NULL for one this build lacks) that a context set to a GPU holds, and the
 * per-context device handles those operations run on. A context holds a list of devices of one
 * backend (core/ctx.h: gpu_ordinal[], gpu_dev[]); each handle is opened on first use by
 * kiln_ctx_gpu, the only place a device is opened.
 *
 * The tables are by kind of work. The core table below is what every backend has: its devices,
 * their memory, the search and the batch. The other kinds have tables of their own, each in its
 * header, which a backend fills in or leaves out (a NULL pointer in the core table): trees
 * (gpu_tree.h), graphs and PageRank (gpu_graph.h) and the collective exchange between devices
 * (gpu_collective.h). This header includes them, so that the seam is one include for its callers.
 *
 * Every operation reports a failure straight into the owning context (kiln_fail) and returns its
 * status; KILN_ERR_DEVICE for the runtime's errors, KILN_ERR_INPUT where the caller asked for what
 * cannot fit. Implemented by src/cuda (cuda_ops.cu) and src/opencl (ocl_ops.c); the rest of the
 * library includes only these headers. */
#ifndef KILN_CORE_GPU_H
#define KILN_CORE_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "gpu_collective.h"
#include "gpu_graph.h"
#include "gpu_tree.h"
#include "hash_list.h"
#include "scrypt_job.h"
#include "sha256d_job.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- batch hashing */
/* The kinds of batch kernel a GPU backend has for digests, one an F line of hash_list.h: an
 * algorithm's descriptor (src/hash/hash_desc.h) names one, with its parameters (rate, domain,
 * variant). */
#define KILN_HASH_GPU_ENUM(algo, ID, family) KILN_HASH_GPU_##ID,
typedef enum kiln_hash_gpu_family {
    KILN_HASH_GPU_NONE = 0, /* no GPU kernel: the batch runs on the CPU */
    KILN_HASH_GPU_FAMILIES(KILN_HASH_GPU_ENUM) KILN_HASH_GPU_FAMILY_END /* one past the last family */
} kiln_hash_gpu_family;
#undef KILN_HASH_GPU_ENUM

/* A batch's kernel, from the algorithm's descriptor (src/hash/hash_desc.h): the family
 * (kiln_hash_gpu_family), and its parameters. */
typedef struct kiln_gpu_hash_params {
    kiln_hash_gpu_family family;
    unsigned rate; /* Keccak */
    uint8_t domain; /* Keccak */
    int variant; /* the family's own (its line of hash_list.h says what) */
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

/* The core table: what every backend implements, and a pointer to each other kind's table (NULL
 * where the backend has not got that kind). At most 14 operations: a new kind of work gets a table
 * of its own, beside these. */
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

    /* ======== optional: NULL where a backend has not got it, and the library does without (a
     * bench leaves out what it cannot time, device memory is refused, host buffers are malloc'ed) */
    /* ---- batches. plan (KDF only): how n items would run (items resident at once and the
     * lookup gap); KILN_ERR_INPUT when one cannot fit. bench: kiln_gpu_bench_spec above. */
    kiln_status (*batch_plan)(kiln_gpu *g, const kiln_gpu_batch *w, uint64_t n, size_t item_len, uint64_t *slots,
                              uint32_t *gap);
    kiln_status (*batch_bench)(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_bench_spec *spec,
                               float *median_ms, void *sample_in, void *sample_out);

    /* ---- device memory in, device memory out (docs/DEVICE_MEMORY.md): buffers in the device's
     * memory and the caller's stream (CUDA: a cudaStream_t as void *). Everything is enqueued on
     * that stream, nothing is copied to or from the host, and the host does not wait. hash:
     * message i is data[offsets[i] .. offsets[i+1]) or, offsets NULL, data[i * msg_len ..),
     * digests packed into out. kdf: scrypt item i's password pw[pw_off[i] .. pw_off[i+1]), its
     * salt likewise, its key at out + i * out_len (parameters already checked). A tree of device
     * memory is the tree table's build_device. */
    kiln_status (*hash_device)(kiln_gpu *g, const kiln_gpu_hash_params *p, const void *data, size_t data_len,
                               const uint64_t *offsets, size_t msg_len, size_t n, void *out, void *stream);
    kiln_status (*kdf_device)(kiln_gpu *g, const kiln_gpu_scrypt_kdf_cfg *cfg, const void *pw, size_t pw_bytes,
                              const uint64_t *pw_off, const void *salt, size_t salt_bytes, const uint64_t *salt_off,
                              size_t count, void *out, size_t out_len, void *stream);

    /* ---- memory. mem_info: the device's free and total memory now. host_pinned_alloc:
     * page-locked host memory (portable: pinned for every device's context), which copies to and
     * from the devices reach at the link's speed (a slice staged every pass); NULL when it cannot
     * be had (then use malloc). Allocate it with a device current in the thread. */
    kiln_status (*mem_info)(kiln_gpu *g, uint64_t *free_bytes, uint64_t *total_bytes);
    void *(*host_pinned_alloc)(size_t bytes);
    void (*host_pinned_free)(void *p);

    /* ---- host_cores: whether GPU `ordinal` runs on the host's own cores (an OpenCL CPU device).
     * kiln_gpu_each runs a set holding one such device a device after another: they share those
     * cores, and PoCL 5.0's cache of built kernels aborts when two of its contexts launch at once. */
    int (*host_cores)(int ordinal);

    /* ======== the other kinds' tables, NULL where the backend has not got the kind */
    const kiln_gpu_tree_ops *tree;
    const kiln_gpu_graph_ops *graph;
    const kiln_gpu_collective_ops *collective;

};

/* The context's i-th GPU, opened on first use. KILN_ERR_DEVICE (in ctx) when the context has no
 * such GPU or it cannot be opened. */
kiln_status kiln_ctx_gpu(kiln_ctx *ctx, int i, kiln_gpu **out);
/* Runs task(arg, i, handle of GPU i) for every GPU of the context, each in a thread of its own
 * (one GPU: in the calling thread; a set with a device on the host's cores: the threads one after
 * another), and returns when all have. A failing task stops the others at
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
