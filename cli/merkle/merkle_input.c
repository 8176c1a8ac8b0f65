#include "merkle_input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/interrupt.h"
#include "common/progress.h"
#include "kiln.h"

#define NODE KILN_MERKLE_NODE_SIZE
#define CHUNK ((size_t)1 << 16)
/* Bytes a hash costs once read: itself, and the whole tree (about two nodes a leaf) that --proof
 * and --tree keep. */
#define BYTES_PER_HASH (3 * NODE)

typedef struct input {
    const char *cmd, *path;
    int fd;
    uint64_t done, size; /* bytes read, of size (0: not known), for the progress line */
    double t0;
    int regular; /* a regular file: its reads never block */
} input;

/* Waits until the input can be read (cli_wait_readable; a busy machine left SIGINT unanswered
 * for seconds when a blocking call was entered just after the signal). */
static int wait_readable(input *in)
{
    return cli_wait_readable(in->fd) ? cli_interrupt_exit(in->cmd) : EXIT_OK;
}

static int input_open(input *in, const char *cmd, const char *path)
{
    in->cmd = cmd;
    in->path = path;
    in->done = in->size = 0;
    in->regular = 0;
    in->t0 = cli_now();
    struct stat sb;
    if (strcmp(path, "-") == 0) {
        in->fd = STDIN_FILENO; /* left blocking: its open file description is shared */
        in->regular = fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode);
        return EXIT_OK;
    }
    if (cli_interrupted()) return cli_interrupt_exit(cmd);
    /* without O_NONBLOCK, opening a FIFO waits for its writer, and a signal just before the call
     * would leave it waiting: the wait for the writer is wait_readable's, which sees the flag */
    in->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (in->fd < 0) return cli_error(EXIT_USAGE, cmd, "%s: %s", path, strerror(errno));
    if (fstat(in->fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
        in->size = (uint64_t)sb.st_size;
        in->regular = 1;
    }
    return EXIT_OK;
}

static void input_close(input *in)
{
    if (in->fd != STDIN_FILENO) close(in->fd);
}

/* Up to n bytes into buf, *got = 0 at the end. A pipe, FIFO or terminal is read only once
 * wait_readable says it can be, so no read blocks past a signal; a regular file's reads do not
 * block, hence the look at the flag before each read as well. */
static int input_read(input *in, void *buf, size_t n, size_t *got)
{
    for (;;) {
        if (cli_interrupted()) return cli_interrupt_exit(in->cmd);
        if (!in->regular) {
            int code = wait_readable(in);
            if (code) return code;
        }
        ssize_t k = read(in->fd, buf, n);
        if (k >= 0) {
            *got = (size_t)k;
            in->done += (uint64_t)k;
            if (progress_due()) {
                char text[160];
                format_bytes_done(in->done, in->size, cli_now() - in->t0, 1, text, sizeof text);
                progress_show("reading %s: %s", in->path, text);
            }
            return EXIT_OK;
        }
        if (errno != EINTR && errno != EAGAIN) /* EAGAIN: a FIFO's writer has nothing yet */
            /* an input that cannot be read is bad input (a directory, a closed standard input), as
             * for hash and pagerank */
            return cli_error(EXIT_USAGE, in->cmd, "%s: %s", in->path, strerror(errno));
    }
}

int merkle_parse_hash(const char *hex, size_t len, int reversed, uint8_t node[NODE])
{
    char s[2 * NODE + 1];
    uint8_t raw[NODE];
    if (len != 2 * NODE || memchr(hex, '\0', len)) return -1;
    memcpy(s, hex, len);
    s[len] = '\0';
    if (kiln_hex_decode(NULL, s, raw, NODE) != KILN_OK) return -1;
    for (int i = 0; i < NODE; i++) node[i] = reversed ? raw[NODE - 1 - i] : raw[i];
    return 0;
}

typedef struct hashes {
    const char *cmd, *path;
    int reversed;
    uint64_t max, count, cap, line;
    const char *max_note;
    uint8_t *nodes;
} hashes;

