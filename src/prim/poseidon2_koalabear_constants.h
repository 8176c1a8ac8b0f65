/* Poseidon2 round constants over KoalaBear (p = 2^31 - 2^24 + 1), the instances of Plonky3's default_koalabear_poseidon2_<width>()
 * constructors: Plonky3/Plonky3 koala-bear/src/poseidon2.rs at commit 5dc50e51436a811c62443e336f766015fecc9217
 * (Grain LFSR output, as that file lists them), in canonical form, round-major. Macro lists taking
 * the macro M that each element goes through (the 31-bit fields' Montgomery form, or nothing), so
 * that host tables and device constant memory share one copy. */
#ifndef KILN_PRIM_POSEIDON2_KOALABEAR_CONSTANTS_H
#define KILN_PRIM_POSEIDON2_KOALABEAR_CONSTANTS_H

/* KOALABEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL: 64 values */
#define KILN_P2_KB16_EXT_INIT(M) \
    M(0x7ee56a48), M(0x11367045), M(0x12e41941), M(0x7ebbc12b), M(0x1970b7d5), M(0x662b60e8), \
    M(0x3e4990c6), M(0x679f91f5), M(0x350813bb), M(0x00874ad4), M(0x28a0081a), M(0x18fa5872), \
    M(0x5f25b071), M(0x5e5d5998), M(0x5e6fd3e7), M(0x5b2e2660), M(0x6f1837bf), M(0x3fe6182b), \
    M(0x1edd7ac5), M(0x57470d00), M(0x43d486d5), M(0x1982c70f), M(0x0ea53af9), M(0x61d6165b), \
    M(0x51639c00), M(0x2dec352c), M(0x2950e531), M(0x2d2cb947), M(0x08256cef), M(0x1a0109f6), \
    M(0x1f51faf3), M(0x5cef1c62), M(0x3d65e50e), M(0x33d91626), M(0x133d5a1e), M(0x0ff49b0d), \
    M(0x38900cd1), M(0x2c22cc3f), M(0x28852bb2), M(0x06c65a02), M(0x7b2cf7bc), M(0x68016e1a), \
    M(0x15e16bc0), M(0x5248149a), M(0x6dd212a0), M(0x18d6830a), M(0x5001be82), M(0x64dac34e), \
    M(0x5902b287), M(0x426583a0), M(0x0c921632), M(0x3fe028a5), M(0x245f8e49), M(0x43bb297e), \
    M(0x7873dbd9), M(0x3cc987df), M(0x286bb4ce), M(0x640a8dcd), M(0x512a8e36), M(0x03a4cf55), \
    M(0x481837a2), M(0x03d6da84), M(0x73726ac7), M(0x760e7fdf)
#define KILN_P2_KB16_EXT_INIT_COUNT 64

/* KOALABEAR_POSEIDON2_RC_16_EXTERNAL_FINAL: 64 values */
#define KILN_P2_KB16_EXT_FINAL(M) \
    M(0x43e7dc24), M(0x259a5d61), M(0x27e85a3b), M(0x1b9133fa), M(0x343e5628), M(0x485cd4c2), \
    M(0x16e269f5), M(0x165b60c6), M(0x25f683d9), M(0x124f81f9), M(0x174331f9), M(0x77344dc5), \
    M(0x5a821dba), M(0x5fc4177f), M(0x54153bf5), M(0x5e3f1194), M(0x3bdbf191), M(0x088c84a3), \
    M(0x68256c9b), M(0x3c90bbc6), M(0x6846166a), M(0x03f4238d), M(0x463335fb), M(0x5e3d3551), \
    M(0x6e59ae6f), M(0x32d06cc0), M(0x596293f3), M(0x6c87edb2), M(0x08fc60b5), M(0x34bcca80), \
    M(0x24f007f3), M(0x62731c6f), M(0x1e1db6c6), M(0x0ca409bb), M(0x585c1e78), M(0x56e94edc), \
    M(0x16d22734), M(0x18e11467), M(0x7b2c3730), M(0x770075e4), M(0x35d1b18c), M(0x22be3db5), \
    M(0x4fb1fbb7), M(0x477cb3ed), M(0x7d5311c6), M(0x5b62ae7d), M(0x559c5fa8), M(0x77f15048), \
    M(0x3211570b), M(0x490fef6a), M(0x77ec311f), M(0x2247171b), M(0x4e0ac711), M(0x2edf69c9), \
    M(0x3b5a8850), M(0x65809421), M(0x5619b4aa), M(0x362019a7), M(0x6bf9d4ed), M(0x5b413dff), \
    M(0x617e181e), M(0x5e7ab57b), M(0x33ad7833), M(0x3466c7ca)
