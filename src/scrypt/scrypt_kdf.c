/* The scrypt KDF (RFC 7914) on the CPU: parameter checks, p lanes over threads, batches over
 * threads. Also the public HMAC/PBKDF2 entry points. GPU batches are dispatched by kiln_scrypt_batch. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/cpu_features.h"
#include "../core/ctx.h"
#include "../core/mem_limit.h"
#include "../core/par.h"
#include "scrypt_cpu.h"
#include "scrypt_kdf.h"

#define DK_MAX (UINT64_C(0xffffffff) * 32) /* (2^32 - 1) * hLen */
/* ROMix steps between interrupt polls: a few milliseconds even at r = 32. */
#define ROMIX_POLL 4096

static int worker_count(const kiln_ctx *ctx, uint64_t jobs)
{
    int t = ctx->threads > 0 ? ctx->threads : kiln_cpu_cores();
    if ((uint64_t)t > jobs) t = (int)jobs;
    return t < 1 ? 1 : t;
}

/* Every thread holds a scratchpad of its own: `at_once` of them exist together, and all must fit
 * in the host's memory, or the process is killed when it touches them. */
static kiln_status check_memory(kiln_ctx *ctx, kiln_scrypt_params sp, int at_once, size_t out_len)
{
    uint64_t lane = 128 * (uint64_t)sp.r, mem = kiln_memory_limit(ctx);
    if (sp.N > (uint64_t)SIZE_MAX / lane || sp.N * lane > mem)
        return kiln_fail(ctx, KILN_ERR_INPUT,
                         "scrypt N = %llu, r = %u needs 128 * r * N = %.0f bytes of memory; kiln may use %llu (physical memory, ulimit -v, -d)",
                         (unsigned long long)sp.N, sp.r, (double)sp.N * (double)lane, (unsigned long long)mem);
    uint64_t pad = sp.N * lane;
    if ((uint64_t)at_once > mem / pad)
        return kiln_fail(ctx, KILN_ERR_INPUT,
                         "scrypt N = %llu, r = %u, p = %u holds %d scratchpads at once (one per thread) of "
                         "128 * r * N = %llu bytes each, %.0f bytes in all; kiln may use %llu (physical memory, ulimit -v, -d): use at most %llu "
                         "thread%s",
                         (unsigned long long)sp.N, sp.r, sp.p, at_once, (unsigned long long)pad,
                         (double)pad * at_once, (unsigned long long)mem, (unsigned long long)(mem / pad),
                         mem / pad == 1 ? "" : "s");
    if ((uint64_t)sp.p * lane > mem)
        return kiln_fail(ctx, KILN_ERR_INPUT, "scrypt p = %u, r = %u needs 128 * r * p = %llu bytes; kiln may use %llu (physical memory, ulimit -v, -d)",
                         sp.p, sp.r, (unsigned long long)(sp.p * lane), (unsigned long long)mem);
    /* the output is held too, beside the scratchpads and B */
    double all = (double)pad * at_once + (double)sp.p * (double)lane + (double)out_len;
    if (all > (double)mem)
        return kiln_fail(ctx, KILN_ERR_INPUT,
                         "scrypt output length %zu: with %.0f bytes of scratchpads it needs %.0f bytes of memory; kiln may "
                         "use %llu (physical memory, ulimit -v, -d)",
                         out_len, all - (double)out_len, all, (unsigned long long)mem);
    return KILN_OK;
}

