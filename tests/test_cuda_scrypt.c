/* scrypt on the GPU against the CPU: real Litecoin headers found by every layout and lookup gap;
 * on random headers with an easy target, the GPU search reports exactly the nonces the CPU search
 * reports (none falsely); the batch KDF equals the CPU KDF on random passwords and salts for many
 * (N, r, p), launch shapes and output lengths, and reproduces RFC 7914's vectors.
 * KILN_TEST_SMALL=1 shrinks the sizes (for compute-sanitizer). */
#include "check.h"
#include "json_lite.h"
#include "kiln.h"

#define MAX_FOUND 4096

typedef struct found {
    uint32_t nonce[MAX_FOUND];
    uint8_t hash[MAX_FOUND][32];
    int n;
} found;

static int collect(void *user, uint32_t nonce, const uint8_t hash[32])
{
    found *f = user;
    if (f->n < MAX_FOUND) {
        f->nonce[f->n] = nonce;
        memcpy(f->hash[f->n], hash, 32);
    }
    f->n++;
    return 0;
}

static const kiln_scrypt_shape shapes[] = {{4, 1}, {1, 1}, {4, 2}, {1, 2}, {4, 4}, {1, 16}, {4, 16}};
#define NSHAPES (int)(sizeof shapes / sizeof shapes[0])

static void test_litecoin(kiln_ctx *gpu, const char *doc, int small)
{
    jspan arr, o;
    int v = 0;
    CHECK(json_array(doc, "vectors", &arr) == 0, "vectors");
    while (json_next(&arr, &o) == 0) {
        char name[64], header_hex[200], pow[80], hex[65];
        uint64_t nonce = 0;
        json_str(o, "name", name, sizeof name);
        json_str(o, "header_hex", header_hex, sizeof header_hex);
        json_str(o, "scrypt_pow_hash", pow, sizeof pow);
        json_u64(o, "nonce", &nonce);
        for (int s = 0; s < NSHAPES; s++) {
            if (small && (s + v) % 3) continue; /* under the sanitizer each shape meets one header or two */
            static found f;
            kiln_scan_job job;
            kiln_scan_result res;
            memset(&job, 0, sizeof job);
            memset(&f, 0, sizeof f);
            job.algo = KILN_ALGO_SCRYPT;
            kiln_header_from_hex(NULL, header_hex, job.header);
            kiln_target_from_bits(NULL, kiln_header_bits(job.header), job.target);
            kiln_header_set_nonce(job.header, 0);
            uint64_t before = small ? 200 : 30000, after = small ? 50 : 10000;
            job.start = nonce >= before ? nonce - before : 0;
            job.count = nonce - job.start + after;
            job.on_found = collect;
            job.user = &f;
            CHECK(kiln_ctx_set_scrypt_shape(gpu, shapes[s]) == KILN_OK, "shape");
            kiln_status st = kiln_scan(gpu, &job, &res);
            CHECK(st == KILN_OK, "%s shape %dx%d: status %d %s", name, shapes[s].threads_per_hash, shapes[s].lookup_gap,
                  st, kiln_last_error(gpu));
            CHECK(f.n == 1 && f.nonce[0] == (uint32_t)nonce, "%s shape %dx%d: found %d, first %u", name,
                  shapes[s].threads_per_hash, shapes[s].lookup_gap, f.n, f.nonce[0]);
            kiln_hex_encode(f.hash[0], 32, 1, hex);
            CHECK(strcmp(hex, pow) == 0, "%s PoW hash %s", name, hex);
            CHECK(res.false_candidates == 0, "%s false candidates %llu", name, (unsigned long long)res.false_candidates);
        }
        v++;
    }
    CHECK(v == 5, "five headers");
}

/* Same easy-target search on CPU and GPU: identical verified nonces. */
static void test_random_headers(kiln_ctx *cpu, kiln_ctx *gpu, int small)
{
    unsigned long long seed = 0x5eed5c;
    for (int round = 0; round < (small ? 2 : 4); round++) {
        static found fc, fg;
        kiln_scan_job job;
        kiln_scan_result res;
        memset(&job, 0, sizeof job);
        job.algo = KILN_ALGO_SCRYPT;
        for (int i = 0; i < 80; i++) job.header[i] = (uint8_t)test_rand(&seed);
        /* top byte 0x0f of the most significant word: about 6% of nonces pass */
        memset(job.target, 0xff, sizeof job.target);
        job.target[31] = 0x0f;
        job.count = small ? 300 : 2000;
        job.start = round == 1 ? (UINT64_C(1) << 32) - job.count : (uint32_t)test_rand(&seed);
        job.find_all = 1;
        job.on_found = collect;
        memset(&fc, 0, sizeof fc);
        job.user = &fc;
        CHECK(kiln_scan(cpu, &job, &res) == KILN_OK, "cpu round %d", round);
        for (int s = 0; s < NSHAPES; s++) {
            if (small && s % 2) continue;
            memset(&fg, 0, sizeof fg);
            job.user = &fg;
            kiln_ctx_set_scrypt_shape(gpu, shapes[s]);
            kiln_status st = kiln_scan(gpu, &job, &res);
            CHECK(st == KILN_OK, "gpu round %d shape %d: %s", round, s, kiln_last_error(gpu));
            int same = fg.n == fc.n;
            for (int i = 0; same && i < fc.n && i < MAX_FOUND; i++)
                same = fg.nonce[i] == fc.nonce[i] && memcmp(fg.hash[i], fc.hash[i], 32) == 0;
            CHECK(same, "round %d shape %dx%d: gpu %d vs cpu %d nonces", round, shapes[s].threads_per_hash,
                  shapes[s].lookup_gap, fg.n, fc.n);
            CHECK(res.false_candidates == 0, "round %d shape %d false candidates", round, s);
        }
        CHECK(fc.n > 5, "round %d: the easy target passes some nonces (%d)", round, fc.n);
    }
}

