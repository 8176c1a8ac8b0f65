/* Streaming BLAKE3 on the host. Whole chunks are hashed in runs by the many-inputs kernel (SIMD
 * lanes, one chunk a lane); each run is cut into complete subtrees aligned to their size, whose
 * parents are merged level by level by the same kernel (a level's pairs lie back to back, so
 * they are inputs of one block each), and each subtree's root goes onto the chaining-value
 * stack. The current chunk's last block waits in the context: whether it ends the message (and
 * which flags it takes) is only known at the next update or at final. */
#include <stdlib.h>
#include <string.h>

#include "blake3_host.h"

/* Chunks hashed by one call of the kernel: a complete subtree of 256 chunks has 255 parents, of
 * which only the top 15 fill fewer than 16 lanes. Its chaining values stay on the stack (12 KiB). */
#define RUN_CHUNKS 256

static void many_portable(const uint8_t *in, size_t stride, size_t n, size_t blocks, uint32_t last_len,
                          const uint32_t key[8], uint64_t counter, int increment, uint32_t flags, uint32_t flags_start,
                          uint32_t flags_end, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t cv[8], m[16];
        for (int w = 0; w < 8; w++) cv[w] = key[w];
        for (size_t b = 0; b < blocks; b++) {
            uint32_t f = flags | (b == 0 ? flags_start : 0) | (b + 1 == blocks ? flags_end : 0);
            kiln_blake3_load_block(in + i * stride + KILN_BLAKE3_BLOCK * b, KILN_BLAKE3_BLOCK, m);
            kiln_blake3_compress_cv(cv, m, counter + (increment ? i : 0),
                                    b + 1 == blocks ? last_len : KILN_BLAKE3_BLOCK, f);
        }
        for (int w = 0; w < 8; w++) kiln_store_le32(out + 32 * i + 4 * w, cv[w]);
    }
}

/* The known answers: BLAKE3 of the test vectors' input (byte i is i mod 251) of 31744 and 102400
 * bytes (31 and 100 chunks), the first 32 bytes of the `hash` fields of BLAKE3-team/BLAKE3's
 * test_vectors/test_vectors.json (tests/data/blake3/test_vectors.json). In one update each, they
 * take the kernel through full and partial groups of chunks and of parents. */
static const uint8_t kat_31744[32] = {0x62, 0xb6, 0x96, 0x0e, 0x1a, 0x44, 0xbc, 0xc1, 0xeb, 0x1a, 0x61,
                                      0x1a, 0x8d, 0x62, 0x35, 0xb6, 0xb4, 0xb7, 0x8f, 0x32, 0xe7, 0xab,
                                      0xc4, 0xfb, 0x4c, 0x6c, 0xdc, 0xce, 0x94, 0x89, 0x5c, 0x47};
static const uint8_t kat_102400[32] = {0xbc, 0x3e, 0x3d, 0x41, 0xa1, 0x14, 0x6b, 0x06, 0x9a, 0xbf, 0xfa,
                                       0xd3, 0xc0, 0xd4, 0x48, 0x60, 0xcf, 0x66, 0x43, 0x90, 0xaf, 0xce,
                                       0x4d, 0x96, 0x61, 0xf7, 0x90, 0x2e, 0x79, 0x43, 0xe0, 0x85};

int kiln_blake3_many_selftest(kiln_blake3_many_fn many)
{
    enum { LEN = 102400 };
    uint8_t *in = malloc(LEN), got[32];
    if (!in) return 0;
    for (size_t i = 0; i < LEN; i++) in[i] = (uint8_t)(i % 251);
    kiln_blake3_ctx c;
    kiln_blake3_init(&c);
    kiln_blake3_update_with(&c, in, 31744, many);
    kiln_blake3_final(&c, got, sizeof got);
    int ok = memcmp(got, kat_31744, sizeof got) == 0;
    kiln_blake3_init(&c);
    kiln_blake3_update_with(&c, in, LEN, many);
    kiln_blake3_final(&c, got, sizeof got);
    ok &= memcmp(got, kat_102400, sizeof got) == 0;
    free(in);
    return ok;
}

static int many_selftest(const void *impl)
{
    return kiln_blake3_many_selftest(((const kiln_blake3_many_impl *)impl)->fn);
}

static const kiln_blake3_many_impl impl_portable = {"portable", 1, many_portable};

KILN_CPU_LADDER(many_ranking, "portable", impl_portable,
                {"avx512", KILN_NEEDS_AVX512 | KILN_NEEDS_AVX2,
                 &(const kiln_blake3_many_impl){"avx512", 16, kiln_blake3_many_avx512}, many_selftest},
                {"avx2", KILN_NEEDS_AVX2, &(const kiln_blake3_many_impl){"avx2", 8, kiln_blake3_many_avx2},
                 many_selftest})

const kiln_blake3_many_impl *kiln_blake3_many(void)
{
    return (const kiln_blake3_many_impl *)many_ranking()->usable[0]->impl;
}

const kiln_blake3_many_impl *kiln_blake3_many_portable(void) { return &impl_portable; }

