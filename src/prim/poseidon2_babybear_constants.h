/* Poseidon2 round constants over BabyBear (p = 2^31 - 2^27 + 1), the instances of Plonky3's default_babybear_poseidon2_<width>()
 * constructors: Plonky3/Plonky3 baby-bear/src/poseidon2.rs at commit 5dc50e51436a811c62443e336f766015fecc9217
 * (Grain LFSR output, as that file lists them), in canonical form, round-major. Macro lists taking
 * the macro M that each element goes through (the 31-bit fields' Montgomery form, or nothing), so
 * that host tables and device constant memory share one copy. */
#ifndef KILN_PRIM_POSEIDON2_BABYBEAR_CONSTANTS_H
#define KILN_PRIM_POSEIDON2_BABYBEAR_CONSTANTS_H

/* BABYBEAR_POSEIDON2_RC_16_EXTERNAL_INITIAL: 64 values */
#define KILN_P2_BB16_EXT_INIT(M) \
    M(0x69cbb6af), M(0x46ad93f9), M(0x60a00f4e), M(0x6b1297cd), M(0x23189afe), M(0x732e7bef), \
    M(0x72c246de), M(0x2c941900), M(0x0557eede), M(0x1580496f), M(0x3a3ea77b), M(0x54f3f271), \
    M(0x0f49b029), M(0x47872fe1), M(0x221e2e36), M(0x1ab7202e), M(0x487779a6), M(0x3851c9d8), \
    M(0x38dc17c0), M(0x209f8849), M(0x268dcee8), M(0x350c48da), M(0x5b9ad32e), M(0x0523272b), \
    M(0x3f89055b), M(0x01e894b2), M(0x13ddedde), M(0x1b2ef334), M(0x7507d8b4), M(0x6ceeb94e), \
    M(0x52eb6ba2), M(0x50642905), M(0x05453f3f), M(0x06349efc), M(0x6922787c), M(0x04bfff9c), \
    M(0x768c714a), M(0x3e9ff21a), M(0x15737c9c), M(0x2229c807), M(0x0d47f88c), M(0x097e0ecc), \
    M(0x27eadba0), M(0x2d7d29e4), M(0x3502aaa0), M(0x0f475fd7), M(0x29fbda49), M(0x018afffd), \
    M(0x0315b618), M(0x6d4497d1), M(0x1b171d9e), M(0x52861abd), M(0x2e5d0501), M(0x3ec8646c), \
    M(0x6e5f250a), M(0x148ae8e6), M(0x17f5fa4a), M(0x3e66d284), M(0x0051aa3b), M(0x483f7913), \
    M(0x2cfe5f15), M(0x023427ca), M(0x2cc78315), M(0x1e36ea47)
#define KILN_P2_BB16_EXT_INIT_COUNT 64

/* BABYBEAR_POSEIDON2_RC_16_EXTERNAL_FINAL: 64 values */
#define KILN_P2_BB16_EXT_FINAL(M) \
    M(0x7290a80d), M(0x6f7e5329), M(0x598ec8a8), M(0x76a859a0), M(0x6559e868), M(0x657b83af), \
    M(0x13271d3f), M(0x1f876063), M(0x0aeeae37), M(0x706e9ca6), M(0x46400cee), M(0x72a05c26), \
    M(0x2c589c9e), M(0x20bd37a7), M(0x6a2d3d10), M(0x20523767), M(0x5b8fe9c4), M(0x2aa501d6), \
    M(0x1e01ac3e), M(0x1448bc54), M(0x5ce5ad1c), M(0x4918a14d), M(0x2c46a83f), M(0x4fcf6876), \
    M(0x61d8d5c8), M(0x6ddf4ff9), M(0x11fda4d3), M(0x02933a8f), M(0x170eaf81), M(0x5a9c314f), \
    M(0x49a12590), M(0x35ec52a1), M(0x58eb1611), M(0x5e481e65), M(0x367125c9), M(0x0eba33ba), \
    M(0x1fc28ded), M(0x066399ad), M(0x0cbec0ea), M(0x75fd1af0), M(0x50f5bf4e), M(0x643d5f41), \
    M(0x6f4fe718), M(0x5b3cbbde), M(0x1e3afb3e), M(0x296fb027), M(0x45e1547b), M(0x4a8db2ab), \
    M(0x59986d19), M(0x30bcdfa3), M(0x1db63932), M(0x1d7c2824), M(0x53b33681), M(0x0673b747), \
    M(0x038a98a3), M(0x2c5bce60), M(0x351979cd), M(0x5008fb73), M(0x547bca78), M(0x711af481), \
    M(0x3f93bf64), M(0x644d987b), M(0x3c8bcd87), M(0x608758b8)
