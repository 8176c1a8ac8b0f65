/* scrypt on the first OpenCL device (PoCL in CI): real Litecoin headers (tests/data/litecoin_pow.json)
 * found in a small range around their nonces with the right PoW hash; on random headers under an
 * easy target, exactly the CPU search's nonces, none falsely, also up to the nonce space's end, in
 * the default launch shape and in others (lookup gaps 2 to 16, groups of 32 to 256 work-items, a
 * count that leaves the last group part empty); the batch KDF equal to the CPU's on random
 * passwords and salts (empty, short, longer than a block) for several (N, r, p) and key lengths,
 * r = 1, 2, 4, 8 (state in registers; r = 8 through ROMix kernel 2 by default and kernel 1 when
 * asked) and others (streamed, r = 16 included), in the default shape and with lookup gaps (16
 * above N too) and other group sizes; RFC 7914's vectors but the
 * N = 1048576 one; a group size the kernels cannot take refused as bad input. The launch shapes
 * other than the default (the search's and the KDF's gaps, group sizes and ROMix kernel 1) run
 * only with KILN_TEST_LONG (test_opencl_scrypt_long, label long). Skipped (77) without an OpenCL
 * device, unless KILN_REQUIRE_OPENCL is set. */
#include "check.h"
#include "opencl_device.h"
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

static void litecoin(kiln_ctx *ocl, const char *doc)
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
        static found f;
        kiln_scan_job job;
        kiln_scan_result res;
        memset(&job, 0, sizeof job);
        memset(&f, 0, sizeof f);
        job.algo = KILN_ALGO_SCRYPT;
        kiln_header_from_hex(NULL, header_hex, job.header);
        kiln_target_from_bits(NULL, kiln_header_bits(job.header), job.target);
        kiln_header_set_nonce(job.header, 0);
        job.start = nonce >= 100 ? nonce - 100 : 0;
        job.count = nonce - job.start + 28;
        job.on_found = collect;
        job.user = &f;
        kiln_status st = kiln_scan(ocl, &job, &res);
        CHECK(st == KILN_OK, "%s: %s", name, kiln_last_error(ocl));
        CHECK(f.n == 1 && f.nonce[0] == (uint32_t)nonce, "%s: found %d, first %u", name, f.n, f.nonce[0]);
        kiln_hex_encode(f.hash[0], 32, 1, hex);
        CHECK(strcmp(hex, pow) == 0, "%s PoW hash %s", name, hex);
        CHECK(res.false_candidates == 0, "%s false candidates %llu", name, (unsigned long long)res.false_candidates);
        v++;
    }
    CHECK(v == 5, "five headers");
}

/* The same easy-target search on the CPU and on OpenCL: identical verified nonces. */
static void random_headers(kiln_ctx *cpu, kiln_ctx *ocl, const char *shape, int rounds, uint64_t count)
{
    unsigned long long seed = 0x5eed5c + count;
    for (int round = 0; round < rounds; round++) {
        static found fc, fo;
        kiln_scan_job job;
        kiln_scan_result res;
        memset(&job, 0, sizeof job);
        job.algo = KILN_ALGO_SCRYPT;
        for (int i = 0; i < 80; i++) job.header[i] = (uint8_t)test_rand(&seed);
        memset(job.target, 0xff, sizeof job.target);
        job.target[31] = 0x0f; /* about 6% of nonces pass */
        job.count = count;
        job.start = round == 1 ? (UINT64_C(1) << 32) - job.count : (uint32_t)test_rand(&seed);
        job.find_all = 1;
        job.on_found = collect;
        memset(&fc, 0, sizeof fc);
        memset(&fo, 0, sizeof fo);
        job.user = &fc;
        /* a short range may hold no hit: KILN_NOT_FOUND then, from both */
        kiln_status want = kiln_scan(cpu, &job, &res);
        CHECK(want == KILN_OK || (want == KILN_NOT_FOUND && count < 60), "cpu round %d: %s", round, kiln_last_error(cpu));
        job.user = &fo;
        CHECK(kiln_scan(ocl, &job, &res) == want, "opencl %s round %d: %s", shape, round, kiln_last_error(ocl));
        int same = fo.n == fc.n;
        for (int i = 0; same && i < fc.n && i < MAX_FOUND; i++)
            same = fo.nonce[i] == fc.nonce[i] && memcmp(fo.hash[i], fc.hash[i], 32) == 0;
        CHECK(same, "%s round %d: opencl %d vs cpu %d nonces", shape, round, fo.n, fc.n);
        CHECK(res.false_candidates == 0, "%s round %d false candidates", shape, round);
        CHECK(count < 60 || fc.n > (int)(count / 60), "%s round %d: the easy target passes some nonces (%d)", shape, round, fc.n);
    }
}

/* The search in launch shapes other than the default: lookup gaps, the smallest and largest
 * groups, and counts that leave the last group of quads part empty. */
