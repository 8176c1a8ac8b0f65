/* scrypt on every GPU backend of the build (CUDA, OpenCL: gpu_backends.h) against known answers
 * and the CPU: real Litecoin headers (tests/data/litecoin_pow.json) found in a range around their
 * nonces with the right PoW hash and no false candidate; on random headers under an easy target,
 * exactly the CPU search's nonces (none falsely), also up to the nonce space's end; the batch KDF
 * equal to the CPU's on random passwords and salts (empty, short, longer than a block) for many
 * (N, r, p), key lengths, lookup gaps (above N too), group sizes and ROMix kernels; RFC 7914's
 * vectors but the N = 1048576 one, through each ROMix kernel; a ROMix kernel that does not exist
 * and a group of 512 refused as bad input.
 * Each backend has its own sizes and launch shapes (scrypt_profile): CUDA sweeps every shape in
 * the default run; on OpenCL (PoCL on a CPU in CI, which compiles a kernel anew for each group
 * size and gap) the shapes other than the default run only with KILN_TEST_LONG
 * (test_gpu_scrypt_long, label long). KILN_TEST_SMALL=1 or KILN_TEST_QUICK=1 shrinks the sizes
 * (compute-sanitizer). */
#include "check.h"
#include "gpu_backends.h"
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

/* A search launch: the group (threads, waves) and the scrypt shape (threads a hash, lookup gap). */
typedef struct search_shape {
    kiln_launch launch;
    kiln_scrypt_shape shape;
} search_shape;

static kiln_status set_search_shape(kiln_ctx *g, search_shape s)
{
    kiln_status st = kiln_ctx_set_launch(g, KILN_ALGO_SCRYPT, s.launch);
    return st != KILN_OK ? st : kiln_ctx_set_scrypt_shape(g, s.shape);
}

/* A batch KDF case: its parameters and launch (0: the default) */
typedef struct kdf_case {
    uint64_t N;
    uint32_t r, p;
    size_t out_len;
    int gap, tpb, kernel; /* kernel: the launch's items_per_thread, the ROMix kernel */
} kdf_case;

static void litecoin(kiln_ctx *g, const char *doc, const search_shape *shapes, int nshapes, uint64_t before,
                     uint64_t after, int quick)
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
        for (int s = 0; s < nshapes; s++) {
            if (quick && nshapes > 1 && (s + v) % 3) continue; /* under the sanitizer each shape meets a header or two */
            static found f;
            kiln_scan_job job;
            kiln_scan_result res;
            memset(&job, 0, sizeof job);
            memset(&f, 0, sizeof f);
            job.algo = KILN_ALGO_SCRYPT;
            kiln_header_from_hex(NULL, header_hex, job.header);
            kiln_target_from_bits(NULL, kiln_header_bits(job.header), job.target);
            kiln_header_set_nonce(job.header, 0);
            job.start = nonce >= before ? nonce - before : 0;
            job.count = nonce - job.start + after;
            job.on_found = collect;
            job.user = &f;
            const kiln_scrypt_shape sh = shapes[s].shape;
            CHECK(set_search_shape(g, shapes[s]) == KILN_OK, "shape: %s", kiln_last_error(g));
            kiln_status st = kiln_scan(g, &job, &res);
            CHECK(st == KILN_OK, "%s shape %dx%d: status %d %s", name, sh.threads_per_hash, sh.lookup_gap, st,
                  kiln_last_error(g));
            CHECK(f.n == 1 && f.nonce[0] == (uint32_t)nonce, "%s shape %dx%d: found %d, first %u", name,
                  sh.threads_per_hash, sh.lookup_gap, f.n, f.nonce[0]);
            kiln_hex_encode(f.hash[0], 32, 1, hex);
            CHECK(strcmp(hex, pow) == 0, "%s PoW hash %s", name, hex);
            CHECK(res.false_candidates == 0, "%s false candidates %llu", name, (unsigned long long)res.false_candidates);
        }
        v++;
    }
    CHECK(v == 5, "five headers");
    set_search_shape(g, (search_shape){{0, 0}, {0, 0}});
}