kiln_status kiln_scrypt_check(kiln_ctx *ctx, kiln_scrypt_params sp, size_t out_len)
{
    if (sp.N < 2 || (sp.N & (sp.N - 1)) != 0)
        return kiln_fail(ctx, KILN_ERR_INPUT, "scrypt N = %llu must be a power of two greater than 1",
                         (unsigned long long)sp.N);
    if (sp.r == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "scrypt r must be at least 1");
    if (sp.p == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "scrypt p must be at least 1");
    if (sp.r < 4 && sp.N >> (16 * sp.r) != 0)
        return kiln_fail(ctx, KILN_ERR_INPUT, "scrypt N = %llu must be less than 2^(16r) = 2^%u for r = %u",
                         (unsigned long long)sp.N, 16 * sp.r, sp.r);
    if ((uint64_t)sp.p * 128 * sp.r > DK_MAX)
        return kiln_fail(ctx, KILN_ERR_INPUT, "scrypt p = %u is over RFC 7914's limit (2^32 - 1) * 32 / (128 r) for r = %u",
                         sp.p, sp.r);
    if (out_len == 0 || (uint64_t)out_len > DK_MAX)
        return kiln_fail(ctx, KILN_ERR_INPUT, "scrypt output length %zu must be 1 .. (2^32 - 1) * 32 bytes", out_len);
    return check_memory(ctx, sp, ctx ? worker_count(ctx, sp.p) : 1, out_len);
}

/* Output blocks and iterations between interrupt polls in PBKDF2: well under a millisecond each. */
#define PBKDF2_POLL_BLOCKS 1024
#define PBKDF2_POLL_ITERATIONS 65536

/* PBKDF2-HMAC-SHA256 as kiln_pbkdf2_sha256_hd (src/prim/hmac_sha256.h) computes it, with an
 * interrupt poll every PBKDF2_POLL_BLOCKS output blocks and every PBKDF2_POLL_ITERATIONS
 * iterations: scrypt's last PBKDF2 makes --length bytes, which at gigabytes runs for minutes. The
 * HMAC state after the salt is computed once, so a block costs its index and the c iterations,
 * not the salt again (scrypt's salt is the 128 r p bytes of B). 1 when interrupted (out is then
 * unfinished), else 0. */
static int pbkdf2_polled(const kiln_ctx *ctx, const uint8_t *pw, size_t pw_len, const uint8_t *salt, size_t salt_len,
                         uint64_t c, uint8_t *out, size_t dk_len)
{
    kiln_hmac_sha256_key k;
    kiln_hmac_sha256_setkey(&k, pw, pw_len);
    kiln_sha256_hd salted;
    kiln_sha256_hd_start(&salted, k.inner, 64);
    kiln_sha256_hd_update(&salted, salt, salt_len);
    uint64_t block = 0;
    for (size_t done = 0; done < dk_len; block++) {
        if (block % PBKDF2_POLL_BLOCKS == 0 && kiln_ctx_interrupt_requested(ctx)) return 1;
        const uint32_t index = (uint32_t)(block + 1);
        kiln_sha256_hd s = salted;
        uint32_t inner[8], u[8], T[8];
        for (int i = 0; i < 4; i++) kiln_sha256_hd_byte(&s, (uint8_t)(index >> (24 - 8 * i)));
        kiln_sha256_hd_final_words(&s, inner);
        kiln_hmac_sha256_outer(&k, inner, u);
        for (int i = 0; i < 8; i++) T[i] = u[i];
        for (uint64_t j = 1; j < c; j++) {
            if (j % PBKDF2_POLL_ITERATIONS == 0 && kiln_ctx_interrupt_requested(ctx)) return 1;
            kiln_hmac_sha256_32(&k, u, u);
            for (int i = 0; i < 8; i++) T[i] ^= u[i];
        }
        for (int i = 0; i < 32 && done < dk_len; i++, done++) out[done] = (uint8_t)(T[i >> 2] >> (24 - 8 * (i & 3)));
    }
    return 0;
}

/* Scratch of one lane: V (32rN words) and X, Y (32r words each). */
typedef struct lane_scratch {
    uint32_t *V, *X, *Y;
} lane_scratch;

