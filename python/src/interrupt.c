/* Ctrl-C during long calls. The library polls kiln_ctx_set_interrupt's callback on the calling
 * thread or its worker threads, all running without the GIL, and asks that the poll only read a
 * flag. Taking the GIL in the poll to call PyErr_CheckSignals is therefore out: it would block
 * worker threads on the GIL (which another Python thread may hold for long) and it finds no
 * signal anyway outside the main thread, where Python runs its handlers.
 *
 * So while a long call runs, SIGINT goes first to a C handler here that sets a flag and then
 * calls the handler it replaced (Python's own, which records the signal for the main thread as
 * usual). The poll reads the flag; the call returns KILN_STOPPED; back under the GIL,
 * PyErr_CheckSignals runs Python's handler, which raises KeyboardInterrupt (or whatever the
 * program's handler does). The handler is installed while at least one call runs (a count kept
 * under the GIL) and only when Python handles SIGINT: a SIGINT ignored (SIG_IGN) or left to the
 * default (the process dies) is left alone. */
#include "common.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t interrupted;
static struct sigaction previous;
static int active; /* calls running, under the GIL */
static int installed;

static void on_sigint(int sig, siginfo_t *info, void *uctx)
{
    interrupted = 1;
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction)
            previous.sa_sigaction(sig, info, uctx);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    }
}

static int poll_interrupt(void *user)
{
    (void)user;
    return interrupted;
}

void kiln_py_interrupt_begin(kiln_ctx *ctx)
{
    if (active++ == 0) {
        struct sigaction cur;
        installed = 0;
        if (sigaction(SIGINT, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO || (cur.sa_handler != SIG_DFL &&
                                                                                  cur.sa_handler != SIG_IGN))) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_sigaction = on_sigint;
            sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
            sigemptyset(&sa.sa_mask);
            previous = cur;
            interrupted = 0;
            installed = sigaction(SIGINT, &sa, NULL) == 0;
        }
    }
    kiln_ctx_set_interrupt(ctx, poll_interrupt, NULL);
}

void kiln_py_interrupt_end(void)
{
    if (--active > 0 || !installed)
        return;
    /* Put Python's handler back, unless the program replaced ours meanwhile (signal.signal). */
    struct sigaction cur;
    if (sigaction(SIGINT, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigint)
        sigaction(SIGINT, &previous, NULL);
    installed = 0;
}

void kiln_py_raise_stopped(void)
{
    /* Python's handler raises KeyboardInterrupt in the main thread; a call stopped in another
     * thread (or by a handler that does not raise) still reports the stop. */
    if (PyErr_CheckSignals() < 0)
        return;
    PyErr_SetNone(PyExc_KeyboardInterrupt);
}
