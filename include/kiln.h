/* kiln: proof-of-work and hashing workloads on CPU and NVIDIA GPUs.
 *
 * This is the library's only public header. The library never prints and never exits: every
 * function that can fail returns a kiln_status, and the context keeps a one-line message
 * (kiln_last_error) naming the problem. Functions that take a context accept NULL there; they
 * then report only the status.
 *
 * Byte order: block headers are the 80 serialized bytes; hashes are raw digest bytes ("internal"
 * order); a 256-bit target is 32 bytes holding a little-endian number (byte 31 most significant),
 * so a hash meets a target when, read the same way, hash <= target. */
#ifndef KILN_H
#define KILN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_VERSION "0.1.0"

/* The library's version, "MAJOR.MINOR.PATCH" (KILN_VERSION is the header's: they agree when the
 * header and the library come from the same kiln). */
const char *kiln_version(void);
/* How the library was built, one "name: value" line per option, e.g. "cuda: on (architectures
 * 75-virtual 90-real)", "zlib: on ...", "cpu kernels: avx512 avx2 sha-ni portable" (those compiled;
 * each is used only on a CPU that has its instructions). A static string. */
const char *kiln_build_info(void);

/* ---------------------------------------------------------------- status and context */

typedef enum kiln_status {
    KILN_OK = 0,
    KILN_NOT_FOUND = 1, /* a search ended without a result, or a check failed */
    KILN_ERR_INPUT = 2, /* bad argument or malformed input */
    KILN_ERR_DEVICE = 3, /* no such device, device failure, out of memory, system error */
    KILN_STOPPED = 4, /* the caller's callback asked to stop */
} kiln_status;

typedef enum kiln_backend {
    KILN_BACKEND_CPU = 0,
    KILN_BACKEND_CUDA = 1,
    KILN_BACKEND_OPENCL = 2, /* any vendor's device through its OpenCL driver (docs/OPENCL.md) */
} kiln_backend;

typedef struct kiln_ctx kiln_ctx;

/* ---------------------------------------------------------------- the workload registry */

/* Every algorithm kiln runs is one entry of one table: the name a user types, the kinds of work it
 * takes part in, where it runs, how it is benchmarked and tuned, and a help line. The command line
 * lists, parses and dispatches algorithms through it, so a name is written once. */
typedef enum kiln_kind {
    KILN_KIND_SEARCH = 1u << 0, /* nonce search, `kiln mine` (a kiln_algo) */
    KILN_KIND_HASH = 1u << 1, /* message digest, `kiln hash` (a kiln_hash_algo) */
    KILN_KIND_KDF = 1u << 2, /* key derivation, `kiln scrypt` */
    KILN_KIND_TREE = 1u << 3, /* Merkle tree merge, `kiln merkle` (a kiln_merkle_algo) */
    KILN_KIND_GRAPH = 1u << 4, /* graph analytics, `kiln pagerank` */
    KILN_KIND_PERMUTATION = 1u << 5, /* a bare permutation (Keccak-f[1600]) */
} kiln_kind;
#define KILN_KIND_ALL 0x3Fu

/* One axis of a tuning sweep: a launch parameter and the values `kiln tune` tries. */
typedef struct kiln_tune_axis {
    const char *label; /* e.g. "threads per block" */
    const int *values;
    int count;
} kiln_tune_axis;

typedef struct kiln_workload {
    const char *name; /* as the user types it */
    const char *short_name; /* a second spelling in bench and tune names ("rp64"), or NULL */
    unsigned kinds; /* KILN_KIND_* */
    int search_algo; /* kiln_algo when kinds has SEARCH, else -1 */
    int hash_algo; /* kiln_hash_algo when kinds has HASH, else -1 */
    int tree_algo; /* kiln_merkle_algo when kinds has TREE, else -1 */
    unsigned gpu_kinds; /* kinds with a GPU implementation */
    unsigned bench_kinds; /* kinds `kiln bench` measures */
    unsigned bench_all_kinds; /* kinds measured by `kiln bench --algo all` */
    unsigned tune_kinds; /* kinds `kiln tune` sweeps (their cache key is the bench name) */
    const char *help; /* one line */
} kiln_workload;

size_t kiln_workload_count(void);
/* Entry i (0 .. count-1), NULL past the end. */
const kiln_workload *kiln_workload_at(size_t i);
/* The entry called `name` that has one of `kinds`. NULL when there is none, with a message in ctx
 * naming the names that would have been accepted. */
const kiln_workload *kiln_workload_find(kiln_ctx *ctx, const char *name, unsigned kinds);
/* The name a (workload, kind) pair has in `kiln bench`, `kiln tune` and the tuning cache: the
 * workload's name, or "merkle-" + its short name (else name) for a tree merge. */
const char *kiln_workload_bench_name(const kiln_workload *w, kiln_kind kind, char *buf, size_t len);
/* Parses a bench/tune name (as kiln_workload_bench_name writes them; for trees the full name is
 * accepted too) among the kinds of `kinds` (bench_kinds or tune_kinds must also have it). NULL
 * with a message in ctx when nothing matches. */
const kiln_workload *kiln_workload_for_bench(kiln_ctx *ctx, const char *name, unsigned kinds, int tune,
                                             kiln_kind *kind);
/* "a, b or c": the names of the entries with one of `kinds`, as the user types them (which = 0),
 * or their bench names (1) or tune names (2), as kiln_workload_bench_name writes them. Always
 * NUL-terminated, cut to len. */
void kiln_workload_list(unsigned kinds, int which, char *out, size_t len);
/* The launch parameters `kiln tune` sweeps for a kind of the workload: up to 4 axes written to
 * axes, their number returned (0 when the kind is not tunable). */
int kiln_workload_tune_axes(const kiln_workload *w, kiln_kind kind, kiln_tune_axis axes[4]);

/* A context holds the chosen device, CPU thread count, launch settings and the last error.
 * Returns NULL only when memory is exhausted. The device starts as "cpu". */
kiln_ctx *kiln_ctx_new(void);
void kiln_ctx_free(kiln_ctx *ctx);
const char *kiln_last_error(const kiln_ctx *ctx);

/* spec: "auto", "cpu", "cuda" (GPU 0), "cuda:N", a set "cuda:N,M,..." or "cuda:all" (see
 * kiln_ctx_device_count), and the same for OpenCL devices: "opencl" (device 0), "opencl:N",
 * "opencl:N,M,...", "opencl:all". A context runs on one backend. KILN_ERR_INPUT for an unknown
 * spec, KILN_ERR_DEVICE when a device asked for is absent. "auto" selects the first CUDA GPU when
 * there is one, else the CPU (never OpenCL: it is used only when asked for), and leaves each
 * workload to pick per call with kiln_ctx_pick. A workload the OpenCL backend has no kernel for
 * yet fails with KILN_ERR_DEVICE saying so. */
kiln_status kiln_ctx_set_device(kiln_ctx *ctx, const char *spec);
/* 1 when the device was given as "auto". */
int kiln_ctx_device_auto(const kiln_ctx *ctx);

/* Where work of `kind` and size `work` runs on this context: the one device policy of kiln.
 * A CPU context runs everything on the CPU. A GPU context given explicitly ("cuda", "cuda:N")
 * runs everything on its GPU, except the graph build (below). Under "auto", with a GPU present:
 *   search, KDF, tree, permutation: the GPU: these are compute or memory bound and a GPU is
 *     10x-100x a CPU on them once its context is up (PageRank likewise runs on the GPU);
 *   hash (work = bytes to hash): the GPU only from KILN_AUTO_HASH_GPU_BYTES: below that, reading
 *     the files and starting the GPU cost more than the CPU's hashing (20,000 files of 256 bytes:
 *     0.14 s on the CPU, 0.44 s through an H200 with its context start). `kiln hash` asks this
 *     before it batches files; kiln_hash_batch itself runs on the context's device.
 *   graph (work = edges of an edge list to turn into a CSR), on any GPU context: the GPU from
 *     KILN_GPU_CSR_MIN_EDGES edges; smaller lists are built on the CPU threads, faster than the
 *     copies. kiln_graph_load and kiln_graph_from_edges follow it; weighted edge lists
 *     (KILN_GRAPH_WEIGHTED) are always built on the CPU threads. */
#define KILN_AUTO_HASH_GPU_BYTES (UINT64_C(256) << 20)
#define KILN_GPU_CSR_MIN_EDGES (UINT64_C(1) << 22)
kiln_backend kiln_ctx_pick(const kiln_ctx *ctx, kiln_kind kind, uint64_t work);
kiln_backend kiln_ctx_backend(const kiln_ctx *ctx);
/* Human name of the selected device, e.g. "NVIDIA H200" or the CPU model. */
const char *kiln_ctx_device_name(const kiln_ctx *ctx);
/* How many devices the context runs on: the GPUs of its set, or 1 for the CPU. A set is written
 * "cuda:all" (every GPU), or "cuda:N,M,..." in kiln_ctx_set_device; work is split over them (a
 * search's nonces, a hash batch, a Merkle tree's aligned subtrees, PageRank's rows) and the
 * results are those of one device. An ordinal given twice ("cuda:0,0") makes two logical devices
 * on one GPU: a testing aid that runs the several-device paths (partitioning, exchange, merging)
 * on a host with one GPU. */
int kiln_ctx_device_count(const kiln_ctx *ctx);
/* The ordinal of the context's i-th device in its backend (cuda:N, opencl:N), or -1 (the CPU, or
 * i out of range). */
int kiln_ctx_device_ordinal(const kiln_ctx *ctx, int i);
/* CPU worker threads; 0 (the default) means one per online core. */
kiln_status kiln_ctx_set_threads(kiln_ctx *ctx, int threads);
int kiln_ctx_threads(const kiln_ctx *ctx);

/* Memory: before allocating for a size an input declares or grows to (a Matrix Market or CSR cache
 * header, an edge list, an RMAT scale, scrypt's N, r, p and threads), the library checks it against
 * the smallest of physical memory, ulimit -v, ulimit -d and this limit (0, the default: none), and
 * refuses with KILN_ERR_INPUT naming the bytes needed and the limit. kiln_memory_limit gives that
 * smallest limit (ctx may be NULL: the process's own). */
kiln_status kiln_ctx_set_memory_limit(kiln_ctx *ctx, uint64_t bytes);
uint64_t kiln_memory_limit(const kiln_ctx *ctx);