static int scratch_alloc(lane_scratch *s, kiln_scrypt_params sp)
{
    size_t words = 32 * (size_t)sp.r;
    s->V = malloc(words * (size_t)sp.N * sizeof *s->V);
    s->X = malloc(2 * words * sizeof *s->X);
    s->Y = s->X ? s->X + words : NULL;
    if (!s->V || !s->X) {
        free(s->V);
        free(s->X);
        s->V = s->X = s->Y = NULL;
        return -1;
    }
    return 0;
}

static void scratch_free(lane_scratch *s)
{
    free(s->V);
    free(s->X);
}

/* ROMix steps done out of total (2N a lane) over every thread of one call, for progress reports:
 * one atomic add per ROMIX_POLL steps, nothing beside the steps themselves. */
typedef struct romix_meter {
    uint64_t done, total;
} romix_meter;

/* Adds the `steps` just done to the meter, reports it and reads the interrupt poll: 1 when it asks
 * to stop. */
static int romix_poll(const kiln_ctx *ctx, romix_meter *m, uint64_t steps)
{
    uint64_t done;
#pragma omp atomic capture
    done = m->done += steps;
    kiln_ctx_report(ctx, "scrypt", "steps", done, m->total);
    return kiln_ctx_interrupt_requested(ctx);
}

/* kiln_scrypt_romix (src/prim/salsa.h) with an interrupt poll every ROMIX_POLL steps: one lane
 * of N = 2^20 or more runs for seconds. Each poll counts the chunk of steps before it. 1 when
 * interrupted (X is then unfinished), else 0. */
static int romix_polled(const kiln_ctx *ctx, uint32_t *X, uint32_t *V, uint32_t *Y, uint64_t N, uint32_t r,
                        romix_meter *m)
{
    const uint64_t chunk = N < ROMIX_POLL ? N : ROMIX_POLL; /* N is a power of two */
    for (uint64_t i = 0; i < N; i += chunk) {
        if (i && romix_poll(ctx, m, chunk)) return 1;
        kiln_scrypt_romix_fill(X, V, r, i, i + chunk);
    }
    for (uint64_t i = 0; i < N; i += chunk) {
        if (romix_poll(ctx, m, chunk)) return 1;
        kiln_scrypt_romix_mix(X, V, Y, N, r, i, i + chunk);
    }
#pragma omp atomic
    m->done += chunk;
    return 0;
}

/* ROMix of one 128r-byte lane of B, in place; 1 when interrupted. */
static int romix_lane(const kiln_ctx *ctx, uint8_t *b, kiln_scrypt_params sp, lane_scratch *s, romix_meter *m)
{
    if (kiln_ctx_interrupt_requested(ctx)) return 1;
    size_t words = 32 * (size_t)sp.r;
    for (size_t k = 0; k < words; k++) s->X[k] = kiln_load_le32(b + 4 * k);
    if (romix_polled(ctx, s->X, s->V, s->Y, sp.N, sp.r, m)) return 1;
    for (size_t k = 0; k < words; k++) kiln_store_le32(b + 4 * k, s->X[k]);
    return 0;
}

/* Allocates up to `want` scratch sets; returns how many (0 = none could be had). */
static int scratch_many(lane_scratch *s, int want, kiln_scrypt_params sp)
{
    int n = 0;
    while (n < want && scratch_alloc(&s[n], sp) == 0) n++;
    return n;
}

static kiln_status no_memory(kiln_ctx *ctx, kiln_scrypt_params sp)
{
    return kiln_fail(ctx, KILN_ERR_INPUT, "cannot allocate scrypt's 128 * r * N = %.0f bytes (N = %llu, r = %u)",
                     128.0 * sp.r * (double)sp.N, (unsigned long long)sp.N, sp.r);
}

/* The lanes of one key, or the items of a batch, on kiln_par_for (core/par.h): each slot (a thread
 * running them) has its own scratchpad (and, for items, its own B). A loop whose caller waited at
 * an OpenMP region's end for every member of the team waited, on busy cores, for one the scheduler
 * had not run. */
