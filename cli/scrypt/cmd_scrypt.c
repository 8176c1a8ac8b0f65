/* kiln scrypt: the scrypt KDF (RFC 7914) of one password and salt, printed as hex. */
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

#define FILE_MAX (UINT64_C(1) << 30)

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
        if (!buf) *why = "out of memory";
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

int cmd_scrypt(int argc, char **argv)
{
    const char *cmd = "scrypt", *password = NULL, *password_file = NULL, *salt_s = NULL, *salt_hex = NULL;
    uint64_t len = 64, threads = 0;
    cli_scrypt_cost cost = CLI_SCRYPT_COST_DEFAULT;
    cli_output out = {0, 0, 0};
    cli_option opts[] = {
        {"--password", OPT_STR, &password, "P", "the password's bytes", .modes = 0},
        {"--password-file", OPT_STR, &password_file, "F", "read the password from a file, exactly ('-' = stdin)", .modes = 0},
        {"--salt", OPT_STR, &salt_s, "S", "the salt's bytes", .modes = 0},
        {"--salt-hex", OPT_STR, &salt_hex, "H", "the salt in hex", .modes = 0},
        CLI_OPT_SCRYPT_COST(&cost, 0),
        {"--length", OPT_U64, &len, "L", "output bytes (default 64)", .hi = SIZE_MAX},
        {"--threads", OPT_U64, &threads, "T", "CPU threads for the p lanes (0: one per core)", .hi = 4096},
        CLI_OPT_JSON(&out, 0),
        CLI_OPT_PROGRESS(&out, 0),
    };
    cli_command c = CLI_COMMAND(cmd, "(--password P | --password-file F) (--salt S | --salt-hex H) [options]",
                                "the scrypt KDF (RFC 7914), output as lowercase hex\n", opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return json_end(code == CLI_HELP ? EXIT_OK : code);
    if ((code = cli_output_start(&c, &out)) != 0) return json_end(code);
    if ((password != NULL) == (password_file != NULL))
        return json_end(cli_error(EXIT_USAGE, cmd, "give exactly one of --password or --password-file"));
    if ((salt_s != NULL) == (salt_hex != NULL))
        return json_end(cli_error(EXIT_USAGE, cmd, "give exactly one of --salt or --salt-hex"));

    kiln_ctx *ctx = cli_ctx_new(cmd, &code);
    if (!ctx) return json_end(code);
    progress_attach(ctx);
    kiln_scrypt_params sp = cli_scrypt_params(&cost);
    uint8_t *pw = NULL, *salt = NULL, *key = NULL;
    char *hex = NULL;
    size_t pw_len = 0, salt_len = 0;
    /* the threads first: the memory check counts a scratchpad per thread */
    kiln_status st = kiln_ctx_set_threads(ctx, (int)threads);
    if (st == KILN_OK) st = kiln_scrypt_check(ctx, sp, (size_t)len);
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
    if (password_file) {
        const char *why = "";
        pw = read_all(password_file, &pw_len, &why);
        if (!pw) {
            code = cli_interrupted()
                       ? cli_interrupt_exit(cmd)
                       : cli_error(EXIT_USAGE, cmd, "cannot read password file '%s': %s", password_file, why);
            goto done;
        }
    }
    if (salt_hex && !(salt = salt_from_hex(ctx, salt_hex, &salt_len, &code))) goto done;
    key = malloc((size_t)len);
    hex = malloc(2 * (size_t)len + 1);
    if (!key || !hex) {
        code = cli_error(EXIT_DEVICE, cmd, "out of memory for %llu output bytes", (unsigned long long)len);
        goto done;
    }
    double t0 = cli_now();
    st = kiln_scrypt(ctx, pw ? (const void *)pw : password, pw ? pw_len : strlen(password),
                     salt ? (const void *)salt : salt_s, salt ? salt_len : strlen(salt_s), sp, key, (size_t)len);
    double seconds = cli_now() - t0;
    progress_end();
    if (st != KILN_OK) {
        code = cli_fail(cmd, ctx, st);
        goto done;
    }
    kiln_hex_encode(key, (size_t)len, 0, hex);
    if (out.json) {
        json_object(NULL);
        json_u64("N", cost.N);
        json_u64("r", cost.r);
        json_u64("p", cost.p);
        json_u64("length", len);
        json_str("key", hex);
        json_num("seconds", seconds, "%.6f");
    } else {
        puts(hex);
    }
done:
    progress_end();
    free(pw);
    free(salt);
    free(key);
    free(hex);
    kiln_ctx_free(ctx);
    return json_end(code);
}