/* Interruption: long calls (hashing, Merkle trees, scrypt, PageRank, searches, benchmarks, file
 * loads and saves) call poll(user) at safe points, at least every ~100 ms of work, and when it
 * returns nonzero stop there and return KILN_STOPPED with the message "interrupted". Nothing
 * partial is returned as whole: an output file under way is removed and the old one kept. poll
 * runs on the calling thread or a worker thread, so it must only read a flag (a signal handler's
 * sig_atomic_t, an atomic). NULL removes it. */
typedef int (*kiln_interrupt_fn)(void *user);
void kiln_ctx_set_interrupt(kiln_ctx *ctx, kiln_interrupt_fn poll, void *user);

/* Progress: the same long calls report how far they have come, at the points where they read the
 * interrupt poll (never more often, and not at all without a hook): fn(user, p), where p->stage
 * names what runs, p->done and p->total count p->unit (total 0: not known ahead), and p->residual
 * is PageRank's L1 change over its last iteration (NaN where not known: every other stage, and a
 * GPU run with tol 0, which reads its state at the end only). The stages and their units:
 *   "hash" bytes             "permutation" states     "merkle" merges        "leaf check" leaves
 *   "scrypt" steps (2N ROMix steps a lane)            "pagerank" iterations  "scan" nonces
 *   "graph load" bytes (of the file as stored)        "rmat" edges           "csr build" passes
 *   "bench" runs (total 0 when it runs for a time)    "id map" passes
 *   "weights" passes (edges for RMAT's random weights)
 * done restarts from 0 when a stage starts again (PageRank's repeats, each bench). fn runs on the
 * calling thread or a worker thread but never twice at once (a report due while one is under way
 * is dropped); it must return quickly and must not call kiln with this context. p is valid during
 * the call only. NULL removes it. */
typedef struct kiln_progress {
    const char *stage, *unit;
    uint64_t done, total;
    double residual;
} kiln_progress;
typedef void (*kiln_progress_fn)(void *user, const kiln_progress *p);
void kiln_ctx_set_progress(kiln_ctx *ctx, kiln_progress_fn fn, void *user);

/* ---------------------------------------------------------------- devices */

typedef struct kiln_device_info {
    kiln_backend backend;
    int index; /* GPU ordinal (cuda:N, opencl:N); 0 for the CPU */
    char name[128];
    int units; /* CPU: online cores; CUDA: multiprocessors; OpenCL: compute units */
    int cc_major, cc_minor; /* CUDA: compute capability; OpenCL: the OpenCL version the device supports */
    uint64_t memory_bytes; /* GPU global memory; 0 for the CPU */
    char features[160]; /* CPU: its SIMD/SHA extensions, then the kernel each CPU
                        * dispatch chose ("sha256=sha-ni keccak=avx512 ..."), cut to fit (kiln_cpu_report
                        * gives it whole); GPU: empty */
    char platform[64]; /* OpenCL: the platform (driver family) the device belongs to; else empty */
    char driver[64]; /* OpenCL: the driver version; else empty */
} kiln_device_info;

/* The CPU's SIMD/SHA extensions and the kernel each CPU dispatch chose, kiln_device_info's
 * features whole, into out (n bytes, cut to fit, always terminated); returns its whole length. */
size_t kiln_cpu_report(char *out, size_t n);

/* Number of CUDA GPUs usable by this build (0 when built without CUDA or none present). */
int kiln_cuda_device_count(void);
/* Number of OpenCL devices of every platform installed (0 when built without OpenCL or none):
 * opencl:N numbers them in platform order. */
int kiln_opencl_device_count(void);
/* "cpu", "cuda" or "opencl": the backend's word in device specs. */
const char *kiln_backend_name(kiln_backend backend);
/* index 0 is the CPU, 1.. are the CUDA GPUs (cuda:0 is index 1), then the OpenCL devices
 * (opencl:0 is index 1 + kiln_cuda_device_count()): kiln_device_index gives it. */
kiln_status kiln_device_get(int index, kiln_device_info *out);
/* How many indices kiln_device_get has: the CPU, the CUDA GPUs and the OpenCL devices. */
int kiln_device_total(void);
/* The kiln_device_get index of GPU `ordinal` of backend (0 for the CPU, whatever the ordinal), or
 * -1 when the build or the host has no such device. */
int kiln_device_index(kiln_backend backend, int ordinal);

/* ---- device identity. Device specs are read by kiln_device_parse alone (kiln_ctx_set_device
 * calls it) and devices are named by kiln_device_spec alone, so that messages, the CLI and the
 * monitoring output name a device as a spec selects it. */
#define KILN_MAX_DEVICES 16 /* devices in one set */
typedef enum kiln_device_form {
    KILN_DEVICE_AUTO, /* "auto" */
    KILN_DEVICE_FIRST, /* "cpu", "cuda", "opencl": the backend's first device */
    KILN_DEVICE_ONE, /* "cuda:N", "opencl:N" */
    KILN_DEVICE_LIST, /* "cuda:N,M,...", "opencl:N,M,...": a set */
    KILN_DEVICE_ALL, /* "cuda:all", "opencl:all": a set of every device of the backend */
} kiln_device_form;
typedef struct kiln_device_set {
    kiln_device_form form; /* how the spec was written */
    kiln_backend backend; /* "auto" resolved: CUDA when it has a GPU here, else the CPU */
    int count; /* devices in the set: 1 for the CPU; for "B:all" the devices B has here (may be 0) */
    int ordinals[KILN_MAX_DEVICES]; /* the GPUs' ordinals in the order given (one may repeat) */
} kiln_device_set;
/* Reads spec (kiln_ctx_set_device's syntax) into *out. KILN_ERR_INPUT, with the message in ctx
 * (which may be NULL), for a spec that is not that syntax or lists more than KILN_MAX_DEVICES.
 * Whether the devices exist is kiln_ctx_set_device's to check. */
kiln_status kiln_device_parse(kiln_ctx *ctx, const char *spec, kiln_device_set *out);
/* The spec of one device into out (n bytes) and returns out: "cpu" (ordinal not used), "cuda:1",
 * "opencl:0". A context's i-th device is kiln_device_spec(kiln_ctx_backend(ctx),
 * kiln_ctx_device_ordinal(ctx, i), ...). */
const char *kiln_device_spec(kiln_backend backend, int ordinal, char *out, size_t n);

/* ---------------------------------------------------------------- device health */

/* Sensor readings of one device, index as for kiln_device_get (0 the CPU, 1.. the GPUs). GPUs are
 * read through NVML, the NVIDIA driver's management library, opened at run time (dlopen of
 * libnvidia-ml.so.1) on the first call: kiln neither links nor needs it. Without it, and for the
 * CPU, source is "unavailable" and every reading is absent (-1); a reading a device does not offer
 * (a passively cooled board has no fan) is -1 too. The GPU ordinal is taken as NVML's index, after
 * CUDA_VISIBLE_DEVICES when that lists indices.
 *
 * For tests without a GPU, KILN_HEALTH_FAKE names a file read on every call instead of NVML: lines
 * "INDEX key=value ..." with the keys temp, power, power_limit, sm_clock, mem_clock, fan and util;
 * a device with no line is "unavailable", one with a line has source "fake". KILN_OK, or
 * KILN_ERR_INPUT for a NULL out or a negative index. */
typedef struct kiln_health {
    char source[16]; /* "nvml", "fake" or "unavailable" */
    double temperature_c; /* the GPU die */
    double power_w, power_limit_w; /* drawn now; the enforced limit */
    int sm_clock_mhz, mem_clock_mhz;
    int fan_percent; /* of the fan's maximum speed */
    int utilization_percent; /* of the time a kernel ran over the last sample period */
} kiln_health;
kiln_status kiln_device_health(int index, kiln_health *out);
/* The kiln_device_get index of the context's device (of the first GPU of a GPU context). */
int kiln_ctx_device_index(const kiln_ctx *ctx);

/* ---------------------------------------------------------------- output files */

/* A file written whole or not at all. The data goes to a temporary file beside the target (in
 * the same directory, so that the final rename is atomic); it replaces the target only once every
 * write, the flush, fsync and close have succeeded. On any failure the temporary file is removed
 * and the target, if there was one, is left as it was: a reader never sees a cut file under the
 * final name, and a failed save never destroys the previous one. kiln writes every output file
 * it makes this way (CSR caches, the CLI's rank files and tuning cache). A symbolic link is
 * followed: the temporary file is made beside the file it leads to (or would create), and renamed
 * over that file, so the link stays a link and its file is replaced whole. A target that is not a
 * regular file (a device, a FIFO, a directory, a /proc link such as /dev/stdout) is written in
 * place, since nothing can be renamed over it. The temporary name (.NAME.kiln-XXXXXX) is cut to
 * fit the directory's longest name, so every name the target could have works. */
typedef struct kiln_output_file {
    FILE *fp; /* write here */
    const char *path; /* the target as named */
    char tmp[4096]; /* the temporary file beside it; empty when written in place */
    char target[4096]; /* the file renamed over: path, or the file its symbolic links lead to */
    int existed; /* the target was a regular file when opened */
    int finished; /* kiln_output_finish succeeded: tmp is complete and waits for its rename */
} kiln_output_file;

/* Creates the temporary file (mode 0644, or the target's mode when it exists). KILN_ERR_INPUT
 * naming the path and the reason when it cannot be created, or when the target's name could not
 * be renamed to in the end (a name longer than its directory's NAME_MAX, a path of PATH_MAX bytes
 * or more: "File name too long"), so that a caller learns it before any work. */
kiln_status kiln_output_open(kiln_ctx *ctx, const char *path, kiln_output_file *f);
/* Finishes the file: written says whether every write succeeded (write_errno the reason when
 * not). Renames it over the target, or removes it and returns KILN_ERR_DEVICE naming the first
 * failure's reason and what became of the target ("the file was left as it was" when there was
 * one, "no file was written" when there was none, "written in place" for a device or FIFO). A
 * writer that stops on an interrupt passes written = 0 and write_errno = EINTR; then, or when the
 * context's interrupt poll (kiln_ctx_set_interrupt) asks to stop by the time of the commit, the
 * file is removed the same way and KILN_STOPPED ("interrupted") returned.
 * = kiln_output_finish, then kiln_output_commit_all of this one file. */
kiln_status kiln_output_commit(kiln_ctx *ctx, kiln_output_file *f, int written, int write_errno);
/* The outputs of one run, committed together: kiln_output_finish flushes, syncs and closes each
 * (removing it on failure, as kiln_output_commit does), and kiln_output_commit_all then renames
 * every finished file over its target, or none when the interrupt poll asks to stop (KILN_STOPPED)
 * or one of them did not finish. A rename that fails (the directory changed under kiln) abandons
 * the rest and the message names the files already replaced. kiln_output_discard removes a file
 * that will not be committed (nothing when it was committed or never opened: call it freely on a
 * failure path after memset or kiln_output_open). */
