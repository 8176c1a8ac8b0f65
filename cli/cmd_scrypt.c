/* kiln scrypt: the scrypt KDF (RFC 7914) of one password and salt, printed as hex. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "usage: kiln scrypt (--password P | --password-file F) (--salt S | --salt-hex H) [-N n] [-r r] [-p p]\n"
    "                   [--length L] [--threads T]\n"
    "  the scrypt KDF (RFC 7914), output as lowercase hex; a file's bytes are used exactly ('-' = stdin)\n"
    "  defaults: -N 16384 -r 8 -p 1 --length 64\n";

#define FILE_MAX (UINT64_C(1) << 30)

/* Reads a whole file (or stdin for "-"); NULL with *why set on failure. */
static uint8_t *read_all(const char *path, size_t *len, const char **why)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        *why = strerror(errno);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
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
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
        *why = "read error";
    }
    if (f != stdin) fclose(f);
    *len = n;
    return buf;
}

int cmd_scrypt(int argc, char **argv)
{
    const char *cmd = "scrypt", *password = NULL, *password_file = NULL, *salt_s = NULL, *salt_hex = NULL;
    const char *n_s = NULL, *r_s = NULL, *p_s = NULL, *len_s = NULL, *threads_s = NULL;
    for (int i = 0; i < argc; i++) {
        const char *v = NULL;
        int r = 0;
#define OPT(name, var)                                                                                    \
    if ((r = cli_opt(argc, argv, &i, name, &v)) != 0) {                                                   \
        if (r < 0) return cli_error(EXIT_USAGE, cmd, "option %s needs a value", name);                     \
        var = v;                                                                                          \
        continue;                                                                                         \
    }
        OPT("--password-file", password_file)
        OPT("--password", password)
        OPT("--salt-hex", salt_hex)
        OPT("--salt", salt_s)
        OPT("-N", n_s)
        OPT("-r", r_s)
        OPT("-p", p_s)
        OPT("--length", len_s)
        OPT("--threads", threads_s)
#undef OPT
        if (strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return EXIT_OK;
        }
        return cli_error(EXIT_USAGE, cmd, "unknown option '%s' (see kiln scrypt --help)", argv[i]);
    }
    if ((password != NULL) == (password_file != NULL))
        return cli_error(EXIT_USAGE, cmd, "give exactly one of --password or --password-file");
    if ((salt_s != NULL) == (salt_hex != NULL)) return cli_error(EXIT_USAGE, cmd, "give exactly one of --salt or --salt-hex");
    uint64_t N = 16384, r = 8, p = 1, len = 64, threads = 0;
    if (n_s && cli_parse_u64(n_s, UINT64_MAX, &N) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad -N '%s' (expected a power of two > 1)", n_s);
    if (r_s && cli_parse_u64(r_s, UINT32_MAX, &r) != 0) return cli_error(EXIT_USAGE, cmd, "bad -r '%s'", r_s);
    if (p_s && cli_parse_u64(p_s, UINT32_MAX, &p) != 0) return cli_error(EXIT_USAGE, cmd, "bad -p '%s'", p_s);
    if (len_s && cli_parse_u64(len_s, SIZE_MAX, &len) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --length '%s' (expected output bytes)", len_s);
    if (threads_s && cli_parse_u64(threads_s, 4096, &threads) != 0)
        return cli_error(EXIT_USAGE, cmd, "bad --threads '%s' (expected 0..4096)", threads_s);

    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) return cli_error(EXIT_DEVICE, cmd, "out of memory");
    kiln_scrypt_params sp = {N, (uint32_t)r, (uint32_t)p};
    uint8_t *pw = NULL, *salt = NULL, *out = NULL;
    char *hex = NULL;
    size_t pw_len = 0, salt_len = 0;
    int code = EXIT_OK;
    kiln_status st = kiln_scrypt_check(ctx, sp, (size_t)len);
    if (st == KILN_OK) st = kiln_ctx_set_threads(ctx, (int)threads);
    if (st != KILN_OK) {
        code = cli_fail(cmd, ctx, st);
        goto done;
    }
    if (password_file) {
        const char *why = "";
        pw = read_all(password_file, &pw_len, &why);
        if (!pw) {
            code = cli_error(EXIT_USAGE, cmd, "cannot read password file '%s': %s", password_file, why);
            goto done;
        }
    }
    if (salt_hex) {
        salt_len = strlen(salt_hex) / 2;
        salt = malloc(salt_len + 1);
        if (!salt) {
            code = cli_error(EXIT_DEVICE, cmd, "out of memory");
            goto done;
        }
        if ((st = kiln_hex_decode(ctx, salt_hex, salt, salt_len)) != KILN_OK) {
            code = cli_error(EXIT_USAGE, cmd, "bad --salt-hex: %s", kiln_last_error(ctx));
            goto done;
        }
    }
    out = malloc((size_t)len);
    hex = malloc(2 * (size_t)len + 1);
    if (!out || !hex) {
        code = cli_error(EXIT_DEVICE, cmd, "out of memory for %llu output bytes", (unsigned long long)len);
        goto done;
    }
    st = kiln_scrypt(ctx, pw ? (const void *)pw : password, pw ? pw_len : strlen(password),
                     salt ? (const void *)salt : salt_s, salt ? salt_len : strlen(salt_s), sp, out, (size_t)len);
    if (st != KILN_OK) {
        code = cli_fail(cmd, ctx, st);
        goto done;
    }
    kiln_hex_encode(out, (size_t)len, 0, hex);
    puts(hex);
done:
    free(pw);
    free(salt);
    free(out);
    free(hex);
    kiln_ctx_free(ctx);
    return code;
}