/* The same easy-target search on the CPU and the device, in every shape: identical verified
 * nonces; the second round's range ends at the nonce space's end. */
static void random_headers(kiln_ctx *cpu, kiln_ctx *g, const search_shape *shapes, int nshapes, int rounds,
                           uint64_t count)
{
    unsigned long long seed = 0x5eed5c + count;
    for (int round = 0; round < rounds; round++) {
        static found fc, fg;
        kiln_scan_job job;
        kiln_scan_result res;
        memset(&job, 0, sizeof job);
        job.algo = KILN_ALGO_SCRYPT;
        for (int i = 0; i < 80; i++) job.header[i] = (uint8_t)test_rand(&seed);
        memset(job.target, 0xff, sizeof job.target);
        job.target[31] = 0x0f; /* top byte 0x0f of the most significant word: about 6% of nonces pass */
        job.count = count;
        job.start = round == 1 ? (UINT64_C(1) << 32) - job.count : (uint32_t)test_rand(&seed);
        job.find_all = 1;
        job.on_found = collect;
        memset(&fc, 0, sizeof fc);
        job.user = &fc;
        /* a short range may hold no hit: KILN_NOT_FOUND then, from both */
        kiln_status want = kiln_scan(cpu, &job, &res);
        CHECK(want == KILN_OK || (want == KILN_NOT_FOUND && count < 60), "cpu round %d: %s", round, kiln_last_error(cpu));
        for (int s = 0; s < nshapes; s++) {
            const search_shape sh = shapes[s];
            char name[96];
            snprintf(name, sizeof name, "round %d tpb %d waves %d tph %d gap %d", round, sh.launch.threads_per_block,
                     sh.launch.items_per_thread, sh.shape.threads_per_hash, sh.shape.lookup_gap);
            CHECK(set_search_shape(g, sh) == KILN_OK, "%s: %s", name, kiln_last_error(g));
            memset(&fg, 0, sizeof fg);
            job.user = &fg;
            CHECK(kiln_scan(g, &job, &res) == want, "%s: %s", name, kiln_last_error(g));
            int same = fg.n == fc.n;
            for (int i = 0; same && i < fc.n && i < MAX_FOUND; i++)
                same = fg.nonce[i] == fc.nonce[i] && memcmp(fg.hash[i], fc.hash[i], 32) == 0;
            CHECK(same, "%s: device %d vs cpu %d nonces", name, fg.n, fc.n);
            CHECK(res.false_candidates == 0, "%s: false candidates", name);
        }
        CHECK(count < 60 || fc.n > (int)(count / 60), "round %d: the easy target passes some nonces (%d)", round, fc.n);
    }
    set_search_shape(g, (search_shape){{0, 0}, {0, 0}});
}

static void random_bytes(unsigned long long *seed, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)test_rand(seed);
}

/* Each case's batch of `items` random inputs equals the CPU's, and nothing is written past it. */
static void batch(kiln_ctx *cpu, kiln_ctx *g, const kdf_case *cases, size_t ncases, size_t items, int quick)
{
    unsigned long long seed = 0xba7c4 + ncases;
    enum { ITEMS = 37 };
    static uint8_t pw[ITEMS][100], salt[ITEMS][100], want[ITEMS * 100], got[ITEMS * 100 + 1]; /* + a sentinel */
    kiln_scrypt_input in[ITEMS];
    for (size_t c = 0; c < ncases; c++) {
        if (quick && (cases[c].N * cases[c].r > 4096 || c % 2)) continue;
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
        CHECK(kiln_ctx_set_scrypt_kdf_launch(g, l, sh) == KILN_OK, "case %zu launch", c);
        CHECK(kiln_scrypt_batch(cpu, in, items, sp, want, len) == KILN_OK, "case %zu cpu: %s", c, kiln_last_error(cpu));
        memset(got, 0xa5, sizeof got);
        kiln_status st = kiln_scrypt_batch(g, in, items, sp, got, len);
        CHECK(st == KILN_OK, "case %zu device: %s", c, kiln_last_error(g));
        int bad = -1;
        for (size_t i = 0; i < items && bad < 0; i++)
            if (memcmp(got + i * len, want + i * len, len) != 0) bad = (int)i;
        CHECK(bad < 0, "N=%llu r=%u p=%u len=%zu gap=%d tpb=%d kernel=%d: item %d differs", (unsigned long long)sp.N,
              sp.r, sp.p, len, cases[c].gap, cases[c].tpb, cases[c].kernel, bad);
        CHECK(got[items * len] == 0xa5, "case %zu wrote past the output", c);
    }
    kiln_ctx_set_scrypt_kdf_launch(g, (kiln_launch){0, 0}, (kiln_scrypt_shape){0, 0});
}

