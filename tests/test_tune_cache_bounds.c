/* The tune cache is read like any other input (issue 36 item 10): only a regular file of at most
 * TUNE_CACHE_MAX bytes is taken. A cache that is a link to /dev/zero, a FIFO with no writer, a
 * directory or a file larger than the cap is ignored with one warning, at once, and storing an
 * entry over such a cache writes that entry alone. Each look runs in a child process under a 10 s
 * alarm, so that a reader that never ends fails the test instead of hanging it. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tune/tune_cache.h"

/* tune_cache_lookup(path, "sha256d", "GPU X") in a child: 0 found (its threads per block in
 * *tpb), 1 not found, 2 killed by the alarm (it did not end), 3 other. */
static int look(const char *path, int *tpb)
{
    int fds[2];
    if (pipe(fds) != 0) return 3;
    pid_t pid = fork();
    if (pid < 0) return 3;
    if (pid == 0) {
        close(fds[0]);
        alarm(10);
        tune_entry e;
        int r = tune_cache_lookup(path, "sha256d", "GPU X", &e);
        int v = r == 0 ? e.launch.threads_per_block : -1;
        if (write(fds[1], &v, sizeof v) != (ssize_t)sizeof v) _exit(3);
        _exit(r == 0 ? 0 : 1);
    }
    close(fds[1]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    int v = -1;
    if (read(fds[0], &v, sizeof v) != (ssize_t)sizeof v) v = -1;
    close(fds[0]);
    *tpb = v;
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) return 2;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

static void write_file(const char *path, const char *text, size_t pad)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    static const char line[] = "# padding padding padding padding padding padding padding paddi\n";
    _Static_assert(sizeof line - 1 == 64, "a padding line is 64 bytes");
    for (size_t i = 0; i < pad; i += 64) fputs(line, f);
    fputs(text, f);
    fclose(f);
}

int main(void)
{
    char dir[] = "/tmp/kiln_tune_bounds_XXXXXX", path[256], fifo[256];
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(path, sizeof path, "%s/tune.txt", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    const char *entry = "sha256d\tGPU X\t64\t4\t1000\n";
    int tpb;

    /* a plain cache: its entry */
    write_file(path, entry, 0);
    CHECK(look(path, &tpb) == 0 && tpb == 64, "plain cache: tpb %d", tpb);
    /* at the cap, taken; one line past it, ignored (the entry last, so only a whole read finds it) */
    write_file(path, entry, TUNE_CACHE_MAX - 64 - strlen(entry));
    struct stat st;
    CHECK(stat(path, &st) == 0 && st.st_size <= TUNE_CACHE_MAX, "padded file %lld bytes", (long long)st.st_size);
    CHECK(look(path, &tpb) == 0 && tpb == 64, "cache of %lld bytes (at most the cap): tpb %d", (long long)st.st_size, tpb);
    write_file(path, entry, TUNE_CACHE_MAX);
    int r = look(path, &tpb);
    CHECK(r == 1, "cache larger than %d bytes: result %d (want 1: ignored)", TUNE_CACHE_MAX, r);
    /* a line of 512 bytes or more is malformed, whole: its tail is not read as an entry of its own
     * (a reader of 512-byte pieces would find one after the first 511 bytes) */
    char longline[1200];
    memset(longline, 'x', 511);
    snprintf(longline + 511, sizeof longline - 511, "%s", entry);
    write_file(path, longline, 0);
    r = look(path, &tpb);
    CHECK(r == 1, "an entry after 511 bytes of one line: result %d (want 1)", r);

    /* a link to /dev/zero: an endless input */
    remove(path);
    CHECK(symlink("/dev/zero", path) == 0, "symlink: %s", strerror(errno));
    r = look(path, &tpb);
    CHECK(r == 1, "tune.txt -> /dev/zero: result %d (want 1; 2 means it read on until the alarm)", r);
    /* storing over it writes the new entry alone, and /dev/zero stays what it is */
    tune_entry a = {0};
    snprintf(a.algo, sizeof a.algo, "sha256d");
    snprintf(a.device, sizeof a.device, "GPU Y");
    a.launch = (kiln_launch){128, 2};
    a.rate = 5;
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10);
        _exit(tune_cache_store(path, &a) == 0 ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status), "store over tune.txt -> /dev/zero did not end (signal %d)",
          WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    remove(path);

    /* a FIFO that no one writes: opening it must not wait */
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
    r = look(fifo, &tpb);
    CHECK(r == 1, "tune.txt a FIFO without a writer: result %d (want 1; 2 means it waited)", r);
    remove(fifo);

    /* a directory */
    CHECK(mkdir(path, 0700) == 0, "mkdir");
    r = look(path, &tpb);
    CHECK(r == 1, "tune.txt a directory: result %d", r);
    rmdir(path);

    /* none at all: not found, and nothing said */
    r = look(path, &tpb);
    CHECK(r == 1, "no cache: result %d", r);
    rmdir(dir);
    return check_summary();
}
