/* One Keccak-f[1600] round written once over named lane sets, for any lane type the includer
 * defines the operators of: ^, ~ and & on it, ROL(x, n) its rotation left by n in 1..63 and RC(r)
 * round r's constant in that type. keccak_avx2.c includes it with 64-bit scalars (one state in
 * general registers), keccak4_avx2.c with 256-bit vectors (four states, a lane of each in a
 * register's quarters). The includer declares the lane sets X0..X24 and Y0..Y24 it names and the
 * temporaries C0..C4, D0..D4 and B0..B4. */
#ifndef KILN_HASH_KECCAK_ROUNDS_H
#define KILN_HASH_KECCAK_ROUNDS_H

/* theta's column parities of lane set X and each column's D */
#define THETA(X)                                                                                                       \
    C0 = X##0 ^ X##5 ^ X##10 ^ X##15 ^ X##20;                                                                          \
    C1 = X##1 ^ X##6 ^ X##11 ^ X##16 ^ X##21;                                                                          \
    C2 = X##2 ^ X##7 ^ X##12 ^ X##17 ^ X##22;                                                                          \
    C3 = X##3 ^ X##8 ^ X##13 ^ X##18 ^ X##23;                                                                          \
    C4 = X##4 ^ X##9 ^ X##14 ^ X##19 ^ X##24;                                                                          \
    D0 = C4 ^ ROL(C1, 1);                                                                                              \
    D1 = C0 ^ ROL(C2, 1);                                                                                              \
    D2 = C1 ^ ROL(C3, 1);                                                                                              \
    D3 = C2 ^ ROL(C4, 1);                                                                                              \
    D4 = C3 ^ ROL(C0, 1)

/* rho and pi: the five lanes that land in one output row, each with its column's D */
#define RHO_PI(x0, d0, r0, x1, d1, r1, x2, d2, r2, x3, d3, r3, x4, d4, r4)                                             \
    B0 = ROL(x0 ^ d0, r0);                                                                                             \
    B1 = ROL(x1 ^ d1, r1);                                                                                             \
    B2 = ROL(x2 ^ d2, r2);                                                                                             \
    B3 = ROL(x3 ^ d3, r3);                                                                                             \
    B4 = ROL(x4 ^ d4, r4)

/* chi on that row into y0..y4 (one ANDN and one XOR a lane) */
#define CHI(y0, y1, y2, y3, y4)                                                                                        \
    y0 = B0 ^ (~B1 & B2);                                                                                              \
    y1 = B1 ^ (~B2 & B3);                                                                                              \
    y2 = B2 ^ (~B3 & B4);                                                                                              \
    y3 = B3 ^ (~B4 & B0);                                                                                              \
    y4 = B4 ^ (~B0 & B1)

/* One round from lane set X into lane set Y (lane (x, y) is X[x + 5y]), XKCP's shape: output row
 * y takes the input lanes that pi moves there, rotated by rho's offsets. */
#define ROUND(X, Y, rc)                                                                                                \
    THETA(X);                                                                                                          \
    B0 = X##0 ^ D0;                                                                                                    \
    B1 = ROL(X##6 ^ D1, 44);                                                                                           \
    B2 = ROL(X##12 ^ D2, 43);                                                                                          \
    B3 = ROL(X##18 ^ D3, 21);                                                                                          \
    B4 = ROL(X##24 ^ D4, 14);                                                                                          \
    CHI(Y##0, Y##1, Y##2, Y##3, Y##4);                                                                                 \
    Y##0 ^= (rc);                                                                                                      \
    RHO_PI(X##3, D3, 28, X##9, D4, 20, X##10, D0, 3, X##16, D1, 45, X##22, D2, 61);                                    \
    CHI(Y##5, Y##6, Y##7, Y##8, Y##9);                                                                                 \
    RHO_PI(X##1, D1, 1, X##7, D2, 6, X##13, D3, 25, X##19, D4, 8, X##20, D0, 18);                                      \
    CHI(Y##10, Y##11, Y##12, Y##13, Y##14);                                                                            \
    RHO_PI(X##4, D4, 27, X##5, D0, 36, X##11, D1, 10, X##17, D2, 15, X##23, D3, 56);                                   \
    CHI(Y##15, Y##16, Y##17, Y##18, Y##19);                                                                            \
    RHO_PI(X##2, D2, 62, X##8, D3, 55, X##14, D4, 39, X##15, D0, 41, X##21, D1, 2);                                    \
    CHI(Y##20, Y##21, Y##22, Y##23, Y##24)

#endif