/* The RFC 7914 vectors through the batch with ROMix kernel `kernel` (0: the default). */
static void rfc(kiln_ctx *g, const char *doc, int kernel, int quick)
{
    CHECK(kiln_ctx_set_scrypt_kdf_launch(g, (kiln_launch){0, kernel}, (kiln_scrypt_shape){0, 0}) == KILN_OK,
          "kernel %d launch", kernel);
    jspan arr, o;
    int ran = 0;
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
        /* N = 1048576 (1 GiB) is the CPU tests'; too slow on a CPU device */
        if (json_true(o, "large") || (quick && N * r * p > 16384)) continue;
        kiln_scrypt_input in = {pw, strlen(pw), salt, strlen(salt)};
        kiln_scrypt_params sp = {N, (uint32_t)r, (uint32_t)p};
        CHECK(kiln_scrypt_batch(g, &in, 1, sp, out, len) == KILN_OK, "rfc N=%llu: %s", (unsigned long long)N,
              kiln_last_error(g));
        kiln_hex_encode(out, len, 0, h);
        CHECK(strcmp(h, want) == 0, "rfc N=%llu r=%llu p=%llu (kernel %d): %s", (unsigned long long)N,
              (unsigned long long)r, (unsigned long long)p, kernel, h);
        ran++;
    }
    CHECK(ran >= (quick ? 1 : 2), "RFC 7914's N = 16 and N = 1024 vectors ran (%d)", ran);
    kiln_ctx_set_scrypt_kdf_launch(g, (kiln_launch){0, 0}, (kiln_scrypt_shape){0, 0});
}

/* A ROMix kernel other than 1 and 2, and a group the kernels cannot take (the API takes up to
 * 1024; the kernels' exchange buffers hold 256), are bad input naming why, not run as some
 * default. */
static void refused(kiln_ctx *g)
{
    kiln_scrypt_input one = {"pw", 2, "salt", 4};
    uint8_t key[32];
    for (int kernel = 3; kernel <= 4; kernel++) {
        char want[32];
        snprintf(want, sizeof want, "ROMix kernel %d", kernel);
        CHECK(kiln_ctx_set_scrypt_kdf_launch(g, (kiln_launch){0, kernel}, (kiln_scrypt_shape){0, 0}) == KILN_OK,
              "kernel %d set", kernel);
        CHECK(kiln_scrypt_batch(g, &one, 1, (kiln_scrypt_params){16, 8, 1}, key, 32) == KILN_ERR_INPUT &&
                  strstr(kiln_last_error(g), want),
              "%s refused: %s", want, kiln_last_error(g));
    }
    CHECK(kiln_ctx_set_scrypt_kdf_launch(g, (kiln_launch){512, 0}, (kiln_scrypt_shape){0, 0}) == KILN_OK,
          "512 threads per block: %s", kiln_last_error(g));
    CHECK(kiln_scrypt_batch(g, &one, 1, (kiln_scrypt_params){16, 1, 1}, key, 32) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(g), "32..256"),
          "512 threads per block: %s", kiln_last_error(g));
    kiln_ctx_set_scrypt_kdf_launch(g, (kiln_launch){0, 0}, (kiln_scrypt_shape){0, 0});
}

