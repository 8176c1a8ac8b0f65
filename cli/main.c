/* kiln: command-line entry point. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/commands.h"
#include "common/interrupt.h"
#include "common/stdfds.h"
#include "kiln_git.h" /* KILN_GIT_DESCRIBE, written at build time (share/CMakeLists.txt) */

/* Output that did not reach standard output is a failure whatever the command concluded, as in
 * sha256sum: a write that failed earlier (the stream's error flag) or the final flush and close
 * turn the exit code into 3, with the system's reason. A closed standard output (`>&-`) that
 * nothing was written to is no failure (coreutils' close_stdout): the close's EBADF alone, after a
 * flush that wrote nothing and no earlier error, means nothing was lost. */
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
    if (fclose(stdout) != 0 && !(errno == EBADF && !failed)) {
        failed = 1;
        if (!err) err = errno;
    }
    if (!failed) return code;
    fprintf(stderr, "kiln: write error on standard output: %s\n", err ? strerror(err) : "I/O error");
    return EXIT_DEVICE;
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        cli_usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        cli_usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) return cmd_version(argc - 2, argv + 2);
    const cli_entry *e = cli_command_find(argv[1]);
    if (e) return e->run(argc - 2, argv + 2);
    fprintf(stderr, "kiln: unknown command '%s' (expected ", argv[1]);
    for (size_t i = 0; i < cli_ncommands; i++) fprintf(stderr, "%s%s", i ? ", " : "", cli_commands[i].name);
    fprintf(stderr, "; see kiln --help)\n");
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    /* first of all, before anything opens a file: a closed standard stream is held on /dev/null,
     * so that no device file or output takes descriptor 0, 1 or 2 (common/stdfds.h) */
    cli_std_guard();
    /* OpenMP threads that finish a parallel loop first sleep rather than spin, unless the user
     * chose otherwise: on a machine that is busy with other work, spinning threads take the cores
     * the last one needs (CPU PageRank on RMAT 18, two loaded cores: 12-16 ms an iteration
     * spinning, 9.3-9.7 ms sleeping); kiln's loops are long enough that a wake-up costs nothing.
     * Set before the runtime starts, which reads it once. */
    setenv("OMP_WAIT_POLICY", "PASSIVE", 0);
    cli_interrupt_install();
    cli_version_set_git(KILN_GIT_DESCRIBE);
    const int code = finish_stdout(run(argc, argv));
    /* An interrupted command has already removed what it was writing and said why: the process ends
     * now, without the exit handlers. The GPU runtime's teardown of every device's context took
     * 0.18 s of the second a signal is promised (four H200s, issue 36.8), and a communicator still
     * aborting in the background would be waited for; the kernel reclaims the devices as the
     * process ends. */
    if (cli_interrupted()) {
        fflush(NULL); /* every stream still open (a log the command left to exit to close) */
        _exit(code);
    }
    return code;
}