static void random_bytes(unsigned long long *seed, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)test_rand(seed);
}

static void test_batch(kiln_ctx *cpu, kiln_ctx *gpu, int small)
{
    static const struct {
        uint64_t N;
        uint32_t r, p;
        size_t out_len;
        int gap, tpb, kernel; /* kernel: the launch's items_per_thread, the CUDA ROMix kernel (0: default) */
    } cases[] = {
        {2, 1, 1, 32, 0, 0, 0},      {16, 1, 1, 64, 0, 0, 0},    {1024, 1, 1, 32, 1, 0, 0},  {1024, 1, 1, 33, 4, 64, 0},
        {16, 2, 1, 1, 0, 0, 0},      {64, 4, 2, 100, 2, 0, 0},   {256, 8, 1, 64, 0, 0, 0},   {256, 8, 1, 64, 16, 32, 0},
        {32, 3, 2, 64, 0, 0, 0},     {16, 5, 1, 48, 0, 256, 0},  {1024, 8, 3, 64, 2, 0, 0},  {16, 16, 1, 64, 0, 0, 0},
        {512, 1, 7, 31, 8, 0, 0},    {4, 2, 1, 64, 16, 0, 0},    {2048, 2, 1, 64, 0, 128, 0}, {8, 7, 2, 65, 0, 0, 0},
        /* kernel 2 (per-quad steps, X in shared memory): every gap, r, a block over 48 KiB of shared
         * memory (r = 8 at 256 threads), gap above N, p > 1, a non-templated r (kernel ignored) */
        {256, 8, 1, 64, 1, 0, 2},    {256, 8, 1, 64, 2, 0, 2},   {512, 8, 1, 64, 4, 256, 2}, {256, 8, 1, 64, 16, 32, 2},
        {1024, 8, 2, 64, 0, 128, 2}, {2048, 1, 1, 32, 8, 64, 2}, {1024, 1, 3, 33, 2, 0, 2},  {128, 2, 2, 64, 4, 0, 2},
        {256, 4, 2, 100, 2, 256, 2}, {64, 4, 1, 64, 1, 0, 2},    {2, 8, 1, 32, 16, 0, 2},    {16, 3, 1, 64, 2, 0, 2},
        {1024, 8, 1, 64, 8, 64, 1},  {4, 1, 1, 64, 4, 0, 2},
    };
    unsigned long long seed = 0xba7c4;
    enum { ITEMS = 37 };
    static uint8_t pw[ITEMS][100], salt[ITEMS][100], want[ITEMS * 100], got[ITEMS * 100 + 1]; /* + a sentinel */
    kiln_scrypt_input in[ITEMS];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        if (small && (cases[c].N * cases[c].r > 4096 || c % 2)) continue;
        size_t items = small ? 5 : ITEMS;
        for (size_t i = 0; i < items; i++) {
            in[i].password_len = test_rand(&seed) % 100; /* 0 .. 99 bytes: empty, short, longer than a block */
            in[i].salt_len = test_rand(&seed) % 100;
            random_bytes(&seed, pw[i], in[i].password_len);
            random_bytes(&seed, salt[i], in[i].salt_len);
            in[i].password = pw[i];
            in[i].salt = salt[i];
        }
        kiln_scrypt_params sp = {cases[c].N, cases[c].r, cases[c].p};
        size_t len = cases[c].out_len;
        kiln_launch l = {cases[c].tpb, cases[c].kernel};
        kiln_scrypt_shape sh = {0, cases[c].gap};
        CHECK(kiln_ctx_set_scrypt_kdf_launch(gpu, l, sh) == KILN_OK, "case %zu launch", c);
        CHECK(kiln_scrypt_batch(cpu, in, items, sp, want, len) == KILN_OK, "case %zu cpu: %s", c, kiln_last_error(cpu));
        memset(got, 0xa5, sizeof got);
        kiln_status st = kiln_scrypt_batch(gpu, in, items, sp, got, len);
        CHECK(st == KILN_OK, "case %zu gpu: %s", c, kiln_last_error(gpu));
        int bad = -1;
        for (size_t i = 0; i < items && bad < 0; i++)
            if (memcmp(got + i * len, want + i * len, len) != 0) bad = (int)i;
        CHECK(bad < 0, "N=%llu r=%u p=%u len=%zu gap=%d kernel=%d: item %d differs", (unsigned long long)sp.N, sp.r,
              sp.p, len, cases[c].gap, cases[c].kernel, bad);
        CHECK(got[items * len] == 0xa5, "case %zu wrote past the output", c);
    }
    kiln_launch none = {0, 0};
    kiln_scrypt_shape auto_shape = {0, 0};
    kiln_ctx_set_scrypt_kdf_launch(gpu, none, auto_shape);
}

