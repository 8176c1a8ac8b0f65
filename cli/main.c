/* kiln: command-line entry point. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"mine", cmd_mine, "search nonces of a block header (--demo for a real block)"},
    {"devices", cmd_devices, "list the CPU and GPUs kiln can use"},
    {"selftest", cmd_selftest, "known-answer checks of every algorithm on a device"},
    {"bench", cmd_bench, "measure hash rates"},
    {"tune", cmd_tune, "sweep GPU launch shapes, print the table, cache the best"},
    {"pagerank", cmd_pagerank, "PageRank of a graph file or an RMAT graph"},
    {"merkle", cmd_merkle, "Merkle roots, proofs and raw Bitcoin blocks"},
    {"hash", cmd_hash, "SHA-2, SHA-3, SHAKE and Keccak digests of files (sha256sum format, --check)"},
    {"scrypt", cmd_scrypt, "the scrypt key derivation function (RFC 7914)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: kiln <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'kiln <command> --help' for a command's options; README.md documents each.\n");
}

/* Output that did not reach standard output is a failure whatever the command concluded, as in
 * sha256sum: a write that failed earlier (the stream's error flag) or the final flush and close
 * turn the exit code into 3, with the system's reason. */
static int finish_stdout(int code)
{
    errno = 0;
    int failed = fflush(stdout) != 0;
    int err = errno;
    if (ferror(stdout)) {
        failed = 1;
        if (!err) { /* stdio keeps no errno for an earlier failed write: one more byte tells why */
            clearerr(stdout);
            errno = 0;
            if (fputc('\n', stdout) == EOF || fflush(stdout) != 0) err = errno;
        }
    }
    errno = 0;
    failed |= fclose(stdout) != 0;
    if (!err) err = errno;
    if (!failed) return code;
    fprintf(stderr, "kiln: write error on standard output: %s\n", err ? strerror(err) : "I/O error");
    return EXIT_DEVICE;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("kiln %s\n", KILN_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc - 2, argv + 2);
    fprintf(stderr, "kiln: unknown command '%s' (expected ", argv[1]);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(stderr, "%s%s", i ? ", " : "", commands[i].name);
    fprintf(stderr, "; see kiln --help)\n");
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    cli_interrupt_install();
    return finish_stdout(run(argc, argv));
}
