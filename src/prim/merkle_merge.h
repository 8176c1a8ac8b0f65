/* The two-to-one merges Merkle trees are built over, for host and device.
 *
 * A node is 32 bytes. In registers it is 8 words, word i = bytes 4i..4i+3 read little-endian (what a
 * 16-byte vector load gives on both the CPU and the GPU), so the same function serves the CPU
 * backend, which loads bytes, and the kernels, which load uint4. SHA-256 reads its message and
 * writes its digest big-endian, so it swaps each word; an Rp64_256 or Poseidon2-over-Goldilocks
 * digest is 4 little-endian u64 elements, two words each; a Poseidon2 digest over BabyBear or
 * KoalaBear is 8 elements, one word each. Field elements are canonical (below p) in a node. */
#ifndef KILN_PRIM_MERKLE_MERGE_H
#define KILN_PRIM_MERKLE_MERGE_H

#include "blake2.h"
#include "blake3.h"
#include "bytes.h"
#include "keccak.h"
#include "kiln_hd.h"
#include "poseidon2.h"
#include "poseidon2_goldilocks.h"
#include "poseidon2_sponge.h"
#include "rescue.h"
#include "rpo.h"
#include "sha256.h"


#define KILN_NODE_WORDS 8

/* What a node holds, for the merges over field elements: bytes (any 32 bytes), or canonical
 * elements of a field. */
#define KILN_NODE_BYTES 0
#define KILN_NODE_GOLDILOCKS 1 /* 4 little-endian u64, each below 2^64 - 2^32 + 1 */
#define KILN_NODE_BABYBEAR 2 /* 8 little-endian u32, each below 2^31 - 2^27 + 1 */
#define KILN_NODE_KOALABEAR 3 /* 8 little-endian u32, each below 2^31 - 2^24 + 1 */

KILN_HD void kiln_node_load(const uint8_t *p, uint32_t w[KILN_NODE_WORDS])
{
    KILN_OCL_UNROLL
    for (int i = 0; i < KILN_NODE_WORDS; i++) w[i] = kiln_load_le32(p + 4 * i);
}

KILN_HD void kiln_node_store(uint8_t *p, const uint32_t w[KILN_NODE_WORDS])
{
    KILN_OCL_UNROLL
    for (int i = 0; i < KILN_NODE_WORDS; i++) kiln_store_le32(p + 4 * i, w[i]);
}

/* SHA-256 of the 64-byte message left || right, as big-endian state words: the message block, then
 * the padding block, whose words are all constants (0x80000000, zeros, bit length 512). */
KILN_HD void kiln_merge_sha256_state(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                     uint32_t st[8])
{
    uint32_t block[16];
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) {
        block[i] = kiln_bswap32(l[i]);
        block[8 + i] = kiln_bswap32(r[i]);
    }
    kiln_sha256_iv(st);
    kiln_sha256_compress_words(st, block);
    block[0] = 0x80000000u;
    for (int i = 1; i < 15; i++) block[i] = 0;
    block[15] = 512;
    kiln_sha256_compress_words(st, block);
}

KILN_HD void kiln_merge_sha256(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                               uint32_t out[KILN_NODE_WORDS])
{
    uint32_t st[8];
    kiln_merge_sha256_state(l, r, st);
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) out[i] = kiln_bswap32(st[i]);
}

/* Bitcoin's merge: sha256d(left || right) over raw (internal byte order) hashes. */
KILN_HD void kiln_merge_sha256d(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                uint32_t out[KILN_NODE_WORDS])
{
    uint32_t st[8], st2[8];
    kiln_merge_sha256_state(l, r, st);
    kiln_sha256_of_digest_words(st, st2);
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) out[i] = kiln_bswap32(st2[i]);
}

KILN_HD void kiln_node_to_elements(const uint32_t w[KILN_NODE_WORDS], uint64_t e[KILN_RP64_DIGEST])
{
    KILN_OCL_UNROLL
    for (int i = 0; i < KILN_RP64_DIGEST; i++) e[i] = (uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32);
}

KILN_HD void kiln_elements_to_node(const uint64_t e[KILN_RP64_DIGEST], uint32_t w[KILN_NODE_WORDS])
{
    KILN_OCL_UNROLL
    for (int i = 0; i < KILN_RP64_DIGEST; i++) {
        w[2 * i] = (uint32_t)e[i];
        w[2 * i + 1] = (uint32_t)(e[i] >> 32);
    }
}