static void load_words(const uint8_t *p, uint32_t w[8])
{
    for (int i = 0; i < 8; i++) w[i] = kiln_load_le32(p + 4 * i);
}

static void init_key(kiln_blake3_ctx *c, const uint32_t key[8], uint32_t flags)
{
    memcpy(c->key, key, sizeof c->key);
    memcpy(c->cv, key, sizeof c->cv);
    c->chunk = 0;
    c->stack_n = 0;
    c->flags = flags;
    c->chunk_len = c->buf_len = 0;
}

void kiln_blake3_init(kiln_blake3_ctx *c)
{
    uint32_t iv[8];
    kiln_blake3_iv(iv);
    init_key(c, iv, 0);
}

void kiln_blake3_init_keyed(kiln_blake3_ctx *c, const uint8_t key[KILN_BLAKE3_KEY])
{
    uint32_t k[8];
    load_words(key, k);
    init_key(c, k, KILN_BLAKE3_KEYED_HASH);
}

void kiln_blake3_init_derive_key(kiln_blake3_ctx *c, const char *context, size_t context_len)
{
    uint32_t iv[8], k[8];
    uint8_t key[KILN_BLAKE3_KEY];
    kiln_blake3_iv(iv);
    init_key(c, iv, KILN_BLAKE3_DERIVE_KEY_CONTEXT);
    kiln_blake3_update(c, context, context_len);
    kiln_blake3_final(c, key, sizeof key);
    load_words(key, k);
    init_key(c, k, KILN_BLAKE3_DERIVE_KEY_MATERIAL);
}

/* n whole chunks at p, the first the context's current one (empty): runs through the kernel, each
 * cut into aligned complete subtrees merged to their roots and pushed. The last chunk may end the
 * message: the stack's top entry is only merged once more input comes. */
static void whole_chunks(kiln_blake3_ctx *c, const uint8_t *p, size_t n, kiln_blake3_many_fn many)
{
    uint8_t cvs[32 * RUN_CHUNKS], tmp[16 * RUN_CHUNKS];
    while (n) {
        size_t run = n < RUN_CHUNKS ? n : RUN_CHUNKS;
        many(p, KILN_BLAKE3_CHUNK, run, KILN_BLAKE3_CHUNK / KILN_BLAKE3_BLOCK, KILN_BLAKE3_BLOCK, c->key, c->chunk, 1,
             c->flags, KILN_BLAKE3_CHUNK_START, KILN_BLAKE3_CHUNK_END, cvs);
        for (size_t i = 0; i < run;) {
            /* the largest subtree that starts at chunk c->chunk (aligned to its size) and fits */
            size_t k = 1;
            while (2 * k <= run - i && (c->chunk & (2 * k - 1)) == 0) k *= 2;
            uint8_t *src = cvs + 32 * i;
            for (size_t m = k; m > 1; m /= 2) {
                uint8_t *dst = src == tmp ? cvs + 32 * i : tmp;
                many(src, 2 * 32, m / 2, 1, KILN_BLAKE3_BLOCK, c->key, 0, 0, c->flags | KILN_BLAKE3_PARENT, 0, 0, dst);
                src = dst;
            }
            uint32_t cv[8];
            load_words(src, cv);
            kiln_blake3_stack_push(c->stack, &c->stack_n, c->key, c->flags, cv, c->chunk);
            c->chunk += k;
            i += k;
        }
        p += run * KILN_BLAKE3_CHUNK;
        n -= run;
    }
}

void kiln_blake3_update_with(kiln_blake3_ctx *c, const void *data, size_t len, kiln_blake3_many_fn many)
{
    const uint8_t *p = data;
    while (len) {
        if (c->chunk_len == KILN_BLAKE3_CHUNK) { /* more input: the full chunk was not the last */
            uint32_t m[16];
            kiln_blake3_load_block(c->buf, KILN_BLAKE3_BLOCK, m);
            kiln_blake3_compress_cv(c->cv, m, c->chunk, KILN_BLAKE3_BLOCK, c->flags | KILN_BLAKE3_CHUNK_END);
            kiln_blake3_stack_push(c->stack, &c->stack_n, c->key, c->flags, c->cv, c->chunk);
            c->chunk++;
            memcpy(c->cv, c->key, sizeof c->cv);
            c->chunk_len = c->buf_len = 0;
        }
        if (c->chunk_len == 0 && len >= KILN_BLAKE3_CHUNK) {
            /* Whole chunks, the last one included: a subtree pushed may be the message's end, as
             * its last entry is never merged before more comes. Only a first subtree (chunk 0)
             * that reaches the end of the data could be the whole message, whose root needs its
             * flag: there the last chunk goes the slow way, through the context's block. */
            size_t n = len / KILN_BLAKE3_CHUNK;
            if (c->chunk == 0 && n * KILN_BLAKE3_CHUNK == len) n--;
            if (n) {
                whole_chunks(c, p, n, many);
                p += n * KILN_BLAKE3_CHUNK;
                len -= n * KILN_BLAKE3_CHUNK;
                continue;
            }
        }
        if (c->chunk_len == 0) /* a chunk begins: the subtrees to its left are complete */
            kiln_blake3_stack_merge(c->stack, &c->stack_n, c->key, c->flags, c->chunk);
        if (c->buf_len == KILN_BLAKE3_BLOCK) { /* more input for this chunk: its block is not the last */
            uint32_t m[16];
            kiln_blake3_load_block(c->buf, KILN_BLAKE3_BLOCK, m);
            uint32_t start = c->chunk_len == KILN_BLAKE3_BLOCK ? KILN_BLAKE3_CHUNK_START : 0;
            kiln_blake3_compress_cv(c->cv, m, c->chunk, KILN_BLAKE3_BLOCK, c->flags | start);
            c->buf_len = 0;
        }
        size_t take = KILN_BLAKE3_BLOCK - c->buf_len < len ? KILN_BLAKE3_BLOCK - c->buf_len : len;
        memcpy(c->buf + c->buf_len, p, take);
        c->buf_len += (uint32_t)take;
        c->chunk_len += (uint32_t)take;
        p += take;
        len -= take;
    }
}