kiln_status kiln_output_finish(kiln_ctx *ctx, kiln_output_file *f, int written, int write_errno);
kiln_status kiln_output_commit_all(kiln_ctx *ctx, kiln_output_file *const *files, int n);
void kiln_output_discard(kiln_output_file *f);

/* ---------------------------------------------------------------- hex helpers */

/* Decodes exactly `len` bytes from 2*len hex characters (either case). The whole string must be
 * consumed. KILN_ERR_INPUT with a message naming the length or the first bad character. */
kiln_status kiln_hex_decode(kiln_ctx *ctx, const char *hex, uint8_t *out, size_t len);
/* Writes 2*len lowercase hex characters and a NUL; reversed != 0 prints the bytes last-first
 * (Bitcoin display order). */
void kiln_hex_encode(const uint8_t *bytes, size_t len, int reversed, char *out);

/* ---------------------------------------------------------------- SHA-256 (FIPS 180-4) */

typedef struct kiln_sha256_stream {
    uint32_t state[8];
    uint64_t total; /* bytes absorbed */
    uint8_t block[64];
} kiln_sha256_stream;

void kiln_sha256_init(kiln_sha256_stream *s);
void kiln_sha256_update(kiln_sha256_stream *s, const void *data, size_t len);
void kiln_sha256_final(kiln_sha256_stream *s, uint8_t digest[32]);
void kiln_sha256(const void *data, size_t len, uint8_t digest[32]);
/* sha256(sha256(data)), raw digest bytes. */
void kiln_sha256d(const void *data, size_t len, uint8_t digest[32]);
/* Name of the compression function in use on this CPU: "sha-ni" or "portable". */
const char *kiln_sha256_impl(void);

/* ---------------------------------------------------------------- Keccak / SHA-3 (FIPS 202) */

/* A Keccak sponge over Keccak-f[1600]: `rate` bytes per block (a multiple of 8, 8..192; the
 * capacity is 200 - rate) and a domain byte that starts the padding: 0x06 for SHA3-*, 0x1F for
 * SHAKE*, 0x01 for the original Keccak-* (Ethereum's keccak256). Constant memory for any length. */
typedef struct kiln_keccak_stream {
    uint64_t state[25]; /* lane (x, y) at x + 5y; bytes little-endian within a lane */
    uint32_t rate; /* bytes per block */
    uint32_t pos; /* bytes absorbed into, or squeezed from, the current block */
    uint8_t domain;
    uint8_t squeezing; /* set by the first squeeze; absorbing is then refused */
} kiln_keccak_stream;

#define KILN_SHA3_DOMAIN 0x06
#define KILN_SHAKE_DOMAIN 0x1F
#define KILN_KECCAK_DOMAIN 0x01

/* KILN_ERR_INPUT for a rate that is not a multiple of 8 in 8..192 or a zero domain byte. */
kiln_status kiln_keccak_init(kiln_keccak_stream *s, unsigned rate, uint8_t domain);
/* KILN_ERR_INPUT once squeezing has started. */
kiln_status kiln_keccak_absorb(kiln_keccak_stream *s, const void *data, size_t len);
/* The first call pads; later calls continue the output stream (any lengths, as SHAKE needs). */
void kiln_keccak_squeeze(kiln_keccak_stream *s, void *out, size_t len);
/* Keccak-f[1600] on a bare state, in place. */
void kiln_keccak_permute(uint64_t state[25]);
/* Host permutation in use: "avx512" or "portable". */
const char *kiln_keccak_impl(void);

/* One-shot helpers. bits: 224, 256, 384 or 512 for SHA3 and Keccak (out holds bits/8 bytes),
 * 128 or 256 for SHAKE (outlen bytes, any length). KILN_ERR_INPUT for any other bits. */
kiln_status kiln_sha3(unsigned bits, const void *data, size_t len, uint8_t *out);
kiln_status kiln_keccak(unsigned bits, const void *data, size_t len, uint8_t *out);
kiln_status kiln_shake(unsigned bits, const void *data, size_t len, uint8_t *out, size_t outlen);

/* ---------------------------------------------------------------- hashing front end (kiln hash) */

typedef enum kiln_hash_algo {
    KILN_HASH_SHA256 = 0,
    KILN_HASH_SHA256D,
    KILN_HASH_SHA3_224,
    KILN_HASH_SHA3_256,
    KILN_HASH_SHA3_384,
    KILN_HASH_SHA3_512,
    KILN_HASH_SHAKE128,
    KILN_HASH_SHAKE256,
    KILN_HASH_KECCAK224,
    KILN_HASH_KECCAK256,
    KILN_HASH_KECCAK384,
    KILN_HASH_KECCAK512,
} kiln_hash_algo;
/* The ids run from 0 to kiln_hash_algo_count() - 1; the constants above name the first twelve,
 * later algorithms (sha512, sha384, sha512_256, ...) are found by name. The workload registry
 * lists them all. */
size_t kiln_hash_algo_count(void);

/* Names as the CLI spells them (kiln_workload_list(KILN_KIND_HASH, ...) lists them). */
kiln_status kiln_hash_algo_from_name(kiln_ctx *ctx, const char *name, kiln_hash_algo *algo);
const char *kiln_hash_algo_name(kiln_hash_algo algo);
/* The name in Python's hashlib ("sha3_256"), or NULL when hashlib has none. */
const char *kiln_hash_algo_hashlib_name(kiln_hash_algo algo);
/* Check-line tags ("SHA256 (file) = ..."): i = 0 the one --tag writes (coreutils' spelling), 1
 * another spelling that is read too (OpenSSL 3's "SHA2-256"); NULL when there is none. */
const char *kiln_hash_algo_tag(kiln_hash_algo algo, int i);
/* Default output bytes: the digest size; SHAKE128 32, SHAKE256 64 (twice the security level). */
size_t kiln_hash_digest_len(kiln_hash_algo algo);
/* Bytes a compression or permutation takes in: hashlib's block_size (64 for the SHA-256 family,
 * 128 for SHA-512's, the sponge's rate for Keccak), which HMAC pads its key to. */
size_t kiln_hash_block_len(kiln_hash_algo algo);
/* 1 for SHAKE (any output length), else 0. */
int kiln_hash_is_xof(kiln_hash_algo algo);
/* Keccak parameters of an algorithm (0 for the SHA-256 family). */
unsigned kiln_hash_rate(kiln_hash_algo algo);
uint8_t kiln_hash_domain(kiln_hash_algo algo);

/* Streaming hash of any algorithm, constant memory. */
typedef struct kiln_hash_stream {
    kiln_hash_algo algo;
    size_t out_len; /* the digest length this stream was set up for (kiln_hash_init_params) */
    union {
        kiln_sha256_stream sha256;
        kiln_keccak_stream keccak;
        uint64_t state[256]; /* room for every other family's state (BLAKE3's chaining-value stack
                                sets the size), which is private */
    } u;
} kiln_hash_stream;

/* What keyed and parameterized hashes take beyond the message, as Python's hashlib takes it:
 * BLAKE2's parameter block (RFC 7693 section 2.8) and BLAKE3's key or derive-key context. A zero
 * field is the algorithm's default; an algorithm that takes none of them refuses any that is set
 * (KILN_ERR_INPUT, as it refuses a length or size outside its range). */
typedef struct kiln_hash_params {
    size_t digest_len; /* BLAKE2: 1..64 (b) or 1..32 (s) bytes; 0 = the default */
    const uint8_t *key; /* BLAKE2: up to 64 (b) or 32 (s) bytes; BLAKE3 keyed hashing: exactly 32 */
    size_t key_len;
    const uint8_t *salt; /* BLAKE2: up to 16 (b) or 8 (s) bytes */
    size_t salt_len;
    const uint8_t *person; /* BLAKE2's personalization: up to 16 (b) or 8 (s) bytes */
    size_t person_len;
    const char *context; /* BLAKE3 derive_key: the context string (context_len bytes) */
    size_t context_len;
    /* BLAKE2's tree hashing, read only when tree is nonzero (sequential hashing otherwise: fanout
     * and depth 1, the rest 0) */
    int tree;
    unsigned fanout, depth; /* 0..255 (fanout 0: unlimited), 1..255 */
    uint32_t leaf_size;
    uint64_t node_offset; /* up to 2^48 - 1 for blake2s */
    unsigned node_depth, inner_size; /* 0..255; inner_size up to the largest digest (64 or 32), as hashlib */
    int last_node;
} kiln_hash_params;

kiln_status kiln_hash_init(kiln_hash_stream *s, kiln_hash_algo algo);
/* kiln_hash_init with parameters; p NULL is kiln_hash_init. */
kiln_status kiln_hash_init_params(kiln_hash_stream *s, kiln_hash_algo algo, const kiln_hash_params *p);
kiln_status kiln_hash_update(kiln_hash_stream *s, const void *data, size_t len);
/* outlen must be the stream's digest length (the algorithm's, or the params' digest_len), or any
 * length >= 1 for an extendable-output function (SHAKE, BLAKE3). */
kiln_status kiln_hash_final(kiln_hash_stream *s, uint8_t *out, size_t outlen);
kiln_status kiln_hash(kiln_hash_algo algo, const void *data, size_t len, uint8_t *out, size_t outlen);

/* Many messages in one call on the context's device. Message i is data[offsets[i] ..
 * offsets[i+1]) (offsets: n+1 nondecreasing entries: the messages lie back to back);
 * digest i is written to out + i*outlen. On a GPU, the results of a pseudo-random sample (all of
 * a batch of up to 256 messages; else up to 256 messages and about 1/64 of the bytes, the first
 * and last messages included) are recomputed on the CPU; a mismatch is KILN_ERR_DEVICE. */
kiln_status kiln_hash_batch(kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *data, const uint64_t *offsets,
                            size_t n, uint8_t *out, size_t outlen);
/* The same for n messages of msg_len bytes each, back to back. */
kiln_status kiln_hash_batch_fixed(kiln_ctx *ctx, kiln_hash_algo algo, const uint8_t *data, size_t msg_len,
                                  size_t n, uint8_t *out, size_t outlen);

/* Raw Keccak-f[1600] on n states (25 lanes each, back to back), in place. The GPU layouts are
 * one thread per state with the specification's loops, one thread per state fully unrolled with
 * the state in registers, or 25 threads per state (one lane each).
 * AUTO picks the fastest measured (unrolled); the CPU ignores the layout. */