typedef struct lanes_job {
    const kiln_ctx *ctx;
    kiln_scrypt_params sp;
    uint8_t *B; /* lanes: the key's p blocks; items: one 128 r p block a slot */
    const kiln_scrypt_input *in; /* items */
    lane_scratch *s; /* a slot */
    uint8_t *out;
    size_t out_len;
    romix_meter *m;
    _Atomic int stop;
} lanes_job;

static int scrypt_one(const kiln_ctx *ctx, const kiln_scrypt_input *in, kiln_scrypt_params sp, uint8_t *B,
                      lane_scratch *s, uint8_t *out, size_t out_len, romix_meter *m);

static void lane_task(void *arg, uint64_t i, int slot)
{
    lanes_job *j = arg;
    if (atomic_load_explicit(&j->stop, memory_order_relaxed)) return; /* the rest only drain */
    if (romix_lane(j->ctx, j->B + 128 * (size_t)j->sp.r * (size_t)i, j->sp, &j->s[slot], j->m))
        atomic_store(&j->stop, 1);
}

static void item_task(void *arg, uint64_t i, int slot)
{
    lanes_job *j = arg;
    if (atomic_load_explicit(&j->stop, memory_order_relaxed)) return;
    const size_t blen = 128 * (size_t)j->sp.r * j->sp.p;
    if (scrypt_one(j->ctx, &j->in[i], j->sp, j->B + blen * (size_t)slot, &j->s[slot], j->out + i * j->out_len,
                   j->out_len, j->m))
        atomic_store(&j->stop, 1);
}

kiln_status kiln_scrypt(kiln_ctx *ctx, const void *password, size_t password_len, const void *salt, size_t salt_len,
                        kiln_scrypt_params sp, uint8_t *out, size_t out_len)
{
    if (!out || (!password && password_len) || (!salt && salt_len))
        return kiln_fail(ctx, KILN_ERR_INPUT, "missing password, salt or output buffer");
    kiln_status st = kiln_scrypt_check(ctx, sp, out_len);
    if (st != KILN_OK) return st;
    size_t lane = 128 * (size_t)sp.r;
    uint8_t *B = malloc(lane * sp.p);
    int want = ctx ? worker_count(ctx, sp.p) : 1;
    lane_scratch *s = calloc((size_t)want, sizeof *s);
    int have = B && s ? scratch_many(s, want, sp) : 0;
    if (have == 0) {
        free(B);
        free(s);
        return no_memory(ctx, sp);
    }
    int stop = pbkdf2_polled(ctx, password, password_len, salt, salt_len, 1, B, lane * sp.p);
    romix_meter m = {0, 2 * sp.N * sp.p};
    if (!stop) {
        lanes_job j = {ctx, sp, B, NULL, s, NULL, 0, &m, 0};
        kiln_par_for(have, sp.p, lane_task, &j);
        stop = j.stop;
    }
    if (!stop) stop = pbkdf2_polled(ctx, password, password_len, B, lane * sp.p, 1, out, out_len);
    for (int i = 0; i < have; i++) scratch_free(&s[i]);
    free(s);
    free(B);
    return stop ? kiln_interrupted(ctx) : KILN_OK;
}

/* One item start to finish on the calling thread; 1 when interrupted. */
static int scrypt_one(const kiln_ctx *ctx, const kiln_scrypt_input *in, kiln_scrypt_params sp, uint8_t *B,
                      lane_scratch *s, uint8_t *out, size_t out_len, romix_meter *m)
{
    size_t lane = 128 * (size_t)sp.r;
    if (pbkdf2_polled(ctx, in->password, in->password_len, in->salt, in->salt_len, 1, B, lane * sp.p)) return 1;
    for (uint32_t i = 0; i < sp.p; i++)
        if (romix_lane(ctx, B + lane * i, sp, s, m)) return 1;
    return pbkdf2_polled(ctx, in->password, in->password_len, B, lane * sp.p, 1, out, out_len);
}

