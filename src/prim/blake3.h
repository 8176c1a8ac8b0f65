/* BLAKE3 (the BLAKE3 specification, O'Connor, Aumasson, Neves, Wilcox-O'Hearn, 2020): the
 * compression function, the parent and root outputs, the chaining-value stack, and a
 * block-by-block hasher over words (the GPU kernels'), for host and device. Pure functions over
 * uint32_t words; no allocation, no I/O. The host's streaming hasher, which feeds SIMD lanes, is
 * src/hash/blake3.c.
 *
 * A message is cut into chunks of 1024 bytes, each 16 blocks of 64 bytes compressed in a chain
 * from the key (the IV when unkeyed) with the chunk's index as the counter; the chunks' chaining
 * values are the leaves of a binary tree whose left subtrees are complete, each parent one
 * compression of left || right with counter 0. The root's compression, flagged ROOT, gives any
 * number of output bytes: 64 per counter value. */
#ifndef KILN_PRIM_BLAKE3_H
#define KILN_PRIM_BLAKE3_H

#include "blake2.h"
#include "bytes.h"
#include "kiln_hd.h"
#include "sha256.h"

#define KILN_BLAKE3_BLOCK 64
#define KILN_BLAKE3_CHUNK 1024
#define KILN_BLAKE3_KEY 32
#define KILN_BLAKE3_OUT 32

/* The domain flags (specification, table 3). */
#define KILN_BLAKE3_CHUNK_START 1u
#define KILN_BLAKE3_CHUNK_END 2u
#define KILN_BLAKE3_PARENT 4u
#define KILN_BLAKE3_ROOT 8u
#define KILN_BLAKE3_KEYED_HASH 16u
#define KILN_BLAKE3_DERIVE_KEY_CONTEXT 32u
#define KILN_BLAKE3_DERIVE_KEY_MATERIAL 64u

/* The IV is SHA-256's initial hash value (specification, section 2.2). */
KILN_HD void kiln_blake3_iv(uint32_t k[8])
{
    k[0] = KILN_SHA256_IV0;
    k[1] = KILN_SHA256_IV1;
    k[2] = KILN_SHA256_IV2;
    k[3] = KILN_SHA256_IV3;
    k[4] = KILN_SHA256_IV4;
    k[5] = KILN_SHA256_IV5;
    k[6] = KILN_SHA256_IV6;
    k[7] = KILN_SHA256_IV7;
}

/* The quarter-round G: BLAKE2s's, rotations 16, 12, 8, 7 (the BLAKE3 specification, section 2.2). */
#define KILN_BLAKE3_G KILN_BLAKE2S_G

/* One round: the columns, then the diagonals, message words in the order m[0..15]. */
KILN_HD void kiln_blake3_round(uint32_t v[16], const uint32_t m[16])
{
    KILN_BLAKE3_G(v, 0, 4, 8, 12, m[0], m[1]);
    KILN_BLAKE3_G(v, 1, 5, 9, 13, m[2], m[3]);
    KILN_BLAKE3_G(v, 2, 6, 10, 14, m[4], m[5]);
    KILN_BLAKE3_G(v, 3, 7, 11, 15, m[6], m[7]);
    KILN_BLAKE3_G(v, 0, 5, 10, 15, m[8], m[9]);
    KILN_BLAKE3_G(v, 1, 6, 11, 12, m[10], m[11]);
    KILN_BLAKE3_G(v, 2, 7, 8, 13, m[12], m[13]);
    KILN_BLAKE3_G(v, 3, 4, 9, 14, m[14], m[15]);
}

/* The message permutation between rounds (specification, table 2), applied in place: word i
 * of the next round is word perm[i] of this one. Written out so that, unrolled, it is only a
 * renaming of registers. */
