/* Poseidon2 over BabyBear and KoalaBear (widths 16 and 24) and Goldilocks (8 and 12) against
 * Plonky3's own known answers (tests/data/poseidon2_plonky3.txt, its test_default_* permutation
 * tests); the 31-bit fields' Montgomery arithmetic against plain 64-bit remainders; each
 * instance's internal diagonal, applied through its cheap codes, against V_i * x computed with a
 * full multiplication by V_i's value. */
#include <inttypes.h>

#include "check.h"
#include "prim/poseidon2.h"
#include "prim/poseidon2_goldilocks.h"

static void m31_ops(const char *name, uint32_t p, uint32_t (*to)(uint32_t), uint32_t (*from)(uint32_t),
                    uint32_t (*mul)(uint32_t, uint32_t), uint32_t (*add)(uint32_t, uint32_t),
                    uint32_t (*sub)(uint32_t, uint32_t), uint32_t (*halve)(uint32_t), uint32_t (*div2e)(uint32_t, int))
{
    unsigned long long seed = 3;
    uint32_t vals[120];
    int nv = 0;
    const uint32_t edge[] = {0, 1, 2, p - 1, p - 2, p / 2, p / 2 + 1, 0x7fffffffu % p};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) vals[nv++] = edge[i];
    while (nv < 120) vals[nv++] = (uint32_t)(test_rand(&seed) % p);
    int bad_rt = 0, bad_mul = 0, bad_add = 0, bad_sub = 0, bad_half = 0, bad_div = 0;
    for (int i = 0; i < nv; i++) {
        const uint32_t a = vals[i], ma = to(a);
        bad_rt += ma >= p || from(ma) != a;
        bad_half += from(halve(ma)) != (uint32_t)(((uint64_t)a * ((p + 1) / 2)) % p);
        for (int k = 1; k <= 31; k++) {
            uint64_t inv = 1; /* 2^-k = ((p + 1) / 2)^k */
            for (int j = 0; j < k; j++) inv = inv * ((p + 1) / 2) % p;
            bad_div += from(div2e(ma, k)) != (uint32_t)(a * inv % p);
        }
        for (int j = 0; j < nv; j++) {
            const uint32_t b = vals[j], mb = to(b);
            bad_mul += from(mul(ma, mb)) != (uint32_t)((uint64_t)a * b % p);
            bad_add += from(add(ma, mb)) != (uint32_t)(((uint64_t)a + b) % p);
            bad_sub += from(sub(ma, mb)) != (uint32_t)(((uint64_t)a + p - b) % p);
        }
    }
    CHECK(bad_rt == 0, "%s: %d Montgomery round trips wrong", name, bad_rt);
    CHECK(bad_mul == 0, "%s: %d products wrong", name, bad_mul);
    CHECK(bad_add == 0, "%s: %d sums wrong", name, bad_add);
    CHECK(bad_sub == 0, "%s: %d differences wrong", name, bad_sub);
    CHECK(bad_half == 0, "%s: %d halvings wrong", name, bad_half);
    CHECK(bad_div == 0, "%s: %d divisions by 2^k wrong", name, bad_div);
}

/* V_i as a canonical value, from its code. */
static uint64_t diag_value(int code, uint64_t p)
{
    const int mag = code < 0 ? -code : code;
    uint64_t v = 1;
    if (mag == KILN_P2_MAG3) {
        v = 3;
    } else {
        int e = mag - 64;
        for (; e > 0; e--) v = v * 2 % p;
        /* halving mod p: p < 2^64 - 1 here only for the 31-bit fields; Goldilocks halves below */
        for (; e < 0; e++) v = (v & 1) ? (v >> 1) + (p >> 1) + 1 : v >> 1;
    }
    return code < 0 ? (p - v) % p : v;
}

/* One internal layer through the codes against sum + V_i * s_i with V_i's value multiplied in. */
static void diag_check(const char *name, int f, int w)
{
    const uint32_t p = kiln_p2_m31_p(f);
    unsigned long long seed = 99;
    uint32_t s[24], plain[24];
    for (int i = 0; i < w; i++) plain[i] = (uint32_t)(test_rand(&seed) % p);
    uint64_t sum = 0;
    for (int i = 0; i < w; i++) sum += plain[i];
    for (int i = 0; i < w; i++) s[i] = plain[i];
    kiln_p2_m31_to_monty(s, f, w);
    kiln_p2_m31_internal(s, f, w);
    kiln_p2_m31_from_monty(s, f, w);
    int bad = 0;
    for (int i = 0; i < w; i++) {
        const uint64_t v = diag_value(kiln_p2_m31_diag(f, w, i), p);
        bad += s[i] != (uint32_t)((sum + v * plain[i]) % p);
    }
    CHECK(bad == 0, "%s: %d internal-layer outputs wrong", name, bad);
}

