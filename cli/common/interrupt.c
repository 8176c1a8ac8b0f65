#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "interrupt.h"

/* The first signal caught. A process-directed signal goes to any thread that does not block it:
 * kiln's own threads block them (common/thread.c), a GPU driver's may not, so two handlers can run
 * at once, and only an atomic exchange tells the second that it is second (a SIGINT then a SIGTERM
 * both taken as the first, exit 143, on a 16-core GPU host). Lock-free, so safe in a handler. */
static atomic_int received;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the signal handler's flag must be lock-free");

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

/* The first signal of any of the three sets the flag and gives all three back their default
 * action, so that a second signal ends the process whatever its kind: a SIGINT then timeout's
 * SIGTERM, or a SIGTERM then a SIGHUP (issue 36.11; SA_RESETHAND reset only the kind received).
 * sigaction is async-signal-safe, and the three are blocked while this runs, so one that comes in
 * the meantime is delivered after it, to the default action. */
static void on_signal(int sig)
{
    int none = 0;
    if (!atomic_compare_exchange_strong(&received, &none, sig)) {
        /* a second signal raced past the reset (in another thread): end as it asks */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) sigaction(caught[i], &dfl, NULL);
}

void cli_interrupt_install(void)
{
    static int installed;
    if (installed) return;
    installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) sigaddset(&sa.sa_mask, caught[i]);
    /* no SA_RESTART: a read blocked on a pipe or a terminal returns EINTR and sees the flag; the
     * handler resets all three, so the second signal of any kind ends the process at once */
    sa.sa_flags = 0;
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) sigaction(caught[i], &sa, NULL);
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