#define KILN_P2_BB16_EXT_FINAL_COUNT 64

/* BABYBEAR_POSEIDON2_RC_16_INTERNAL: 13 values */
#define KILN_P2_BB16_INTERNAL(M) \
    M(0x5a8053c0), M(0x693be639), M(0x3858867d), M(0x19334f6b), M(0x128f0fd8), M(0x4e2b1ccb), \
    M(0x61210ce0), M(0x3c318939), M(0x0b5b2f22), M(0x2edb11d5), M(0x213effdf), M(0x0cac4606), \
    M(0x241af16d)
#define KILN_P2_BB16_INTERNAL_COUNT 13

/* BABYBEAR_POSEIDON2_RC_24_EXTERNAL_INITIAL: 96 values */
#define KILN_P2_BB24_EXT_INIT(M) \
    M(0x0fa20c37), M(0x0795bb97), M(0x12c60b9c), M(0x0eabd88e), M(0x096485ca), M(0x07093527), \
    M(0x1b1d4e50), M(0x30a01ace), M(0x3bd86f5a), M(0x69af7c28), M(0x3f94775f), M(0x731560e8), \
    M(0x465a0ecd), M(0x574ef807), M(0x62fd4870), M(0x52ccfe44), M(0x14772b14), M(0x4dedf371), \
    M(0x260acd7c), M(0x1f51dc58), M(0x75125532), M(0x686a4d7b), M(0x54bac179), M(0x31947706), \
    M(0x29799d3b), M(0x6e01ae90), M(0x203a7a64), M(0x4f7e25be), M(0x72503f77), M(0x45bd3b69), \
    M(0x769bd6b4), M(0x5a867f08), M(0x4fdba082), M(0x251c4318), M(0x28f06201), M(0x6788c43a), \
    M(0x4c6d6a99), M(0x357784a8), M(0x2abaf051), M(0x770f7de6), M(0x1794b784), M(0x4796c57a), \
    M(0x724b7a10), M(0x449989a7), M(0x64935cf1), M(0x59e14aac), M(0x0e620bb8), M(0x3af5a33b), \
    M(0x4465cc0e), M(0x019df68f), M(0x4af8d068), M(0x08784f82), M(0x0cefdeae), M(0x6337a467), \
    M(0x32fa7a16), M(0x486f62d6), M(0x386a7480), M(0x20f17c4a), M(0x54e50da8), M(0x2012cf03), \
    M(0x5fe52950), M(0x09afb6cd), M(0x2523044e), M(0x5c54d0ef), M(0x71c01f3c), M(0x60b2c4fb), \
    M(0x4050b379), M(0x5e6a70a5), M(0x418543f5), M(0x71debe56), M(0x1aad2994), M(0x3368a483), \
    M(0x07a86f3a), M(0x5ea43ff1), M(0x2443780e), M(0x4ce444f7), M(0x146f9882), M(0x3132b089), \
    M(0x197ea856), M(0x667030c3), M(0x2317d5dc), M(0x0c2c48a7), M(0x56b2df66), M(0x67bd81e9), \
    M(0x4fcdfb19), M(0x4baaef32), M(0x0328d30a), M(0x6235760d), M(0x12432912), M(0x0a49e258), \
    M(0x030e1b70), M(0x48caeb03), M(0x49e4d9e9), M(0x1051b5c6), M(0x6a36dbbe), M(0x4cff27a5)
#define KILN_P2_BB24_EXT_INIT_COUNT 96

