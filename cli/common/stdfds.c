/* cli_std_guard: the standard descriptors held when closed (stdfds.h). */
#include "stdfds.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int closed_at_start[3];

/* Opens something on the lowest free descriptor, which is `fd` (those below it are open): /dev/null
 * for writing (fd 0) or reading (fd 1, 2); where there is no /dev/null (a bare chroot), the end of
 * a pipe that fails the same way. 0, or -1 when nothing could be opened. */
static int hold(int fd)
{
    int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    if (got < 0) {
        int p[2];
        if (pipe(p) != 0) return -1;
        /* reading the write end, or writing the read end, is EBADF */
        got = fd == 0 ? p[1] : p[0];
        int other = fd == 0 ? p[0] : p[1];
        if (other == fd) { /* the end kept got the other number: swap them */
            if (dup2(got, fd) < 0) return -1;
            close(got);
            got = fd;
        } else {
            close(other);
        }
    }
    if (got != fd) { /* only when fd was taken meanwhile: never in a single-threaded start */
        if (dup2(got, fd) < 0) return -1;
        close(got);
    }
    return 0;
}

void cli_std_guard(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        closed_at_start[fd] = 1;
        (void)hold(fd); /* nothing to hold it with: as before, the stream stays closed */
    }
}

int cli_std_closed(int fd) { return fd >= 0 && fd < 3 && closed_at_start[fd]; }
