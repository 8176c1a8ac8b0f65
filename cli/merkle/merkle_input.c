#include "merkle_input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/file_ahead.h"
#include "common/interrupt.h"
#include "common/progress.h"
#include "kiln.h"
#include "merkle_lines.h"

#define NODE KILN_MERKLE_NODE_SIZE
#define CHUNK ((size_t)1 << 16)
/* The blocks a file of leaves is read ahead in: 16 MiB, a share of 1 MiB for each of 16 parsing
 * threads, so that waking them costs little beside their work. */
#define AHEAD_BLOCK ((size_t)16 << 20)
/* Bytes a hash costs once read: itself, and the whole tree (about two nodes a leaf) that --proof
 * and --tree keep. */
#define BYTES_PER_HASH (3 * NODE)

typedef struct input {
    const char *cmd, *path;
    int fd;
    uint64_t done, size; /* bytes read, of size (0: not known), for the progress line */
    double t0;
    int regular; /* a regular file: its reads never block */
    file_ahead *ahead; /* a large regular file read ahead on a thread (NULL: read here) */
} input;

/* Waits until the input can be read (cli_wait_readable; a busy machine left SIGINT unanswered
 * for seconds when a blocking call was entered just after the signal). */
static int wait_readable(input *in)
{
    return cli_wait_readable(in->fd) ? cli_interrupt_exit(in->cmd) : EXIT_OK;
}

/* ahead: a large regular file may be read ahead on a thread (input_next only). */
static int input_open(input *in, const char *cmd, const char *path, int ahead)
{
    in->cmd = cmd;
    in->path = path;
    in->done = in->size = 0;
    in->regular = 0;
    in->ahead = NULL;
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
        /* when it cannot be had, the file is read here, as a small one */
        if (ahead && in->size >= FILE_AHEAD_MIN) in->ahead = file_ahead_start(in->fd, in->size, AHEAD_BLOCK);
    }
    return EXIT_OK;
}

static void input_close(input *in)
{
    file_ahead_stop(in->ahead);
    if (in->fd != STDIN_FILENO) close(in->fd);
}

static void input_progress(input *in, size_t got)
{
    in->done += (uint64_t)got;
    if (progress_due()) {
        char text[160];
        format_bytes_done(in->done, in->size, cli_now() - in->t0, 1, text, sizeof text);
        progress_show("reading %s: %s", in->path, text);
    }
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
            input_progress(in, (size_t)k);
            return EXIT_OK;
        }
        if (errno != EINTR && errno != EAGAIN) /* EAGAIN: a FIFO's writer has nothing yet */
            /* an input that cannot be read is bad input (a directory, a closed standard input), as
             * for hash and pagerank */
            return cli_error(EXIT_USAGE, in->cmd, "%s: %s", in->path, strerror(errno));
    }
}

/* The next bytes of the input in *data (*got of them, 0 at the end): a block the reader thread
 * has read ahead, or what one input_read put in buf (cap bytes). */
static int input_next(input *in, char *buf, size_t cap, const char **data, size_t *got)
{
    if (!in->ahead) {
        *data = buf;
        return input_read(in, buf, cap, got);
    }
    const uint8_t *block;
    int err = file_ahead_next(in->ahead, &block, got);
    if (err == EINTR) return cli_interrupt_exit(in->cmd);
    if (err == FILE_AHEAD_SHRANK)
        return cli_error(EXIT_USAGE, in->cmd, "%s: the file shrank while being read (%llu bytes of %llu)", in->path,
                         (unsigned long long)file_ahead_done(in->ahead), (unsigned long long)in->size);
    if (err) return cli_error(EXIT_USAGE, in->cmd, "%s: %s", in->path, strerror(err));
    *data = (const char *)block;
    input_progress(in, *got);
    return EXIT_OK;
}

/* Each byte's value as a hex digit plus one, 0 when it is none: one look-up a digit, since a file
 * of leaves is tens of millions of hashes (with kiln_hex_decode's copy, strlen and two passes, 100
 * MB of leaves took 0.38 s of CPU to parse; 0.07 s so). */