static void search_shapes(kiln_ctx *cpu, kiln_ctx *ocl)
{
    static const struct {
        int tpb, waves, tph, gap;
        uint64_t count;
    } shapes[] = {
        {32, 1, 4, 2, 77}, {256, 4, 4, 16, 150}, {0, 0, 1, 4, 37}, {0, 0, 0, 8, 5}, {32, 2, 4, 1, 45},
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char name[80];
        snprintf(name, sizeof name, "tpb %d waves %d tph %d gap %d", shapes[i].tpb, shapes[i].waves, shapes[i].tph,
                 shapes[i].gap);
        kiln_launch l = {shapes[i].tpb, shapes[i].waves};
        kiln_scrypt_shape sh = {shapes[i].tph, shapes[i].gap};
        CHECK(kiln_ctx_set_launch(ocl, KILN_ALGO_SCRYPT, l) == KILN_OK, "%s: %s", name, kiln_last_error(ocl));
        CHECK(kiln_ctx_set_scrypt_shape(ocl, sh) == KILN_OK, "%s: %s", name, kiln_last_error(ocl));
        random_headers(cpu, ocl, name, 1, shapes[i].count);
    }
    kiln_launch none = {0, 0};
    kiln_scrypt_shape dflt = {0, 0};
    kiln_ctx_set_launch(ocl, KILN_ALGO_SCRYPT, none);
    kiln_ctx_set_scrypt_shape(ocl, dflt);
}

static void random_bytes(unsigned long long *seed, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)test_rand(seed);
}

typedef struct kdf_case {
    uint64_t N;
    uint32_t r, p;
    size_t out_len;
} kdf_case;

static void batch(kiln_ctx *cpu, kiln_ctx *ocl, const char *shape, const kdf_case *cases, size_t ncases)
{
    unsigned long long seed = 0xba7c4 + ncases;
    enum { ITEMS = 13 };
    static uint8_t pw[ITEMS][100], salt[ITEMS][100], want[ITEMS * 100], got[ITEMS * 100 + 1]; /* + a sentinel */
    kiln_scrypt_input in[ITEMS];
    for (size_t c = 0; c < ncases; c++) {
        for (size_t i = 0; i < ITEMS; i++) {
            in[i].password_len = test_rand(&seed) % 100; /* 0 .. 99 bytes: empty, short, longer than a block */
            in[i].salt_len = test_rand(&seed) % 100;
            random_bytes(&seed, pw[i], in[i].password_len);
            random_bytes(&seed, salt[i], in[i].salt_len);
            in[i].password = pw[i];
            in[i].salt = salt[i];
        }
        kiln_scrypt_params sp = {cases[c].N, cases[c].r, cases[c].p};
        size_t len = cases[c].out_len;
        CHECK(kiln_scrypt_batch(cpu, in, ITEMS, sp, want, len) == KILN_OK, "case %zu cpu: %s", c, kiln_last_error(cpu));
        memset(got, 0xa5, sizeof got);
        kiln_status st = kiln_scrypt_batch(ocl, in, ITEMS, sp, got, len);
        CHECK(st == KILN_OK, "%s case %zu opencl: %s", shape, c, kiln_last_error(ocl));
        int bad = -1;
        for (size_t i = 0; i < ITEMS && bad < 0; i++)
            if (memcmp(got + i * len, want + i * len, len) != 0) bad = (int)i;
        CHECK(bad < 0, "%s N=%llu r=%u p=%u len=%zu: item %d differs", shape, (unsigned long long)sp.N, sp.r, sp.p, len,
              bad);
        CHECK(got[ITEMS * len] == 0xa5, "%s case %zu wrote past the output", shape, c);
    }
}