#define KILN_P2_KB16_EXT_FINAL_COUNT 64

/* KOALABEAR_POSEIDON2_RC_16_INTERNAL: 20 values */
#define KILN_P2_KB16_INTERNAL(M) \
    M(0x54dfeb5d), M(0x7d40afd6), M(0x722cb316), M(0x106a4573), M(0x45a7ccdb), M(0x44061375), \
    M(0x154077a5), M(0x45744faa), M(0x4eb5e5ee), M(0x3794e83f), M(0x47c7093c), M(0x5694903c), \
    M(0x69cb6299), M(0x373df84c), M(0x46a0df58), M(0x46b8758a), M(0x3241ebcb), M(0x0b09d233), \
    M(0x1af42357), M(0x1e66cec2)
#define KILN_P2_KB16_INTERNAL_COUNT 20

/* KOALABEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL: 96 values */
#define KILN_P2_KB24_EXT_INIT(M) \
    M(0x1d0939dc), M(0x6d050f8d), M(0x628058ad), M(0x2681385d), M(0x3e3c62be), M(0x032cfad8), \
    M(0x5a91ba3c), M(0x015a56e6), M(0x696b889c), M(0x0dbcd780), M(0x5881b5c9), M(0x2a076f2e), \
    M(0x55393055), M(0x6513a085), M(0x547ac78f), M(0x4281c5b8), M(0x3e7a3f6c), M(0x34562c19), \
    M(0x2c04e679), M(0x0ed78234), M(0x5f7a1aa9), M(0x0177640e), M(0x0ea4f8d1), M(0x15be7692), \
    M(0x6eafdd62), M(0x71a572c6), M(0x72416f0a), M(0x31ce1ad3), M(0x2136a0cf), M(0x1507c0eb), \
    M(0x1eb6e07a), M(0x3a0ccf7b), M(0x38e4bf31), M(0x44128286), M(0x6b05e976), M(0x244a9b92), \
    M(0x6e4b32a8), M(0x78ee2496), M(0x4761115b), M(0x3d3a7077), M(0x75d3c670), M(0x396a2475), \
    M(0x26dd00b4), M(0x7df50f59), M(0x0cb922df), M(0x0568b190), M(0x5bd3fcd6), M(0x1351f58e), \
    M(0x52191b5f), M(0x119171b8), M(0x1e8bb727), M(0x27d21f26), M(0x36146613), M(0x1ee817a2), \
    M(0x71abe84e), M(0x44b88070), M(0x5dc04410), M(0x2aeaa2f6), M(0x2b7bb311), M(0x6906884d), \
    M(0x0522e053), M(0x0c45a214), M(0x1b016998), M(0x479b1052), M(0x3acc89be), M(0x0776021a), \
    M(0x7a34a1f5), M(0x70f87911), M(0x2caf9d9e), M(0x026aff1b), M(0x2c42468e), M(0x67726b45), \
    M(0x09b6f53c), M(0x73d76589), M(0x5793eeb0), M(0x29e720f3), M(0x75fc8bdf), M(0x4c2fae0e), \
    M(0x20b41db3), M(0x7e491510), M(0x2cadef18), M(0x57fc24d6), M(0x4d1ade4a), M(0x36bf8e3c), \
    M(0x3511b63c), M(0x64d8476f), M(0x732ba706), M(0x46634978), M(0x0521c17c), M(0x5ee69212), \
    M(0x3559cba9), M(0x2b33df89), M(0x653538d6), M(0x5fde8344), M(0x4091605d), M(0x2933bdde)
#define KILN_P2_KB24_EXT_INIT_COUNT 96

