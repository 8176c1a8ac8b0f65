/* scrypt's input checks: parameters outside RFC 7914's limits and scratch that cannot be had are
 * KILN_ERR_INPUT with a message naming the problem, never a crash; the launch-shape setters and
 * the tune cache's scrypt lines accept exactly the documented values. */
#include <unistd.h>

#include "check.h"
#include "kiln.h"
#include "tune/tune_cache.h"

static void bad(kiln_ctx *ctx, uint64_t N, uint32_t r, uint32_t p, size_t len, const char *word)
{
    kiln_scrypt_params sp = {N, r, p};
    kiln_status st = kiln_scrypt_check(ctx, sp, len);
    CHECK(st == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), word) != NULL,
          "N=%llu r=%u p=%u len=%zu: status %d, message '%s' should name '%s'", (unsigned long long)N, r, p, len, st,
          kiln_last_error(ctx), word);
    /* the KDF itself refuses the same way, before touching memory */
    uint8_t out[64];
    st = kiln_scrypt(ctx, "pw", 2, "salt", 4, sp, out, len < sizeof out ? len : sizeof out);
    CHECK(st == KILN_ERR_INPUT, "kiln_scrypt N=%llu r=%u p=%u: status %d", (unsigned long long)N, r, p, st);
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    bad(ctx, 0, 1, 1, 32, "power of two");
    bad(ctx, 1, 1, 1, 32, "power of two");
    bad(ctx, 3, 1, 1, 32, "power of two");
    bad(ctx, 1000, 8, 1, 32, "power of two");
    bad(ctx, (UINT64_C(1) << 63) + 1, 8, 1, 32, "power of two");
    bad(ctx, 16, 0, 1, 32, "r must be");
    bad(ctx, 16, 1, 0, 32, "p must be");
    bad(ctx, 65536, 1, 1, 32, "2^(16r)"); /* N < 2^(128 r / 8) */
    bad(ctx, UINT64_C(1) << 32, 2, 1, 32, "2^(16r)");
    bad(ctx, 16, 1, 1u << 30, 32, "p = 1073741824"); /* p <= (2^32 - 1) * 32 / 128 */
    bad(ctx, 16, 1u << 30, 2, 32, "over RFC 7914's limit"); /* 128 r p > (2^32 - 1) * 32 */
    bad(ctx, 16, 1, 1, 0, "output length");
    bad(ctx, UINT64_C(1) << 40, 8, 1, 32, "needs 128 * r * N"); /* 1 PiB of scratch */
    bad(ctx, UINT64_C(1) << 62, 8, 1, 32, "needs 128 * r * N"); /* overflows size_t */
    /* the output counts against the memory limit like the scratchpads (issue 24.5: --length
     * 3000000000 ran for minutes at 1.8 GB) */
    kiln_ctx_set_memory_limit(ctx, UINT64_C(1) << 20);
    CHECK(kiln_scrypt_check(ctx, (kiln_scrypt_params){16, 1, 1}, (size_t)2 << 20) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(ctx), "output length 2097152"),
          "2 MiB of output under a 1 MiB limit: %s", kiln_last_error(ctx));
    CHECK(kiln_scrypt_check(ctx, (kiln_scrypt_params){16, 1, 1}, (size_t)512 << 10) == KILN_OK, "512 KiB of output fits");
    kiln_ctx_set_memory_limit(ctx, 0);

    kiln_scrypt_params ok = {16, 1, 1};
    uint8_t out[32];
    CHECK(kiln_scrypt_check(ctx, ok, 32) == KILN_OK, "16/1/1 ok");
    CHECK(kiln_scrypt_check(ctx, (kiln_scrypt_params){32768, 2, 1}, 32) == KILN_OK, "N = 2^15 with r = 1 ok");
    CHECK(kiln_scrypt_check(ctx, (kiln_scrypt_params){32768, 1, 1}, 32) == KILN_OK, "N = 2^15 < 2^16 ok");
    CHECK(kiln_scrypt(ctx, NULL, 3, "s", 1, ok, out, 32) == KILN_ERR_INPUT, "NULL password with a length");
    CHECK(kiln_scrypt(ctx, "p", 1, NULL, 2, ok, out, 32) == KILN_ERR_INPUT, "NULL salt with a length");
    CHECK(kiln_scrypt(ctx, "p", 1, "s", 1, ok, NULL, 32) == KILN_ERR_INPUT, "NULL output");
    CHECK(kiln_scrypt(ctx, NULL, 0, NULL, 0, ok, out, 32) == KILN_OK, "empty password and salt as NULL, 0");
    CHECK(kiln_scrypt(NULL, "p", 1, "s", 1, ok, out, 32) == KILN_OK, "NULL context");
    CHECK(kiln_pbkdf2_sha256(ctx, "p", 1, "s", 1, 0, out, 32) == KILN_ERR_INPUT, "PBKDF2 c = 0");
    CHECK(kiln_pbkdf2_sha256(ctx, "p", 1, "s", 1, 1, out, 0) == KILN_ERR_INPUT, "PBKDF2 length 0");

    /* batches */
    kiln_scrypt_input in[2] = {{"a", 1, "b", 1}, {NULL, 5, "b", 1}};
    uint8_t bout[64];
    CHECK(kiln_scrypt_batch(ctx, in, 0, ok, bout, 32) == KILN_OK, "empty batch");
    CHECK(kiln_scrypt_batch(ctx, NULL, 2, ok, bout, 32) == KILN_ERR_INPUT, "NULL inputs");
    CHECK(kiln_scrypt_batch(ctx, in, 2, ok, bout, 32) == KILN_ERR_INPUT &&
              strstr(kiln_last_error(ctx), "input 1") != NULL,
          "item without bytes: %s", kiln_last_error(ctx));
    CHECK(kiln_scrypt_batch(ctx, in, 1, (kiln_scrypt_params){17, 1, 1}, bout, 32) == KILN_ERR_INPUT, "batch N = 17");

    /* launch shapes */
    CHECK(kiln_ctx_set_scrypt_shape(ctx, (kiln_scrypt_shape){2, 1}) == KILN_ERR_INPUT, "2 threads per hash");
    CHECK(kiln_ctx_set_scrypt_shape(ctx, (kiln_scrypt_shape){4, 3}) == KILN_ERR_INPUT, "gap 3");
    CHECK(kiln_ctx_set_scrypt_shape(ctx, (kiln_scrypt_shape){4, 32}) == KILN_ERR_INPUT, "gap 32");
    CHECK(kiln_ctx_set_scrypt_shape(ctx, (kiln_scrypt_shape){1, 16}) == KILN_OK, "1 x 16");
    CHECK(kiln_ctx_scrypt_shape(ctx).threads_per_hash == 1 && kiln_ctx_scrypt_shape(ctx).lookup_gap == 16, "kept");
    CHECK(kiln_ctx_set_scrypt_kdf_launch(ctx, (kiln_launch){128, 0}, (kiln_scrypt_shape){1, 1}) == KILN_ERR_INPUT,
          "batch KDF runs quads only");
    CHECK(kiln_ctx_set_scrypt_kdf_launch(ctx, (kiln_launch){48, 0}, (kiln_scrypt_shape){4, 1}) == KILN_ERR_INPUT,
          "tpb 48");
    CHECK(kiln_ctx_set_scrypt_kdf_launch(ctx, (kiln_launch){256, 0}, (kiln_scrypt_shape){0, 8}) == KILN_OK, "256 x 8");
    kiln_launch l;
    kiln_scrypt_shape sh;
    kiln_ctx_scrypt_kdf_launch(ctx, &l, &sh);
    CHECK(l.threads_per_block == 256 && sh.lookup_gap == 8, "kdf launch kept");
    CHECK(kiln_algo_from_name(ctx, "scrypt", &(kiln_algo){0}) == KILN_OK, "algo scrypt");
    CHECK(strcmp(kiln_algo_name(KILN_ALGO_SCRYPT), "scrypt") == 0, "algo name");

    /* the tune cache's scrypt lines: 5 numbers, the last two the shape */
    tune_entry e;
    CHECK(tune_cache_parse_line("scrypt\tNVIDIA H200\t128\t2\t2500000\t4\t2\n", &e) == 0 &&
              e.launch.threads_per_block == 128 && e.launch.items_per_thread == 2 && e.shape.threads_per_hash == 4 &&
              e.shape.lookup_gap == 2 && e.rate == 2500000,
          "scrypt line");
    CHECK(tune_cache_parse_line("sha256d\tGPU\t256\t4\t1\n", &e) == 0 && e.shape.threads_per_hash == 0, "old line");
    CHECK(tune_cache_parse_line("scrypt\tGPU\t128\t1\t1\t2\t1\n", &e) == -1, "2 threads per hash");
    CHECK(tune_cache_parse_line("scrypt\tGPU\t128\t1\t1\t4\t3\n", &e) == -1, "gap 3");
    CHECK(tune_cache_parse_line("scrypt\tGPU\t128\t1\t1\t4\n", &e) == -1, "4 numbers");
    CHECK(tune_cache_parse_line("scrypt\tGPU\t128\t1\t1\t4\t1\t9\n", &e) == -1, "6 numbers");
    CHECK(tune_cache_parse_line("scrypt\tGPU\t128\t1\t1\t4\t\n", &e) == -1, "empty field");
    CHECK(tune_cache_parse_line("scrypt\tGPU\t128\t1\t1\t4\t1\r\n", &e) == 0, "CRLF");

    /* the cache round trip keeps both kinds of line */
    char dir[] = "/tmp/kiln_tune_XXXXXX", path[256];
    if (mkdtemp(dir)) {
        snprintf(path, sizeof path, "%s/tune.txt", dir);
        tune_entry a = {0}, b = {0}, got;
        snprintf(a.algo, sizeof a.algo, "sha256d");
        snprintf(a.device, sizeof a.device, "GPU X");
        a.launch = (kiln_launch){256, 4};
        a.rate = 9;
        b = a;
        snprintf(b.algo, sizeof b.algo, "scrypt");
        b.shape = (kiln_scrypt_shape){4, 2};
        CHECK(tune_cache_store(path, &a) == 0 && tune_cache_store(path, &b) == 0, "store");
        CHECK(tune_cache_lookup(path, "sha256d", "GPU X", &got) == 0 && got.shape.lookup_gap == 0, "sha256d back");
        CHECK(tune_cache_lookup(path, "scrypt", "GPU X", &got) == 0 && got.shape.threads_per_hash == 4 &&
                  got.shape.lookup_gap == 2,
              "scrypt back");
        remove(path);
        rmdir(dir);
    }
    kiln_ctx_free(ctx);
    return check_summary();
}
