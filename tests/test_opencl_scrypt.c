/* scrypt on the first OpenCL device (PoCL in CI): real Litecoin headers (tests/data/litecoin_pow.json)
 * found in a small range around their nonces with the right PoW hash; on random headers under an
 * easy target, exactly the CPU search's nonces, none falsely, also up to the nonce space's end; the
 * batch KDF equal to the CPU's on random passwords and salts (empty, short, longer than a block) for
 * several (N, r, p) and key lengths; RFC 7914's vectors but the N = 1048576 one; r above the
 * kernels' limit refused as bad input. Skipped (77) without an OpenCL device, unless
 * KILN_REQUIRE_OPENCL is set. */
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
static void random_headers(kiln_ctx *cpu, kiln_ctx *ocl)
{
    unsigned long long seed = 0x5eed5c;
    for (int round = 0; round < 2; round++) {
        static found fc, fo;
        kiln_scan_job job;
        kiln_scan_result res;
        memset(&job, 0, sizeof job);
        job.algo = KILN_ALGO_SCRYPT;
        for (int i = 0; i < 80; i++) job.header[i] = (uint8_t)test_rand(&seed);
        memset(job.target, 0xff, sizeof job.target);
        job.target[31] = 0x0f; /* about 6% of nonces pass */
        job.count = 300;
        job.start = round == 1 ? (UINT64_C(1) << 32) - job.count : (uint32_t)test_rand(&seed);
        job.find_all = 1;
        job.on_found = collect;
        memset(&fc, 0, sizeof fc);
        memset(&fo, 0, sizeof fo);
        job.user = &fc;
        CHECK(kiln_scan(cpu, &job, &res) == KILN_OK, "cpu round %d", round);
        job.user = &fo;
        CHECK(kiln_scan(ocl, &job, &res) == KILN_OK, "opencl round %d: %s", round, kiln_last_error(ocl));
        int same = fo.n == fc.n;
        for (int i = 0; same && i < fc.n && i < MAX_FOUND; i++)
            same = fo.nonce[i] == fc.nonce[i] && memcmp(fo.hash[i], fc.hash[i], 32) == 0;
        CHECK(same, "round %d: opencl %d vs cpu %d nonces", round, fo.n, fc.n);
        CHECK(res.false_candidates == 0, "round %d false candidates", round);
        CHECK(fc.n > 5, "round %d: the easy target passes some nonces (%d)", round, fc.n);
    }
}

static void random_bytes(unsigned long long *seed, uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)test_rand(seed);
}

static void batch(kiln_ctx *cpu, kiln_ctx *ocl)
{
    static const struct {
        uint64_t N;
        uint32_t r, p;
        size_t out_len;
    } cases[] = {
        {2, 1, 1, 32}, {16, 1, 1, 64}, {1024, 1, 1, 33}, {16, 2, 1, 1}, {64, 4, 2, 100},
        {256, 8, 1, 64}, {32, 3, 2, 64}, {16, 5, 1, 48}, {512, 1, 7, 31}, {8, 7, 2, 65},
    };
    unsigned long long seed = 0xba7c4;
    enum { ITEMS = 13 };
    static uint8_t pw[ITEMS][100], salt[ITEMS][100], want[ITEMS * 100], got[ITEMS * 100 + 1]; /* + a sentinel */
    kiln_scrypt_input in[ITEMS];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
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
        CHECK(st == KILN_OK, "case %zu opencl: %s", c, kiln_last_error(ocl));
        int bad = -1;
        for (size_t i = 0; i < ITEMS && bad < 0; i++)
            if (memcmp(got + i * len, want + i * len, len) != 0) bad = (int)i;
        CHECK(bad < 0, "N=%llu r=%u p=%u len=%zu: item %d differs", (unsigned long long)sp.N, sp.r, sp.p, len, bad);
        CHECK(got[ITEMS * len] == 0xa5, "case %zu wrote past the output", c);
    }
    kiln_scrypt_params big_r = {16, 16, 1};
    CHECK(kiln_scrypt_batch(ocl, in, 1, big_r, got, 32) == KILN_ERR_INPUT && strstr(kiln_last_error(ocl), "r up to"),
          "r = 16 on OpenCL: %s", kiln_last_error(ocl));
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
    batch(cpu, ocl);
    litecoin(ocl, ltc);
    random_headers(cpu, ocl);
    kiln_ctx_free(ocl);
    kiln_ctx_free(cpu);
    free(ltc);
    free(rfcdoc);
    return check_summary();
#endif
}