typedef enum kiln_keccak_layout {
    KILN_KECCAK_LAYOUT_AUTO = 0,
    KILN_KECCAK_LAYOUT_THREAD,
    KILN_KECCAK_LAYOUT_UNROLLED,
    KILN_KECCAK_LAYOUT_LANE,
} kiln_keccak_layout;

kiln_status kiln_keccak_layout_from_name(kiln_ctx *ctx, const char *name, kiln_keccak_layout *layout);
const char *kiln_keccak_layout_name(kiln_keccak_layout layout);
kiln_status kiln_keccak_f1600_batch(kiln_ctx *ctx, uint64_t *states, size_t n, kiln_keccak_layout layout);

/* Throughput on the context's device for about `seconds`: the median of several passes after a
 * warm-up. Hashes (*rate in hashes per second): messages of msg_len bytes, one after the other
 * per CPU thread; on a GPU a batch resident in device memory (generated there) timed with events
 * around the kernel alone, which reads the messages, hashes them and writes the digests (no
 * host transfers). Permutations (*rate in permutations per second): a resident batch of states,
 * each read and written once per permutation. Every GPU figure is backed by a CPU re-check of
 * sampled results. */
#define KILN_BENCH_OFFSETS 1 /* hashes: read an offsets array as kiln_hash_batch does (default: fixed length) */
#define KILN_BENCH_IN_REGISTERS 2 /* permutations: 16 permutations per state load and store */
kiln_status kiln_bench_hash(kiln_ctx *ctx, kiln_hash_algo algo, size_t msg_len, int flags, double seconds,
                            double *rate);
kiln_status kiln_bench_keccak_f1600(kiln_ctx *ctx, kiln_keccak_layout layout, int flags, double seconds, double *rate);

/* ---------------------------------------------------------------- Bitcoin headers and targets */

#define KILN_HEADER_SIZE 80

/* 160 hex characters, serialized order (as `bitcoin-cli getblockheader <hash> false`). */
kiln_status kiln_header_from_hex(kiln_ctx *ctx, const char *hex, uint8_t header[KILN_HEADER_SIZE]);
uint32_t kiln_header_version(const uint8_t header[KILN_HEADER_SIZE]);
uint32_t kiln_header_time(const uint8_t header[KILN_HEADER_SIZE]);
uint32_t kiln_header_bits(const uint8_t header[KILN_HEADER_SIZE]);
uint32_t kiln_header_nonce(const uint8_t header[KILN_HEADER_SIZE]);
void kiln_header_set_nonce(uint8_t header[KILN_HEADER_SIZE], uint32_t nonce);
/* sha256d of the header, raw digest bytes (print it reversed for the block hash). */
void kiln_header_hash(const uint8_t header[KILN_HEADER_SIZE], uint8_t hash[32]);

/* 8 hex digits, the compact nBits as printed (e.g. "1d00ffff"). */
kiln_status kiln_bits_from_hex(kiln_ctx *ctx, const char *hex, uint32_t *bits);
/* Compact nBits -> 256-bit target under the consensus rules: a set sign bit with a nonzero
 * mantissa, or a value that overflows 256 bits, is an error; so is a zero mantissa (a zero
 * target, which no hash can be expected to meet). */
kiln_status kiln_target_from_bits(kiln_ctx *ctx, uint32_t bits, uint8_t target[32]);
/* 64 hex digits, most significant first (as block explorers print targets); an all-zero target is
 * KILN_ERR_INPUT, as a zero nBits is. */
kiln_status kiln_target_from_hex(kiln_ctx *ctx, const char *hex, uint8_t target[32]);
/* 1 when hash (little-endian 256-bit number) <= target, else 0. */
int kiln_hash_meets_target(const uint8_t hash[32], const uint8_t target[32]);

/* ---------------------------------------------------------------- nonce search (mining) */

typedef enum kiln_algo {
    KILN_ALGO_SHA256D = 0,
    KILN_ALGO_SCRYPT = 1, /* Litecoin: scrypt(header, header, N=1024, r=1, p=1, 32 bytes) */
} kiln_algo;

/* Pool difficulty (Stratum mining.set_difficulty) -> share target. The difficulty-1 target is
 * part of the algorithm: sha256d 0x00000000ffff0000...0 (nBits 1d00ffff, as Bitcoin's
 * getdifficulty); scrypt pools use one 65536 times larger (0x0000ffff00...0). KILN_ERR_INPUT for
 * an unknown algorithm. */
kiln_status kiln_algo_diff1_target(kiln_algo algo, uint8_t target[32]);
/* target = floor(diff1 / difficulty), exact for any double (fractional difficulties too),
 * clamped to 2^256 - 1. KILN_ERR_INPUT unless difficulty is finite and > 0. */
kiln_status kiln_target_from_difficulty(kiln_ctx *ctx, kiln_algo algo, double difficulty, uint8_t target[32]);

/* The algorithm's proof-of-work hash of a header (sha256d: the header's sha256d), raw bytes that
 * are compared with targets as a little-endian number. KILN_ERR_INPUT for an unknown algorithm. */
kiln_status kiln_pow_hash(kiln_algo algo, const uint8_t header[KILN_HEADER_SIZE], uint8_t hash[32]);
/* Parses "sha256d" or "scrypt"; KILN_ERR_INPUT names the unknown algorithm. */
kiln_status kiln_algo_from_name(kiln_ctx *ctx, const char *name, kiln_algo *algo);
const char *kiln_algo_name(kiln_algo algo);

typedef struct kiln_scan_job {
    kiln_algo algo;
    uint8_t header[KILN_HEADER_SIZE]; /* the nonce bytes are ignored */
    uint8_t target[32];
    uint64_t start; /* first nonce */
    uint64_t count; /* number of nonces; start + count <= 2^32 */
    int find_all; /* 0: stop after the launch holding the first hit (its lowest nonce) */
    /* Called for each verified nonce, ascending within a launch. Nonzero return stops the scan. */
    int (*on_found)(void *user, uint32_t nonce, const uint8_t hash[32]);
    /* Called after each launch with the nonces done so far. Nonzero return stops the scan. */
    int (*on_progress)(void *user, uint64_t done, uint64_t total);
    void *user;
} kiln_scan_job;

typedef struct kiln_scan_result {
    uint64_t hashes; /* nonces tried */
    uint64_t found; /* verified nonces reported through on_found */
    uint64_t false_candidates; /* device candidates the CPU re-check rejected (0 on a sane GPU) */
    double seconds;
} kiln_scan_result;

/* Searches [start, start+count) on the context's device. Every nonce reported has been
 * recomputed on the CPU. KILN_OK when at least one nonce was found and the range or the first
 * hit ended the scan, KILN_NOT_FOUND when the range was exhausted without one, KILN_STOPPED when
 * a callback or the context's interrupt poll stopped it (the latter with the message
 * "interrupted"). A stop comes at a launch boundary (launches last about 50 ms, 0.3 s for scrypt
 * on a GPU): result counts the launches done and their nonces (found may be nonzero). */
kiln_status kiln_scan(kiln_ctx *ctx, const kiln_scan_job *job, kiln_scan_result *result);

/* One device's part of a search (kiln_scan_devices). */
typedef struct kiln_scan_device {
    int ordinal; /* kiln_ctx_device_ordinal: the CUDA ordinal, -1 for the CPU */
    uint64_t hashes; /* nonces this device searched */
    double seconds; /* its busy time: the wall time of its own launches on a device set; on a context
                     * of one device (a GPU or the CPU) the search's time so far */
} kiln_scan_device;

/* kiln_scan, and each device's part of it: devices[i] is the context's i-th device, and ndevices
 * must be at least kiln_ctx_device_count(ctx) (else KILN_ERR_INPUT). The entries are zeroed when
 * the search starts and brought up to date after each launch, before on_progress runs, so the
 * callback may read them (on the calling thread). Their hashes sum to result->hashes; a device's
 * rate is its hashes over its seconds. A context of one device has one entry equal to the total.
 * kiln_scan is this call with devices NULL. */
kiln_status kiln_scan_devices(kiln_ctx *ctx, const kiln_scan_job *job, kiln_scan_result *result,
                              kiln_scan_device *devices, int ndevices);

/* GPU launch shape: threads per block and nonces per thread.
 * Values of 0 mean "the built-in default". Ignored by the CPU backend.
 * scrypt: a thread (or quad) hashes one nonce with its own scratchpad, and items_per_thread is the
 * number of waves of resident hashes per launch (hashes per launch = that x resident hashes). */
typedef struct kiln_launch {
    int threads_per_block;
    int items_per_thread;
} kiln_launch;

kiln_status kiln_ctx_set_launch(kiln_ctx *ctx, kiln_algo algo, kiln_launch launch);
kiln_launch kiln_ctx_launch(const kiln_ctx *ctx, kiln_algo algo);

/* Measures the search rate (hashes per second) on the context's device for about `seconds`,
 * with a target nothing meets. */
kiln_status kiln_bench_scan(kiln_ctx *ctx, kiln_algo algo, double seconds, double *rate);

/* ---------------------------------------------------------------- scrypt (RFC 7914) */

typedef struct kiln_scrypt_params {
    uint64_t N; /* CPU/memory cost: a power of two > 1 and < 2^(16r) */
    uint32_t r; /* block size, >= 1 */
    uint32_t p; /* parallelization, 1 <= p <= (2^32 - 1) * 32 / (128 r) */
} kiln_scrypt_params;

/* KILN_ERR_INPUT naming the problem when the parameters or out_len (1 .. (2^32 - 1) * 32) are
 * outside RFC 7914's limits, or when the scratchpads kiln_scrypt holds at once on this context do
 * not fit in the memory limit (kiln_memory_limit): one of 128 * r * N bytes per thread, min(p, threads) threads
 * (the message names the most threads that fit), or when they, B (128 * r * p bytes) and the out_len
 * bytes of output together do not. Set the context's threads first. kiln_scrypt polls the
 * interrupt in ROMix and in both PBKDF2 passes (every 1024 output blocks). */
kiln_status kiln_scrypt_check(kiln_ctx *ctx, kiln_scrypt_params params, size_t out_len);

/* scrypt(password, salt, N, r, p, out_len) on the CPU, the p lanes spread over the context's
 * threads. */
kiln_status kiln_scrypt(kiln_ctx *ctx, const void *password, size_t password_len, const void *salt, size_t salt_len,
                        kiln_scrypt_params params, uint8_t *out, size_t out_len);

