/* Ctrl-C and termination: one mechanism for every command. The first SIGINT, SIGTERM or SIGHUP
 * only sets a flag; the library polls it through the context (kiln_ctx_set_interrupt) and stops at
 * its next safe point, reads blocked on a pipe return EINTR (no SA_RESTART), and the command ends
 * with its summary, or with "interrupted" and no partial output. A second signal kills at once
 * (the default action), for a user who does not want to wait. */
#ifndef KILN_CLI_INTERRUPT_H
#define KILN_CLI_INTERRUPT_H

/* Installs the handlers (once; later calls do nothing) and ignores SIGPIPE, so a closed pipe is a
 * write error (EPIPE, exit 3) rather than a silent death. */
void cli_interrupt_install(void);
/* The signal number received, or 0. */
int cli_interrupted(void);
/* "SIGINT", "SIGTERM" or "SIGHUP" for the signal received, NULL when none was. */
const char *cli_interrupt_name(void);
/* kiln_interrupt_fn over the flag (user unused): cli_open gives it to every context. */
int cli_interrupt_poll(void *user);
/* Prints "kiln <cmd>: interrupted by SIGINT" (or the signal received) and returns 128 + signal,
 * the shell's convention for a command ended by a signal. */
int cli_interrupt_exit(const char *cmd);
/* Waits until fd (a pipe, FIFO or terminal) can be read (data, or its writer gone), looking at
 * the flag every 100 ms: 0 when it can (or poll failed: the read reports it), 1 on a signal. A
 * signal landing between a look at the flag and a blocking open() or read() would leave that call
 * blocked; so inputs that may block are opened with O_NONBLOCK and read only once this says so. */
int cli_wait_readable(int fd);

#endif