#define D16(c) [c] = (c) - '0' + 1
#define L6(c) [c] = (c) - 'a' + 11, [(c) - 'a' + 'A'] = (c) - 'a' + 11
static const uint8_t hex_plus1[256] = {D16('0'), D16('1'), D16('2'), D16('3'), D16('4'), D16('5'), D16('6'), D16('7'),
                                       D16('8'), D16('9'), L6('a'),  L6('b'),  L6('c'),  L6('d'),  L6('e'),  L6('f')};

int merkle_parse_hash(const char *hex, size_t len, int reversed, uint8_t node[NODE])
{
    uint8_t raw[NODE];
    unsigned bad = 0;
    if (len != 2 * NODE) return -1;
    for (int i = 0; i < NODE; i++) {
        /* 0 marks a byte that is no digit (NUL included); the others are the digit plus one */
        unsigned hi = hex_plus1[(unsigned char)hex[2 * i]], lo = hex_plus1[(unsigned char)hex[2 * i + 1]];
        bad |= (hi - 1) | (lo - 1);
        raw[i] = (uint8_t)((hi - 1) << 4 | (lo - 1));
    }
    if (bad > 15) return -1;
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

/* "line N: longer than 1024 bytes" for the line being read (counted here). */
static int line_too_long(hashes *h)
{
    h->line++;
    return cli_error(EXIT_USAGE, h->cmd, "%s line %llu: longer than %u bytes, the limit for a line of hashes", h->path,
                     (unsigned long long)h->line, MERKLE_MAX_LINE);
}

/* Room for need hashes in h->nodes, doubling it as it fills up, so long as the tree they make
 * fits in the memory this process can have. Quiet: no message (the caller has another way). */
static int room(hashes *h, uint64_t need, int quiet)
{
    while (h->cap < need) {
        uint64_t cap = h->cap ? 2 * h->cap : 1024;
        double need_b = (double)cap * BYTES_PER_HASH, limit = (double)kiln_memory_limit(NULL);
        if (need_b > limit)
            return quiet ? -1
                         : cli_error(EXIT_USAGE, h->cmd,
                                     "%s line %llu: %llu hashes and more: their tree needs %.1f GiB, more than the %.1f "
                                     "GiB this process can have (physical memory, ulimit -v, ulimit -d)",
                                     h->path, (unsigned long long)h->line, (unsigned long long)h->count,
                                     need_b / (1 << 30), limit / (1 << 30));
        uint8_t *bigger = realloc(h->nodes, (size_t)cap * NODE);
        if (!bigger)
            return quiet ? -1 : cli_error(EXIT_DEVICE, h->cmd, "out of memory for %llu hashes", (unsigned long long)cap);
        h->nodes = bigger;
        h->cap = cap;
    }
    return EXIT_OK;
}

/* One line (without its LF) of a file of hashes. */
static int take_line(hashes *h, const char *p, size_t len)
{
    uint8_t node[NODE];
    int kind = merkle_line(p, len, h->reversed, node);
    if (kind == MERKLE_LINE_LONG) return line_too_long(h);
    h->line++;
    if (kind == MERKLE_LINE_SKIP) return EXIT_OK;
    if (h->count == h->max)
        return cli_error(EXIT_USAGE, h->cmd, "%s line %llu: more than %llu hashes%s", h->path, (unsigned long long)h->line,
                         (unsigned long long)h->max, h->max_note);
    int code = room(h, h->count + 1, 0);
    if (code != EXIT_OK) return code;
    if (kind == MERKLE_LINE_DIGITS)
        return cli_error(EXIT_USAGE, h->cmd, "%s line %llu: expected %d hex digits", h->path, (unsigned long long)h->line,
                         2 * NODE);
    if (kind == MERKLE_LINE_HEX)
        return cli_error(EXIT_USAGE, h->cmd, "%s line %llu: not a hex hash", h->path, (unsigned long long)h->line);
    memcpy(h->nodes + NODE * h->count++, node, NODE);
    return EXIT_OK;
}

/* The longest piece of a line kept between two reads: a line any longer is refused. */
#define CARRY (MERKLE_MAX_LINE + 1)

/* The lines of p[0..n), the next bytes of the input: whole ones are taken where they lie (a block
 * read ahead is parsed in place), the unfinished last one is kept in carry (*clen bytes) to be
 * joined with the next bytes. A line longer than the limit is refused as soon as that many bytes
 * of it have come, not after the rest of it has arrived. */
static int take_text(hashes *h, const char *p, size_t n, char carry[CARRY], size_t *clen)
{
    const char *end = p + n;
    if (*clen) {
        const char *nl = memchr(p, '\n', n);
        size_t part = (size_t)((nl ? nl : end) - p);
        if (*clen + part > CARRY) return line_too_long(h);
        memcpy(carry + *clen, p, part);
        *clen += part;
        if (!nl) return EXIT_OK;
        size_t len = *clen;
        *clen = 0;
        int code = take_line(h, carry, len);
        if (code != EXIT_OK) return code;
        p = nl + 1;
    }
    for (const char *nl; (nl = memchr(p, '\n', (size_t)(end - p))) != NULL; p = nl + 1) {
        int code = take_line(h, p, (size_t)(nl - p));
        if (code != EXIT_OK) return code;
    }
    size_t rest = (size_t)(end - p);
    if (rest > CARRY) return line_too_long(h);
    memcpy(carry, p, rest);
    *clen = rest;
    return EXIT_OK;
}

/* As take_text, with the whole lines of a large block parsed by all cores (merkle_lines) when m
 * is not NULL and nothing limits the count of hashes. Any fault in them sends the block through
 * take_text, which names the line: the parallel parse only ever handles good lines. */
static int take_block(hashes *h, merkle_lines *m, const char *p, size_t n, char carry[CARRY], size_t *clen)
{
    const char *end = p + n;
    if (!m || h->max != UINT64_MAX) return take_text(h, p, n, carry, clen);
    if (*clen) { /* the line begun in the block before ends first */
        const char *nl = memchr(p, '\n', n);
        size_t head = nl ? (size_t)(nl + 1 - p) : n;
        int code = take_text(h, p, head, carry, clen);
        if (code != EXIT_OK || !nl) return code;
        p = nl + 1;
    }
    const char *last = end; /* just past the block's last LF */
    while (last > p && last[-1] != '\n') last--;
    size_t whole = (size_t)(last - p);
    uint64_t lines;
    int64_t count;
    /* a hash's line takes 65 bytes at least: room for whole / 65 of them is enough */
    if (whole > 0 && room(h, h->count + whole / (2 * NODE + 1) + 1, 1) == EXIT_OK &&
        (count = merkle_lines_parse(m, p, whole, h->reversed, h->nodes + NODE * h->count, &lines)) >= 0) {
        h->count += (uint64_t)count;
        h->line += lines;
        p = last;
    }
    return take_text(h, p, (size_t)(end - p), carry, clen);
}

int merkle_read_hashes(const char *cmd, const char *path, int reversed, uint64_t max, const char *max_note,
                       unsigned threads, uint8_t **nodes, uint64_t *n)
{
    hashes h = {cmd, path, reversed, max, 0, 0, 0, max_note, NULL};
    input in;
    int code = input_open(&in, cmd, path, 1);
    if (code != EXIT_OK) return code;
    char *buf = in.ahead ? NULL : malloc(CHUNK), carry[CARRY];
    if (!in.ahead && !buf) code = cli_error(EXIT_DEVICE, cmd, "out of memory");
    /* a file read ahead comes in blocks large enough to share out over the cores */
    merkle_lines *m = in.ahead && max == UINT64_MAX ? merkle_lines_start(threads) : NULL;
    size_t clen = 0, got = 1;
    while (code == EXIT_OK && got > 0) {
        const char *data = buf;
        code = input_next(&in, buf, CHUNK, &data, &got);
        if (code == EXIT_OK && got > 0) code = take_block(&h, m, data, got, carry, &clen);
    }
    merkle_lines_stop(m);
    if (code == EXIT_OK && clen > 0) code = take_line(&h, carry, clen); /* the last line, without its LF */
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
    int code = input_open(&in, cmd, path, 0);
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
