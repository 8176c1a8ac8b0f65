/* Poseidon2 merges against the field-multiplication rate the GPU can issue (issue 41).
 *
 * Built against a src/ folder (-I): the tree's, or an older commit's src/prim, so that two builds
 * compare formulations in one run. Prints, for BabyBear-16 and KoalaBear-16, the merges per second
 * of a level of 2^24 parents (one thread a merge, as src/cuda/merkle.cu's level kernel does) and a
 * digest of the level (two builds must agree on it); then the BabyBear multiplications per second
 * of long independent chains of Montgomery products (kiln_m31_mul), and the Goldilocks ones of
 * kiln_gl_mul: the rate at which the GPU issues the field multiplication itself, the ceiling the
 * merges are measured against.
 *
 *   nvcc -O3 -std=c++17 -arch=sm_90 -Isrc -o /tmp/p2 experiments/p2_merge_bench.cu && /tmp/p2 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "prim/merkle_merge.h"

#define TRY(x)                                                                                     \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                               \
            exit(3);                                                                               \
        }                                                                                          \
    } while (0)

/* canonical elements below p, from a counter */
__global__ void fill(uint32_t *w, uint64_t n, uint32_t p)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t x = i * 0x9E3779B97F4A7C15ull;
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 32;
        w[i] = (uint32_t)(x % p);
    }
}

template <int F>
__global__ void level(const uint4 *__restrict__ in, uint64_t parents, uint4 *__restrict__ out)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < parents; i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t l[8], r[8], o[8];
        uint4 a = __ldg(in + 4 * i), b = __ldg(in + 4 * i + 1), c = __ldg(in + 4 * i + 2), d = __ldg(in + 4 * i + 3);
        l[0] = a.x, l[1] = a.y, l[2] = a.z, l[3] = a.w, l[4] = b.x, l[5] = b.y, l[6] = b.z, l[7] = b.w;
        r[0] = c.x, r[1] = c.y, r[2] = c.z, r[3] = c.w, r[4] = d.x, r[5] = d.y, r[6] = d.z, r[7] = d.w;
        if (F == KILN_P2_BABYBEAR) kiln_merge_p2_bb16(l, r, o);
        else kiln_merge_p2_kb16(l, r, o);
        out[2 * i] = make_uint4(o[0], o[1], o[2], o[3]);
        out[2 * i + 1] = make_uint4(o[4], o[5], o[6], o[7]);
    }
}

#define STEPS 4096

/* CHAINS independent products a thread, each STEPS long */
template <int CHAINS>
__global__ void mul_unsigned(uint32_t *sink, uint32_t seed)
{
    uint32_t a[CHAINS], b[CHAINS];
    for (int k = 0; k < CHAINS; k++) a[k] = (seed + threadIdx.x * 7 + k * 131) % KILN_BB_P, b[k] = (seed * 3 + k) % KILN_BB_P;
    for (int s = 0; s < STEPS; s++) {
#pragma unroll
        for (int k = 0; k < CHAINS; k++) a[k] = kiln_m31_mul(a[k], b[k], KILN_BB_P, KILN_BB_MU);
    }
    uint32_t x = 0;
    for (int k = 0; k < CHAINS; k++) x ^= a[k];
    if (x == 0x12345678u) sink[0] = x;
}

/* the same over Goldilocks (kiln_gl_mul: the 64x64->128 product and goldilocks.h's reduction), the
 * ceiling of the Goldilocks merges (poseidon2_goldilocks8 and 12, rp64_256, rpo256) */
template <int CHAINS>
__global__ void mul_goldilocks(uint64_t *sink, uint64_t seed)
{
    uint64_t a[CHAINS], b[CHAINS];
    for (int k = 0; k < CHAINS; k++)
        a[k] = (seed + threadIdx.x * 7919ull + k * 131ull) * 0x9E3779B97F4A7C15ull % KILN_GL_P,
        b[k] = (seed * 3 + k) * 0xBF58476D1CE4E5B9ull % KILN_GL_P;
    for (int s = 0; s < STEPS; s++) {
#pragma unroll
        for (int k = 0; k < CHAINS; k++) a[k] = kiln_gl_mul(a[k], b[k]);
    }
    uint64_t x = 0;
    for (int k = 0; k < CHAINS; k++) x ^= a[k];
    if (x == 0x123456789ull) sink[0] = x;
}

template <typename Launch>
static double median_ms(Launch launch, int reps)
{
    cudaEvent_t a, b;
    TRY(cudaEventCreate(&a));
    TRY(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++) launch();
    TRY(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < reps; i++) {
        TRY(cudaEventRecord(a));
        launch();
        TRY(cudaEventRecord(b));
        TRY(cudaEventSynchronize(b));
        TRY(cudaGetLastError());
        float ms;
        TRY(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main()
{
    const uint64_t parents = 1ull << 24, words = parents * 16;
    uint32_t *in, *out;
    TRY(cudaMalloc(&in, words * 4));
    TRY(cudaMalloc(&out, words * 2));
    int sms;
    TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int tpb = 256, blocks = sms * 8;
    for (int f = 0; f < 2; f++) {
        const uint32_t p = f == KILN_P2_BABYBEAR ? KILN_BB_P : KILN_KB_P;
        fill<<<sms * 16, 256>>>(in, words, p);
        TRY(cudaGetLastError());
        double ms = median_ms(
            [&] {
                if (f == KILN_P2_BABYBEAR) level<KILN_P2_BABYBEAR><<<blocks, tpb>>>((const uint4 *)in, parents, (uint4 *)out);
                else level<KILN_P2_KOALABEAR><<<blocks, tpb>>>((const uint4 *)in, parents, (uint4 *)out);
            },
            11);
        std::vector<uint32_t> h(parents * 8);
        TRY(cudaMemcpy(h.data(), out, h.size() * 4, cudaMemcpyDeviceToHost));
        uint64_t dig = 1469598103934665603ull;
        for (uint32_t v : h) dig = (dig ^ v) * 1099511628211ull;
        printf("merge %s16: %.3f ms for 2^24 merges, %.3f G merges/s, digest %016llx\n",
               f == KILN_P2_BABYBEAR ? "babybear" : "koalabear", ms, parents / ms / 1e6, (unsigned long long)dig);
    }
    uint32_t *sink;
    TRY(cudaMalloc(&sink, 4));
    const int mblocks = sms * 16;
    for (int chains = 8; chains <= 16; chains *= 2) {
        const double muls = (double)mblocks * 256 * chains * STEPS;
        double mu = median_ms(
            [&] {
                if (chains == 8) mul_unsigned<8><<<mblocks, 256>>>(sink, 5);
                else mul_unsigned<16><<<mblocks, 256>>>(sink, 5);
            },
            7);
        printf("babybear multiplications, %d chains a thread: %.1f G/s\n", chains, muls / mu / 1e6);
    }
    uint64_t *sink64;
    TRY(cudaMalloc(&sink64, 8));
    for (int chains = 4; chains <= 8; chains *= 2) {
        const double muls = (double)mblocks * 256 * chains * STEPS;
        double mu = median_ms(
            [&] {
                if (chains == 4) mul_goldilocks<4><<<mblocks, 256>>>(sink64, 5);
                else mul_goldilocks<8><<<mblocks, 256>>>(sink64, 5);
            },
            7);
        printf("goldilocks multiplications, %d chains a thread: %.1f G/s\n", chains, muls / mu / 1e6);
    }
    int clk;
    TRY(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
    printf("SMs %d, max clock %.3f GHz\n", sms, clk / 1e6);
    return 0;
}
