/* A GPU program hands kiln what it already holds: the leaves of a Merkle tree are made by this
 * program's own kernel, straight into the first nodes of a device buffer that kiln then fills with
 * the rest of the tree, on this program's stream. No leaf goes through host memory; the root comes
 * back to the host (the one value kiln waits for), and the tree stays on the device, where this
 * program reads a node of it. To show the result is right, the leaves are then copied back once
 * and the same tree is built by kiln's CPU backend.
 *   usage: cuda_leaves [LEAVES]   (default 2^20) */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln.h"

#define CUDA_CHECK(call)                                                                                 \
    do {                                                                                                 \
        cudaError_t e_ = (call);                                                                         \
        if (e_ != cudaSuccess) {                                                                         \
            fprintf(stderr, "cuda_leaves: %s failed: %s\n", #call, cudaGetErrorString(e_));              \
            exit(3);                                                                                     \
        }                                                                                                \
    } while (0)

/* leaf i: 32 bytes of splitmix64 of (i, word), as a prover's commitments would be */
__global__ void make_leaves(unsigned long long *words, unsigned long long n)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < 4 * n;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long z = (i + 1) * 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        words[i] = z ^ (z >> 31);
    }
}

static void print_root(const char *what, const uint8_t root[32])
{
    /* byte-reversed, as kiln merkle and block explorers print sha256d roots */
    printf("%s ", what);
    for (int i = 31; i >= 0; i--) printf("%02x", root[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    const unsigned long long n = argc > 1 ? strtoull(argv[1], NULL, 0) : 1ull << 20;
    if (n < 2) {
        fprintf(stderr, "usage: cuda_leaves [LEAVES >= 2]\n");
        return 2;
    }
    int gpus = 0;
    if (cudaGetDeviceCount(&gpus) != cudaSuccess || gpus == 0) {
        printf("no CUDA GPU: skipped\n");
        return 77;
    }
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx || kiln_ctx_set_device(ctx, "cuda:0") != KILN_OK) {
        fprintf(stderr, "cuda_leaves: %s\n", ctx ? kiln_last_error(ctx) : "out of memory");
        return 3;
    }
    CUDA_CHECK(cudaSetDevice(0));
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const size_t nodes = (size_t)kiln_merkle_tree_size(n);
    uint8_t *tree = NULL;
    CUDA_CHECK(cudaMalloc((void **)&tree, nodes * 32));

    /* this program's kernel writes the leaves into the tree's first n nodes ... */
    make_leaves<<<1024, 256, 0, stream>>>((unsigned long long *)tree, n);
    CUDA_CHECK(cudaGetLastError());
    /* ... and kiln builds the rest on the same stream, after it: leaves == tree, so nothing is copied */
    uint8_t root[32];
    if (kiln_merkle_build_device(ctx, KILN_MERKLE_SHA256D, tree, n, NULL, tree, NULL, root, stream) != KILN_OK) {
        fprintf(stderr, "cuda_leaves: %s\n", kiln_last_error(ctx));
        return 3;
    }
    print_root("root", root);

    /* the tree stays on the device: node 0 of level 1, read where it lies */
    uint8_t node[32];
    CUDA_CHECK(cudaMemcpyAsync(node, tree + 32 * kiln_merkle_level_offset(n, 1), 32, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    /* the check: the same leaves through kiln's CPU backend */
    uint8_t *host = (uint8_t *)malloc(nodes * 32), want[32];
    if (!host) return 3;
    CUDA_CHECK(cudaMemcpy(host, tree, n * 32, cudaMemcpyDeviceToHost));
    kiln_ctx *cpu = kiln_ctx_new();
    if (kiln_merkle_build(cpu, KILN_MERKLE_SHA256D, host, n, NULL, want, host) != KILN_OK) {
        fprintf(stderr, "cuda_leaves: CPU build: %s\n", kiln_last_error(cpu));
        return 3;
    }
    const int ok = memcmp(root, want, 32) == 0 && memcmp(node, host + 32 * kiln_merkle_level_offset(n, 1), 32) == 0;
    printf("%llu leaves made on the GPU: %s\n", n, ok ? "root and tree match kiln's CPU build" : "MISMATCH with the CPU build");
    free(host);
    CUDA_CHECK(cudaFree(tree));
    CUDA_CHECK(cudaStreamDestroy(stream));
    kiln_ctx_free(cpu);
    kiln_ctx_free(ctx);
    return ok ? 0 : 1;
}
