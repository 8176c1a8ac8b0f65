#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "interrupt.h"
#include "json_out.h"
#include "progress.h"
#include "stdfds.h"

int cli_error(int code, const char *cmd, const char *fmt, ...)
{
    char small[512], *msg = small;
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1)) != NULL) vsnprintf(msg, (size_t)n + 1, fmt, again);
    va_end(again);
    if (!msg) msg = small; /* out of memory: the message cut short */
    progress_clear(); /* the message gets a line of its own */
    fprintf(stderr, "kiln %s: %s\n", cmd, msg);
    json_note_error(msg);
    if (msg != small) free(msg);
    return code;
}

int cli_exit_for(kiln_status st)
{
    switch (st) {
    case KILN_OK: return EXIT_OK;
    case KILN_STOPPED: return cli_interrupted() ? 128 + cli_interrupted() : EXIT_OK;
    case KILN_NOT_FOUND: return EXIT_NOT_FOUND;
    case KILN_ERR_INPUT: return EXIT_USAGE;
    case KILN_ERR_DEVICE: return EXIT_DEVICE;
    }
    return EXIT_DEVICE;
}

int cli_fail(const char *cmd, kiln_ctx *ctx, kiln_status st)
{
    if (st == KILN_STOPPED && cli_interrupted()) return cli_interrupt_exit(cmd);
    return cli_error(cli_exit_for(st), cmd, "%s", kiln_last_error(ctx));
}

int cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') return -1;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
        if (!*s) return -1;
    }
    for (const char *p = s; *p; p++) {
        int ok = base == 10 ? (*p >= '0' && *p <= '9')
                            : ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'));
        if (!ok) return -1;
    }
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end || v > max) return -1;
    *out = v;
    return 0;
}

const char *cli_parse_real(const char *s, double *out)
{
    if (!s || !*s) return "empty";
    /* strtod skips leading space and reads "nan": neither is a number a user means */
    if (isspace((unsigned char)*s)) return "not a number";
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || isnan(v)) return "not a number";
    /* an overflow is ERANGE with ±HUGE_VAL; "inf" itself is read without an error */
    if (errno == ERANGE && fabs(v) >= 1) return "out of range";
    if (isinf(v)) return "not finite";
    *out = v;
    return NULL;
}

int cli_parse_seconds(const char *s, double max, double *out)
{
    double v;
    if (cli_parse_real(s, &v) || !(v > 0 && v <= max)) return -1;
    *out = v;
    return 0;
}

int cli_output_is_stdout(const char *path) { return path && strcmp(path, "-") == 0; }

int cli_input_check_stdin(const char *cmd, const char *path)
{
    if (!path || strcmp(path, "-") != 0 || !cli_std_closed(STDIN_FILENO)) return 0;
    return cli_error(EXIT_USAGE, cmd, "<stdin>: %s", strerror(EBADF));
}

int cli_output_open(const char *cmd, kiln_ctx *ctx, const char *option, const char *path, int stream,
                    kiln_output_file *f)
{
    memset(f, 0, sizeof *f);
    if (!cli_output_is_stdout(path)) {
        kiln_status st = kiln_output_open(ctx, path, f);
        return st == KILN_OK ? 0 : cli_fail(cmd, ctx, st);
    }
    if (!stream)
        return cli_error(EXIT_USAGE, cmd, "%s -: this output is binary, to be read back from a file: give it a file name",
                         option);
    f->path = "standard output";
    /* a standard output closed at start-up is held open for reading only (common/stdfds.h): EBADF,
     * as a write to it would fail, and before any work */
    int fl = fcntl(STDOUT_FILENO, F_GETFL);
    if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY || cli_std_closed(STDOUT_FILENO))
        return cli_error(EXIT_DEVICE, cmd, "%s -: standard output: %s", option, strerror(EBADF));
    /* a descriptor of its own: kiln_output_finish closes it, standard output stays for the rest */
    fflush(stdout);
    int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (fd < 0 || !(f->fp = fdopen(fd, "wb"))) {
        int e = errno;
        if (fd >= 0) close(fd);
        return cli_error(EXIT_DEVICE, cmd, "%s -: standard output: %s", option, strerror(e));
    }
    return 0; /* tmp and target empty: written in place, nothing renamed */
}

int cli_device(const char *cmd, kiln_ctx *ctx, const char *device, int threads)
{
    kiln_status st = kiln_ctx_set_device(ctx, device ? device : "auto");
    if (st == KILN_OK) st = kiln_ctx_set_threads(ctx, threads);
    return st == KILN_OK ? 0 : cli_fail(cmd, ctx, st);
}

kiln_ctx *cli_ctx_new(const char *cmd, int *code)
{
    kiln_ctx *ctx = kiln_ctx_new();
    if (!ctx) {
        *code = cli_error(EXIT_DEVICE, cmd, "out of memory");
        return NULL;
    }
    kiln_ctx_set_interrupt(ctx, cli_interrupt_poll, NULL);
    return ctx;
}

kiln_ctx *cli_open(const char *cmd, const char *device, int threads, int *code)
{
    kiln_ctx *ctx = cli_ctx_new(cmd, code);
    if (!ctx) return NULL;
    if ((*code = cli_device(cmd, ctx, device, threads)) != 0) {
        kiln_ctx_free(ctx);
        return NULL;
    }
    return ctx;
}

kiln_ctx *cli_open_tune_gpu(const char *cmd, const char *device, int *code)
{
    kiln_ctx *ctx = cli_open(cmd, device, 0, code);
    if (!ctx || kiln_ctx_backend(ctx) != KILN_BACKEND_CPU) return ctx;
    /* the CPU, asked for or what auto found: auto takes a CUDA GPU only, never OpenCL (include/kiln.h) */
    *code = kiln_ctx_device_auto(ctx)
                ? cli_error(EXIT_DEVICE, cmd, "no GPU to tune: auto takes a CUDA GPU and there is none (an OpenCL "
                                              "device: --device opencl:N)")
                : cli_error(EXIT_USAGE, cmd, "tuning applies to GPU launch shapes; use --device cuda or opencl:N");
    kiln_ctx_free(ctx);
    return NULL;
}
