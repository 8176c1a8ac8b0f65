/* kiln scrypt: the scrypt KDF (RFC 7914) of one password, or of a file of them (--batch), with one
 * salt, printed as hex; on the CPU or a GPU (--device). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cli.h"
#include "common/interrupt.h"
#include "common/json_out.h"
#include "common/opts.h"
#include "common/progress.h"
#include "scrypt/batch_lines.h"

#define FILE_MAX (UINT64_C(1) << 30)

/* read_all's reason when memory ran out: a system failure (exit 3), where every other is bad input */
static const char out_of_memory[] = "out of memory";

/* Reads a whole file (or stdin for "-"); NULL with *why set on failure (the system's reason:
 * "Is a directory" for a directory, "Interrupted system call" when a signal cut a read). */
static uint8_t *read_all(const char *path, size_t *len, const char **why)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        *why = strerror(errno);
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > FILE_MAX) {
        /* a regular file says its size: refused before a byte is read */
        if (f != stdin) fclose(f);
        *why = "larger than 1 GiB";
        return NULL;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) *why = out_of_memory;
    int read_errno = 0;
    while (buf) {
        if (cli_interrupted()) { /* a pipe that keeps flowing returns no EINTR */
            read_errno = EINTR;
            break;
        }
        errno = 0;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) {
            read_errno = ferror(f) ? (errno ? errno : EIO) : 0;
            break;
        }
        if (cap >= FILE_MAX) {
            free(buf);
            buf = NULL;
            *why = "larger than 1 GiB";
            break;
        }
        uint8_t *more = realloc(buf, cap * 2);
        if (!more) free(buf);
        buf = more;
        cap *= 2;
        if (!buf) *why = out_of_memory;
    }
    if (buf && read_errno) {
        free(buf);
        buf = NULL;
        *why = strerror(read_errno);
    }
    if (f != stdin) fclose(f);
    *len = n;
    return buf;
}

/* The salt of --salt-hex: two hex digits per byte. NULL with *code set after the message. */
static uint8_t *salt_from_hex(kiln_ctx *ctx, const char *hex, size_t *len, int *code)
{
    const char *cmd = "scrypt";
    size_t digits = strlen(hex);
    if (digits % 2) {
        *code = cli_error(EXIT_USAGE, cmd, "bad --salt-hex: an odd number of hex digits (%zu); each byte is two digits",
                          digits);
        return NULL;
    }
    uint8_t *salt = malloc(digits / 2 + 1);
    if (!salt) {
        *code = cli_error(EXIT_DEVICE, cmd, "out of memory");
        return NULL;
    }
    if (kiln_hex_decode(ctx, hex, salt, digits / 2) != KILN_OK) {
        *code = cli_error(EXIT_USAGE, cmd, "bad --salt-hex: %s", kiln_last_error(ctx));
        free(salt);
        return NULL;
    }
    *len = digits / 2;
    return salt;
}

/* Keys of --batch per library call: the GPU's lanes kept busy (about 11 K on OpenCL, 15.5 K on
 * CUDA, H200), the output bounded, the signal looked at between calls. */
#define BATCH_CHUNK 65536
#define BATCH_OUT_MAX (UINT64_C(64) << 20)

/* --batch: the keys of in[0..n), one lowercase hex key per line in the file's order (or a JSON
 * "keys" array), computed a chunk at a time on ctx's device. The exit code. */
/* The JSON object's opening members, shared by one key and a batch: the device and the parameters. */
static void json_head(kiln_ctx *ctx, const cli_scrypt_cost *cost, uint64_t len)
{
    json_object(NULL);
    json_str("device", kiln_ctx_device_name(ctx));
    json_u64("N", cost->N);
    json_u64("r", cost->r);
    json_u64("p", cost->p);
    json_u64("length", len);
}