/* The RFC 7914 vectors through the batch on the GPU, with ROMix kernel `kernel` (0: default). */
static void test_rfc_on_gpu(kiln_ctx *gpu, const char *doc, int small, int kernel)
{
    CHECK(kiln_ctx_set_scrypt_kdf_launch(gpu, (kiln_launch){0, kernel}, (kiln_scrypt_shape){0, 0}) == KILN_OK,
          "kernel %d launch", kernel);
    jspan arr, o;
    CHECK(json_array(doc, "scrypt", &arr) == 0, "rfc vectors");
    while (json_next(&arr, &o) == 0) {
        char pw[64], salt[64], want[300], h[300];
        uint64_t N = 0, r = 0, p = 0, len = 0;
        uint8_t out[64];
        json_str(o, "password", pw, sizeof pw);
        json_str(o, "salt", salt, sizeof salt);
        json_u64(o, "N", &N);
        json_u64(o, "r", &r);
        json_u64(o, "p", &p);
        json_u64(o, "dkLen", &len);
        json_str(o, "output", want, sizeof want);
        if (json_true(o, "large") || (small && N * r * p > 16384)) continue;
        kiln_scrypt_input in = {pw, strlen(pw), salt, strlen(salt)};
        kiln_scrypt_params sp = {N, (uint32_t)r, (uint32_t)p};
        CHECK(kiln_scrypt_batch(gpu, &in, 1, sp, out, len) == KILN_OK, "rfc N=%llu: %s", (unsigned long long)N,
              kiln_last_error(gpu));
        kiln_hex_encode(out, len, 0, h);
        CHECK(strcmp(h, want) == 0, "rfc N=%llu r=%llu p=%llu on the GPU (kernel %d): %s", (unsigned long long)N,
              (unsigned long long)r, (unsigned long long)p, kernel, h);
    }
    kiln_ctx_set_scrypt_kdf_launch(gpu, (kiln_launch){0, 0}, (kiln_scrypt_shape){0, 0});
}

/* A kernel other than 1 and 2 is refused, not run as some default. */
static void test_bad_kernel(kiln_ctx *gpu)
{
    kiln_scrypt_input in = {"pw", 2, "salt", 4};
    uint8_t out[32];
    CHECK(kiln_ctx_set_scrypt_kdf_launch(gpu, (kiln_launch){0, 4}, (kiln_scrypt_shape){0, 0}) == KILN_OK, "launch");
    CHECK(kiln_scrypt_batch(gpu, &in, 1, (kiln_scrypt_params){16, 8, 1}, out, sizeof out) == KILN_ERR_INPUT,
          "ROMix kernel 4 refused");
    kiln_ctx_set_scrypt_kdf_launch(gpu, (kiln_launch){0, 0}, (kiln_scrypt_shape){0, 0});
}

int main(void)
{
    if (kiln_cuda_device_count() == 0) {
        printf("no CUDA GPU: skipped\n");
        return TEST_SKIP;
    }
    int small = getenv("KILN_TEST_SMALL") && strcmp(getenv("KILN_TEST_SMALL"), "1") == 0;
    char *ltc = json_load(test_data("litecoin_pow.json")), *rfc = json_load(test_data("rfc7914.json"));
    CHECK(ltc && rfc, "test data");
    if (!ltc || !rfc) return check_summary();
    kiln_ctx *gpu = kiln_ctx_new(), *cpu = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(gpu, "cuda") == KILN_OK, "cuda: %s", kiln_last_error(gpu));
    CHECK(kiln_ctx_set_device(cpu, "cpu") == KILN_OK, "cpu");
    test_litecoin(gpu, ltc, small);
    test_random_headers(cpu, gpu, small);
    test_batch(cpu, gpu, small);
    test_rfc_on_gpu(gpu, rfc, small, 0);
    test_rfc_on_gpu(gpu, rfc, small, 2);
    test_bad_kernel(gpu);
    kiln_ctx_free(gpu);
    kiln_ctx_free(cpu);
    free(ltc);
    free(rfc);
    return check_summary();
}