void kiln_blake3_update(kiln_blake3_ctx *c, const void *data, size_t len)
{
    if (len) kiln_blake3_update_with(c, data, len, kiln_blake3_many()->fn);
}

void kiln_blake3_final(const kiln_blake3_ctx *c, uint8_t *out, size_t outlen)
{
    kiln_blake3_output o;
    uint32_t n = c->stack_n;
    if (c->chunk_len == 0 && c->chunk > 0) {
        /* the data ended with a whole chunk, pushed: the top two entries are the last parent's
         * children (the one below was merged before the last was pushed, so there are two) */
        n -= 2;
        kiln_blake3_parent_output(c->key, c->stack + 8 * n, c->stack + 8 * (n + 1), c->flags, &o);
        /* the entries below are merged as far as the chunk before the last subtree allowed */
    } else {
        memcpy(o.cv, c->cv, sizeof o.cv);
        kiln_blake3_load_block(c->buf, c->buf_len, o.block);
        o.counter = c->chunk;
        o.block_len = c->buf_len;
        o.flags = c->flags | KILN_BLAKE3_CHUNK_END | (c->chunk_len <= KILN_BLAKE3_BLOCK ? KILN_BLAKE3_CHUNK_START : 0);
    }
    kiln_blake3_stack_roll_up(c->stack, n, c->key, c->flags, &o);
    for (uint64_t index = 0; outlen; index++) {
        uint32_t w[16];
        uint8_t bytes[KILN_BLAKE3_BLOCK];
        kiln_blake3_output_root(&o, index, w);
        for (int i = 0; i < 16; i++) kiln_store_le32(bytes + 4 * i, w[i]);
        size_t take = outlen < sizeof bytes ? outlen : sizeof bytes;
        memcpy(out, bytes, take);
        out += take;
        outlen -= take;
    }
}

/* Messages of one chunk or less, in groups copied into zero-padded slots of whole blocks (unless
 * they are whole blocks already), so that the kernel hashes them in its lanes. */
#define BATCH_GROUP 64

static void streams(const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        kiln_blake3_ctx c;
        kiln_blake3_init(&c);
        kiln_blake3_update(&c, data + i * msg_len, msg_len);
        kiln_blake3_final(&c, out + i * KILN_BLAKE3_OUT, KILN_BLAKE3_OUT);
    }
}

void kiln_blake3_batch(const uint8_t *data, size_t msg_len, size_t n, uint8_t *out)
{
    if (msg_len > KILN_BLAKE3_CHUNK) {
        streams(data, msg_len, n, out);
        return;
    }
    uint32_t iv[8];
    kiln_blake3_iv(iv);
    const size_t blocks = msg_len ? (msg_len + KILN_BLAKE3_BLOCK - 1) / KILN_BLAKE3_BLOCK : 1;
    const uint32_t last = (uint32_t)(msg_len - KILN_BLAKE3_BLOCK * (blocks - 1));
    const kiln_blake3_many_fn many = kiln_blake3_many()->fn;
    const uint32_t start = KILN_BLAKE3_CHUNK_START, end = KILN_BLAKE3_CHUNK_END | KILN_BLAKE3_ROOT;
    if (last == KILN_BLAKE3_BLOCK) {
        many(data, msg_len, n, blocks, last, iv, 0, 0, 0, start, end, out);
        return;
    }
    const size_t slot = KILN_BLAKE3_BLOCK * blocks;
    uint8_t *pad = malloc(BATCH_GROUP * slot);
    if (!pad) { /* no room for the slots: one stream a message */
        streams(data, msg_len, n, out);
        return;
    }
    memset(pad, 0, BATCH_GROUP * slot);
    for (size_t i = 0; i < n; i += BATCH_GROUP) {
        size_t g = n - i < BATCH_GROUP ? n - i : BATCH_GROUP;
        for (size_t k = 0; k < g; k++) memcpy(pad + k * slot, data + (i + k) * msg_len, msg_len);
        many(pad, slot, g, blocks, last, iv, 0, 0, 0, start, end, out + i * KILN_BLAKE3_OUT);
    }
    free(pad);
}