/* ---- what each backend runs */

/* CUDA: every search shape; KDF cases through ROMix kernels 1 and 2 (per-quad steps, X in shared
 * memory: every gap, r, a block over 48 KiB of shared memory (r = 8 at 256 threads), a gap above
 * N, p > 1, a non-templated r (kernel ignored)). */
static const search_shape cuda_search[] = {{{0, 0}, {4, 1}}, {{0, 0}, {1, 1}}, {{0, 0}, {4, 2}},  {{0, 0}, {1, 2}},
                                           {{0, 0}, {4, 4}}, {{0, 0}, {1, 16}}, {{0, 0}, {4, 16}}};
static const search_shape cuda_search_quick[] = {{{0, 0}, {4, 1}}, {{0, 0}, {4, 2}}, {{0, 0}, {4, 4}}, {{0, 0}, {4, 16}}};
static const kdf_case cuda_kdf[] = {
    {2, 1, 1, 32, 0, 0, 0},      {16, 1, 1, 64, 0, 0, 0},    {1024, 1, 1, 32, 1, 0, 0},  {1024, 1, 1, 33, 4, 64, 0},
    {16, 2, 1, 1, 0, 0, 0},      {64, 4, 2, 100, 2, 0, 0},   {256, 8, 1, 64, 0, 0, 0},   {256, 8, 1, 64, 16, 32, 0},
    {32, 3, 2, 64, 0, 0, 0},     {16, 5, 1, 48, 0, 256, 0},  {1024, 8, 3, 64, 2, 0, 0},  {16, 16, 1, 64, 0, 0, 0},
    {512, 1, 7, 31, 8, 0, 0},    {4, 2, 1, 64, 16, 0, 0},    {2048, 2, 1, 64, 0, 128, 0}, {8, 7, 2, 65, 0, 0, 0},
    {256, 8, 1, 64, 1, 0, 2},    {256, 8, 1, 64, 2, 0, 2},   {512, 8, 1, 64, 4, 256, 2}, {256, 8, 1, 64, 16, 32, 2},
    {1024, 8, 2, 64, 0, 128, 2}, {2048, 1, 1, 32, 8, 64, 2}, {1024, 1, 3, 33, 2, 0, 2},  {128, 2, 2, 64, 4, 0, 2},
    {256, 4, 2, 100, 2, 256, 2}, {64, 4, 1, 64, 1, 0, 2},    {2, 8, 1, 32, 16, 0, 2},    {16, 3, 1, 64, 2, 0, 2},
    {1024, 8, 1, 64, 8, 64, 1},  {4, 1, 1, 64, 4, 0, 2},
};

static void run_cuda(kiln_ctx *cpu, kiln_ctx *g, const char *ltc, const char *rfcdoc, int quick)
{
    const search_shape *ss = quick ? cuda_search_quick : cuda_search;
    const int nss = quick ? (int)(sizeof cuda_search_quick / sizeof *ss) : (int)(sizeof cuda_search / sizeof *ss);
    litecoin(g, ltc, cuda_search, (int)(sizeof cuda_search / sizeof *cuda_search), quick ? 200 : 30000,
             quick ? 50 : 10000, quick);
    random_headers(cpu, g, ss, nss, quick ? 2 : 4, quick ? 300 : 2000);
    batch(cpu, g, cuda_kdf, sizeof cuda_kdf / sizeof *cuda_kdf, quick ? 5 : 37, quick);
    rfc(g, rfcdoc, 0, quick);
    rfc(g, rfcdoc, 2, quick);
    refused(g);
}

/* OpenCL: the default shapes; r = 1, 2, 4, 8 keep the state in registers (r = 8 through ROMix
 * kernel 2 by default), other r are streamed (r = 16 included). The long run adds the search's
 * smallest and largest groups and gaps with counts that leave the last group of quads part empty,
 * the KDF's gap kernels (a gap above N is N) and the streamed one in groups other than 128 (few:
 * PoCL builds a kernel anew for each), and ROMix kernel 1 for r = 8, with a gap and without. */