/* Winterfell's Rp64_256 merge of two digests (4 canonical elements each). */
KILN_HD void kiln_merge_rp64(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                             uint32_t out[KILN_NODE_WORDS])
{
    uint64_t a[KILN_RP64_DIGEST], b[KILN_RP64_DIGEST], o[KILN_RP64_DIGEST];
    kiln_node_to_elements(l, a);
    kiln_node_to_elements(r, b);
    kiln_rp64_merge(a, b, o);
    kiln_elements_to_node(o, out);
}

/* 1 when the node's words are canonical elements of `field` (always for KILN_NODE_BYTES). */
KILN_HD int kiln_node_canonical(const uint32_t w[KILN_NODE_WORDS], int field)
{
    int ok = 1;
    if (field == KILN_NODE_GOLDILOCKS) {
        KILN_OCL_UNROLL
        for (int i = 0; i < 4; i++) ok &= ((uint64_t)w[2 * i] | ((uint64_t)w[2 * i + 1] << 32)) < KILN_GL_P;
    } else if (field == KILN_NODE_BABYBEAR || field == KILN_NODE_KOALABEAR) {
        const uint32_t p = field == KILN_NODE_BABYBEAR ? KILN_BB_P : KILN_KB_P;
        KILN_OCL_UNROLL
        for (int i = 0; i < KILN_NODE_WORDS; i++) ok &= w[i] < p;
    }
    return ok;
}

/* A pseudo-random 64-bit draw made into 8 canonical bytes of a node of `field` (the bench leaves):
 * less p when it is p or more (Goldilocks); each 32-bit half cut to 31 bits, less p when it is p or
 * more (BabyBear, KoalaBear: 2^31 < 2p, so once is enough); unchanged for bytes. */
KILN_HD uint64_t kiln_node_canon_draw(uint64_t v, int field)
{
    if (field == KILN_NODE_GOLDILOCKS) return v >= KILN_GL_P ? v - KILN_GL_P : v;
    if (field != KILN_NODE_BABYBEAR && field != KILN_NODE_KOALABEAR) return v;
    const uint32_t p = field == KILN_NODE_BABYBEAR ? KILN_BB_P : KILN_KB_P;
    uint32_t lo = (uint32_t)v & 0x7fffffffu, hi = (uint32_t)(v >> 32) & 0x7fffffffu;
    lo = lo >= p ? lo - p : lo;
    hi = hi >= p ? hi - p : hi;
    return (uint64_t)hi << 32 | lo;
}

/* Plonky3's 2-to-1 compression TruncatedPermutation<Poseidon2, 2, 8, 16> over BabyBear
 * (default_babybear_poseidon2_16): a node is 8 canonical elements. */
KILN_HD void kiln_merge_p2_bb16(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                uint32_t out[KILN_NODE_WORDS])
{
    kiln_p2_m31_compress16(l, r, out, KILN_P2_BABYBEAR);
}

/* The same over KoalaBear (default_koalabear_poseidon2_16). */
KILN_HD void kiln_merge_p2_kb16(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                uint32_t out[KILN_NODE_WORDS])
{
    kiln_p2_m31_compress16(l, r, out, KILN_P2_KOALABEAR);
}

/* TruncatedPermutation<Poseidon2, 2, 4, 8> over Goldilocks (default_goldilocks_poseidon2_8): a node
 * is 4 canonical elements. */
KILN_HD void kiln_merge_p2_gl8(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                               uint32_t out[KILN_NODE_WORDS])
{
    uint64_t a[4], b[4], o[4];
    kiln_node_to_elements(l, a);
    kiln_node_to_elements(r, b);
    kiln_p2_gl_compress8(a, b, o);
    kiln_elements_to_node(o, out);
}

/* One Keccak-f[1600] call: the 64-byte message left || right is 8 little-endian lanes, which are the
 * node words in pairs; with rate 136 (256-bit output) the padding is the domain byte at byte 64
 * (lane 8) and 0x80 at byte 135 (the top of lane 16); the digest is lanes 0..3. */
