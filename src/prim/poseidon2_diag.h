/* The codes the Poseidon2 constants headers write an internal diagonal entry V_i with (each list
 * `D(i, code)`): +-2^e for -32 < e <= 2 and +-3, Plonky3's choice of entries that cost additions,
 * halvings or one reduction instead of a multiplication. A code's sign is V_i's; its magnitude
 * KILN_P2_MAG3 means 3, else 2^(magnitude - 64). */
#ifndef KILN_PRIM_POSEIDON2_DIAG_H
#define KILN_PRIM_POSEIDON2_DIAG_H

#define KILN_P2_POS(e) (64 + (e))
#define KILN_P2_NEG(e) (-(64 + (e)))
#define KILN_P2_MAG3 128

/* case i: return code; for a switch over a constants header's list (the header's POS, NEG, POS3
 * and NEG3 names are defined around that switch, then undefined). */
#define KILN_P2_DIAG_CASE(i, code) \
    case i: return code;

#endif