kiln_status kiln_scrypt_batch_cpu(kiln_ctx *ctx, const kiln_scrypt_input *in, size_t count, kiln_scrypt_params sp,
                                  uint8_t *out, size_t out_len)
{
    int want = worker_count(ctx, count);
    if (want == 1 || (uint64_t)count < (uint64_t)want * sp.p) {
        /* few items: spread each one's p lanes instead */
        for (size_t i = 0; i < count; i++) {
            kiln_status st = kiln_scrypt(ctx, in[i].password, in[i].password_len, in[i].salt, in[i].salt_len, sp,
                                         out + i * out_len, out_len);
            if (st != KILN_OK) return st;
        }
        return KILN_OK;
    }
    kiln_status st = check_memory(ctx, sp, want, count * out_len);
    if (st != KILN_OK) return st;
    size_t blen = 128 * (size_t)sp.r * sp.p;
    lane_scratch *s = calloc((size_t)want, sizeof *s);
    uint8_t *B = malloc(blen * (size_t)want);
    int have = s && B ? scratch_many(s, want, sp) : 0;
    if (have == 0) {
        free(s);
        free(B);
        return no_memory(ctx, sp);
    }
    romix_meter m = {0, 2 * sp.N * sp.p * (uint64_t)count};
    lanes_job j = {ctx, sp, B, in, s, out, out_len, &m, 0};
    kiln_par_for(have, count, item_task, &j);
    const int stop = j.stop;
    for (int i = 0; i < have; i++) scratch_free(&s[i]);
    free(s);
    free(B);
    return stop ? kiln_interrupted(ctx) : KILN_OK;
}

void kiln_scrypt_pow_hash(const uint8_t header[80], uint8_t hash[32])
{
    /* on the stack: the verification path must not fail for want of memory */
    uint32_t V[32 * KILN_SCRYPT_LTC_N], X[32], Y[32];
    uint8_t B[128];
    kiln_pbkdf2_sha256_hd(header, 80, header, 80, 1, B, sizeof B);
    for (int k = 0; k < 32; k++) X[k] = kiln_load_le32(B + 4 * k);
    kiln_scrypt_romix(X, V, Y, KILN_SCRYPT_LTC_N, 1);
    for (int k = 0; k < 32; k++) kiln_store_le32(B + 4 * k, X[k]);
    kiln_pbkdf2_sha256_hd(header, 80, B, sizeof B, 1, hash, 32);
}

/* ---- HMAC and PBKDF2 */

void kiln_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len, uint8_t mac[32])
{
    kiln_hmac_sha256_key k;
    kiln_sha256_hd s;
    uint32_t inner[8], d[8];
    kiln_hmac_sha256_setkey(&k, key, key_len);
    kiln_sha256_hd_start(&s, k.inner, 64);
    kiln_sha256_hd_update(&s, msg, msg_len);
    kiln_sha256_hd_final_words(&s, inner);
    kiln_hmac_sha256_outer(&k, inner, d);
    for (int i = 0; i < 8; i++) kiln_store_be32(mac + 4 * i, d[i]);
}

kiln_status kiln_pbkdf2_sha256(kiln_ctx *ctx, const void *password, size_t password_len, const void *salt,
                               size_t salt_len, uint64_t c, uint8_t *out, size_t out_len)
{
    if (!out || (!password && password_len) || (!salt && salt_len))
        return kiln_fail(ctx, KILN_ERR_INPUT, "missing password, salt or output buffer");
    if (c == 0) return kiln_fail(ctx, KILN_ERR_INPUT, "PBKDF2 iteration count must be at least 1");
    if (out_len == 0 || (uint64_t)out_len > DK_MAX)
        return kiln_fail(ctx, KILN_ERR_INPUT, "PBKDF2 output length %zu must be 1 .. (2^32 - 1) * 32 bytes", out_len);
    return pbkdf2_polled(ctx, password, password_len, salt, salt_len, c, out, out_len) ? kiln_interrupted(ctx) : KILN_OK;
}