static int run_batch(kiln_ctx *ctx, const kiln_scrypt_input *in, size_t n, kiln_scrypt_params sp, size_t len, int json)
{
    const char *cmd = "scrypt";
    size_t chunk = (size_t)(BATCH_OUT_MAX / len);
    if (chunk > BATCH_CHUNK) chunk = BATCH_CHUNK;
    if (chunk == 0) chunk = 1;
    if (chunk > n) chunk = n ? n : 1;
    uint8_t *key = malloc(chunk * len);
    char *hex = malloc(2 * len + 1);
    int code = key && hex ? EXIT_OK : cli_error(EXIT_DEVICE, cmd, "out of memory for %zu keys of %zu bytes", chunk, len);
    if (json) json_array("keys");
    for (size_t done = 0; done < n && code == EXIT_OK; done += chunk) {
        size_t m = n - done < chunk ? n - done : chunk;
        if (cli_interrupted()) {
            code = cli_interrupt_exit(cmd);
            break;
        }
        progress_task(0, "scrypt: %zu of %zu passwords", done, n);
        kiln_status st = kiln_scrypt_batch(ctx, in + done, m, sp, key, len);
        progress_clear();
        if (st != KILN_OK) {
            code = cli_fail(cmd, ctx, st);
            break;
        }
        for (size_t i = 0; i < m; i++) {
            kiln_hex_encode(key + i * len, len, 0, hex);
            if (json) json_str(NULL, hex);
            else puts(hex);
        }
    }
    if (json) json_close();
    free(key);
    free(hex);
    return code;
}