typedef struct kiln_scrypt_input {
    const void *password;
    size_t password_len;
    const void *salt;
    size_t salt_len;
} kiln_scrypt_input;

/* Many passwords with their salts under one (N, r, p) on the context's device: out receives
 * count * out_len bytes, item i at out + i * out_len. GPU results are spot-checked against the
 * CPU before they are returned. */
kiln_status kiln_scrypt_batch(kiln_ctx *ctx, const kiln_scrypt_input *inputs, size_t count,
                              kiln_scrypt_params params, uint8_t *out, size_t out_len);

/* How the GPU lays out one scrypt hash; 0 fields mean the built-in default. */
typedef struct kiln_scrypt_shape {
    int threads_per_hash; /* 1: one hash per thread; 4: four threads exchanging state by warp shuffles */
    int lookup_gap; /* 1, 2, 4, 8, 16: keep every k-th scratchpad entry, recompute the others when read */
} kiln_scrypt_shape;

/* Shape of the Litecoin search (threads per block and hashes per thread are its kiln_launch). */
kiln_status kiln_ctx_set_scrypt_shape(kiln_ctx *ctx, kiln_scrypt_shape shape);
kiln_scrypt_shape kiln_ctx_scrypt_shape(const kiln_ctx *ctx);
/* Launch of the GPU batch KDF: threads per block and lookup gap (threads_per_hash must be 0 or 4;
 * a gap of 0 picks the gap with the most resident lanes per unit of work). On CUDA with r = 1, 2,
 * 4 or 8, items_per_thread picks the ROMix kernel: 1 the state in registers, 2 the second loop in
 * per-quad steps with X in shared memory, 0 the device's choice (2 at r = 8, else 1); threads per
 * block 0: 256 with kernel 2, else 128 (docs/SCRYPT.md). */
kiln_status kiln_ctx_set_scrypt_kdf_launch(kiln_ctx *ctx, kiln_launch launch, kiln_scrypt_shape shape);
void kiln_ctx_scrypt_kdf_launch(const kiln_ctx *ctx, kiln_launch *launch, kiln_scrypt_shape *shape);

/* Batch KDF rate (password hashes per second) on the context's device for about `seconds`. */
kiln_status kiln_bench_scrypt_kdf(kiln_ctx *ctx, kiln_scrypt_params params, double seconds, double *rate);

/* ---------------------------------------------------------------- HMAC and PBKDF2 (SHA-256) */

void kiln_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len, uint8_t mac[32]);
/* PBKDF2-HMAC-SHA256 (RFC 8018); KILN_ERR_INPUT when c is 0 or out_len is 0 or > (2^32 - 1) * 32;
 * KILN_STOPPED when the context's interrupt poll asks to stop (polled every 1024 output blocks and
 * every 65536 iterations). */
kiln_status kiln_pbkdf2_sha256(kiln_ctx *ctx, const void *password, size_t password_len, const void *salt,
                               size_t salt_len, uint64_t c, uint8_t *out, size_t out_len);

/* Known-answer checks of every algorithm on the context's device. On failure the message names
 * the first check that failed. */
kiln_status kiln_selftest(kiln_ctx *ctx);

/* ---------------------------------------------------------------- graphs and PageRank */

/* A directed graph held as the CSR of its in-edges (row v lists the sources u of the edges u->v,
 * ascending), the out-degree of every vertex and the original id of every vertex. Vertices are
 * numbered 0..nodes-1 internally; edge lists keep the ids that appear in them, sorted ascending
 * (so index i is the i-th smallest id), Matrix Market files the 1-based row/column numbers.
 *
 * Edge policy: duplicate edges are merged into one (a simple digraph, as a NetworkX DiGraph
 * built from the list); self loops are kept as edges (they count in the out-degree, as NetworkX
 * keeps them) unless KILN_GRAPH_DROP_SELF_LOOPS is given. The RMAT generator always drops both,
 * as Graph500 does. The counts removed are reported in the info. */
typedef struct kiln_graph kiln_graph;

typedef enum kiln_graph_format {
    KILN_GRAPH_AUTO = 0, /* by content: kiln CSR cache, "%%MatrixMarket" header, else SNAP */
    KILN_GRAPH_SNAP = 1, /* "src dst" per line ("src dst [weight]" weighted), '#' comments, LF or CRLF */
    KILN_GRAPH_MTX = 2, /* Matrix Market coordinate, pattern/integer/real, general/symmetric */
    KILN_GRAPH_CSR = 3, /* kiln's binary CSR cache (kiln_graph_save_csr) */
} kiln_graph_format;

#define KILN_GRAPH_UNDIRECTED 1u /* every edge u v is also taken as v u */
#define KILN_GRAPH_DROP_SELF_LOOPS 2u
/* Keep edge weights: the third column of a SNAP line ("src dst weight", decimal or exponent
 * notation; a line without one weighs 1, as an edge without a weight attribute does in NetworkX;
 * without this flag a third column is an error), the values of a `real` or `integer` Matrix
 * Market file (a `pattern` file weighs 1 per entry; a `symmetric` entry weighs the same both ways,
 * a diagonal one once; without this flag the values are checked and ignored), random weights in
 * (0, 1] for RMAT (below). Weights must be finite and >= 0 (else KILN_ERR_INPUT
 * "PATH:LINE: ..."); numbers are read in the C locale whatever the program's. Duplicate edges sum
 * their weights (as NetworkX's matrix of a multigraph does), in ascending order of weight so the
 * result does not depend on the threads. With KILN_GRAPH_UNDIRECTED an edge u v w is u->v and
 * v->u, each weighing w, and a self loop u->u weighs w once (NetworkX's Graph.to_directed gives one
 * u->u edge). A vertex whose out-weights sum to 0 is dangling (info.dangling counts those).
 * Weighted edge lists are built into the CSR on the CPU threads, also on a GPU context.
 * RMAT weights are a function of the final graph, assigned after its CSR is built on either
 * device, so other tools can rebuild them: with splitmix64(x) = z ^ (z >> 31) where, modulo 2^64,
 * z0 = x + 0x9E3779B97F4A7C15, z1 = (z0 ^ (z0 >> 30)) * 0xBF58476D1CE4E5B9 and
 * z = (z1 ^ (z1 >> 27)) * 0x94D049BB133111EB, edge u->v (vertex labels as kiln_graph_node_id
 * gives them) weighs ((splitmix64(splitmix64(2 * seed + 3) + (u << 32 | v)) >> 11) + 1) / 2^53,
 * with u and v swapped when the graph is undirected and u > v (both directions weigh the same).
 * Without this flag weights are ignored and every edge weighs 1. */
#define KILN_GRAPH_WEIGHTED 4u

typedef struct kiln_graph_info {
    uint64_t nodes;
    uint64_t edges; /* in the CSR, after the policy above */
    uint64_t edges_read; /* as read or generated (doubled when undirected) */
    uint64_t self_loops_removed;
    uint64_t duplicates_removed;
    uint64_t self_loops; /* kept in the CSR */
    uint64_t dangling; /* vertices with out-degree 0 (weighted graphs: out-weight 0) */
    uint64_t max_in_degree, max_out_degree;
    double build_seconds; /* edge list -> CSR (or generation + CSR), not parsing */
    int built_on_gpu;
} kiln_graph_info;

/* Reads a graph file, or standard input when path is "-", in one pass from its start, so pipes
 * and FIFOs work (gzip-compressed too when kiln has zlib). Malformed input gives
 * KILN_ERR_INPUT with a message "PATH:LINE: what is wrong". flags: KILN_GRAPH_*. On a context
 * whose device is a GPU, large unweighted edge lists are turned into the CSR there (CUB radix
 * sort). */
kiln_status kiln_graph_load(kiln_ctx *ctx, const char *path, kiln_graph_format format, unsigned flags,
                            kiln_graph **out);
/* A graph from an edge list given as original ids (src[i] -> dst[i]); with KILN_GRAPH_WEIGHTED
 * every edge weighs 1. */
kiln_status kiln_graph_from_edges(kiln_ctx *ctx, const uint64_t *src, const uint64_t *dst, size_t count,
                                  unsigned flags, kiln_graph **out);
/* Graph500 Kronecker/RMAT graph: 2^scale vertices, edge_factor * 2^scale generated edges,
 * initiator A=0.57 B=0.19 C=0.19 D=0.05, vertex labels randomly permuted, deterministic in seed
 * (edge e, level l draws splitmix64(base + 64e + l)), so any tool that follows that rule can
 * rebuild the same graph for the same seed. Self loops and duplicates removed. Generated on the context's GPU
 * when it has one, else on the CPU threads. Vertex ids are 0..2^scale-1. */
kiln_status kiln_graph_rmat(kiln_ctx *ctx, int scale, int edge_factor, uint64_t seed, unsigned flags,
                            kiln_graph **out);
/* Writes the binary CSR cache (versioned, checksummed), with the graph's weights when it has them;
 * kiln_graph_load reads it back: with no flags as an unweighted graph, with KILN_GRAPH_WEIGHTED
 * (and no other flag) with its weights, which it must have. Caches of older versions are refused
 * with a request to rebuild them. */
kiln_status kiln_graph_save_csr(kiln_ctx *ctx, const kiln_graph *g, const char *path);
/* The same cache written into an output file opened with kiln_output_open, and finished
 * (kiln_output_finish) but not renamed: a caller with several outputs of one run commits them
 * together with kiln_output_commit_all. On failure the file is removed. */
kiln_status kiln_graph_write_csr(kiln_ctx *ctx, const kiln_graph *g, kiln_output_file *out);
void kiln_graph_free(kiln_graph *g);
void kiln_graph_get_info(const kiln_graph *g, kiln_graph_info *info);
/* Original id of internal vertex index. */
uint64_t kiln_graph_node_id(const kiln_graph *g, uint64_t index);
/* Internal index of original id `id`: KILN_OK, or KILN_NOT_FOUND when the graph has no such node. */
kiln_status kiln_graph_find_node(const kiln_graph *g, uint64_t id, uint64_t *index);
/* A weighted graph from an edge list: weight[i] of src[i] -> dst[i] (flags as kiln_graph_load;
 * KILN_GRAPH_WEIGHTED is implied, and its policy applies). A weight that is not finite and >= 0 is
 * KILN_ERR_INPUT naming its index. */
kiln_status kiln_graph_from_weighted_edges(kiln_ctx *ctx, const uint64_t *src, const uint64_t *dst, const double *weight,
                                           size_t count, unsigned flags, kiln_graph **out);