KILN_HD void kiln_blake3_permute(uint32_t m[16])
{
    uint32_t t[16];
    t[0] = m[2];
    t[1] = m[6];
    t[2] = m[3];
    t[3] = m[10];
    t[4] = m[7];
    t[5] = m[0];
    t[6] = m[4];
    t[7] = m[13];
    t[8] = m[1];
    t[9] = m[11];
    t[10] = m[12];
    t[11] = m[5];
    t[12] = m[9];
    t[13] = m[14];
    t[14] = m[15];
    t[15] = m[8];
    KILN_OCL_UNROLL
    for (int i = 0; i < 16; i++) m[i] = t[i];
}

/* The full compression: v receives the 16 state words after the 7 rounds, before the feed-forward
 * (kiln_blake3_compress_cv and kiln_blake3_compress_xof apply it). The message is taken by value
 * (copied) because the permutation moves its words. */
KILN_HD void kiln_blake3_rounds(const uint32_t cv[8], const uint32_t block[16], uint64_t counter, uint32_t block_len,
                                uint32_t flags, uint32_t v[16])
{
    uint32_t m[16];
    KILN_OCL_UNROLL
    for (int i = 0; i < 16; i++) m[i] = block[i];
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) v[i] = cv[i];
    v[8] = KILN_SHA256_IV0;
    v[9] = KILN_SHA256_IV1;
    v[10] = KILN_SHA256_IV2;
    v[11] = KILN_SHA256_IV3;
    v[12] = (uint32_t)counter;
    v[13] = (uint32_t)(counter >> 32);
    v[14] = block_len;
    v[15] = flags;
    KILN_OCL_UNROLL
    for (int r = 0; r < 7; r++) {
        kiln_blake3_round(v, m);
        if (r < 6) kiln_blake3_permute(m);
    }
}

/* The chaining value: the first half of the output, state[i] ^ state[i + 8]; written over cv, so a
 * chunk's chain is one array. */
KILN_HD void kiln_blake3_compress_cv(uint32_t cv[8], const uint32_t block[16], uint64_t counter, uint32_t block_len,
                                     uint32_t flags)
{
    uint32_t v[16];
    kiln_blake3_rounds(cv, block, counter, block_len, flags, v);
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) cv[i] = v[i] ^ v[i + 8];
}

/* The whole 64-byte output of a root compression (counter = the output block's index), as 16
 * words: state[i] ^ state[i + 8], then state[i + 8] ^ cv[i]. */
KILN_HD void kiln_blake3_compress_xof(const uint32_t cv[8], const uint32_t block[16], uint64_t counter,
                                      uint32_t block_len, uint32_t flags, uint32_t out[16])
{
    uint32_t v[16];
    kiln_blake3_rounds(cv, block, counter, block_len, flags, v);
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) {
        out[i] = v[i] ^ v[i + 8];
        out[i + 8] = v[i + 8] ^ cv[i];
    }
}

/* n (0..64) bytes of a block as 16 little-endian words, zero-padded. */
KILN_HD void kiln_blake3_load_block(const uint8_t *p, uint32_t n, uint32_t m[16])
{
    if (n == KILN_BLAKE3_BLOCK) {
        KILN_OCL_UNROLL
        for (int i = 0; i < 16; i++) m[i] = kiln_load_le32(p + 4 * i);
        return;
    }
    for (int i = 0; i < 16; i++) m[i] = 0;
    for (uint32_t i = 0; i < n; i++) m[i / 4] |= (uint32_t)p[i] << (8 * (i % 4));
}

/* A parent's block: the left child's chaining value, then the right's. */
KILN_HD void kiln_blake3_parent_block(const uint32_t l[8], const uint32_t r[8], uint32_t m[16])
{
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) {
        m[i] = l[i];
        m[8 + i] = r[i];
    }
}

