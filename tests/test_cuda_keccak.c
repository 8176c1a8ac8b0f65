/* The GPU batch kernels against the CPU: every algorithm at every message length from 0 to
 * 3 rates + 1 bytes (each block boundary, both kernels: one block and several), messages at every
 * byte alignment, long SHAKE outputs, the fixed-length batch, NIST vectors through the GPU, and
 * the raw permutation in each of the three layouts. Skipped without a GPU. */
#include <stdlib.h>

#include "check.h"
#include "kiln.h"
#include "rsp.h"

static unsigned block_of(kiln_hash_algo a)
{
    return kiln_hash_rate(a) ? kiln_hash_rate(a) : 64;
}

static void every_length(kiln_ctx *gpu, kiln_hash_algo algo, size_t outlen, unsigned long long *seed)
{
    size_t n = 3 * block_of(algo) + 2; /* lengths 0 .. 3 * rate + 1 */
    uint64_t *offsets = malloc((n + 1) * sizeof *offsets);
    size_t total = n * (n - 1) / 2;
    uint8_t *data = malloc(total + 1), *out = malloc(n * outlen), *want = malloc(outlen);
    for (size_t i = 0; i < total; i++) data[i] = (uint8_t)test_rand(seed);
    offsets[0] = 0;
    for (size_t i = 0; i < n; i++) offsets[i + 1] = offsets[i] + i; /* back to back: every alignment occurs */
    memset(out, 0xa5, n * outlen);
    CHECK(kiln_hash_batch(gpu, algo, data, offsets, n, out, outlen) == KILN_OK, "%s: %s", kiln_hash_algo_name(algo),
          kiln_last_error(gpu));
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        kiln_hash(algo, data + offsets[i], i, want, outlen);
        if (memcmp(want, out + i * outlen, outlen) != 0 && bad++ < 3)
            CHECK(0, "%s, %zu-byte message (offset %llu): GPU differs", kiln_hash_algo_name(algo), i,
                  (unsigned long long)offsets[i]);
    }
    CHECK(bad == 0, "%s (%zu-byte output): %d of %zu lengths differ", kiln_hash_algo_name(algo), outlen, bad, n);

    /* only messages shorter than a block: the single-permutation kernel */
    size_t ns = block_of(algo);
    CHECK(kiln_hash_batch(gpu, algo, data, offsets, ns, out, outlen) == KILN_OK, "%s", kiln_last_error(gpu));
    for (size_t i = 0, b = 0; i < ns; i++) {
        kiln_hash(algo, data + offsets[i], i, want, outlen);
        b += memcmp(want, out + i * outlen, outlen) != 0;
        if (i == ns - 1) CHECK(b == 0, "%s short kernel: %zu differ", kiln_hash_algo_name(algo), b);
    }
    /* fixed length, below and above one block */
    size_t lens[2] = {block_of(algo) / 2, block_of(algo) + 3};
    for (int k = 0; k < 2; k++) {
        size_t m = total / lens[k] < n ? total / lens[k] : n; /* out holds n digests */
        CHECK(kiln_hash_batch_fixed(gpu, algo, data, lens[k], m, out, outlen) == KILN_OK, "%s", kiln_last_error(gpu));
        int b = 0;
        for (size_t i = 0; i < m; i++) {
            kiln_hash(algo, data + i * lens[k], lens[k], want, outlen);
            b += memcmp(want, out + i * outlen, outlen) != 0;
        }
        CHECK(b == 0, "%s fixed %zu bytes: %d differ", kiln_hash_algo_name(algo), lens[k], b);
    }
    free(offsets), free(data), free(out), free(want);
}