/* A graph of exactly `nodes` vertices whose ids are 0..nodes-1 (kiln_graph_node_id(g, i) == i),
 * from edges src[i] -> dst[i] over those ids: an id no edge names is a vertex too, isolated and
 * dangling, as a NetworkX node without edges. weight NULL: unweighted (with KILN_GRAPH_WEIGHTED
 * every edge weighs 1), else one per edge (KILN_GRAPH_WEIGHTED implied, its policy applies).
 * count may be 0. KILN_ERR_INPUT naming the edge for an id >= nodes or a weight that is not
 * finite and >= 0; nodes must be 1 .. 2^32 - 1. */
kiln_status kiln_graph_from_edges_n(kiln_ctx *ctx, const uint64_t *src, const uint64_t *dst, const double *weight,
                                    size_t count, uint64_t nodes, unsigned flags, kiln_graph **out);
/* The weight of each CSR edge, aligned with kiln_graph_csr's sources (duplicates summed), or NULL
 * for a graph without weights. */
const double *kiln_graph_edge_weights(const kiln_graph *g);
/* Read-only view of the CSR: offsets[nodes+1], sources[edges], out_degree[nodes]. */
void kiln_graph_csr(const kiln_graph *g, const uint64_t **offsets, const uint32_t **sources,
                    const uint32_t **out_degree);

typedef enum kiln_precision {
    KILN_PRECISION_AUTO = 0, /* float64 on the CPU, float32 ranks on a GPU */
    KILN_PRECISION_FLOAT32 = 1, /* ranks stored in float32 (the CPU: the y vector, sums in
                                 * float64; a GPU: global sums stay float64) */
    KILN_PRECISION_FLOAT64 = 2,
} kiln_precision;

/* The GPU iteration kernel (kiln_pagerank_options.kernel). */
typedef enum kiln_pagerank_kernel {
    /* the persistent kernel where the graph's blocks all fit on the chip at once, else the grid
     * kernel */
    KILN_PR_KERNEL_AUTO = 0,
    KILN_PR_KERNEL_GRID = 1, /* one launch an iteration over the whole chip */
    /* 2 was the experimental thread-block cluster kernel, slower than the grid kernel wherever
     * it was measured and removed (docs/PAGERANK.md); asked for, it is refused as unknown */
    /* reported, not asked for: the row-part pass of a device set or of a process under MPI,
     * which works in the graph's own vertex order so the parts can exchange their slices */
    KILN_PR_KERNEL_PARTS = 3,
    /* the grid kernel's blocks kept resident: one cooperative launch runs many iterations, a
     * grid-wide barrier after each, so a small graph pays no launch an iteration. Needs the
     * relabelled layout, cooperative launch (CUDA) and a graph whose blocks all fit on the chip
     * at once (about 2 M edges on an H100); asked for where it cannot run: KILN_ERR_INPUT naming
     * why */
    KILN_PR_KERNEL_PERSISTENT = 4,
} kiln_pagerank_kernel;

/* PageRank's parameters, one struct for every entry point (the library checks it and hands it on,
 * its vectors normalized, to the CPU and GPU code). */
typedef struct kiln_pagerank_options {
    double damping; /* d in [0, 1) */
    double tol; /* stop when sum |x_k - x_{k-1}| < nodes * tol; 0 runs max_iter iterations */
    int max_iter; /* 1..KILN_PAGERANK_MAX_ITER_LIMIT */
    kiln_precision precision;
    int reorder; /* GPU: relabel vertices by descending in-degree for locality (1, default) */
    kiln_pagerank_kernel kernel; /* GPU: which iteration kernel (default auto) */
    int repeat; /* benchmarking: run the iteration loop this many times from x0 and report the
                   median time (0 or 1: once) */
    /* NetworkX's optional vectors, over internal vertex indices (kiln_graph_find_node maps
     * original ids), each `nodes` values, finite and >= 0, normalized here to sum 1 (all zero:
     * KILN_ERR_INPUT), or NULL:
     *   personalization  the teleport distribution (NULL: uniform)
     *   nstart           the starting vector (NULL: uniform)
     *   dangling         where the rank of dangling vertices goes (NULL: the personalization)
     * A graph with edge weights (KILN_GRAPH_WEIGHTED) is always ranked by them. */
    const double *personalization;
    const double *nstart;
    const double *dangling;
} kiln_pagerank_options;

/* PageRank's defaults (NetworkX's), written once: kiln_pagerank_options_init sets them, and the
 * command line's help and every layer below read these names. */
#define KILN_PAGERANK_DAMPING_DEFAULT 0.85
#define KILN_PAGERANK_TOL_DEFAULT 1e-6
#define KILN_PAGERANK_MAX_ITER_DEFAULT 100
#define KILN_PAGERANK_MAX_ITER_LIMIT 100000000 /* the most iterations kiln_pagerank accepts */

/* The defaults above, precision auto, reorder 1, kernel auto, no vectors. */
void kiln_pagerank_options_init(kiln_pagerank_options *opt);

/* How the rank slices of PageRank's parts travel between them each pass. */
typedef enum kiln_pr_exchange {
    KILN_PR_EXCHANGE_NONE = 0, /* one part: nothing to exchange */
    KILN_PR_EXCHANGE_PEER = 1, /* peer copies between the devices of a set (cudaMemcpyPeerAsync) */
    KILN_PR_EXCHANGE_HOST = 2, /* through host memory: MPI (processes under mpirun), or an OpenCL set */
    KILN_PR_EXCHANGE_NCCL = 3, /* NCCL broadcasts device to device (NVLink, PCIe or the network) */
} kiln_pr_exchange;

#define KILN_PR_MAX_PARTS 16 /* the parts whose figures a kiln_pagerank_result keeps */

typedef struct kiln_pagerank_result {
    int iterations;
    int converged;
    double residual; /* sum |x_k - x_{k-1}| of the last iteration */
    double seconds; /* the iteration loop (device events on a GPU; the median of `repeat` runs) */
    double seconds_per_iteration;
    double edges_per_second; /* edges * iterations / seconds */
    double setup_seconds; /* upload, relabelling, buffers */
    double verify_residual; /* GPU: L1 change of one float64 CPU iteration from its result */
    kiln_precision precision; /* the one used */
    kiln_pagerank_kernel kernel; /* GPU: the kernel that ran (CPU: auto) */
    /* Of `seconds`, the time spent sharing the new rank slices between the devices of a set (the
     * slowest device's peer copies, device events) or between processes (this process's staging
     * and MPI exchange, waiting for the others included); 0 on one device. */
    double exchange_seconds;
    kiln_pr_exchange exchange;
    /* GPU parts (a device set, or every process under MPI, reported by each): how many, and
     * for the first KILN_PR_MAX_PARTS of them the in-edges each holds and the most memory its
     * GPU was seen using, building the graph and setting the part up (cudaMemGetInfo, the CUDA
     * context and anything else on that GPU included); 0 parts otherwise. */
    int parts;
    uint64_t part_edges[KILN_PR_MAX_PARTS];
    uint64_t part_peak_bytes[KILN_PR_MAX_PARTS];
} kiln_pagerank_result;

/* PageRank as NetworkX defines it (nx.pagerank with weight, personalization, dangling, nstart):
 * x <- d * (A^T y + D * q) + (1 - d) * p from x0, with y[u] = x[u] / W_u, W_u the sum of u's
 * out-edge weights (its out-degree without weights), A^T y summing w(u,v) * y[u] over v's
 * in-edges, D the sum of x over the dangling vertices (W_u = 0), p the personalization, q the
 * dangling vector, x0 nstart (each uniform when NULL, q = p when NULL). Without weights and
 * vectors: uniform teleport, dangling rank spread uniformly, as igraph and cuGraph also define it.
 * A bad vector (a value negative or not finite, or all zero) is KILN_ERR_INPUT naming it.
 * ranks[nodes] receives the result in internal order (sums to 1).
 * KILN_OK when converged (or tol == 0 and max_iter iterations ran), KILN_NOT_FOUND when tol > 0
 * and max_iter iterations did not reach it (ranks hold the last iterate). A GPU result is
 * checked by one float64 CPU iteration before it is returned (KILN_ERR_DEVICE if it fails). */
kiln_status kiln_pagerank(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt, double *ranks,
                          kiln_pagerank_result *result);
/* ---------------------------------------------------------------- PageRank across processes (MPI) */

/* PageRank over processes started by an MPI launcher (mpirun, mpiexec, srun): each process holds
 * the in-edges of its slice of the destination vertices (balanced by edges) and a full rank
 * vector; every iteration the slices are exchanged and the sums reduced through MPI, giving the
 * ranks of kiln_pagerank on the whole graph. The handle hides MPI: this header needs no mpi.h.
 * A kiln built without MPI has every function below, refusing with KILN_ERR_DEVICE. The calls
 * taking a kiln_dist are collective: every process makes them, in the same order; a failure on
 * any process makes each return the failing status, with that process's message. */
typedef struct kiln_dist kiln_dist;

/* Nonzero when kiln has MPI and its environment says an MPI launcher started this process
 * (Open MPI's OMPI_COMM_WORLD_SIZE, PMI_SIZE / PMI_RANK, PMIX_RANK): only then need MPI be
 * started; otherwise kiln never touches it. */
int kiln_dist_launched(void);
/* Starts MPI (once per process) and joins its processes. */
kiln_status kiln_dist_open(kiln_ctx *ctx, kiln_dist **out);
/* This process's number (0 ..) and the number of processes. */
int kiln_dist_rank(const kiln_dist *d);
int kiln_dist_size(const kiln_dist *d);
/* This process's number among those on its host (0 without MPI): the GPU it drives when its
 * device is "cuda" or "auto" is this number modulo the host's GPU count. */
int kiln_dist_local_rank(const kiln_dist *d);
/* Every process passes its status and a message for it (NULL: none); each returns the status of
 * the lowest-numbered failing process (KILN_OK when none) and, when one failed, msg (cap bytes)
 * receives "process R: its message". */
kiln_status kiln_dist_agree(kiln_dist *d, kiln_status st, const char *why, char *msg, size_t cap);
/* This process's part of the graph kiln_graph_rmat gives for the same arguments: each process
 * generates its share of the edges and sends each edge to the process owning its destination, so
 * none holds every edge. kiln_graph_get_info gives the whole graph's counts. */
kiln_status kiln_dist_graph_rmat(kiln_ctx *ctx, kiln_dist *d, int scale, int edge_factor, uint64_t seed,
                                 unsigned flags, kiln_graph **out);
