// Development measurement, not part of the library: which of the round's rotations should run
// on the multiply-add pipe (kiln_rotl64_mul) rather than the integer ALU (kiln_rotl64). Times the
// unrolled permutation (16 permutations per state load, in registers) and a SHA3-256 kernel for
// 32-byte messages resident in device memory, for several site masks, each checked against the
// host permutation. Build: nvcc -O3 -std=c++17 -arch=sm_90 -Isrc experiments/keccak_variants.cu
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "prim/keccak.h"

#define TRY(x)                                                                              \
    do {                                                                                    \
        cudaError_t e_ = (x);                                                               \
        if (e_ != cudaSuccess) {                                                            \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(3);                                                                        \
        }                                                                                   \
    } while (0)

template <uint32_t MASK>
__global__ void __launch_bounds__(128) perm16(uint64_t *st, uint64_t n)
{
    uint64_t i = (uint64_t)blockIdx.x * 128 + threadIdx.x;
    if (i >= n) return;
    uint64_t s[25];
#pragma unroll
    for (int k = 0; k < 25; k++) s[k] = st[i * 25 + k];
    for (int r = 0; r < 16; r++) kiln_keccak_f1600_sel(s, MASK);
#pragma unroll
    for (int k = 0; k < 25; k++) st[i * 25 + k] = s[k];
}

// SHA3-256 of n 32-byte messages back to back: the best case of the batch API's short path.
template <uint32_t MASK>
__global__ void __launch_bounds__(256) sha3_32(const uint64_t *__restrict__ msg, uint64_t *__restrict__ out, uint64_t n)
{
    uint64_t i = (uint64_t)blockIdx.x * 256 + threadIdx.x;
    if (i >= n) return;
    uint64_t s[25];
#pragma unroll
    for (int k = 0; k < 25; k++) s[k] = 0;
#pragma unroll
    for (int k = 0; k < 4; k++) s[k] = msg[i * 4 + k];
    s[4] = 0x06;
    s[16] = 0x8000000000000000ull;
    kiln_keccak_f1600_sel(s, MASK);
#pragma unroll
    for (int k = 0; k < 4; k++) out[i * 4 + k] = s[k];
}

static float time_it(void (*launch)(void *), void *arg, int reps)
{
    cudaEvent_t a, b;
    TRY(cudaEventCreate(&a));
    TRY(cudaEventCreate(&b));
    launch(arg);
    TRY(cudaDeviceSynchronize());
    std::vector<float> ms(reps);
    for (int r = 0; r < reps; r++) {
        TRY(cudaEventRecord(a));
        launch(arg);
        TRY(cudaEventRecord(b));
        TRY(cudaEventSynchronize(b));
        TRY(cudaEventElapsedTime(&ms[r], a, b));
    }
    std::sort(ms.begin(), ms.end());
    return ms[reps / 2];
}

struct ctx_t {
    uint64_t *st, *msg, *out;
    uint64_t nperm, nhash;
};

template <uint32_t MASK>
static void run_perm(void *p)
{
    ctx_t *c = (ctx_t *)p;
    perm16<MASK><<<(unsigned)((c->nperm + 127) / 128), 128>>>(c->st, c->nperm);
    TRY(cudaGetLastError());
}

template <uint32_t MASK>
static void run_hash(void *p)
{
    ctx_t *c = (ctx_t *)p;
    sha3_32<MASK><<<(unsigned)((c->nhash + 255) / 256), 256>>>(c->msg, c->out, c->nhash);
    TRY(cudaGetLastError());
}

template <uint32_t MASK>
static void variant(ctx_t &c, const char *name)
{
    // correctness: 4 states through 16 permutations and 4 digests, against the host
    std::vector<uint64_t> before(100), after(100);
    TRY(cudaMemcpy(before.data(), c.st, 800, cudaMemcpyDeviceToHost));
    run_perm<MASK>(&c);
    TRY(cudaMemcpy(after.data(), c.st, 800, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int k = 0; k < 4; k++) {
        for (int r = 0; r < 16; r++) kiln_keccak_f1600(&before[25 * k]);
        ok &= memcmp(&before[25 * k], &after[25 * k], 200) == 0;
    }
    run_hash<MASK>(&c);
    std::vector<uint64_t> m(16), o(16);
    TRY(cudaMemcpy(m.data(), c.msg, 128, cudaMemcpyDeviceToHost));
    TRY(cudaMemcpy(o.data(), c.out, 128, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 4; k++) {
        uint8_t want[32], in[32];
        memcpy(in, &m[4 * k], 32);
        kiln_keccak_sponge(in, 32, 136, 0x06, want, 32);
        ok &= memcmp(want, &o[4 * k], 32) == 0;
    }
    float pm = time_it(run_perm<MASK>, &c, 15), hm = time_it(run_hash<MASK>, &c, 15);
    printf("VARIANT %-10s mask=0x%08x sites=%2d  perm_in_regs=%6.3f G/s  sha3-256_32B=%6.3f GH/s  %s\n", name, MASK,
           __builtin_popcount(MASK), c.nperm * 16 / (pm * 1e-3) / 1e9, c.nhash / (hm * 1e-3) / 1e9,
           ok ? "ok" : "MISMATCH");
}

__global__ void fill(uint64_t *d, uint64_t w)
{
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < w; i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t z = (i + 7) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        d[i] = z ^ (z >> 27);
    }
}

int main()
{
    ctx_t c;
    c.nperm = 1 << 22;
    c.nhash = 1 << 26;
    TRY(cudaMalloc(&c.st, c.nperm * 200));
    TRY(cudaMalloc(&c.msg, c.nhash * 32));
    TRY(cudaMalloc(&c.out, c.nhash * 32));
    fill<<<1024, 256>>>(c.st, c.nperm * 25);
    fill<<<1024, 256>>>(c.msg, c.nhash * 4);
    TRY(cudaDeviceSynchronize());
    variant<0x00000000u>(c, "alu");
    variant<0x0000001Fu>(c, "theta");
    variant<0x09249249u>(c, "third");
    variant<0x1FFFFFFFu>(c, "all");
    return 0;
}
