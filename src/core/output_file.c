/* kiln_output_file (include/kiln.h): files written whole or not at all. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"

#define MAX_LINKS 40 /* as the kernel's ELOOP limit */

/* The directory part of path ("dir/" kept with its slash), as a length. */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path + 1) : 0;
}

/* Whether the link at `path` sits in /proc (/dev/stdout -> /proc/self/fd/1): those links name open
 * files, not paths, and are written in place as the user pointed them. */
static int magic_link(const char *path)
{
    char dir[PATH_MAX + 1];
    size_t d = dir_len(path);
    if (d == 0) {
        strcpy(dir, ".");
    } else {
        if (d > PATH_MAX) return 0;
        memcpy(dir, path, d);
        dir[d] = '\0';
    }
    struct stat in, proc;
    return stat(dir, &in) == 0 && stat("/proc", &proc) == 0 && in.st_dev == proc.st_dev;
}

enum { TARGET_NEW, TARGET_FILE, TARGET_IN_PLACE };

/* Follows the symbolic links of path to the file they lead to (into target): TARGET_FILE when it is
 * a regular file, TARGET_NEW when there is none yet (a dangling link, or no link: it will be
 * created), TARGET_IN_PLACE for anything else (a device, a FIFO, a directory, a /proc link, a loop).
 * -1 when a name grows past the buffer. */
static int resolve_target(const char *path, char *target, size_t size, struct stat *st)
{
    if (strlen(path) >= size) return -1;
    strcpy(target, path);
    for (int hops = 0; hops <= MAX_LINKS; hops++) {
        if (lstat(target, st) != 0) return TARGET_NEW; /* mkstemp beside it names any other reason */
        if (S_ISREG(st->st_mode)) return TARGET_FILE;
        if (!S_ISLNK(st->st_mode) || magic_link(target)) return TARGET_IN_PLACE;
        char link[PATH_MAX + 1];
        ssize_t len = readlink(target, link, sizeof link - 1);
        if (len < 0 || (size_t)len >= sizeof link - 1) return TARGET_IN_PLACE;
        link[len] = '\0';
        size_t keep = link[0] == '/' ? 0 : dir_len(target); /* a relative link is relative to its directory */
        if (keep + (size_t)len >= size) return -1;
        memmove(target + keep, link, (size_t)len + 1);
    }
    return TARGET_IN_PLACE; /* a loop: fopen names it (ELOOP) */
}

kiln_status kiln_output_open(kiln_ctx *ctx, const char *path, kiln_output_file *f)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    struct stat old;
    /* a name the system cannot take is refused here, before any work, not at the rename */
    if (!*path) return kiln_fail(ctx, KILN_ERR_INPUT, "an output file needs a name");
    if (strlen(path) >= PATH_MAX)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%.64s...: %s (the path is %zu bytes; at most %d)", path,
                         strerror(ENAMETOOLONG), strlen(path), PATH_MAX - 1);
    int kind = resolve_target(path, f->target, sizeof f->target, &old);
    if (kind < 0) return kiln_fail(ctx, KILN_ERR_INPUT, "%.64s...: %s (its symbolic links lead to a longer path)", path,
                                   strerror(ENAMETOOLONG));
    if (kind == TARGET_IN_PLACE) {
        /* a device, a FIFO, /dev/stdout: nothing can be renamed over it, so it is written in place,
         * as the user pointed it */
        f->target[0] = '\0';
        f->fp = fopen(path, "wb");
        if (!f->fp) return kiln_fail(ctx, KILN_ERR_INPUT, "%s: %s", path, strerror(errno));
        return KILN_OK;
    }
    f->existed = kind == TARGET_FILE;
    /* a hidden name beside the file itself (the one the links lead to): same file system, so the
     * rename is atomic, and no glob of the user's sees it. The name is cut so that it fits the
     * directory's longest name as the target's does. */
    const size_t d = dir_len(f->target);
    const char *base = f->target + d;
    char dir[PATH_MAX + 1] = ".";
    if (d && d <= PATH_MAX) {
        memcpy(dir, f->target, d);
        dir[d] = '\0';
    }
    long name_max = pathconf(dir, _PC_NAME_MAX);
    if (name_max <= 0) name_max = NAME_MAX;
    size_t base_len = strlen(base);
    if (base_len > (size_t)name_max)
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: %s (a name of %zu bytes; %s takes at most %ld)", path,
                         strerror(ENAMETOOLONG), base_len, d ? dir : "this directory", name_max);
    static const char suffix[] = ".kiln-XXXXXX";
    size_t room = (size_t)name_max > sizeof suffix ? (size_t)name_max - sizeof suffix : 0;
    if (base_len > room) {
        base_len = room;
        while (base_len > 0 && ((unsigned char)base[base_len] & 0xC0) == 0x80) base_len--; /* whole UTF-8 characters */
    }
    int n = snprintf(f->tmp, sizeof f->tmp, "%.*s.%.*s%s", (int)d, f->target, (int)base_len, base, suffix);
    if (n < 0 || (size_t)n >= sizeof f->tmp) {
        f->tmp[0] = '\0';
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: path too long", path);
    }
    int fd = mkstemp(f->tmp);
    if (fd < 0) {
        int e = errno;
        f->tmp[0] = '\0';
        return kiln_fail(ctx, KILN_ERR_INPUT, "%s: cannot create a file there: %s", path, strerror(e));
    }
    /* mkstemp made it 0600; the result gets the mode the target had, else the usual 0644 */
    (void)fchmod(fd, f->existed ? (old.st_mode & 07777) : 0644);
    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        int e = errno;
        close(fd);
        unlink(f->tmp);
        f->tmp[0] = '\0';
        return kiln_fail(ctx, KILN_ERR_DEVICE, "%s: %s", path, strerror(e));
    }
    return KILN_OK;
}