/* A whole NIST file as one GPU batch, against its listed digests. */
static void nist_on_gpu(kiln_ctx *gpu, const char *path, kiln_hash_algo algo)
{
    size_t len;
    char *text = rsp_slurp(test_data(path), &len);
    CHECK(text != NULL, "%s", path);
    if (!text) return;
    size_t cap = 512, n = 0, bytes = 0, outlen = 0;
    uint64_t *offsets = malloc((cap + 1) * sizeof *offsets);
    uint8_t *data = NULL, *mds = NULL;
    rsp_reader r;
    rsp_entry e;
    rsp_init(&r, text, len);
    offsets[0] = 0;
    while (rsp_next(&r, &e) == 1 && n < cap) {
        size_t m = e.len_bits >= 0 ? (size_t)e.len_bits / 8 : e.msg_len;
        outlen = e.md_len;
        data = realloc(data, bytes + m + 1);
        mds = realloc(mds, (n + 1) * outlen);
        memcpy(data + bytes, e.msg, m);
        memcpy(mds + n * outlen, e.md, outlen);
        bytes += m;
        offsets[++n] = bytes;
        rsp_entry_free(&e);
    }
    uint8_t *out = malloc(n * outlen);
    CHECK(n > 50 && kiln_hash_batch(gpu, algo, data, offsets, n, out, outlen) == KILN_OK, "%s: %s", path,
          kiln_last_error(gpu));
    CHECK(memcmp(out, mds, n * outlen) == 0, "%s: GPU digests differ from the file's", path);
    free(out), free(offsets), free(data), free(mds), free(text);
}

static void permutations(kiln_ctx *gpu, unsigned long long *seed)
{
    enum { N = 1000 }; /* not a multiple of the lane layout's 32 states per block */
    uint64_t *in = malloc(N * 200), *st = malloc(N * 200), *ref = malloc(N * 200);
    for (int i = 0; i < N * 25; i++) in[i] = test_rand(seed);
    memcpy(ref, in, N * 200);
    for (int i = 0; i < N; i++) kiln_keccak_permute(ref + 25 * i);
    for (int l = KILN_KECCAK_LAYOUT_AUTO; l <= KILN_KECCAK_LAYOUT_LANE; l++) {
        memcpy(st, in, N * 200);
        CHECK(kiln_keccak_f1600_batch(gpu, st, N, (kiln_keccak_layout)l) == KILN_OK, "%s", kiln_last_error(gpu));
        CHECK(memcmp(st, ref, N * 200) == 0, "%s layout differs from the CPU", kiln_keccak_layout_name((kiln_keccak_layout)l));
    }
    free(in), free(st), free(ref);
}

int main(void)
{
    if (kiln_cuda_device_count() == 0) {
        printf("no CUDA GPU: skipped\n");
        return TEST_SKIP;
    }
    kiln_ctx *gpu = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(gpu, "cuda") == KILN_OK, "%s", kiln_last_error(gpu));
    unsigned long long seed = 0x637564616b6bull;
    for (int a = 0; a < (int)kiln_hash_algo_count(); a++) {
        kiln_hash_algo algo = (kiln_hash_algo)a;
        every_length(gpu, algo, kiln_hash_digest_len(algo), &seed);
        if (kiln_hash_is_xof(algo)) {
            every_length(gpu, algo, 1, &seed);
            every_length(gpu, algo, 2 * kiln_hash_rate(algo) + 5, &seed); /* output past two blocks */
        }
    }
    nist_on_gpu(gpu, "sha3/SHA3_256ShortMsg.rsp", KILN_HASH_SHA3_256);
    nist_on_gpu(gpu, "sha3/SHA3_512LongMsg.rsp", KILN_HASH_SHA3_512);
    nist_on_gpu(gpu, "sha3/SHAKE128ShortMsg.rsp", KILN_HASH_SHAKE128);
    nist_on_gpu(gpu, "keccak/ShortMsgKAT_256.txt", KILN_HASH_KECCAK256);
    nist_on_gpu(gpu, "keccak/LongMsgKAT_512.txt", KILN_HASH_KECCAK512);
    permutations(gpu, &seed);
    kiln_ctx_free(gpu);
    return check_summary();
}
