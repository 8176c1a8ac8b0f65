/* A test aid preloaded into kiln (tests/test_cli_closed_fds.sh): the first time kiln looks at
 * descriptor 0 (fstat, read or poll of it), the file named by KILN_OPEN_BEFORE_STDIN is opened
 * first, as a GPU runtime opens its files when kiln starts using the GPU. With standard input
 * closed and not held, that file takes descriptor 0 and kiln reads it as standard input (on an H200
 * host cuInit leaves an eventfd there, and a read of it waits for good); with descriptor 0 held at
 * start-up (cli/common/stdfds.h), it lands elsewhere and reading "-" fails with EBADF. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static int done;

static void open_first(int fd)
{
    if (fd != 0 || done) return;
    done = 1;
    const char *path = getenv("KILN_OPEN_BEFORE_STDIN");
    if (!path || !*path) return;
    int (*real_open)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    (void)real_open(path, O_RDONLY); /* left open, as a runtime keeps its device files */
}

ssize_t read(int fd, void *buf, size_t n)
{
    open_first(fd);
    ssize_t (*real)(int, void *, size_t) = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    return real(fd, buf, n);
}

int fstat(int fd, struct stat *st)
{
    open_first(fd);
    int (*real)(int, struct stat *) = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
    return real(fd, st);
}

int fstat64(int fd, struct stat64 *st)
{
    open_first(fd);
    int (*real)(int, struct stat64 *) = (int (*)(int, struct stat64 *))dlsym(RTLD_NEXT, "fstat64");
    return real(fd, st);
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    for (nfds_t i = 0; i < n; i++) open_first(fds[i].fd);
    int (*real)(struct pollfd *, nfds_t, int) = (int (*)(struct pollfd *, nfds_t, int))dlsym(RTLD_NEXT, "poll");
    return real(fds, n, timeout);
}
