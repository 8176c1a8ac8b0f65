/* Table tests and a fuzz loop for every text parser of the core and the CLI: hex, headers,
 * nBits, targets, devices, launch shapes, numbers and the tune cache lines. */
#include <math.h>

#include "check.h"
#include "common/cli.h"
#include "kiln.h"
#include "tune/tune_cache.h"

static const char genesis[] =
    "0100000000000000000000000000000000000000000000000000000000000000000000003ba3edfd7a7b12b27ac72c3e67768f617fc81bc3"
    "888a51323a9fb8aa4b1e5e4a29ab5f49ffff001d1dac2b7c";

/* The same hex text ignoring case. */
static int strncasecmp_ok(const char *lower, const char *any)
{
    for (; *lower; lower++, any++) {
        char c = *any >= 'A' && *any <= 'F' ? (char)(*any - 'A' + 'a') : *any;
        if (c != *lower) return 0;
    }
    return *any == '\0';
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    uint8_t buf[80], t[32];

    /* hex */
    CHECK(kiln_hex_decode(ctx, "00ffA5", buf, 3) == KILN_OK && buf[0] == 0 && buf[1] == 0xff && buf[2] == 0xa5,
          "mixed case");
    CHECK(kiln_hex_decode(ctx, "0g", buf, 1) == KILN_ERR_INPUT, "bad digit");
    CHECK(strstr(kiln_last_error(ctx), "'g' at position 2") != NULL, "%s", kiln_last_error(ctx));
    CHECK(kiln_hex_decode(ctx, "abc", buf, 2) == KILN_ERR_INPUT, "odd length");
    CHECK(strstr(kiln_last_error(ctx), "expected 4 hex characters, got 3") != NULL, "%s", kiln_last_error(ctx));
    CHECK(kiln_hex_decode(ctx, "", buf, 0) == KILN_OK, "empty for zero bytes");
    CHECK(kiln_hex_decode(ctx, " 00", buf, 1) == KILN_ERR_INPUT, "leading space");
    CHECK(kiln_hex_decode(ctx, "00\n", buf, 1) == KILN_ERR_INPUT, "trailing newline");
    CHECK(kiln_hex_decode(ctx, NULL, buf, 1) == KILN_ERR_INPUT, "NULL");
    char out[7];
    kiln_hex_encode((const uint8_t *)"\x01\xab\xff", 3, 0, out);
    CHECK_STR(out, "01abff");
    kiln_hex_encode((const uint8_t *)"\x01\xab\xff", 3, 1, out);
    CHECK_STR(out, "ffab01");

    /* headers */
    CHECK(kiln_header_from_hex(ctx, genesis, buf) == KILN_OK, "genesis");
    char shorter[200];
    snprintf(shorter, sizeof shorter, "%.158s", genesis);
    CHECK(kiln_header_from_hex(ctx, shorter, buf) == KILN_ERR_INPUT, "158 chars");
    CHECK(strstr(kiln_last_error(ctx), "got 158") && strstr(kiln_last_error(ctx), "160 hex"), "%s",
          kiln_last_error(ctx));
    snprintf(shorter, sizeof shorter, "%s00", genesis);
    CHECK(kiln_header_from_hex(ctx, shorter, buf) == KILN_ERR_INPUT, "162 chars");
    snprintf(shorter, sizeof shorter, "%.100sZ%s", genesis, genesis + 101);
    CHECK(kiln_header_from_hex(ctx, shorter, buf) == KILN_ERR_INPUT, "non-hex in header");
    CHECK(strstr(kiln_last_error(ctx), "position 101") != NULL, "%s", kiln_last_error(ctx));

    /* nBits and targets */
    uint32_t bits = 0;
    CHECK(kiln_bits_from_hex(ctx, "1d00ffff", &bits) == KILN_OK && bits == 0x1d00ffff, "bits");
    CHECK(kiln_bits_from_hex(ctx, "1d00fff", &bits) == KILN_ERR_INPUT, "7 digits");
    CHECK(kiln_bits_from_hex(ctx, "0x1d00ffff", &bits) == KILN_ERR_INPUT, "0x prefix");
    CHECK(kiln_target_from_hex(ctx, "00000000ffff0000000000000000000000000000000000000000000000000000", t) ==
                  KILN_OK &&
              t[27] == 0xff && t[26] == 0xff && t[28] == 0 && t[25] == 0,
          "target byte order");
    CHECK(kiln_target_from_hex(ctx, "ffff", t) == KILN_ERR_INPUT, "short target");
    CHECK(kiln_target_from_hex(ctx, "0000000000000000000000000000000000000000000000000000000000000000", t) ==
              KILN_ERR_INPUT,
          "zero target refused, as nBits 00000000 is");
    CHECK(kiln_target_from_hex(ctx, "0000000000000000000000000000000000000000000000000000000000000001", t) ==
                  KILN_OK && t[0] == 1,
          "target 1 accepted");

    /* devices and launch shapes */
    CHECK(kiln_ctx_set_device(ctx, "cpu") == KILN_OK, "cpu");
    CHECK(kiln_ctx_set_device(ctx, "tpu") == KILN_ERR_INPUT, "unknown device");
    CHECK(kiln_ctx_set_device(ctx, "cuda:x") == KILN_ERR_INPUT, "cuda:x");
    CHECK(kiln_ctx_set_device(ctx, "cuda:") == KILN_ERR_INPUT, "cuda:");
    if (kiln_cuda_device_count() == 0) {
        CHECK(kiln_ctx_set_device(ctx, "cuda") == KILN_ERR_DEVICE, "no GPU");
        CHECK(kiln_ctx_set_device(ctx, "auto") == KILN_OK && kiln_ctx_backend(ctx) == KILN_BACKEND_CPU, "auto");
    }
    CHECK(kiln_ctx_set_device(ctx, "cuda:99") == KILN_ERR_DEVICE, "cuda:99");
    CHECK(kiln_ctx_set_launch(ctx, KILN_ALGO_SHA256D, (kiln_launch){48, 1}) == KILN_ERR_INPUT, "tpb 48");
    CHECK(kiln_ctx_set_launch(ctx, KILN_ALGO_SHA256D, (kiln_launch){256, 3}) == KILN_ERR_INPUT, "ipt 3");
    CHECK(kiln_ctx_set_launch(ctx, KILN_ALGO_SHA256D, (kiln_launch){2048, 1}) == KILN_ERR_INPUT, "tpb 2048");
    CHECK(kiln_ctx_set_launch(ctx, KILN_ALGO_SHA256D, (kiln_launch){512, 8}) == KILN_OK, "512x8");
    CHECK(kiln_ctx_launch(ctx, KILN_ALGO_SHA256D).items_per_thread == 8, "launch kept");
    CHECK(kiln_ctx_set_threads(ctx, -1) == KILN_ERR_INPUT, "threads -1");
    kiln_algo algo;
    CHECK(kiln_algo_from_name(ctx, "sha256d", &algo) == KILN_OK && algo == KILN_ALGO_SHA256D, "sha256d");
    /* names match without regard to case or dashes, as hashlib's and coreutils' users type them */
    CHECK(kiln_algo_from_name(ctx, "SHA256D", &algo) == KILN_OK && algo == KILN_ALGO_SHA256D, "any case");
    CHECK(kiln_algo_from_name(ctx, "sha-256d", &algo) == KILN_OK && algo == KILN_ALGO_SHA256D, "dash");
    CHECK(kiln_algo_from_name(ctx, "sha256dd", &algo) == KILN_ERR_INPUT, "unknown name");

    /* CLI numbers */
    uint64_t v;
    CHECK(cli_parse_u64("4294967295", 4294967295u, &v) == 0 && v == 4294967295u, "max nonce");
    CHECK(cli_parse_u64("4294967296", 4294967295u, &v) == -1, "past max");
    CHECK(cli_parse_u64("0x10", 100, &v) == 0 && v == 16, "hex");
    CHECK(cli_parse_u64("-1", 100, &v) == -1, "negative");
    CHECK(cli_parse_u64("12abc", 1000, &v) == -1, "trailing junk");
    CHECK(cli_parse_u64("", 1000, &v) == -1, "empty");
    CHECK(cli_parse_u64("0x", 1000, &v) == -1, "bare 0x");
    CHECK(cli_parse_u64("99999999999999999999999", UINT64_MAX, &v) == -1, "overflow");
    CHECK(cli_parse_u64(" 5", 10, &v) == -1, "leading space");
    double s;
    CHECK(cli_parse_seconds("1.5", 10, &s) == 0 && s == 1.5, "seconds");
    CHECK(cli_parse_seconds("0", 10, &s) == -1 && cli_parse_seconds("nan", 10, &s) == -1 &&
              cli_parse_seconds("inf", 10, &s) == -1 && cli_parse_seconds("11", 10, &s) == -1,
          "bad seconds");
    double r = -1;
    CHECK(cli_parse_real("0.85", &r) == NULL && r == 0.85, "real");
    CHECK(cli_parse_real("-2.5e-3", &r) == NULL && r == -2.5e-3, "negative real");
    CHECK(cli_parse_real("1e-320", &r) == NULL && r > 0 && r < 1e-300, "subnormal taken");
    CHECK(cli_parse_real("1e-400", &r) == NULL && r == 0, "underflow rounds to 0");
    CHECK(strcmp(cli_parse_real("", &r), "empty") == 0 && strcmp(cli_parse_real(NULL, &r), "empty") == 0, "empty real");
    CHECK(strcmp(cli_parse_real("nan", &r), "not a number") == 0 && strcmp(cli_parse_real("0.5x", &r), "not a number") == 0 &&
              strcmp(cli_parse_real(" 0.5", &r), "not a number") == 0 && strcmp(cli_parse_real("x", &r), "not a number") == 0,
          "not a number");
    /* infinities are not finite, whatever their sign; an overflow either way is out of range (issue
     * 36 item 16: "-inf" was "too large") */
    static const char *const not_finite[] = {"inf", "-inf", "+inf", "INF", "infinity", "-Infinity"};
    for (size_t i = 0; i < sizeof not_finite / sizeof *not_finite; i++) {
        const char *why = cli_parse_real(not_finite[i], &r);
        CHECK(why && strcmp(why, "not finite") == 0, "%s: %s (want not finite)", not_finite[i], why ? why : "taken");
    }
    static const char *const beyond[] = {"1e400", "-1e400", "0x1p2000", "-0x1p2000"};
    for (size_t i = 0; i < sizeof beyond / sizeof *beyond; i++) {
        const char *why = cli_parse_real(beyond[i], &r);
        CHECK(why && strcmp(why, "out of range") == 0, "%s: %s (want out of range)", beyond[i], why ? why : "taken");
    }
    static const char *const nans[] = {"nan", "-nan", "NaN", "nan(0x1)"};
    for (size_t i = 0; i < sizeof nans / sizeof *nans; i++) {
        const char *why = cli_parse_real(nans[i], &r);
        CHECK(why && strcmp(why, "not a number") == 0, "%s: %s (want not a number)", nans[i], why ? why : "taken");
    }
    CHECK(cli_parse_real("1.7976931348623157e308", &r) == NULL && r == 1.7976931348623157e308, "the largest double");
    CHECK(cli_parse_real("-1.7976931348623157e308", &r) == NULL && r == -1.7976931348623157e308, "the lowest double");

    /* tune cache lines */
    tune_entry e;
    CHECK(tune_cache_parse_line("sha256d\tNVIDIA H200\t256\t4\t9100000000\n", &e) == 0 &&
              e.launch.threads_per_block == 256 && e.launch.items_per_thread == 4 && strcmp(e.device, "NVIDIA H200") == 0,
          "good line");
    CHECK(tune_cache_parse_line("sha256d\tGPU\t256\t4\t1\r\n", &e) == 0, "CRLF");
    /* an OpenCL device's key: "opencl:" before a model name of up to 127 characters */
    CHECK(tune_cache_parse_line("sha256d\topencl:NVIDIA H200\t512\t1\t8420000000\n", &e) == 0 &&
              strcmp(e.device, "opencl:NVIDIA H200") == 0,
          "OpenCL key");
    {
        char line[256], model[128];
        memset(model, 'm', 127);
        model[127] = '\0';
        snprintf(line, sizeof line, "sha256d\topencl:%s\t512\t1\t1\n", model);
        CHECK(tune_cache_parse_line(line, &e) == 0 && strlen(e.device) == 7 + 127, "OpenCL key of the longest model");
    }
    CHECK(tune_cache_parse_line("# comment\n", &e) == -1, "comment");
    CHECK(tune_cache_parse_line("\n", &e) == -1, "blank");
    CHECK(tune_cache_parse_line("sha256d\tGPU\t250\t4\t1\n", &e) == -1, "tpb not multiple of 32");
    CHECK(tune_cache_parse_line("sha256d\tGPU\t256\t3\t1\n", &e) == -1, "ipt 3");
    CHECK(tune_cache_parse_line("sha256d\tGPU\t256\t4\n", &e) == -1, "missing field");
    CHECK(tune_cache_parse_line("sha256d\tGPU\t256\t4\t1\textra\n", &e) == -1, "extra field");
    CHECK(tune_cache_parse_line("\tGPU\t256\t4\t1\n", &e) == -1, "empty algo");
    CHECK(tune_cache_parse_line("sha256d\tGPU\t256x\t4\t1\n", &e) == -1, "junk number");

    /* fuzz: random short strings never crash the parsers, and what they accept re-encodes */
    unsigned long long seed = 7;
    static const char alphabet[] = "0123456789abcdefABCDEFxg \t\n#-+.";
    char str[200];
    for (int round = 0; round < 200000; round++) {
        size_t n = (size_t)(test_rand(&seed) % 170);
        for (size_t i = 0; i < n; i++) str[i] = alphabet[test_rand(&seed) % (sizeof alphabet - 1)];
        str[n] = '\0';
        if (kiln_header_from_hex(NULL, str, buf) == KILN_OK) {
            char back[161];
            kiln_hex_encode(buf, 80, 0, back);
            CHECK(n == 160 && strncasecmp_ok(back, str), "header round trip");
        }
        if (kiln_bits_from_hex(NULL, str, &bits) == KILN_OK) CHECK(n == 8, "bits length");
        (void)kiln_target_from_hex(NULL, str, t);
        (void)cli_parse_u64(str, UINT64_MAX, &v);
        (void)cli_parse_seconds(str, 1e9, &s);
        if (cli_parse_real(str, &r) == NULL) CHECK(isfinite(r), "a real taken is finite");
        (void)tune_cache_parse_line(str, &e);
    }
    kiln_ctx_free(ctx);
    return check_summary();
}
