/* What poseidon2.h and poseidon2_goldilocks.h share: the unrolling of the partial rounds, and the
 * codes the Poseidon2 constants headers write an internal diagonal entry V_i with (each list
 * `D(i, code)`): +-2^e for -32 < e <= 2 and +-3, Plonky3's choice of entries that cost additions,
 * halvings or one reduction instead of a multiplication. A code's sign is V_i's; its magnitude
 * KILN_P2_MAG3 means 3, else 2^(magnitude - 64). */
#ifndef KILN_PRIM_POSEIDON2_DIAG_H
#define KILN_PRIM_POSEIDON2_DIAG_H

#include "kiln_hd.h"

#define KILN_P2_POS(e) (64 + (e))
#define KILN_P2_NEG(e) (-(64 + (e)))
#define KILN_P2_MAG3 128

/* The partial rounds: unrolled by nvcc (all 13 of BabyBear's, the round constants then immediate
 * operands); OpenCL's LLVM declines a full unroll of that size and warns, so it decides there. */
#if defined(__CUDA_ARCH__)
#define KILN_P2_UNROLL_PARTIAL _Pragma("unroll")
#else
#define KILN_P2_UNROLL_PARTIAL
#endif

/* case i: return code; for a switch over a constants header's list (the header's POS, NEG, POS3
 * and NEG3 names are defined around that switch, then undefined). */
#define KILN_P2_DIAG_CASE(i, code) \
    case i: return code;

#endif
