/* Shared pieces of the command-line front end: exit codes, option parsing, errors. */
#ifndef KILN_CLI_H
#define KILN_CLI_H

#include <stdint.h>

#include "common/printf_attr.h"
#include "kiln.h"

enum {
    EXIT_OK = 0,
    EXIT_NOT_FOUND = 1, /* nothing found / check failed */
    EXIT_USAGE = 2, /* bad usage or bad input */
    EXIT_DEVICE = 3, /* device or system failure */
};

/* Prints "kiln <cmd>: <message>" on stderr and returns code. */
int cli_error(int code, const char *cmd, const char *fmt, ...) CLI_PRINTF(3, 4);

/* Exit code for a library status. */
int cli_exit_for(kiln_status st);

/* Reports a failed library call (its context's message) and returns the exit code. */
int cli_fail(const char *cmd, kiln_ctx *ctx, kiln_status st);

/* Unsigned integer in decimal or 0x-hex, at most max. 0 on success, -1 otherwise. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *out);
/* A finite decimal (or hex-float) number, nothing before or after it: NULL with *out set, or what is
 * wrong with s: "empty", "not a number" (also NaN), "not finite" (inf, -inf, infinity) or "out of
 * range" (beyond a double either way: 1e400, -1e400). A value too small for a normal double
 * (1e-320) is taken as strtod rounds it: it is in range, only imprecise. The one place the CLI
 * reads a real number. */
const char *cli_parse_real(const char *s, double *out);
/* Positive finite number of seconds up to max. 0 on success, -1 otherwise. */
int cli_parse_seconds(const char *s, double max, double *out);

/* Opens the FILE of an output option (`option`, "--output") to be written whole: the one place
 * the CLI opens an output, through kiln_output_open (a name the system cannot take, a directory
 * that is not there: exit 2 before any work). "-" is standard output where the output is a text
 * stream (stream = 1), written in place as /dev/stdout is; an output that is not (a binary file
 * meant to be read back) refuses "-" with exit 2. 0, or the exit code after the message. */
int cli_output_open(const char *cmd, kiln_ctx *ctx, const char *option, const char *path, int stream,
                    kiln_output_file *f);
/* Whether path names standard output for an output option ("-"). */
int cli_output_is_stdout(const char *path);
/* For an input named path: when it is "-" and standard input was closed when kiln started (held on
 * /dev/null since, common/stdfds.h), "<stdin>: Bad file descriptor" and exit 2, as a read of the
 * closed descriptor would say; else 0. */
int cli_input_check_stdin(const char *cmd, const char *path);

/* Puts ctx on the device named by spec ("auto" when NULL) with `threads` CPU threads: the one
 * place the CLI chooses a device. 0, or the exit code after printing the library's message. */
int cli_device(const char *cmd, kiln_ctx *ctx, const char *device, int threads);
/* A new context (on the CPU) whose long calls stop on Ctrl-C or SIGTERM (cli/common/interrupt.h): every
 * context the CLI makes comes from here. NULL with *code set after printing "out of memory". */
kiln_ctx *cli_ctx_new(const char *cmd, int *code);
/* Creates a context on the device named by spec ("auto" when NULL) with `threads` CPU threads.
 * On failure prints the error and returns NULL with *code set. */
kiln_ctx *cli_open(const char *cmd, const char *device, int threads, int *code);
/* cli_open for `kiln tune`: the device must be a GPU, CUDA or OpenCL (exit 2 for an explicit cpu, 3 when
 * none). */
kiln_ctx *cli_open_tune_gpu(const char *cmd, const char *device, int *code);

/* Commands */
int cmd_mine(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_selftest(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_pagerank(int argc, char **argv);
int cmd_merkle(int argc, char **argv);
int cmd_hash(int argc, char **argv);
int cmd_scrypt(int argc, char **argv);

#endif