int cmd_scrypt(int argc, char **argv)
{
    const char *cmd = "scrypt", *password = NULL, *password_file = NULL, *batch = NULL, *salt_s = NULL, *salt_hex = NULL,
               *device = "auto";
    uint64_t len = 64, threads = 0;
    cli_scrypt_cost cost = CLI_SCRYPT_COST_DEFAULT;
    cli_output out = {0, 0, 0};
    cli_option opts[] = {
        {"--password", OPT_STR, &password, "P", "the password's bytes", .modes = 0},
        {"--password-file", OPT_STR, &password_file, "F", "read the password from a file, exactly ('-' = stdin)", .modes = 0},
        {"--batch", OPT_STR, &batch, "FILE",
         "many passwords, one per line ('-' = stdin; a line's bytes without its newline), each key printed as hex on "
         "its own line in the file's order",
         .modes = 0},
        {"--salt", OPT_STR, &salt_s, "S", "the salt's bytes", .modes = 0},
        {"--salt-hex", OPT_STR, &salt_hex, "H", "the salt in hex", .modes = 0},
        CLI_OPT_SCRYPT_COST(&cost, 0),
        {"--length", OPT_U64, &len, "L", "output bytes (default 64)", .hi = SIZE_MAX},
        {"--threads", OPT_U64, &threads, "T", "CPU threads for the p lanes, or for the passwords of --batch (0: one per core)",
         .hi = 4096},
        CLI_OPT_DEVICE(&device, CLI_DEVICE_VALUES, "where to derive (default auto: a GPU for --batch when there is one, "
                       "else the CPU); GPU keys are spot-checked on the CPU", 0),
        CLI_OPT_JSON(&out, 0),
        CLI_OPT_PROGRESS(&out, 0),
    };
    cli_command c = CLI_COMMAND(cmd, "(--password P | --password-file F | --batch FILE) (--salt S | --salt-hex H) [options]",
                                "the scrypt KDF (RFC 7914), output as lowercase hex: one key, or with --batch one key\n"
                                "per line of FILE, in its order (all with the one salt)\n",
                                opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return json_end(code == CLI_HELP ? EXIT_OK : code);
    if ((code = cli_output_start(&c, &out)) != 0) return json_end(code);
    if ((password != NULL) + (password_file != NULL) + (batch != NULL) != 1)
        return json_end(cli_error(EXIT_USAGE, cmd, "give exactly one of --password, --password-file or --batch"));
    if ((salt_s != NULL) == (salt_hex != NULL))
        return json_end(cli_error(EXIT_USAGE, cmd, "give exactly one of --salt or --salt-hex"));

    /* one password: auto is the CPU (a GPU's lanes want many); a batch: the device auto picks */
    kiln_ctx *ctx = cli_open(cmd, !batch && strcmp(device, "auto") == 0 ? "cpu" : device, (int)threads, &code);
    if (!ctx) return json_end(code);
    progress_attach(ctx);
    kiln_scrypt_params sp = cli_scrypt_params(&cost);
    uint8_t *pw = NULL, *salt = NULL, *key = NULL;
    char *hex = NULL;
    kiln_scrypt_input *inputs = NULL;
    size_t pw_len = 0, salt_len = 0;
    const int gpu = kiln_ctx_backend(ctx) != KILN_BACKEND_CPU;
    /* the CPU's scratchpads checked before any work (cli_open set the threads); a GPU batch checks
     * its device's memory itself */
    kiln_status st = gpu ? KILN_OK : kiln_scrypt_check(ctx, sp, (size_t)len);
    if (st != KILN_OK) {
        code = cli_fail(cmd, ctx, st);
        goto done;
    }
    /* the key and its hex are held together: 3 bytes per output byte, checked before any work */
    if (3.0 * (double)len + 1 > (double)kiln_memory_limit(ctx)) {
        code = cli_error(EXIT_USAGE, cmd,
                         "--length %llu needs %.0f bytes of memory (the key and its hex); kiln may use %llu "
                         "(physical memory, ulimit -v, -d)",
                         (unsigned long long)len, 3.0 * (double)len + 1, (unsigned long long)kiln_memory_limit(ctx));
        goto done;
    }
    if (password_file || batch) {
        const char *why = "", *path = batch ? batch : password_file;
        pw = read_all(path, &pw_len, &why);
        if (!pw) {
            code = cli_interrupted()
                       ? cli_interrupt_exit(cmd)
                       : cli_error(why == out_of_memory ? EXIT_DEVICE : EXIT_USAGE, cmd, "cannot read %s '%s': %s",
                                   batch ? "--batch file" : "password file", path, why);
            goto done;
        }
    }
    if (salt_hex && !(salt = salt_from_hex(ctx, salt_hex, &salt_len, &code))) goto done;
    if (batch) {
        size_t n = batch_count(pw, pw_len);
        inputs = malloc((n ? n : 1) * sizeof *inputs);
        if (!inputs) {
            code = cli_error(EXIT_DEVICE, cmd, "out of memory for %zu passwords", n);
            goto done;
        }
        batch_split(pw, pw_len, salt ? (const void *)salt : salt_s, salt ? salt_len : strlen(salt_s), inputs);
        double t0 = cli_now();
        if (out.json) {
            json_head(ctx, &cost, len);
            json_u64("count", n);
        }
        code = run_batch(ctx, inputs, n, sp, (size_t)len, out.json);
        if (out.json) json_num("seconds", cli_now() - t0, "%.6f");
        goto done;
    }
    key = malloc((size_t)len);
    hex = malloc(2 * (size_t)len + 1);
    if (!key || !hex) {
        code = cli_error(EXIT_DEVICE, cmd, "out of memory for %llu output bytes", (unsigned long long)len);
        goto done;
    }
    double t0 = cli_now();
    kiln_scrypt_input one = {pw ? (const void *)pw : password, pw ? pw_len : strlen(password),
                             salt ? (const void *)salt : salt_s, salt ? salt_len : strlen(salt_s)};
    /* on a GPU, a batch of one: the library's KDF there is the batch */
    st = gpu ? kiln_scrypt_batch(ctx, &one, 1, sp, key, (size_t)len)
             : kiln_scrypt(ctx, one.password, one.password_len, one.salt, one.salt_len, sp, key, (size_t)len);
    double seconds = cli_now() - t0;
    progress_end();
    if (st != KILN_OK) {
        code = cli_fail(cmd, ctx, st);
        goto done;
    }
    kiln_hex_encode(key, (size_t)len, 0, hex);
    if (out.json) {
        json_head(ctx, &cost, len);
        json_str("key", hex);
        json_num("seconds", seconds, "%.6f");
    } else {
        puts(hex);
    }
done:
    progress_end();
    free(pw);
    free(inputs);
    free(salt);
    free(key);
    free(hex);
    kiln_ctx_free(ctx);
    return json_end(code);
}
