#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"

static volatile sig_atomic_t received;

static void on_signal(int sig) { received = sig; }

void cli_interrupt_install(void)
{
    static int installed;
    if (installed) return;
    installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* no SA_RESTART: a read blocked on a pipe or a terminal returns EINTR and sees the flag;
     * SA_RESETHAND: the second signal takes the default action and ends the process at once */
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

int cli_interrupted(void) { return received; }

int cli_interrupt_poll(void *user)
{
    (void)user;
    return received != 0;
}

const char *cli_interrupt_name(void)
{
    int sig = received;
    return sig == 0 ? NULL : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";
}

int cli_interrupt_exit(const char *cmd)
{
    int sig = received ? received : SIGINT;
    const char *name = received ? cli_interrupt_name() : "SIGINT";
    return cli_error(128 + sig, cmd, "interrupted by %s", name);
}

int cli_wait_readable(int fd)
{
    for (;;) {
        if (received) return 1;
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, 100);
        if (r > 0 || (r < 0 && errno != EINTR)) return 0; /* a failure is read()'s to report */
    }
}
