/* The coinbase transaction and the block around it: BIP 34 height, the extranonce, the payout,
 * the BIP 141 witness commitment, the Merkle root (from the coinbase's txid and the branch of the
 * template's txids) and the serialized block for submitblock. Hashes are raw (internal) bytes. */
#ifndef KILN_SOLO_COINBASE_H
#define KILN_SOLO_COINBASE_H

#include <stddef.h>
#include <stdint.h>

#define CB_MAX 512 /* a coinbase kiln builds: scriptSig <= 100 bytes, two outputs, one witness */
#define MERKLE_BRANCH_MAX 32

typedef struct cb_params {
    int64_t height;
    const uint8_t *aux; /* coinbaseaux bytes, pushed after the height (may be NULL) */
    size_t aux_len;
    uint64_t extranonce;
    const uint8_t *payout; /* scriptPubKey */
    size_t payout_len;
    int64_t value;
    const uint8_t *commit; /* the witness commitment output's script, NULL for none */
    size_t commit_len;
} cb_params;

/* Writes the coinbase (witness: with the marker, flag and the 32-zero-byte reserved value, used
 * when there is a commitment; otherwise the legacy serialization). Returns its length, 0 when it
 * does not fit or the scriptSig would exceed 100 bytes. */
size_t coinbase_build(const cb_params *p, int witness, uint8_t *out, size_t cap);
/* BIP 34: the height as Bitcoin Core's CScript() << height writes it (OP_0, OP_1..OP_16 or a
 * minimal little-endian number push). Returns the bytes written (at most 9). */
size_t bip34_push(int64_t height, uint8_t out[9]);

/* The Merkle branch of leaf 0 over txids[0..n) preceded by the coinbase (n + 1 leaves, Bitcoin's
 * odd-level rule): *count siblings, bottom first. 0, or -1 without memory. */
int merkle_branch0(const uint8_t *txids, size_t n, uint8_t *branch, int *count);
/* The root from the coinbase's txid and that branch. */
void merkle_root_from_branch(const uint8_t leaf[32], const uint8_t *branch, int count, uint8_t root[32]);
/* BIP 141: commitment = sha256d(witness root || reserved value), the witness root being the tree of
 * the wtxids with the coinbase's as 32 zero bytes; writes the commitment output's 38-byte script
 * (OP_RETURN, push 36, aa21a9ed, commitment). 0, or -1 without memory. */
int witness_commitment(const uint8_t *wtxids, size_t n, const uint8_t reserved[32], uint8_t script[38]);

/* CompactSize; returns its length. */
size_t put_compact(uint8_t *out, uint64_t v);

#endif
