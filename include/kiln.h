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

#ifdef __cplusplus
extern "C" {
#endif

#define KILN_VERSION "0.1.0"

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
} kiln_backend;

typedef struct kiln_ctx kiln_ctx;

/* A context holds the chosen device, CPU thread count, launch settings and the last error.
 * Returns NULL only when memory is exhausted. The device starts as "cpu". */
kiln_ctx *kiln_ctx_new(void);
void kiln_ctx_free(kiln_ctx *ctx);
const char *kiln_last_error(const kiln_ctx *ctx);

/* spec: "auto" (first GPU if any, else CPU), "cpu", "cuda" (GPU 0), "cuda:N".
 * KILN_ERR_INPUT for an unknown spec, KILN_ERR_DEVICE when the GPU asked for is absent. */
kiln_status kiln_ctx_set_device(kiln_ctx *ctx, const char *spec);
kiln_backend kiln_ctx_backend(const kiln_ctx *ctx);
/* Human name of the selected device, e.g. "NVIDIA H200" or the CPU model. */
const char *kiln_ctx_device_name(const kiln_ctx *ctx);
/* CPU worker threads; 0 (the default) means one per online core. */
kiln_status kiln_ctx_set_threads(kiln_ctx *ctx, int threads);
int kiln_ctx_threads(const kiln_ctx *ctx);

/* ---------------------------------------------------------------- devices */

typedef struct kiln_device_info {
    kiln_backend backend;
    int index; /* GPU ordinal; 0 for the CPU */
    char name[128];
    int units; /* CPU: online cores; GPU: multiprocessors */
    int cc_major, cc_minor; /* GPU compute capability */
    uint64_t memory_bytes; /* GPU global memory; 0 for the CPU */
    char features[96]; /* CPU: SIMD/SHA extensions the code uses; GPU: empty */
} kiln_device_info;

/* Number of CUDA GPUs usable by this build (0 when built without CUDA or none present). */
int kiln_cuda_device_count(void);
/* index 0 is the CPU, 1.. are the GPUs (cuda:0 is index 1). */
kiln_status kiln_device_get(int index, kiln_device_info *out);

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
 * mantissa, or a value that overflows 256 bits, is an error. A zero mantissa gives target 0. */
kiln_status kiln_target_from_bits(kiln_ctx *ctx, uint32_t bits, uint8_t target[32]);
/* 64 hex digits, most significant first (as block explorers print targets). */
kiln_status kiln_target_from_hex(kiln_ctx *ctx, const char *hex, uint8_t target[32]);
/* 1 when hash (little-endian 256-bit number) <= target, else 0. */
int kiln_hash_meets_target(const uint8_t hash[32], const uint8_t target[32]);

/* ---------------------------------------------------------------- nonce search (mining) */

typedef enum kiln_algo {
    KILN_ALGO_SHA256D = 0,
    KILN_ALGO_SCRYPT = 1, /* Litecoin: scrypt(header, header, N=1024, r=1, p=1, 32 bytes) */
} kiln_algo;

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
 * a callback stopped it (result->found may be nonzero). */
kiln_status kiln_scan(kiln_ctx *ctx, const kiln_scan_job *job, kiln_scan_result *result);

/* GPU launch shape: threads per block and nonces per thread (the thesis's nWarps*32 and nWork).
 * Values of 0 mean "the built-in default". Ignored by the CPU backend.
 * scrypt: one launch runs one wave of resident hash slots (each with its own scratchpad V) and
 * every slot hashes items_per_thread nonces in turn, so hashes per launch = slots * that. */
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
 * outside RFC 7914's limits, or when 128 * r * N bytes of scratch cannot be had on this host. */
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
 * a gap of 0 picks the smallest gap that lets a full wave of lanes fit in device memory). */
kiln_status kiln_ctx_set_scrypt_kdf_launch(kiln_ctx *ctx, kiln_launch launch, kiln_scrypt_shape shape);
void kiln_ctx_scrypt_kdf_launch(const kiln_ctx *ctx, kiln_launch *launch, kiln_scrypt_shape *shape);

/* Batch KDF rate (password hashes per second) on the context's device for about `seconds`. */
kiln_status kiln_bench_scrypt_kdf(kiln_ctx *ctx, kiln_scrypt_params params, double seconds, double *rate);

/* ---------------------------------------------------------------- HMAC and PBKDF2 (SHA-256) */

void kiln_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len, uint8_t mac[32]);
/* PBKDF2-HMAC-SHA256 (RFC 8018); KILN_ERR_INPUT when c is 0 or out_len is 0 or > (2^32 - 1) * 32. */
kiln_status kiln_pbkdf2_sha256(kiln_ctx *ctx, const void *password, size_t password_len, const void *salt,
                               size_t salt_len, uint64_t c, uint8_t *out, size_t out_len);

/* Known-answer checks of every algorithm on the context's device. On failure the message names
 * the first check that failed. */
kiln_status kiln_selftest(kiln_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* KILN_H */