/* One line (without its LF) of a file of hashes. */
static int take_line(hashes *h, const char *p, size_t len)
{
    const char *e = p + len;
    h->line++;
    if (len > MERKLE_MAX_LINE + 1 || (len == MERKLE_MAX_LINE + 1 && e[-1] != '\r'))
        return cli_error(EXIT_USAGE, h->cmd, "%s line %llu: longer than %u bytes, the limit for a line of hashes", h->path,
                         (unsigned long long)h->line, MERKLE_MAX_LINE);
    while (e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) e--;
    while (p < e && (*p == ' ' || *p == '\t')) p++;
    if (p == e || *p == '#') return EXIT_OK;
    if (h->count == h->max)
        return cli_error(EXIT_USAGE, h->cmd, "%s line %llu: more than %llu hashes%s", h->path, (unsigned long long)h->line,
                         (unsigned long long)h->max, h->max_note);
    if (h->count == h->cap) {
        uint64_t cap = h->cap ? 2 * h->cap : 1024;
        double need = (double)cap * BYTES_PER_HASH, limit = (double)kiln_memory_limit(NULL);
        if (need > limit)
            return cli_error(EXIT_USAGE, h->cmd,
                             "%s line %llu: %llu hashes and more: their tree needs %.1f GiB, more than the %.1f GiB this "
                             "process can have (physical memory, ulimit -v, ulimit -d)",
                             h->path, (unsigned long long)h->line, (unsigned long long)h->count, need / (1 << 30),
                             limit / (1 << 30));
        uint8_t *bigger = realloc(h->nodes, (size_t)cap * NODE);
        if (!bigger) return cli_error(EXIT_DEVICE, h->cmd, "out of memory for %llu hashes", (unsigned long long)cap);
        h->nodes = bigger;
        h->cap = cap;
    }
    if ((size_t)(e - p) != 2 * NODE)
        return cli_error(EXIT_USAGE, h->cmd, "%s line %llu: expected %d hex digits", h->path, (unsigned long long)h->line,
                         2 * NODE);
    if (merkle_parse_hash(p, (size_t)(e - p), h->reversed, h->nodes + NODE * h->count) != 0)
        return cli_error(EXIT_USAGE, h->cmd, "%s line %llu: not a hex hash", h->path, (unsigned long long)h->line);
    h->count++;
    return EXIT_OK;
}

int merkle_read_hashes(const char *cmd, const char *path, int reversed, uint64_t max, const char *max_note,
                       uint8_t **nodes, uint64_t *n)
{
    hashes h = {cmd, path, reversed, max, 0, 0, 0, max_note, NULL};
    input in;
    int code = input_open(&in, cmd, path);
    if (code != EXIT_OK) return code;
    char *buf = malloc(CHUNK);
    if (!buf) code = cli_error(EXIT_DEVICE, cmd, "out of memory");
    size_t start = 0, len = 0, scanned = 0, got = 1;
    while (code == EXIT_OK) {
        char *nl = memchr(buf + scanned, '\n', len - scanned);
        if (nl || (got == 0 && start < len)) {
            size_t l = nl ? (size_t)(nl - (buf + start)) : len - start;
            code = take_line(&h, buf + start, l);
            start = scanned = nl ? start + l + 1 : len;
            continue;
        }
        if (got == 0) break;
        /* a line longer than the limit is refused now, not after the rest of it has arrived */
        if (len - start > MERKLE_MAX_LINE + 1) {
            code = take_line(&h, buf + start, len - start);
            break;
        }
        memmove(buf, buf + start, len - start);
        len -= start;
        start = 0;
        scanned = len;
        code = input_read(&in, buf + len, CHUNK - len, &got);
        len += got;
    }
    free(buf);
    input_close(&in);
    if (code != EXIT_OK) {
        free(h.nodes);
        return code;
    }
    *nodes = h.nodes;
    *n = h.count;
    return EXIT_OK;
}

int merkle_read_bytes(const char *cmd, const char *path, size_t max, unsigned char **data, size_t *len)
{
    input in;
    int code = input_open(&in, cmd, path);
    if (code != EXIT_OK) return code;
    size_t cap = 0, n = 0, got = 1;
    unsigned char *buf = NULL;
    while (code == EXIT_OK && got > 0 && n <= max) {
        if (n == cap) {
            size_t ncap = cap ? 2 * cap : CHUNK;
            if (ncap > max + 1) ncap = max + 1;
            unsigned char *bigger = realloc(buf, ncap);
            if (!bigger) {
                code = cli_error(EXIT_DEVICE, cmd, "out of memory reading %s", path);
                break;
            }
            buf = bigger;
            cap = ncap;
        }
        code = input_read(&in, buf + n, cap - n, &got);
        n += got;
    }
    input_close(&in);
    if (code != EXIT_OK) {
        free(buf);
        return code;
    }
    *data = buf;
    *len = n;
    return EXIT_OK;
}
