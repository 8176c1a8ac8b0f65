/* kiln_output_file (include/kiln.h): files written whole or not at all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctx.h"

kiln_status kiln_output_open(kiln_ctx *ctx, const char *path, kiln_output_file *f)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    struct stat old;
    int exists = lstat(path, &old) == 0;
    if (exists && !S_ISREG(old.st_mode)) {
        /* a device, a FIFO or a link (/dev/stdout): nothing can be renamed over it, so it is
         * written in place, as the user pointed it */
        f->fp = fopen(path, "wb");
        if (!f->fp) return kiln_fail(ctx, KILN_ERR_INPUT, "%s: %s", path, strerror(errno));
        return KILN_OK;
    }
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    /* a hidden name in the target's directory: same file system, and no glob of the user's sees it */
    int n = snprintf(f->tmp, sizeof f->tmp, "%.*s.%s.kiln-XXXXXX", dir_len, path, slash ? slash + 1 : path);
    if (n < 0 || (size_t)n >= sizeof f->tmp) return kiln_fail(ctx, KILN_ERR_INPUT, "%s: path too long", path);
    int fd = mkstemp(f->tmp);
    if (fd < 0) return kiln_fail(ctx, KILN_ERR_INPUT, "%s: cannot create a file there: %s", path, strerror(errno));
    /* mkstemp made it 0600; the result gets the mode the target had, else the usual 0644 */
    (void)fchmod(fd, exists ? (old.st_mode & 07777) : 0644);
    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        int e = errno;
        close(fd);
        unlink(f->tmp);
        return kiln_fail(ctx, KILN_ERR_DEVICE, "%s: %s", path, strerror(e));
    }
    return KILN_OK;
}

kiln_status kiln_output_commit(kiln_ctx *ctx, kiln_output_file *f, int written, int write_errno)
{
    /* an interrupt abandons the file like a failed write, whether the writer saw it (EINTR) or it
     * came after the last write: a run the user stopped replaces nothing */
    int stopped = (!written && write_errno == EINTR) || kiln_ctx_interrupt_requested(ctx);
    int err = stopped ? EINTR : written ? 0 : (write_errno ? write_errno : EIO);
    if (!err && fflush(f->fp) != 0) err = errno;
    if (!err && fsync(fileno(f->fp)) != 0) err = errno;
    if (fclose(f->fp) != 0 && !err) err = errno;
    f->fp = NULL;
    if (!err && f->tmp[0] && rename(f->tmp, f->path) != 0) err = errno;
    if (!err) return KILN_OK;
    if (f->tmp[0]) unlink(f->tmp);
    if (stopped) return kiln_interrupted(ctx);
    return kiln_fail(ctx, KILN_ERR_DEVICE, "%s: write failed: %s (the file was left as it was)", f->path,
                     strerror(err));
}