static const search_shape ocl_default[] = {{{0, 0}, {0, 0}}};
static const kdf_case ocl_kdf[] = {
    {2, 1, 1, 32, 0, 0, 0},   {16, 1, 1, 64, 0, 0, 0},  {1024, 1, 1, 33, 0, 0, 0}, {16, 2, 1, 1, 0, 0, 0},
    {64, 4, 2, 100, 0, 0, 0}, {256, 8, 1, 64, 0, 0, 0}, {32, 3, 2, 64, 0, 0, 0},   {16, 5, 1, 48, 0, 0, 0},
    {512, 1, 7, 31, 0, 0, 0}, {8, 7, 2, 65, 0, 0, 0},   {8, 16, 1, 32, 0, 0, 0},
};
static const kdf_case ocl_kdf_long[] = {
    {2, 1, 1, 32, 2, 32, 0},   {16, 1, 3, 32, 2, 32, 0},   {64, 2, 1, 40, 2, 32, 0},   {32, 4, 2, 64, 2, 32, 0},
    {64, 8, 1, 64, 2, 32, 0},  {16, 3, 1, 32, 2, 32, 0},   {2, 1, 1, 32, 16, 256, 0},  {16, 1, 3, 32, 16, 256, 0},
    {64, 2, 1, 40, 16, 256, 0}, {32, 4, 2, 64, 16, 256, 0}, {64, 8, 1, 64, 16, 256, 0}, {16, 3, 1, 32, 16, 256, 0},
    {256, 8, 1, 64, 1, 0, 1},  {64, 8, 2, 32, 1, 0, 1},    {256, 8, 1, 64, 2, 0, 1},   {64, 8, 2, 32, 2, 0, 1},
};
static const struct {
    search_shape s;
    uint64_t count;
} ocl_search_long[] = {
    {{{32, 1}, {4, 2}}, 77}, {{{256, 4}, {4, 16}}, 150}, {{{0, 0}, {1, 4}}, 37}, {{{0, 0}, {0, 8}}, 5}, {{{32, 2}, {4, 1}}, 45},
};

static void run_opencl(kiln_ctx *cpu, kiln_ctx *g, const char *ltc, const char *rfcdoc)
{
    rfc(g, rfcdoc, 0, 0);
    batch(cpu, g, ocl_kdf, sizeof ocl_kdf / sizeof *ocl_kdf, 13, 0);
    refused(g);
    litecoin(g, ltc, ocl_default, 1, 100, 28, 0);
    random_headers(cpu, g, ocl_default, 1, 2, 300);
    if (!getenv("KILN_TEST_LONG")) return;
    batch(cpu, g, ocl_kdf_long, sizeof ocl_kdf_long / sizeof *ocl_kdf_long, 13, 0);
    for (size_t i = 0; i < sizeof ocl_search_long / sizeof *ocl_search_long; i++)
        random_headers(cpu, g, &ocl_search_long[i].s, 1, 1, ocl_search_long[i].count);
}

/* tests/data's Litecoin headers and RFC 7914 vectors */
static char *ltc, *rfcdoc;

static void run(const test_gpu *g, kiln_ctx *cpu)
{
    if (g->backend == KILN_BACKEND_CUDA) run_cuda(cpu, g->ctx, ltc, rfcdoc, test_quick());
    else run_opencl(cpu, g->ctx, ltc, rfcdoc);
}

int main(void)
{
    ltc = json_load(test_data("litecoin_pow.json"));
    rfcdoc = json_load(test_data("rfc7914.json"));
    CHECK(ltc && rfcdoc, "test data");
    const int rc = ltc && rfcdoc ? test_gpu_each(run) : check_summary();
    free(ltc);
    free(rfcdoc);
    return rc;
}