/* A parent's chaining value (not the root: a root parent goes through the XOF output). */
KILN_HD void kiln_blake3_parent_cv(const uint32_t key[8], const uint32_t l[8], const uint32_t r[8], uint32_t flags,
                                   uint32_t out[8])
{
    uint32_t m[16];
    kiln_blake3_parent_block(l, r, m);
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) out[i] = key[i];
    kiln_blake3_compress_cv(out, m, 0, KILN_BLAKE3_BLOCK, flags | KILN_BLAKE3_PARENT);
}

/* What the root's compression takes, kept so that the output can be read at any counter: the
 * chaining value going in, the block, its length and flags (ROOT added when output is read). */
typedef struct kiln_blake3_output {
    uint32_t cv[8];
    uint32_t block[16];
    uint64_t counter; /* a chunk's index; 0 for a parent (a root's counter is the output block's) */
    uint32_t block_len;
    uint32_t flags;
} kiln_blake3_output;

/* The chaining value of a chunk's or a parent's output (when it is not the root). */
KILN_HD void kiln_blake3_output_cv(const kiln_blake3_output *o, uint32_t cv[8])
{
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) cv[i] = o->cv[i];
    kiln_blake3_compress_cv(cv, o->block, o->counter, o->block_len, o->flags);
}

/* Output block `index` (64 bytes, 16 words) of a root. */
KILN_HD void kiln_blake3_output_root(const kiln_blake3_output *o, uint64_t index, uint32_t out[16])
{
    kiln_blake3_compress_xof(o->cv, o->block, index, o->block_len, o->flags | KILN_BLAKE3_ROOT, out);
}

/* A parent as an output: the block left || right from key, flagged PARENT. */
KILN_HD void kiln_blake3_parent_output(const uint32_t key[8], const uint32_t l[8], const uint32_t r[8], uint32_t flags,
                                       kiln_blake3_output *o)
{
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) o->cv[i] = key[i];
    kiln_blake3_parent_block(l, r, o->block);
    o->counter = 0;
    o->block_len = KILN_BLAKE3_BLOCK;
    o->flags = flags | KILN_BLAKE3_PARENT;
}

/* The chaining-value stack: the roots of the complete subtrees to the left of the chunk being
 * hashed, largest first, 8 words each; merged, one for each set bit of the number of chunks they
 * cover, so 2^54 chunks (16 EiB) need 54 entries, and one more before a merge. */
#define KILN_BLAKE3_MAX_DEPTH 54