/* This process's part of the graph kiln_graph_load reads from path: process 0 reads it and sends
 * every other process its rows. */
kiln_status kiln_dist_graph_load(kiln_ctx *ctx, kiln_dist *d, const char *path, kiln_graph_format format,
                                 unsigned flags, kiln_graph **out);
/* kiln_pagerank over a graph's parts (CPU contexts): ranks[nodes] receives every node's rank on
 * every process. A part is not a graph of its own: kiln_pagerank and kiln_graph_save_csr refuse it. */
kiln_status kiln_dist_pagerank(kiln_ctx *ctx, kiln_dist *d, const kiln_graph *g, const kiln_pagerank_options *opt,
                               double *ranks, kiln_pagerank_result *result);
/* Ends MPI for this process and frees d (NULL: nothing). */
void kiln_dist_close(kiln_dist *d);

/* ---------------------------------------------------------------- Merkle trees */

/* The two-to-one merge a tree is built over; every node is 32 bytes.
 *   sha256d    Bitcoin: parent = sha256d(left || right) over raw (internal byte order) hashes
 *   sha256     parent = sha256(left || right)
 *   sha3-256   parent = SHA3-256(left || right)       (FIPS 202)
 *   keccak256  parent = Keccak-256(left || right)     (original padding, as Ethereum)
 *   rp64_256   Winterfell's Rescue Prime merge; a node is 4 Goldilocks field elements
 *              (little-endian u64s, each below p = 2^64 - 2^32 + 1)
 *   blake2s    parent = BLAKE2s-256(left || right)   (RFC 7693)
 *   blake2s-stwo  Stwo's Blake2sMerkleHasher node without columns: the BLAKE2s compression of the
 *              64-byte block left || right from a zero chaining value (not the IV), counter and
 *              flags zero; the parent is its 8 state words, little-endian
 *   poseidon2_babybear16   Plonky3's Merkle compression over BabyBear: the first 8 elements of the
 *              Poseidon2 width-16 permutation (default_babybear_poseidon2_16) of left || right; a
 *              node is 8 BabyBear elements (little-endian u32s, each below p = 2^31 - 2^27 + 1)
 *   poseidon2_koalabear16  the same over KoalaBear (p = 2^31 - 2^24 + 1)
 *   poseidon2_goldilocks8  the same over Goldilocks, width 8: a node is 4 Goldilocks elements, the
 *              first 4 of the permutation of left || right
 * The Poseidon2 trees are Plonky3's MerkleTree over one matrix for a power-of-two leaf count; for
 * other counts Plonky3 pairs an odd level's last node with a zero node, kiln with itself
 * (poseidon2_goldilocks12, below, is miden-crypto's MerkleTree for a power-of-two count).
 *   rpo256     Miden's RPO256 (Rescue Prime Optimized) merge, miden-crypto v0.28.1's state layout; a
 *              node is 4 Goldilocks field elements as rp64_256's
 *   poseidon2_goldilocks12  miden-crypto's Poseidon2::merge (Plonky3's TruncatedPermutation over
 *              default_goldilocks_poseidon2_12): the first 4 elements of the width-12 permutation of
 *              left || right || 0, 0, 0, 0; a node is 4 Goldilocks elements */
typedef enum kiln_merkle_algo {
    KILN_MERKLE_SHA256D = 0,
    KILN_MERKLE_SHA256 = 1,
    KILN_MERKLE_SHA3_256 = 2,
    KILN_MERKLE_KECCAK256 = 3,
    KILN_MERKLE_RP64_256 = 4,
    KILN_MERKLE_BLAKE2S = 5,
    KILN_MERKLE_BLAKE2S_STWO = 6,
    KILN_MERKLE_BLAKE3 = 7, /* BLAKE3 of left || right: one compression (a one-block chunk, the root) */
    KILN_MERKLE_POSEIDON2_BABYBEAR16 = 8,
    KILN_MERKLE_POSEIDON2_KOALABEAR16 = 9,
    KILN_MERKLE_POSEIDON2_GOLDILOCKS8 = 10,
    KILN_MERKLE_RPO256 = 11,
    KILN_MERKLE_POSEIDON2_GOLDILOCKS12 = 12,
} kiln_merkle_algo;

#define KILN_MERKLE_ALGO_COUNT 13
#define KILN_MERKLE_NODE_SIZE 32

/* Parses "sha256d", "sha256", "sha3-256", "keccak256", "rp64_256", "blake2s", "blake2s-stwo", "blake3",
 * "poseidon2_babybear16", "poseidon2_koalabear16", "poseidon2_goldilocks8", "rpo256",
 * "poseidon2_goldilocks12". */
kiln_status kiln_merkle_algo_from_name(kiln_ctx *ctx, const char *name, kiln_merkle_algo *algo);
const char *kiln_merkle_algo_name(kiln_merkle_algo algo);

/* One merge on the CPU: out = parent of left and right. KILN_ERR_INPUT for a node of a field merge
 * (rp64_256, rpo256, poseidon2_*) that is not canonical field elements, or for a merge this build lacks. */
kiln_status kiln_merkle_merge(kiln_ctx *ctx, kiln_merkle_algo algo, const uint8_t left[32], const uint8_t right[32],
                              uint8_t out[32]);

/* Leaves from the rows of a matrix, for the Poseidon2 merges: leaf i is the leaf hash (below) of row
 * i's row_elems elements, as Plonky3's MerkleTree over one matrix hashes its rows. rows: n *
 * row_elems elements back to back, little-endian, 4 bytes each (BabyBear, KoalaBear) or 8
 * (Goldilocks), each canonical (below p); leaves: n * 32 bytes. On the context's first GPU where its
 * backend hashes rows (CUDA, OpenCL), else on the CPU's threads. KILN_ERR_INPUT for another merge,
 * a leaf hash the merge lacks, or a non-canonical element (the message names its row).
 * kiln_merkle_leaves_from_rows is kiln_merkle_leaves_from_rows_with(..., KILN_MERKLE_LEAF_SPONGE, ...). */
typedef enum kiln_merkle_leaf_hash {
    /* Plonky3's PaddingFreeSponge at the merge's width: <Perm16, 16, 8, 8> over BabyBear and
     * KoalaBear, <Perm8, 8, 4, 4> for poseidon2_goldilocks8, <Perm12, 12, 8, 4> for
     * poseidon2_goldilocks12 (miden-crypto's Poseidon2Hasher) */
    KILN_MERKLE_LEAF_SPONGE = 0,
    /* BabyBear, KoalaBear: PaddingFreeSponge<Perm24, 24, 16, 8> (rate 16, the first 8 out), the leaf
     * hash of Plonky3's examples next to the width-16 merge */
    KILN_MERKLE_LEAF_SPONGE24 = 1,
    /* poseidon2_goldilocks12: miden-crypto's Poseidon2::hash_elements (capacity[0] = row_elems mod 8,
     * a short last block zero-padded); equal to the sponge when row_elems is a multiple of 8 */
    KILN_MERKLE_LEAF_MIDEN = 2,
} kiln_merkle_leaf_hash;
/* "sponge", "sponge24", "miden"; NULL for another value. */
const char *kiln_merkle_leaf_hash_name(kiln_merkle_leaf_hash leaf);
kiln_status kiln_merkle_leaf_hash_from_name(kiln_ctx *ctx, const char *name, kiln_merkle_leaf_hash *leaf);
kiln_status kiln_merkle_leaves_from_rows(kiln_ctx *ctx, kiln_merkle_algo algo, const uint8_t *rows, uint64_t n,
                                         size_t row_elems, uint8_t *leaves);
kiln_status kiln_merkle_leaves_from_rows_with(kiln_ctx *ctx, kiln_merkle_algo algo, kiln_merkle_leaf_hash leaf,
                                              const uint8_t *rows, uint64_t n, size_t row_elems, uint8_t *leaves);
/* Bytes a row element takes for the merge's leaves from rows: 4 (BabyBear, KoalaBear) or 8
 * (Goldilocks); 0 for a merge that hashes no rows, or a value that is no merge. */
size_t kiln_merkle_row_element_bytes(kiln_merkle_algo algo);

/* Tree shape, the same for every algorithm: level 0 holds the n leaves; a level of m > 1 nodes has
 * a parent level of ceil(m / 2) nodes, node i being the merge of children 2i and 2i + 1, where a
 * level of odd size pairs its last node with itself (Bitcoin's rule); the level of one node is the
 * root. For n a power of two this is Winterfell's tree. The whole tree is every level one after
 * the other, leaves first, root last. */
/* Number of levels, leaves and root included: 1 for n = 1, 0 for n = 0. */
int kiln_merkle_levels(uint64_t n);
/* Nodes in level `level` (0 = leaves), and where it starts in the whole tree. */
uint64_t kiln_merkle_level_size(uint64_t n, int level);
uint64_t kiln_merkle_level_offset(uint64_t n, int level);
/* Nodes in the whole tree (about 2n). */
uint64_t kiln_merkle_tree_size(uint64_t n);

/* How the GPU builds a tree (ignored by the CPU backend). */
typedef enum kiln_merkle_method {
    KILN_MERKLE_AUTO = 0, /* subtrees, with the tuned or built-in k and block size */
    KILN_MERKLE_LEVELS = 1, /* one launch per level */
    KILN_MERKLE_SUBTREES = 2, /* each block builds one subtree of 2^k leaves per thread in shared memory:
                                 k levels per launch */
} kiln_merkle_method;

typedef struct kiln_merkle_opts {
    kiln_merkle_method method;
    int subtree_log2; /* k, levels per launch for KILN_MERKLE_SUBTREES, 1..12 with 2^k * threads per
                         block <= 4096; 0 = default */
    int threads_per_block; /* multiple of 32 in 32..1024; 0 = default */
    int graph; /* nonzero: capture the launch sequence in a CUDA graph and launch that */
} kiln_merkle_opts;

/* Builds the tree of n leaves (n * 32 bytes) on the context's device and writes its root. When tree
 * is not NULL it receives the whole tree (kiln_merkle_tree_size(n) * 32 bytes). On a GPU the tree
 * stays in device memory between levels; the CPU then recomputes the top levels from the device's
 * nodes and re-checks a random sample of the nodes below before anything is reported. opts may be
 * NULL (defaults). KILN_ERR_INPUT for n = 0, a non-canonical leaf of a field merge or an algorithm
 * this build lacks; KILN_ERR_DEVICE when the GPU fails or its tree is wrong. */