/* Goldilocks: V's canonical values as Plonky3's MATRIX_DIAG_8/12_GOLDILOCKS state them. */
static void gl_diag_check(void)
{
    static const uint64_t d8[8] = {0xfffffffeffffffff, 1, 2, 0x7fffffff80000001, 3, 0x7fffffff80000000,
                                   0xfffffffefffffffe, 0xfffffffefffffffd};
    static const uint64_t d12[12] = {0xfffffffeffffffff, 1, 2, 0x7fffffff80000001, 3, 4, 0x7fffffff80000000,
                                     0xfffffffefffffffe, 0xfffffffefffffffd, 0xbfffffff40000001, 0x3fffffffc0000000,
                                     0xdfffffff20000001};
    for (int w = 8; w <= 12; w += 4) {
        const uint64_t *d = w == 8 ? d8 : d12;
        unsigned long long seed = 7;
        uint64_t s[12], plain[12], sum = 0;
        for (int i = 0; i < w; i++) plain[i] = s[i] = test_rand(&seed) % KILN_GL_P;
        for (int i = 0; i < w; i++) sum = kiln_gl_add(sum, plain[i]);
        kiln_p2_gl_internal(s, w);
        int bad = 0;
        for (int i = 0; i < w; i++) bad += s[i] != kiln_gl_add(sum, kiln_gl_mul(d[i], plain[i]));
        CHECK(bad == 0, "goldilocks%d: %d internal-layer outputs wrong", w, bad);
    }
}

/* Reads "<name> in ..." and "<name> out ..." of the known-answer file. */
static int read_kat(const char *name, uint64_t *in, uint64_t *out, int w)
{
    FILE *f = fopen(test_data("poseidon2_plonky3.txt"), "r");
    if (!f) return 0;
    char line[2048], tag[16];
    int got = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        int n = 0;
        if (line[0] == '#' || sscanf(p, "%15s%n", tag, &n) != 1 || strcmp(tag, name)) continue;
        p += n;
        char which[8];
        if (sscanf(p, "%7s%n", which, &n) != 1) continue;
        p += n;
        uint64_t *dst = strcmp(which, "in") == 0 ? in : out;
        int k = 0;
        for (; k < w; k++) {
            if (sscanf(p, "%" SCNu64 "%n", &dst[k], &n) != 1) break;
            p += n;
        }
        got += k == w;
    }
    fclose(f);
    return got == 2;
}

static void kat_m31(const char *name, int f, int w)
{
    uint64_t in[24], want[24];
    if (!read_kat(name, in, want, w)) {
        CHECK(0, "%s: no known answer in poseidon2_plonky3.txt", name);
        return;
    }
    uint32_t s[24];
    int bad = 0;
    /* Plonky3's new_array reduces mod p (BabyBear24's input 20, 2026927696, is above p); so does
     * the conversion to Montgomery form, for any 32-bit word */
    for (int i = 0; i < w; i++) s[i] = (uint32_t)in[i];
    if (f == KILN_P2_BABYBEAR && w == 16) kiln_poseidon2_bb16(s);
    else if (f == KILN_P2_BABYBEAR) kiln_poseidon2_bb24(s);
    else if (w == 16) kiln_poseidon2_kb16(s);
    else kiln_poseidon2_kb24(s);
    for (int i = 0; i < w; i++) bad += s[i] != want[i];
    CHECK(bad == 0, "%s: %d of %d outputs differ from Plonky3's (first: %u, want %" PRIu64 ")", name, bad, w, s[0], want[0]);
}

static void kat_gl(const char *name, int w)
{
    uint64_t in[12], want[12];
    if (!read_kat(name, in, want, w)) {
        CHECK(0, "%s: no known answer in poseidon2_plonky3.txt", name);
        return;
    }
    int bad = 0;
    if (w == 8) kiln_poseidon2_gl8(in);
    else kiln_poseidon2_gl12(in);
    for (int i = 0; i < w; i++) bad += in[i] != want[i];
    CHECK(bad == 0, "%s: %d of %d outputs differ from Plonky3's", name, bad, w);
}

int main(void)
{
    m31_ops("babybear", KILN_BB_P, kiln_bb_to_monty, kiln_bb_from_monty, kiln_bb_mul, kiln_bb_add, kiln_bb_sub,
            kiln_bb_halve, kiln_bb_div_2exp);
    m31_ops("koalabear", KILN_KB_P, kiln_kb_to_monty, kiln_kb_from_monty, kiln_kb_mul, kiln_kb_add, kiln_kb_sub,
            kiln_kb_halve, kiln_kb_div_2exp);
    diag_check("babybear16", KILN_P2_BABYBEAR, 16);
    diag_check("babybear24", KILN_P2_BABYBEAR, 24);
    diag_check("koalabear16", KILN_P2_KOALABEAR, 16);
    diag_check("koalabear24", KILN_P2_KOALABEAR, 24);
    gl_diag_check();
    kat_m31("bb16", KILN_P2_BABYBEAR, 16);
    kat_m31("bb24", KILN_P2_BABYBEAR, 24);
    kat_m31("kb16", KILN_P2_KOALABEAR, 16);
    kat_m31("kb24", KILN_P2_KOALABEAR, 24);
    kat_gl("gl8", 8);
    kat_gl("gl12", 12);
    return check_summary();
}
