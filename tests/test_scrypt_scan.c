/* Litecoin scrypt mining on the CPU: real headers (tests/data/litecoin_pow.json) with the nonce
 * cleared are searched in a window and the real nonce and PoW hash come back; every CPU lane
 * kernel (scalar, AVX2, AVX-512 where the CPU has them) agrees with the reference PoW hash on
 * which nonces pass an easy target, including ranges that end inside a vector. */
#include "check.h"
#include "json_lite.h"
#include "kiln.h"
#include "scrypt/scrypt_cpu.h"

typedef struct found {
    uint32_t nonce[64];
    uint8_t hash[64][32];
    int n;
} found;

static int collect(void *user, uint32_t nonce, const uint8_t hash[32])
{
    found *f = user;
    if (f->n < 64) {
        f->nonce[f->n] = nonce;
        memcpy(f->hash[f->n], hash, 32);
    }
    f->n++;
    return 0;
}

static void test_real_headers(kiln_ctx *ctx, const char *doc)
{
    jspan arr, o;
    int count = 0;
    CHECK(json_array(doc, "vectors", &arr) == 0, "litecoin vectors");
    while (json_next(&arr, &o) == 0) {
        char name[64], header_hex[200], pow[80], raw[80], bits_hex[16], hex[65];
        uint64_t nonce = 0;
        json_str(o, "name", name, sizeof name);
        json_str(o, "header_hex", header_hex, sizeof header_hex);
        json_str(o, "scrypt_pow_hash", pow, sizeof pow);
        json_str(o, "scrypt_raw_output_hex", raw, sizeof raw);
        json_str(o, "bits", bits_hex, sizeof bits_hex);
        json_u64(o, "nonce", &nonce);
        count++;

        /* the reference PoW hash of the real header */
        uint8_t header[80], hash[32];
        CHECK(kiln_header_from_hex(ctx, header_hex, header) == KILN_OK, "%s header", name);
        kiln_scrypt_pow_hash(header, hash);
        kiln_hex_encode(hash, 32, 0, hex);
        CHECK(strcmp(hex, raw) == 0, "%s raw output %s", name, hex);

        /* search: nonce cleared, the header's own nBits target */
        kiln_scan_job job;
        found f;
        memset(&job, 0, sizeof job);
        memset(&f, 0, sizeof f);
        job.algo = KILN_ALGO_SCRYPT;
        memcpy(job.header, header, 80);
        kiln_header_set_nonce(job.header, 0);
        uint32_t bits = 0;
        CHECK(kiln_bits_from_hex(ctx, bits_hex, &bits) == KILN_OK && bits == kiln_header_bits(header), "%s bits", name);
        CHECK(kiln_target_from_bits(ctx, bits, job.target) == KILN_OK, "%s target", name);
        job.start = nonce >= 300 ? nonce - 300 : 0;
        job.count = 500;
        job.on_found = collect;
        job.user = &f;
        kiln_scan_result res;
        kiln_status st = kiln_scan(ctx, &job, &res);
        CHECK(st == KILN_OK, "%s: status %d %s", name, st, kiln_last_error(ctx));
        CHECK(f.n == 1 && f.nonce[0] == (uint32_t)nonce, "%s: %d found, first %u", name, f.n, f.nonce[0]);
        kiln_hex_encode(f.hash[0], 32, 1, hex);
        CHECK(strcmp(hex, pow) == 0, "%s: PoW hash %s", name, hex);
        CHECK(res.false_candidates == 0, "%s false candidates", name);

        /* just past the real nonce: nothing */
        memset(&f, 0, sizeof f);
        job.start = nonce + 1;
        job.count = 200;
        CHECK(kiln_scan(ctx, &job, &res) == KILN_NOT_FOUND && f.n == 0 && res.hashes == 200, "%s empty window", name);
    }
    CHECK(count == 5, "five Litecoin vectors, got %d", count);
}

/* Which nonces of [start, start+n) have top PoW word <= top, by the reference hash. */
static int reference_set(const uint8_t header[80], uint32_t start, uint32_t n, uint32_t top, uint32_t *out)
{
    uint8_t h[80], hash[32];
    int k = 0;
    memcpy(h, header, 80);
    for (uint32_t i = 0; i < n; i++) {
        kiln_header_set_nonce(h, start + i);
        kiln_scrypt_pow_hash(h, hash);
        uint32_t t = (uint32_t)hash[28] | (uint32_t)hash[29] << 8 | (uint32_t)hash[30] << 16 | (uint32_t)hash[31] << 24;
        if (t <= top) out[k++] = start + i;
    }
    return k;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void test_lanes(void)
{
    kiln_scrypt_impl impls[4];
    int n = kiln_scrypt_cpu_impls(impls, 4);
    unsigned long long seed = 0x5c7e1d;
    CHECK(n >= 1 && strcmp(impls[n - 1].name, "scalar") == 0, "scalar implementation last");
    for (int round = 0; round < 2; round++) {
        uint8_t header[80], target[32];
        for (int i = 0; i < 80; i++) header[i] = (uint8_t)test_rand(&seed);
        memset(target, 0, sizeof target);
        uint32_t top = 0x6fffffffu; /* about 44% of nonces pass */
        kiln_store_le32(target + 28, top);
        uint32_t start = round ? 0xffffffffu - 36 : (uint32_t)test_rand(&seed), count = 37; /* ends mid-vector */
        uint32_t want[64], got[64];
        int nw = reference_set(header, start, count, top, want);
        kiln_scrypt_job job;
        kiln_scrypt_job_init(&job, header, target);
        for (int i = 0; i < n; i++) {
            uint32_t *V = aligned_alloc(64, (size_t)impls[i].lanes * 32 * 1024 * 4);
            uint64_t ng = impls[i].fn(&job, start, count, got, 64, V);
            qsort(got, ng < 64 ? ng : 64, sizeof *got, cmp_u32);
            CHECK(ng == (uint64_t)nw && memcmp(got, want, (size_t)nw * 4) == 0, "%s round %d: %llu vs %d candidates",
                  impls[i].name, round, (unsigned long long)ng, nw);
            /* the threaded driver with two threads agrees too */
            ng = kiln_scrypt_cpu_scan(&impls[i], 2, &job, start, count, got, 64);
            qsort(got, ng < 64 ? ng : 64, sizeof *got, cmp_u32);
            CHECK(ng == (uint64_t)nw && memcmp(got, want, (size_t)nw * 4) == 0, "%s threaded round %d", impls[i].name,
                  round);
            free(V);
        }
        CHECK(nw > 5 && nw < 32, "easy target passes some nonces (%d of 37)", nw);
    }
    for (int i = 0; i < n; i++) printf("checked lane kernel %s\n", impls[i].name);
}

int main(void)
{
    char *doc = json_load(test_data("litecoin_pow.json"));
    CHECK(doc != NULL, "read litecoin_pow.json");
    if (!doc) return check_summary();
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, "cpu") == KILN_OK, "cpu");
    test_real_headers(ctx, doc);
    test_lanes();
    kiln_ctx_free(ctx);
    free(doc);
    return check_summary();
}