kiln_status kiln_merkle_build(kiln_ctx *ctx, kiln_merkle_algo algo, const uint8_t *leaves, uint64_t n,
                              const kiln_merkle_opts *opts, uint8_t root[32], uint8_t *tree);

/* Inclusion proof of leaf `index` from a whole tree of n leaves: the sibling of each node on the
 * path, leaf level first, kiln_merkle_levels(n) - 1 of them (32 bytes each, written to siblings;
 * *count receives the number). A node paired with itself has itself as sibling. */
kiln_status kiln_merkle_proof(kiln_ctx *ctx, const uint8_t *tree, uint64_t n, uint64_t index, uint8_t *siblings,
                              int *count);

/* Checks a proof: KILN_OK when hashing leaf up the path gives root, KILN_NOT_FOUND when it does not.
 * With n > 0 the proof must also fit a tree of n leaves: index < n, count == levels - 1, and where
 * the path's node is the last of an odd level its sibling must be itself. With n = 0 the leaf count
 * is unknown and only index < 2^count is required. KILN_ERR_INPUT for a proof that cannot fit. */
kiln_status kiln_merkle_verify(kiln_ctx *ctx, kiln_merkle_algo algo, const uint8_t leaf[32], uint64_t index,
                               uint64_t n, const uint8_t *siblings, int count, const uint8_t root[32]);

typedef struct kiln_merkle_bench_result {
    uint64_t leaves;
    double seconds; /* median time to build the whole tree from leaves already on the device */
    double rate; /* merges per second: (leaves - 1) / seconds */
    int launches; /* kernel launches per tree (0 on the CPU) */
    double raw_rate; /* merges per second of one launch of leaves/2 independent merges (GPU only) */
} kiln_merkle_bench_result;

/* Times building trees of n pseudo-random leaves on the context's device, `reps` times after a
 * warm-up (reps <= 0: 10); the last tree's root is checked on the CPU as kiln_merkle_build does. */
kiln_status kiln_merkle_bench(kiln_ctx *ctx, kiln_merkle_algo algo, uint64_t n, const kiln_merkle_opts *opts,
                              int reps, kiln_merkle_bench_result *result);

/* Times the whole kiln_merkle_build, from n leaves in host memory, on the context's devices: on a
 * device set that is the leaves cut into aligned subtrees, a range copied to and built on each
 * device, the CPU's checks and the top levels merged on the CPU; on one GPU the copy, the build and
 * the checks; on the CPU its build. `reps` builds, on a GPU after an untimed one (reps <= 0: 10,
 * at most 256); result->seconds is their median (launches and raw_rate are 0). The leaves are
 * fixed: word i (4 little-endian u64 a leaf) is splitmix64's i-th draw from seed 1, less p when it
 * is p or more for the Goldilocks merges, each 32-bit half cut to 31 bits and less p when p or more
 * for the BabyBear and KoalaBear merges, so root, the tree's root, is the same on every device and set. */
kiln_status kiln_merkle_bench_build(kiln_ctx *ctx, kiln_merkle_algo algo, uint64_t n, const kiln_merkle_opts *opts,
                                    int reps, kiln_merkle_bench_result *result, uint8_t root[32]);

/* ---------------------------------------------------------------- raw Bitcoin blocks */

typedef struct kiln_block {
    uint8_t header[KILN_HEADER_SIZE];
    uint64_t n_tx;
    uint64_t n_segwit; /* transactions in the witness serialization (BIP 144) */
    uint8_t *txids; /* n_tx * 32 bytes: sha256d of each non-witness serialization, raw byte order */
} kiln_block;

/* Parses a serialized block (header, CompactSize transaction count, transactions in the legacy or
 * segwit serialization) and computes every txid. Nothing may follow the last transaction.
 * KILN_ERR_INPUT with a message naming the byte offset for a truncated or malformed block. On
 * success free the block with kiln_block_free. */
kiln_status kiln_block_parse(kiln_ctx *ctx, const uint8_t *raw, size_t len, kiln_block *block);
void kiln_block_free(kiln_block *block);

/* ---------------------------------------------------------------- device memory in, device memory out */

/* Entry points for data already on the GPU (docs/DEVICE_MEMORY.md): a prover, a CuPy or PyTorch
 * pipeline hands kiln its device buffers and its stream, and gets results in device buffers.
 * - Buffers are device memory (or managed memory) of the context's first GPU: cudaMalloc, a
 *   memory pool, CuPy, PyTorch. They stay the caller's; kiln neither frees nor keeps them.
 * - stream is the caller's cudaStream_t passed as void * (NULL: the legacy default stream), on the
 *   context's first GPU. kiln enqueues its copies and kernels on it, in order, and returns: it
 *   copies nothing to or from the host and waits on the host only when the function fills a host
 *   value (root_host, kiln_pagerank_device's result). Results are there once the stream has run the work; inputs must stay
 *   unchanged and every buffer valid until then. kiln's temporaries are allocated and freed in
 *   the stream's order (cudaMallocAsync).
 * - Work already on the stream runs before kiln's; work the caller enqueues after the call runs
 *   after it. Another stream must wait on an event the caller records after the call.
 * - The host-memory entry points re-check GPU results on the CPU; these cannot without a host
 *   copy, and do not. Offset tables are clamped to their buffers on the device, so bad offsets
 *   give wrong results, never reads outside the buffers.
 * A CPU context, or a backend without these (OpenCL for now), gets KILN_ERR_DEVICE; an algorithm
 * with no GPU kernel, or a host pointer, KILN_ERR_INPUT. */

/* kiln_hash_batch on the device: message i is data[offsets[i] .. offsets[i+1]) (n + 1 offsets on
 * the device, data_len readable bytes at data); n digests of outlen bytes packed into out. */
kiln_status kiln_hash_batch_device(kiln_ctx *ctx, kiln_hash_algo algo, const void *data, size_t data_len,
                                   const uint64_t *offsets, size_t n, void *out, size_t outlen, void *stream);
/* kiln_hash_batch_fixed on the device: n messages of msg_len bytes back to back at data. */
kiln_status kiln_hash_batch_fixed_device(kiln_ctx *ctx, kiln_hash_algo algo, const void *data, size_t msg_len,
                                         size_t n, void *out, size_t outlen, void *stream);
/* kiln_merkle_build on the device: n leaves of 32 bytes at leaves. tree, when not NULL, receives
 * the whole tree (kiln_merkle_tree_size(n) * 32 bytes, 16-byte aligned, laid out as
 * kiln_merkle_build's), which stays there for the caller to read; leaves may be tree itself (its
 * first n nodes: no copy), else must not overlap it. The root goes to root_dev (32 bytes of device
 * memory) and/or root_host (the call then waits for the stream); either may be NULL. The leaves
 * of a field merge must be canonical field elements (not checked: that would need the host). */
kiln_status kiln_merkle_build_device(kiln_ctx *ctx, kiln_merkle_algo algo, const void *leaves, uint64_t n,
                                     const kiln_merkle_opts *opts, void *tree, void *root_dev, uint8_t *root_host,
                                     void *stream);
/* kiln_scrypt_batch on the device: item i's password is passwords[password_offsets[i] ..
 * password_offsets[i+1]) and its salt salts[salt_offsets[i] .. salt_offsets[i+1]) (count + 1
 * offsets each, on the device); key i at out + i * out_len. */
kiln_status kiln_scrypt_batch_device(kiln_ctx *ctx, const void *passwords, size_t passwords_len,
                                     const uint64_t *password_offsets, const void *salts, size_t salts_len,
                                     const uint64_t *salt_offsets, size_t count, kiln_scrypt_params params, void *out,
                                     size_t out_len, void *stream);

/* PageRank with its vectors in device memory. A plan is graph g laid out once on the context's
 * GPU as kiln_pagerank lays it out on every call (its in-edge rows relabelled in visiting order and
 * uploaded, the rank buffers and convergence state allocated): the one copy of the graph from host
 * memory. kiln_pagerank_device then runs it on the caller's stream, as often as wanted. opt (NULL:
 * defaults) fixes the plan's precision and reorder; its vectors must be NULL. One CUDA GPU only:
 * a CPU context, a device set or another backend gets KILN_ERR_DEVICE. g must outlive the plan
 * (messages name its vertex ids), and the plan its context. */
typedef struct kiln_pagerank_plan kiln_pagerank_plan;
kiln_status kiln_pagerank_plan_new(kiln_ctx *ctx, const kiln_graph *g, const kiln_pagerank_options *opt,
                                   kiln_pagerank_plan **out);
/* Frees the plan and its device memory (NULL: nothing); no run of it may still be on a stream. */
void kiln_pagerank_plan_free(kiln_pagerank_plan *plan);
/* kiln_pagerank on the plan's graph, on the device: personalization, dangling and nstart are device
 * memory, nodes doubles each over the graph's vertex indices (as kiln_pagerank's options take
 * them), finite and >= 0, normalized on the device as kiln_pagerank normalizes them, or NULL; ranks
 * (nodes doubles of device memory) receives the result in the same order. opt (NULL: defaults)
 * gives damping, tol, max_iter and kernel; its vectors must be NULL, its precision and reorder are
 * the plan's. The ranks are those of kiln_pagerank with the same options on the same GPU (the same
 * kernels in the same order; the float64 sums of a pass are added by atomics, so either may differ
 * in the last bits from run to run). There is no CPU re-check.
 * - result NULL: every copy and kernel is enqueued on stream and the call returns: nothing is read
 *   back and nothing waits (it can be captured in a CUDA graph). All max_iter iterations are
 *   launched; those after convergence return at once. A bad vector makes every rank NaN.
 * - result given: the call reads its vector checks (a bad vector: KILN_ERR_INPUT naming it, as
 *   kiln_pagerank does, and ranks untouched), and then, between batches of iterations, the
 *   convergence state (a few hundred bytes), as kiln_pagerank's loop does, launching no more once
 *   converged; it returns with the stream done and result filled (iterations, converged, residual,
 *   precision, kernel); KILN_NOT_FOUND when tol > 0 and max_iter iterations did not converge.
 * A run uses the plan's buffers: runs of one plan on different streams must be ordered by the
 * caller (an event); runs on one stream are. */
kiln_status kiln_pagerank_device(kiln_ctx *ctx, kiln_pagerank_plan *plan, const kiln_pagerank_options *opt,
                                 const double *personalization, const double *dangling, const double *nstart,
                                 double *ranks, void *stream, kiln_pagerank_result *result);

#ifdef __cplusplus
}
#endif

#endif /* KILN_H */