static void batches(kiln_ctx *cpu, kiln_ctx *ocl)
{
    static const kdf_case all[] = {
        {2, 1, 1, 32}, {16, 1, 1, 64}, {1024, 1, 1, 33}, {16, 2, 1, 1}, {64, 4, 2, 100}, {256, 8, 1, 64},
        {32, 3, 2, 64}, {16, 5, 1, 48}, {512, 1, 7, 31}, {8, 7, 2, 65}, {8, 16, 1, 32},
    };
    batch(cpu, ocl, "default", all, sizeof all / sizeof all[0]);
    /* PoCL compiles a kernel anew for each group size and gap: the other shapes are the long run's
     * (KILN_TEST_LONG, test_opencl_scrypt_long) */
    if (getenv("KILN_TEST_LONG")) {
    /* the gap kernels (r = 1, 2, 4, 8; a gap above N is N) and the streamed one in group sizes
     * other than 128 (few of them: PoCL builds a kernel anew for each group size) */
    static const kdf_case gapped[] = {{2, 1, 1, 32}, {16, 1, 3, 32}, {64, 2, 1, 40}, {32, 4, 2, 64}, {64, 8, 1, 64}, {16, 3, 1, 32}};
    static const struct {
        int tpb, gap;
    } shapes[] = {{32, 2}, {256, 16}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "tpb %d gap %d", shapes[i].tpb, shapes[i].gap);
        kiln_launch l = {shapes[i].tpb, 0};
        kiln_scrypt_shape sh = {0, shapes[i].gap};
        CHECK(kiln_ctx_set_scrypt_kdf_launch(ocl, l, sh) == KILN_OK, "%s: %s", name, kiln_last_error(ocl));
        batch(cpu, ocl, name, gapped, sizeof gapped / sizeof gapped[0]);
    }
    /* r = 8 runs ROMix kernel 2 by default (the passes above); kernel 1 when asked for, with a
     * gap and without */
    static const kdf_case r8[] = {{256, 8, 1, 64}, {64, 8, 2, 32}};
    for (int gap = 1; gap <= 2; gap++) {
        char name[64];
        snprintf(name, sizeof name, "ROMix kernel 1, gap %d", gap);
        CHECK(kiln_ctx_set_scrypt_kdf_launch(ocl, (kiln_launch){0, 1}, (kiln_scrypt_shape){0, gap}) == KILN_OK, "%s: %s",
              name, kiln_last_error(ocl));
        batch(cpu, ocl, name, r8, sizeof r8 / sizeof r8[0]);
    }
    }
    /* a ROMix kernel that does not exist is bad input, as on CUDA */
    CHECK(kiln_ctx_set_scrypt_kdf_launch(ocl, (kiln_launch){0, 3}, (kiln_scrypt_shape){0, 0}) == KILN_OK, "kernel 3 set");
    {
        kiln_scrypt_input one = {"pw", 2, "salt", 4};
        uint8_t key[32];
        CHECK(kiln_scrypt_batch(ocl, &one, 1, (kiln_scrypt_params){16, 8, 1}, key, 32) == KILN_ERR_INPUT &&
                  strstr(kiln_last_error(ocl), "ROMix kernel 3"),
              "ROMix kernel 3 on OpenCL: %s", kiln_last_error(ocl));
    }
    /* the API takes groups up to 1024; the quad kernels' exchange buffers hold 256 work-items */
    kiln_launch big = {512, 0};
    kiln_scrypt_shape dflt = {0, 0};
    CHECK(kiln_ctx_set_scrypt_kdf_launch(ocl, big, dflt) == KILN_OK, "512 threads per block: %s", kiln_last_error(ocl));
    kiln_scrypt_input one = {"pw", 2, "salt", 4};
    kiln_scrypt_params sp = {16, 1, 1};
    uint8_t out[32];
    CHECK(kiln_scrypt_batch(ocl, &one, 1, sp, out, 32) == KILN_ERR_INPUT && strstr(kiln_last_error(ocl), "32..256"),
          "512 threads per block on OpenCL: %s", kiln_last_error(ocl));
    kiln_launch none = {0, 0};
    kiln_ctx_set_scrypt_kdf_launch(ocl, none, dflt);
}

static void rfc(kiln_ctx *ocl, const char *doc)
{
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
        if (json_true(o, "large")) continue; /* N = 1048576: 1 GiB, too slow on a CPU device */
        kiln_scrypt_input in = {pw, strlen(pw), salt, strlen(salt)};
        kiln_scrypt_params sp = {N, (uint32_t)r, (uint32_t)p};
        CHECK(kiln_scrypt_batch(ocl, &in, 1, sp, out, len) == KILN_OK, "rfc N=%llu: %s", (unsigned long long)N,
              kiln_last_error(ocl));
        kiln_hex_encode(out, len, 0, h);
        CHECK(strcmp(h, want) == 0, "rfc N=%llu r=%llu p=%llu on OpenCL: %s", (unsigned long long)N,
              (unsigned long long)r, (unsigned long long)p, h);
        ran++;
    }
    CHECK(ran >= 2, "RFC 7914's N = 16 and N = 1024 vectors ran (%d)", ran);
}

int main(void)
{
    const int missing = test_opencl_missing();
#ifndef KILN_HAVE_OPENCL
    return missing;
#else
    if (missing) return missing;
    char *ltc = json_load(test_data("litecoin_pow.json")), *rfcdoc = json_load(test_data("rfc7914.json"));
    CHECK(ltc && rfcdoc, "test data");
    if (!ltc || !rfcdoc) return check_summary();
    kiln_ctx *ocl = kiln_ctx_new(), *cpu = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ocl, test_opencl_device()) == KILN_OK, "%s: %s", test_opencl_device(), kiln_last_error(ocl));
    CHECK(kiln_ctx_set_device(cpu, "cpu") == KILN_OK, "cpu");
    rfc(ocl, rfcdoc);
    batches(cpu, ocl);
    litecoin(ocl, ltc);
    random_headers(cpu, ocl, "default", 2, 300);
    if (getenv("KILN_TEST_LONG")) search_shapes(cpu, ocl);
    kiln_ctx_free(ocl);
    kiln_ctx_free(cpu);
    free(ltc);
    free(rfcdoc);
    return check_summary();
#endif
}