/* What became of the target after a failure. */
static const char *fate(const kiln_output_file *f)
{
    if (!f->tmp[0]) return "written in place: it may hold part of the output";
    return f->existed ? "the file was left as it was" : "no file was written";
}

kiln_status kiln_output_finish(kiln_ctx *ctx, kiln_output_file *f, int written, int write_errno)
{
    if (!f->fp) return kiln_fail(ctx, KILN_ERR_INPUT, "%s: output file not open", f->path ? f->path : "?");
    /* an interrupt abandons the file like a failed write, whether the writer saw it (EINTR) or it
     * came after the last write: a run the user stopped replaces nothing */
    int stopped = (!written && write_errno == EINTR) || kiln_ctx_interrupt_requested(ctx);
    int err = stopped ? EINTR : written ? 0 : (write_errno ? write_errno : EIO);
    if (!err && fflush(f->fp) != 0) err = errno;
    if (!err && f->tmp[0] && fsync(fileno(f->fp)) != 0) err = errno;
    if (fclose(f->fp) != 0 && !err) err = errno;
    f->fp = NULL;
    if (!err) {
        f->finished = 1;
        return KILN_OK;
    }
    const char *what = fate(f);
    kiln_output_discard(f);
    if (stopped) return kiln_interrupted(ctx);
    return kiln_fail(ctx, KILN_ERR_DEVICE, "%s: write failed: %s (%s)", f->path, strerror(err), what);
}

void kiln_output_discard(kiln_output_file *f)
{
    if (f->fp) fclose(f->fp);
    f->fp = NULL;
    if (f->tmp[0]) unlink(f->tmp);
    f->tmp[0] = '\0';
    f->finished = 0;
}

kiln_status kiln_output_commit_all(kiln_ctx *ctx, kiln_output_file *const *files, int n)
{
    int ready = 1;
    for (int i = 0; i < n; i++) ready = ready && files[i]->finished;
    /* a signal that came after the last write still replaces nothing: every file or none */
    if (!ready || kiln_ctx_interrupt_requested(ctx)) {
        for (int i = 0; i < n; i++) kiln_output_discard(files[i]);
        return ready ? kiln_interrupted(ctx) : kiln_fail(ctx, KILN_ERR_INPUT, "output files not finished");
    }
    for (int i = 0; i < n; i++) {
        kiln_output_file *f = files[i];
        if (!f->tmp[0]) { /* written in place: nothing to rename */
            f->finished = 0;
            continue;
        }
        if (rename(f->tmp, f->target) == 0) {
            f->tmp[0] = '\0';
            f->finished = 0;
            continue;
        }
        /* rename fails only when the directory changed under kiln (the target became a directory,
         * the permissions changed): the rest is abandoned, and the message says which were written */
        int e = errno;
        char written[1024] = "";
        for (int j = 0; j < i; j++) {
            size_t used = strlen(written);
            snprintf(written + used, sizeof written - used, "%s%s", j ? ", " : "; already written: ", files[j]->path);
        }
        const char *what = fate(f);
        for (int j = i; j < n; j++) kiln_output_discard(files[j]);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "%s: cannot replace it: %s (%s%s)", f->path, strerror(e), what, written);
    }
    return KILN_OK;
}

kiln_status kiln_output_commit(kiln_ctx *ctx, kiln_output_file *f, int written, int write_errno)
{
    kiln_status st = kiln_output_finish(ctx, f, written, write_errno);
    if (st != KILN_OK) return st;
    kiln_output_file *one[1] = {f};
    return kiln_output_commit_all(ctx, one, 1);
}