KILN_HD uint32_t kiln_blake3_popcount(uint64_t x)
{
    uint32_t n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* Merges the stack's top subtrees until it holds one a set bit of t, its chunk count: the
 * binary digits of t, largest first. Done only once a chunk after them is known to exist (its
 * first byte, or the next push), so that no merge here is the root. */
KILN_HD void kiln_blake3_stack_merge(uint32_t *stack, uint32_t *n, const uint32_t key[8], uint32_t flags, uint64_t t)
{
    while (*n > kiln_blake3_popcount(t)) {
        uint32_t *l = stack + 8 * (*n - 2), *r = stack + 8 * (*n - 1);
        kiln_blake3_parent_cv(key, l, r, flags, l);
        (*n)--;
    }
}

/* Pushes cv, the root of a complete subtree (a chunk, or 2^k chunks aligned to their number) that
 * starts at chunk t, the stack's chunk count. The stack is merged first (the subtree comes after
 * its entries), the new entry is not: it may be the message's last. */
KILN_HD void kiln_blake3_stack_push(uint32_t *stack, uint32_t *n, const uint32_t key[8], uint32_t flags,
                                    const uint32_t cv[8], uint64_t t)
{
    kiln_blake3_stack_merge(stack, n, key, flags, t);
    uint32_t *top = stack + 8 * *n;
    for (int i = 0; i < 8; i++) top[i] = cv[i];
    (*n)++;
}

/* The last chunk's output o joined to the stack's subtrees (merged: kiln_blake3_stack_merge),
 * right to left: o becomes the root's output (what kiln_blake3_output_root reads). */
KILN_HD void kiln_blake3_stack_roll_up(const uint32_t *stack, uint32_t n, const uint32_t key[8], uint32_t flags,
                                       kiln_blake3_output *o)
{
    while (n > 0) {
        uint32_t cv[8];
        kiln_blake3_output_cv(o, cv);
        n--;
        kiln_blake3_parent_output(key, stack + 8 * n, cv, flags, o);
    }
}

/* A message hashed block by block from words, as a GPU kernel reads it (each backend loads its
 * blocks its own way): the chain of the current chunk and the stack, 1.8 KiB (a kernel's local
 * memory), enough for a message of any length. */
typedef struct kiln_blake3_blocks {
    uint32_t key[8];
    uint32_t cv[8];
    uint32_t stack[8 * (KILN_BLAKE3_MAX_DEPTH + 1)];
    uint64_t chunk; /* the current chunk's index */
    uint32_t n;     /* stack entries */
    uint32_t block; /* the next block's index in its chunk */
    uint32_t flags; /* the mode's: KEYED_HASH, DERIVE_KEY_* or none */
} kiln_blake3_blocks;

KILN_HD void kiln_blake3_blocks_init(kiln_blake3_blocks *h, const uint32_t key[8], uint32_t flags)
{
    for (int i = 0; i < 8; i++) h->key[i] = h->cv[i] = key[i];
    h->chunk = 0;
    h->n = 0;
    h->block = 0;
    h->flags = flags;
}

/* The next block m (16 words, zero-padded) of blen bytes: 64, except that the message's last
 * block (last set: the only one of an empty message, blen 0) has 0..64. After the last, o holds
 * the root's output (kiln_blake3_output_root). */
KILN_HD void kiln_blake3_blocks_next(kiln_blake3_blocks *h, const uint32_t m[16], uint32_t blen, int last,
                                     kiln_blake3_output *o)
{
    uint32_t f = h->flags | (h->block == 0 ? KILN_BLAKE3_CHUNK_START : 0);
    if (last) {
        for (int i = 0; i < 8; i++) o->cv[i] = h->cv[i];
        for (int i = 0; i < 16; i++) o->block[i] = m[i];
        o->counter = h->chunk;
        o->block_len = blen;
        o->flags = f | KILN_BLAKE3_CHUNK_END;
        kiln_blake3_stack_merge(h->stack, &h->n, h->key, h->flags, h->chunk);
        kiln_blake3_stack_roll_up(h->stack, h->n, h->key, h->flags, o);
        return;
    }
    const int chunk_end = h->block == KILN_BLAKE3_CHUNK / KILN_BLAKE3_BLOCK - 1;
    kiln_blake3_compress_cv(h->cv, m, h->chunk, KILN_BLAKE3_BLOCK, f | (chunk_end ? KILN_BLAKE3_CHUNK_END : 0));
    h->block++;
    if (!chunk_end) return;
    kiln_blake3_stack_push(h->stack, &h->n, h->key, h->flags, h->cv, h->chunk);
    h->chunk++;
    h->block = 0;
    for (int i = 0; i < 8; i++) h->cv[i] = h->key[i];
}

/* BLAKE3 of one 64-byte message left || right, unkeyed: a single chunk of a single block, so one
 * compression flagged CHUNK_START | CHUNK_END | ROOT; the first 8 output words. The Merkle merge
 * kind `blake3` (the nodes are 8 little-endian words, as BLAKE3 reads and writes its words). */
KILN_HD void kiln_blake3_of_pair(const uint32_t l[8], const uint32_t r[8], uint32_t out[8])
{
    uint32_t m[16];
    kiln_blake3_parent_block(l, r, m);
    kiln_blake3_iv(out);
    kiln_blake3_compress_cv(out, m, 0, KILN_BLAKE3_BLOCK,
                            KILN_BLAKE3_CHUNK_START | KILN_BLAKE3_CHUNK_END | KILN_BLAKE3_ROOT);
}

#endif