/* BABYBEAR_POSEIDON2_RC_24_EXTERNAL_FINAL: 96 values */
#define KILN_P2_BB24_EXT_FINAL(M) \
    M(0x032959ad), M(0x2b18af6a), M(0x55d3dc8c), M(0x43bd26c8), M(0x0c41595f), M(0x7048d2e2), \
    M(0x00db8983), M(0x2af563d7), M(0x6e84758f), M(0x611d64e1), M(0x1f9977e2), M(0x64163a0a), \
    M(0x5c5fc27b), M(0x02e22561), M(0x3a2d75db), M(0x1ba7b71a), M(0x34343f64), M(0x7406b35d), \
    M(0x19df8299), M(0x6ff4480a), M(0x514a81c8), M(0x57ab52ce), M(0x6ad69f52), M(0x3e0c0e0d), \
    M(0x48126114), M(0x2a9d62cc), M(0x17441f23), M(0x485762bb), M(0x2f218674), M(0x06fdc64a), \
    M(0x0861b7f2), M(0x3b36eee6), M(0x70a11040), M(0x04b31737), M(0x3722a872), M(0x2a351c63), \
    M(0x623560dc), M(0x62584ab2), M(0x382c7c04), M(0x3bf9edc7), M(0x0e38fe51), M(0x376f3b10), \
    M(0x5381e178), M(0x3afc61c7), M(0x5c1bcb4d), M(0x6643ce1f), M(0x2d0af1c1), M(0x08f583cc), \
    M(0x5d6ff60f), M(0x6324c1e5), M(0x74412fb7), M(0x70c0192e), M(0x0b72f141), M(0x4067a111), \
    M(0x57388c4f), M(0x351009ec), M(0x0974c159), M(0x539a58b3), M(0x038c0cff), M(0x476c0392), \
    M(0x3f7bc15f), M(0x4491dd2c), M(0x4d1fef55), M(0x04936ae3), M(0x58214dd4), M(0x683c6aad), \
    M(0x1b42f16b), M(0x6dc79135), M(0x2d4e71ec), M(0x3e2946ea), M(0x59dce8db), M(0x6cee892a), \
    M(0x47f07350), M(0x7106ce93), M(0x3bd4a7a9), M(0x2bfe636a), M(0x430011e9), M(0x001cd66a), \
    M(0x307faf5b), M(0x0d9ef3fe), M(0x6d40043a), M(0x2e8f470c), M(0x1b6865e8), M(0x0c0e6c01), \
    M(0x4d41981f), M(0x423b9d3d), M(0x410408cc), M(0x263f0884), M(0x5311bbd0), M(0x4dae58d8), \
    M(0x30401cea), M(0x09afa575), M(0x4b3d5b42), M(0x63ac0b37), M(0x5fe5bb14), M(0x5244e9d4)
#define KILN_P2_BB24_EXT_FINAL_COUNT 96

/* BABYBEAR_POSEIDON2_RC_24_INTERNAL: 21 values */
#define KILN_P2_BB24_INTERNAL(M) \
    M(0x1da78ec2), M(0x730b0924), M(0x3eb56cf3), M(0x5bd93073), M(0x37204c97), M(0x51642d89), \
    M(0x66e943e8), M(0x1a3e72de), M(0x70beb1e9), M(0x30ff3b3f), M(0x4240d1c4), M(0x12647b8d), \
    M(0x65d86965), M(0x49ef4d7c), M(0x47785697), M(0x46b3969f), M(0x5c7b7a0e), M(0x7078fc60), \
    M(0x4f22d482), M(0x482a9aee), M(0x6beb839d)
#define KILN_P2_BB24_INTERNAL_COUNT 21

/* The internal layer's diagonal V: the matrix is 1 + Diag(V), 1 the all-ones matrix, so that
 * s_i <- V_i * s_i + sum(s). V as the file above states it in its comments (its "Optimized Diagonal"),
 * entry i as D(i, code), the code POS(e) for +2^e, NEG(e) for -2^e, POS3 for 3, NEG3 for -3. */
/* BabyBear16: [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/4, 1/8, 1/2^27, -1/2^8, -1/16, -1/2^27] */
#define KILN_P2_BB16_DIAG(D) \
    D(0, NEG(1)) D(1, POS(0)) D(2, POS(1)) D(3, POS(-1)) D(4, POS3) D(5, POS(2)) D(6, NEG(-1)) \
    D(7, NEG3) D(8, NEG(2)) D(9, POS(-8)) D(10, POS(-2)) D(11, POS(-3)) D(12, POS(-27)) \
    D(13, NEG(-8)) D(14, NEG(-4)) D(15, NEG(-27))
/* BabyBear24: [-2, 1, 2, 1/2, 3, 4, -1/2, -3, -4, 1/2^8, 1/4, 1/8, 1/16, 1/2^7, 1/2^9, 1/2^27, -1/2^8, -1/4,
 *              -1/8, -1/16, -1/32, -1/64, -1/2^7, -1/2^27] */
#define KILN_P2_BB24_DIAG(D) \
    D(0, NEG(1)) D(1, POS(0)) D(2, POS(1)) D(3, POS(-1)) D(4, POS3) D(5, POS(2)) D(6, NEG(-1)) \
    D(7, NEG3) D(8, NEG(2)) D(9, POS(-8)) D(10, POS(-2)) D(11, POS(-3)) D(12, POS(-4)) \
    D(13, POS(-7)) D(14, POS(-9)) D(15, POS(-27)) D(16, NEG(-8)) D(17, NEG(-2)) D(18, NEG(-3)) \
    D(19, NEG(-4)) D(20, NEG(-5)) D(21, NEG(-6)) D(22, NEG(-7)) D(23, NEG(-27))

#endif