/* KOALABEAR_POSEIDON2_RC_24_EXTERNAL_FINAL: 96 values */
#define KILN_P2_KB24_EXT_FINAL(M) \
    M(0x7d232359), M(0x389d82f9), M(0x259b2e6c), M(0x45a94def), M(0x0d497380), M(0x5b049135), \
    M(0x3c268399), M(0x78feb2f9), M(0x300a3eec), M(0x505165bb), M(0x20300973), M(0x2327c081), \
    M(0x1a45a2f4), M(0x5b32ea2e), M(0x2d5d1a70), M(0x053e613e), M(0x5433e39f), M(0x495529f0), \
    M(0x1eaa1aa9), M(0x578f572a), M(0x698ede71), M(0x5a0f9dba), M(0x398a2e96), M(0x0c7b2925), \
    M(0x2e6b9564), M(0x026b00de), M(0x7644c1e9), M(0x5c23d0bd), M(0x3470b5ef), M(0x6013cf3a), \
    M(0x48747288), M(0x13b7a543), M(0x3eaebd44), M(0x0004e60c), M(0x1e8363a2), M(0x2343259a), \
    M(0x69da0c2a), M(0x06e3e4c4), M(0x1095018e), M(0x0deea348), M(0x1f4c5513), M(0x4f9a3a98), \
    M(0x3179112b), M(0x524abb1f), M(0x21615ba2), M(0x23ab4065), M(0x1202a1d1), M(0x21d25b83), \
    M(0x6ed17c2f), M(0x391e6b09), M(0x5e4ed894), M(0x6a2f58f2), M(0x5d980d70), M(0x3fa48c5e), \
    M(0x1f6366f7), M(0x63540f5f), M(0x6a8235ed), M(0x14c12a78), M(0x6edde1c9), M(0x58ce1c22), \
    M(0x718588bb), M(0x334313ad), M(0x7478dbc7), M(0x647ad52f), M(0x39e82049), M(0x6fee146a), \
    M(0x082c2f24), M(0x1f093015), M(0x30173c18), M(0x53f70c0d), M(0x6028ab0c), M(0x2f47a1ee), \
    M(0x26a6780e), M(0x3540bc83), M(0x1812b49f), M(0x5149c827), M(0x631dd925), M(0x001f2dea), \
    M(0x7dc05194), M(0x3789672e), M(0x7cabf72e), M(0x242dbe2f), M(0x0b07a51d), M(0x38653650), \
    M(0x50785c4e), M(0x60e8a7e0), M(0x07464338), M(0x3482d6e1), M(0x08a69f1e), M(0x3f2aff24), \
    M(0x5814c30d), M(0x13fecab2), M(0x61cb291a), M(0x68c8226f), M(0x5c757eea), M(0x289b4e1e)
#define KILN_P2_KB24_EXT_FINAL_COUNT 96

/* KOALABEAR_POSEIDON2_RC_24_INTERNAL: 23 values */
#define KILN_P2_KB24_INTERNAL(M) \
    M(0x1395d4ca), M(0x5dbac049), M(0x51fc2727), M(0x13407399), M(0x39ac6953), M(0x45e8726c), \
    M(0x75a7311c), M(0x599f82c9), M(0x702cf13b), M(0x026b8955), M(0x44e09bbc), M(0x2211207f), \
    M(0x5128b4e3), M(0x591c41af), M(0x674f5c68), M(0x3981d0d3), M(0x2d82f898), M(0x707cd267), \
    M(0x3b4cca45), M(0x2ad0dc3c), M(0x0cb79b37), M(0x23f2f4e8), M(0x3de4e739)
#define KILN_P2_KB24_INTERNAL_COUNT 23

/* The internal layer's diagonal V: the matrix is 1 + Diag(V), 1 the all-ones matrix, so that
 * s_i <- V_i * s_i + sum(s). V as the file above states it in its comments (its "Optimized Diagonal"),
 * entry i as D(i, code), the code POS(e) for +2^e, NEG(e) for -2^e, POS3 for 3, NEG3 for -3. */
/* KoalaBear16: [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/8, 1/2^24, -1/2^8, -1/8, -1/16, -1/2^24] */
#define KILN_P2_KB16_DIAG(D) \
    D(0, NEG(1)) D(1, POS(0)) D(2, POS(1)) D(3, POS(-1)) D(4, POS3) D(5, POS(2)) D(6, NEG(-1)) \
    D(7, NEG3) D(8, NEG(2)) D(9, POS(-8)) D(10, POS(-3)) D(11, POS(-24)) D(12, NEG(-8)) \
    D(13, NEG(-3)) D(14, NEG(-4)) D(15, NEG(-24))
/* KoalaBear24: [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/4, 1/8, 1/16, 1/32, 1/64, 1/2^24, -1/2^8, -1/8,
 *               -1/16, -1/32, -1/64, -1/2^7, -1/2^9, -1/2^24] */
#define KILN_P2_KB24_DIAG(D) \
    D(0, NEG(1)) D(1, POS(0)) D(2, POS(1)) D(3, POS(-1)) D(4, POS3) D(5, POS(2)) D(6, NEG(-1)) \
    D(7, NEG3) D(8, NEG(2)) D(9, POS(-8)) D(10, POS(-2)) D(11, POS(-3)) D(12, POS(-4)) \
    D(13, POS(-5)) D(14, POS(-6)) D(15, POS(-24)) D(16, NEG(-8)) D(17, NEG(-3)) D(18, NEG(-4)) \
    D(19, NEG(-5)) D(20, NEG(-6)) D(21, NEG(-7)) D(22, NEG(-9)) D(23, NEG(-24))

#endif
