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
#define KILN_HASH_ALGO_COUNT 12

/* Names as the CLI spells them: sha256 sha256d sha3-224 sha3-256 sha3-384 sha3-512 shake128
 * shake256 keccak224 keccak256 keccak384 keccak512. */
kiln_status kiln_hash_algo_from_name(kiln_ctx *ctx, const char *name, kiln_hash_algo *algo);
const char *kiln_hash_algo_name(kiln_hash_algo algo);
/* Default output bytes: the digest size; SHAKE128 32, SHAKE256 64 (twice the security level). */
size_t kiln_hash_digest_len(kiln_hash_algo algo);
/* 1 for SHAKE (any output length), else 0. */
int kiln_hash_is_xof(kiln_hash_algo algo);
/* Keccak parameters of an algorithm (0 for the SHA-256 family). */
unsigned kiln_hash_rate(kiln_hash_algo algo);
uint8_t kiln_hash_domain(kiln_hash_algo algo);

/* Streaming hash of any algorithm, constant memory. */
typedef struct kiln_hash_stream {
    kiln_hash_algo algo;
    union {
        kiln_sha256_stream sha256;
        kiln_keccak_stream keccak;
    } u;
} kiln_hash_stream;

kiln_status kiln_hash_init(kiln_hash_stream *s, kiln_hash_algo algo);
kiln_status kiln_hash_update(kiln_hash_stream *s, const void *data, size_t len);
/* outlen must be the digest length, or any length >= 1 for SHAKE. */
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
 * those of the Keccak study: one thread per state with the specification's loops, one thread per
 * state fully unrolled with the state in registers, or 25 threads per state (one lane each).
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
 * mantissa, or a value that overflows 256 bits, is an error. A zero mantissa gives target 0. */
kiln_status kiln_target_from_bits(kiln_ctx *ctx, uint32_t bits, uint8_t target[32]);
/* 64 hex digits, most significant first (as block explorers print targets). */
kiln_status kiln_target_from_hex(kiln_ctx *ctx, const char *hex, uint8_t target[32]);
/* 1 when hash (little-endian 256-bit number) <= target, else 0. */
int kiln_hash_meets_target(const uint8_t hash[32], const uint8_t target[32]);

/* ---------------------------------------------------------------- nonce search (mining) */

typedef enum kiln_algo {
    KILN_ALGO_SHA256D = 0,
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
/* Parses "sha256d"; KILN_ERR_INPUT names the unknown algorithm. */
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
 * Values of 0 mean "the built-in default". Ignored by the CPU backend. */
typedef struct kiln_launch {
    int threads_per_block;
    int items_per_thread;
} kiln_launch;

kiln_status kiln_ctx_set_launch(kiln_ctx *ctx, kiln_algo algo, kiln_launch launch);
kiln_launch kiln_ctx_launch(const kiln_ctx *ctx, kiln_algo algo);

/* Measures the search rate (hashes per second) on the context's device for about `seconds`,
 * with a target nothing meets. */
kiln_status kiln_bench_scan(kiln_ctx *ctx, kiln_algo algo, double seconds, double *rate);

/* Known-answer checks of every algorithm on the context's device. On failure the message names
 * the first check that failed. */
kiln_status kiln_selftest(kiln_ctx *ctx);

#ifdef __cplusplus
}
#endif

#endif /* KILN_H */
