/* A test aid preloaded into kiln (tests/test_cli_signal_before_open.sh): when kiln opens the path
 * in KILN_SIGNAL_BEFORE_OPEN, SIGINT is raised just before the real open() runs, the race a busy
 * machine makes now and then (a signal landing between kiln's look at its interrupt flag and a
 * call that blocks: opening a FIFO with no writer). kiln must still end at once. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef int (*open_fn)(const char *, int, ...);

static int call(const char *name, const char *path, int flags, mode_t mode)
{
    const char *want = getenv("KILN_SIGNAL_BEFORE_OPEN");
    if (want && strcmp(path, want) == 0) raise(SIGINT);
    open_fn real = (open_fn)dlsym(RTLD_NEXT, name);
    return real(path, flags, mode);
}

static mode_t mode_of(int flags, va_list ap)
{
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_of(flags, ap);
    va_end(ap);
    return call("open", path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_of(flags, ap);
    va_end(ap);
    return call("open64", path, flags, mode);
}