KILN_HD void kiln_merge_keccak_domain(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                      uint32_t out[KILN_NODE_WORDS], uint64_t domain)
{
    uint64_t s[KILN_KECCAK_LANES];
    KILN_OCL_UNROLL
    for (int i = 0; i < KILN_KECCAK_LANES; i++) s[i] = 0;
    KILN_OCL_UNROLL
    for (int i = 0; i < 4; i++) {
        s[i] = (uint64_t)l[2 * i] | ((uint64_t)l[2 * i + 1] << 32);
        s[4 + i] = (uint64_t)r[2 * i] | ((uint64_t)r[2 * i + 1] << 32);
    }
    s[8] = domain;
    s[16] = UINT64_C(0x80) << 56;
    kiln_keccak_f1600(s);
    KILN_OCL_UNROLL
    for (int i = 0; i < 4; i++) {
        out[2 * i] = (uint32_t)s[i];
        out[2 * i + 1] = (uint32_t)(s[i] >> 32);
    }
}

KILN_HD void kiln_merge_sha3_256(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                 uint32_t out[KILN_NODE_WORDS])
{
    kiln_merge_keccak_domain(l, r, out, KILN_KECCAK_DOMAIN_SHA3);
}

KILN_HD void kiln_merge_keccak256(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                  uint32_t out[KILN_NODE_WORDS])
{
    kiln_merge_keccak_domain(l, r, out, KILN_KECCAK_DOMAIN_KECCAK);
}

/* BLAKE2s-256(left || right). BLAKE2s reads its message words and writes its state little-endian,
 * as the node words are, so left || right is the 16 words of one block, which is also the last
 * (counter 64, final flag set). */
KILN_HD void kiln_merge_blake2s(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                uint32_t out[KILN_NODE_WORDS])
{
    uint32_t m[16];
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) {
        m[i] = l[i];
        m[8 + i] = r[i];
    }
    kiln_blake2s_init_default(out, KILN_BLAKE2S_OUT);
    kiln_blake2s_compress(out, m, 64, 0, 0xffffffffu, 0);
}

/* Stwo's Blake2sMerkleHasher::hash_node of two children and no column values
 * (crates/prover/src/core/vcs/blake2_merkle.rs): compress(state = [0; 8], left || right, count 0,
 * lastblock 0, lastnode 0), the state words the digest. Not BLAKE2s-256: no IV or parameter block
 * in the chaining value, no counter, no final flag. */
KILN_HD void kiln_merge_blake2s_stwo(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                     uint32_t out[KILN_NODE_WORDS])
{
    uint32_t m[16];
    KILN_OCL_UNROLL
    for (int i = 0; i < 8; i++) {
        m[i] = l[i];
        m[8 + i] = r[i];
        out[i] = 0;
    }
    kiln_blake2s_compress(out, m, 0, 0, 0, 0);
}

/* BLAKE3 of the 64-byte message left || right: BLAKE3 reads and writes little-endian words, which
 * the node words are, so this is one compression of them (prim/blake3.h). */
KILN_HD void kiln_merge_blake3(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                               uint32_t out[KILN_NODE_WORDS])
{
    kiln_blake3_of_pair(l, r, out);
}


/* miden-crypto's RPO256 merge of two digests (4 field elements each), prim/rpo.h. */
KILN_HD void kiln_merge_rpo256(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                               uint32_t out[KILN_NODE_WORDS])
{
    uint64_t a[KILN_RPO_DIGEST], b[KILN_RPO_DIGEST], o[KILN_RPO_DIGEST];
    kiln_node_to_elements(l, a);
    kiln_node_to_elements(r, b);
    kiln_rpo_merge(a, b, o);
    kiln_elements_to_node(o, out);
}

/* miden-crypto's Poseidon2::merge (TruncatedPermutation<Poseidon2, 2, 4, 12> over Goldilocks,
 * default_goldilocks_poseidon2_12): a node is 4 canonical elements. */
KILN_HD void kiln_merge_p2_gl12(const uint32_t l[KILN_NODE_WORDS], const uint32_t r[KILN_NODE_WORDS],
                                uint32_t out[KILN_NODE_WORDS])
{
    uint64_t a[4], b[4], o[4];
    kiln_node_to_elements(l, a);
    kiln_node_to_elements(r, b);
    kiln_p2_gl_compress12(a, b, o);
    kiln_elements_to_node(o, out);
}

#endif
