/* kiln hash: sha256sum/sha3sum-style digests of files and stdin, and --check of such lists.
 *
 * Each input is streamed on the CPU in constant memory, except that when the device policy
 * (kiln_ctx_pick for the bytes of the small files) puts the work on a GPU, regular files of at
 * most SMALL_FILE bytes are read whole and hashed in batches on the GPU, each batch on a thread
 * while the next one's files are read. A large regular file is read ahead on a thread
 * (common/file_ahead.h) while the hash runs. Results are printed in input order either way. A
 * check list is read line by line (cli/hash/hash_lines.h), so its size never matters.
 *
 * Failures, as the whole CLI has them: an input named on the command line that cannot be read
 * (a FILE, or the --check list) is bad input, reported by name while the rest goes on, exit 2;
 * a file named inside a check list that cannot be read is a failed check, as with sha256sum -c
 * ("NAME: FAILED open or read", exit 1). Ctrl-C ends any read, even one blocked on a pipe, with
 * "interrupted by SIGINT" and 130. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cli.h"
#include "common/file_ahead.h"
#include "common/interrupt.h"
#include "common/json_out.h"
#include "common/thread.h"
#include "common/opts.h"
#include "common/progress.h"
#include "hash_lines.h"

#define SMALL_FILE (1u << 20)
#define BATCH_BYTES (64u << 20)
#define BATCH_FILES 65536
#define CHUNK (1u << 16)
/* Check-list entries held while the device policy weighs their files (auto device with a GPU
 * only): enough files to reach its threshold, few enough bytes to stay small. */
#define WINDOW_ENTRIES 65536
#define WINDOW_BYTES (32u << 20)

enum { DIGESTS = 1, CHECKS = 2 }; /* the command's modes, for options that apply to one */

typedef struct item {
    char *name;
    uint64_t off, len; /* in the batch buffer */
    uint8_t *expect; /* check mode: the listed digest (outlen bytes) */
} item;

/* A GPU batch: small files of one algorithm and output length, whole, one after the other. */
typedef struct batch {
    item *items;
    size_t n, cap;
    uint8_t *data;
    uint64_t bytes, data_cap;
    kiln_hash_algo algo;
    size_t outlen;
} batch;

typedef struct hash_run {
    const char *cmd;
    kiln_hash_algo algo; /* the --algo given (digests, and untagged check lines) */
    int check, tag; /* --check mode; --tag output */
    kiln_ctx *gpu; /* NULL: everything on the CPU */
    batch b; /* the batch being filled */
    /* the batch before, hashed on a thread while this one is read (flush_start, flush_end) */
    batch fly;
    int flying; /* 0, FLY_THREAD or FLY_DONE (hashed here: no thread could be had) */
    pthread_t fly_thread;
    kiln_ctx *fly_ctx;
    uint64_t *fly_offsets;
    uint8_t *fly_out;
    kiln_status fly_st;
    /* tallies (checking: of the list being checked; the run's totals below) */
    size_t unreadable, mismatched, ok, missing;
    size_t all_unreadable, all_mismatched, all_ok, all_bad;
    /* sha256sum's: --status (no verdicts, no warnings), --ignore-missing (a listed file that does
     * not exist is neither reported nor a failure), --zero (digest lines end with NUL, unescaped) */
    int status, ignore_missing, zero;
    int binary; /* -b/--binary: the '*' marker of sha256sum -b (the digest is the same) */
    const kiln_hash_params *params; /* --keyed, --derive-key: streamed on the CPU; NULL: none */
    int stopped; /* a signal arrived: nothing more is read or printed */
    int json;
    int quiet; /* --quiet: no progress line and, checking, no OK lines (as sha256sum -c --quiet) */
    /* the progress line: every input (all_total 0: not known), and the one being read */
    uint64_t all_done, all_total;
    size_t index, count; /* count 0: a check list, of a length not known */
    const char *cur_name;
    uint64_t cur_done, cur_size;
    double t0, cur_t0;
} hash_run;

static void *must_alloc(const char *cmd, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) exit(json_end(cli_error(EXIT_DEVICE, cmd, "out of memory")));
    return p;
}

/* name as results and messages show it (one line whatever it holds); free it. */
static char *shown(const char *cmd, const char *name)
{
    size_t need = check_name_format(NULL, 0, name);
    char *s = must_alloc(cmd, need + 1);
    check_name_format(s, need + 1, name);
    return s;
}

/* "kiln hash: NAME: reason" */
static void name_error(const char *cmd, const char *name, const char *reason)
{
    char *s = shown(cmd, name);
    fflush(stdout);
    cli_error(EXIT_USAGE, cmd, "%s: %s", s, reason);
    free(s);
}

/* The progress line: "hash [3/10] NAME: 1.20 GiB/2.00 GiB (60%), ETA 1 s; all: 2.50 GiB/4.00 GiB
 * (62%), ETA 3 s; 850 MiB/s" (a list being checked has no count, nor a total). Names are cut to
 * their last 20 bytes; the rate comes last, the first thing a narrow terminal may cut. */
static void show_progress(hash_run *r)
{
    if (!progress_due()) return;
    double now = cli_now();
    char file[96], all[96] = "", rate[32] = "", which[48], *s = shown(r->cmd, r->cur_name);
    size_t len = strlen(s);
    const char *name = len > 20 ? s + len - 17 : s;
    format_bytes_done(r->cur_done, r->cur_size, now - r->cur_t0, 0, file, sizeof file);
    if (r->count != 1) format_bytes_done(r->all_done, r->all_total, now - r->t0, 0, all, sizeof all);
    if (now > r->t0) format_bytes((double)r->all_done / (now - r->t0), rate, sizeof rate);
    if (r->count) snprintf(which, sizeof which, "%zu/%zu", r->index, r->count);
    else snprintf(which, sizeof which, "%zu", r->index);
    progress_show("hash [%s] %s%s: %s%s%s; %s/s", which, len > 20 ? "..." : "", name, file, all[0] ? "; all: " : "",
                  all, rate);
    free(s);
}

/* Counts bytes read of the input being hashed. */
static void advance(hash_run *r, uint64_t bytes)
{
    r->cur_done += bytes;
    r->all_done += bytes;
    show_progress(r);
}

/* The result of one input: as JSON, {"name", "algo", "bytes", "digest"} or, checking,
 * {"name", "algo", "ok"}; an input that could not be read has "error" instead. */
static void json_result(const hash_run *r, const char *name, kiln_hash_algo algo, const char *digest, uint64_t bytes,
                        int ok, const char *error)
{
    json_object(NULL);
    json_str("name", name);
    json_str("algo", kiln_hash_algo_name(algo));
    if (error) json_str("error", error);
    else if (!r->check) json_u64("bytes", bytes);
    if (r->check) json_bool("ok", ok);
    else if (digest) json_str("digest", digest);
    json_close();
}

static void report_open_error(hash_run *r, const char *name, kiln_hash_algo algo, int err)
{
    if (r->check && r->ignore_missing && err == ENOENT) {
        r->missing++;
        return;
    }
    /* a file cut while it was read: its digest would be of neither its old nor its new content */
    const char *reason = err == FILE_AHEAD_SHRANK ? "the file shrank while being read" : strerror(err);
    name_error(r->cmd, name, reason);
    if (r->json) {
        json_result(r, name, algo, NULL, 0, 0, reason);
    } else if (r->check && !r->status) {
        char *s = shown(r->cmd, name);
        printf("%s: FAILED open or read\n", s);
        free(s);
    }
    r->unreadable++;
}

/* Whether outlen is the length kiln_hash_init makes (any for an extendable-output hash): the
 * GPU batches' too; another (BLAKE2's digest_len) is streamed on the CPU. */
static int default_len(kiln_hash_algo algo, size_t outlen)
{
    return kiln_hash_is_xof(algo) || outlen == kiln_hash_digest_len(algo);
}

/* Prints one result: the digest line, or the --check verdict; bytes: the input's length. */
static void emit(hash_run *r, const char *name, kiln_hash_algo algo, const uint8_t *digest, size_t outlen,
                 const uint8_t *expect, uint64_t bytes)
{
    progress_clear();
    if (r->check) {
        int same = memcmp(digest, expect, outlen) == 0;
        if (r->json) {
            json_result(r, name, algo, NULL, bytes, same, NULL);
        } else {
            if ((!same || !r->quiet) && !r->status) {
                char *s = shown(r->cmd, name);
                printf("%s: %s\n", s, same ? "OK" : "FAILED");
                free(s);
            }
        }
        if (same) r->ok++;
        else r->mismatched++;
        return;
    }
    char *hex = must_alloc(r->cmd, 2 * outlen + 1);
    kiln_hex_encode(digest, outlen, 0, hex);
    if (r->json) {
        json_result(r, name, algo, hex, bytes, 1, NULL);
        free(hex);
        return;
    }
    const char *tag = r->tag ? hash_tag_name(algo) : NULL;
    char sized[64];
    if (tag && !kiln_hash_is_xof(algo) && outlen != kiln_hash_digest_len(algo)) {
        /* b2sum -l 256 --tag: "BLAKE2b-256 (name) = ..." */
        snprintf(sized, sizeof sized, "%s-%zu", tag, 8 * outlen);
        tag = sized;
    }
    if (r->zero) { /* as sha256sum -z: the name as it is, the line ended by NUL */
        if (tag) printf("%s (%s) = %s", tag, name, hex);
        else printf("%s %s%s", hex, r->binary ? "*" : " ", name);
        putchar('\0');
        free(hex);
        return;
    }
    size_t need = hash_line_format_mode(NULL, 0, tag, hex, name, r->binary);
    char *line = must_alloc(r->cmd, need + 1);
    hash_line_format_mode(line, need + 1, tag, hex, name, r->binary);
    fputs(line, stdout);
    free(line);
    free(hex);
}

/* Streams a large regular file through the hash from fa, which reads it ahead on a thread so
 * that reading the next blocks overlaps hashing this one. 0, an errno or FILE_AHEAD_SHRANK. */
static int stream_ahead(hash_run *r, kiln_hash_stream *s, file_ahead *fa)
{
    int err;
    for (;;) {
        const uint8_t *block;
        size_t got;
        err = file_ahead_next(fa, &block, &got);
        if (err || got == 0) break;
        kiln_hash_update(s, block, got);
        advance(r, (uint64_t)got);
    }
    file_ahead_stop(fa);
    return err;
}

/* Streams fd through the hash on the CPU, after `pre` bytes already read (and counted); an input
 * that is not a regular file is read only once cli_wait_readable says it can be. size: a regular
 * file's size (a large one, read from its start, is read ahead on a thread). 0, or an errno
 * (EINTR once a signal has arrived), or FILE_AHEAD_SHRANK. */
static int stream_fd(hash_run *r, kiln_hash_algo algo, int fd, int regular, uint64_t size, const uint8_t *pre,
                     size_t pre_len, uint8_t *digest, size_t outlen)
{
    kiln_hash_stream s;
    if (r->params) {
        kiln_hash_init_params(&s, algo, r->params); /* refused parameters were refused before any input */
    } else if (default_len(algo, outlen)) {
        kiln_hash_init(&s, algo);
    } else { /* a digest length of its own (b2sum -l), checked by hash_digest_len_ok */
        kiln_hash_params p = {.digest_len = outlen};
        kiln_hash_init_params(&s, algo, &p);
    }
    kiln_hash_update(&s, pre, pre_len);
    /* when no thread can be had, the file is read here, as a small one */
    file_ahead *fa = regular && pre_len == 0 && size >= FILE_AHEAD_MIN ? file_ahead_start(fd, size, FILE_AHEAD_BLOCK) : NULL;
    if (fa) {
        int err = stream_ahead(r, &s, fa);
        if (err == 0) kiln_hash_final(&s, digest, outlen);
        return err;
    }
    static uint8_t buf[CHUNK];
    for (;;) {
        /* a regular file's reads are never interrupted: the flag is looked at every chunk */
        if (cli_interrupted()) return EINTR;
        if (!regular && cli_wait_readable(fd)) return EINTR;
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue; /* EAGAIN: a FIFO's writer has nothing yet */
        if (got < 0) return errno;
        if (got == 0) break;
        kiln_hash_update(&s, buf, (size_t)got);
        advance(r, (uint64_t)got);
    }
    kiln_hash_final(&s, digest, outlen);
    return 0;
}

static void free_items(batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->items[i].name);
        free(b->items[i].expect);
    }
    b->n = 0;
    b->bytes = 0;
}

enum { FLY_THREAD = 1, FLY_DONE = 2 };

static void *hash_fly(void *arg)
{
    hash_run *r = arg;
    r->fly_st = kiln_hash_batch(r->fly_ctx, r->fly.algo, r->fly.data, r->fly_offsets, r->fly.n, r->fly_out, r->fly.outlen);
    return NULL;
}

/* Waits for the batch on its thread, prints its results (hashing it on the CPU if the GPU
 * failed), and empties it. */
static void flush_end(hash_run *r)
{
    if (!r->flying) return;
    if (r->flying == FLY_THREAD) pthread_join(r->fly_thread, NULL);
    r->flying = 0;
    batch *b = &r->fly;
    kiln_status st = r->fly_st;
    if (st != KILN_OK && st != KILN_STOPPED) {
        progress_clear();
        fprintf(stderr, "kiln %s: GPU batch failed (%s); hashing on the CPU\n", r->cmd, kiln_last_error(r->fly_ctx));
        cli_device(r->cmd, r->fly_ctx, "cpu", 0);
        st = kiln_hash_batch(r->fly_ctx, b->algo, b->data, r->fly_offsets, b->n, r->fly_out, b->outlen);
    }
    if (st == KILN_STOPPED) r->stopped = 1;
    for (size_t i = 0; i < b->n && !r->stopped; i++)
        emit(r, b->items[i].name, b->algo, r->fly_out + i * b->outlen, b->outlen, b->items[i].expect, b->items[i].len);
    free(r->fly_offsets);
    free(r->fly_out);
    free_items(b);
}

/* Prints the batch before, then starts hashing the pending one on a thread, so that the files of
 * the next are read meanwhile (reading, copying to the GPU and hashing overlap); its buffers
 * become the next batch's. Without a thread it is hashed here. */
static void flush_start(hash_run *r)
{
    flush_end(r);
    if (r->b.n == 0 || r->stopped) {
        free_items(&r->b);
        return;
    }
    batch spare = r->fly; /* emptied by flush_end: its buffers are kept for the next batch */
    r->fly = r->b;
    r->b = spare;
    r->fly_offsets = must_alloc(r->cmd, (r->fly.n + 1) * sizeof *r->fly_offsets);
    r->fly_out = must_alloc(r->cmd, r->fly.n * r->fly.outlen);
    for (size_t i = 0; i < r->fly.n; i++) r->fly_offsets[i] = r->fly.items[i].off;
    r->fly_ctx = r->gpu; /* the context is the thread's alone until flush_end */
    r->fly_offsets[r->fly.n] = r->fly.bytes;
    /* the library's progress reports stay off (cmd_hash): the main thread draws the line */
    if (cli_thread_start(&r->fly_thread, 0, hash_fly, r) == 0) {
        r->flying = FLY_THREAD;
        return;
    }
    hash_fly(r);
    r->flying = FLY_DONE;
    flush_end(r);
}

/* Hashes and prints every pending batch, before anything else is printed. */
static void flush(hash_run *r)
{
    flush_start(r);
    flush_end(r);
}

/* Reads a whole small regular file into the batch. Returns 1 when queued, 0 when the file must
 * be streamed instead (it grew past SMALL_FILE: its first bytes are left in the batch buffer's
 * tail, at *pre), or -errno. */
static int queue_file(hash_run *r, int fd, uint64_t size, const char *name, kiln_hash_algo algo, const uint8_t *expect,
                      size_t outlen, uint64_t *pre)
{
    if (r->b.n && (r->b.outlen != outlen || r->b.algo != algo || r->b.n == BATCH_FILES || r->b.bytes + size > BATCH_BYTES))
        flush_start(r);
    if (r->b.data_cap < r->b.bytes + SMALL_FILE + 1) {
        uint64_t cap = r->b.bytes + SMALL_FILE + 1 > 2 * r->b.data_cap ? r->b.bytes + SMALL_FILE + 1 : 2 * r->b.data_cap;
        uint8_t *d = realloc(r->b.data, cap);
        if (!d) return -ENOMEM;
        r->b.data = d;
        r->b.data_cap = cap;
    }
    uint64_t got = 0;
    while (got <= SMALL_FILE) {
        if (cli_interrupted()) return -EINTR;
        ssize_t k = read(fd, r->b.data + r->b.bytes + got, SMALL_FILE + 1 - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -errno;
        if (k == 0) break;
        got += (uint64_t)k;
        advance(r, (uint64_t)k);
    }
    if (got > SMALL_FILE) {
        *pre = got;
        return 0;
    }
    if (r->b.n == r->b.cap) {
        size_t cap = r->b.cap ? 2 * r->b.cap : 1024;
        item *it = realloc(r->b.items, cap * sizeof *it);
        if (!it) return -ENOMEM;
        r->b.items = it;
        r->b.cap = cap;
    }
    item *it = &r->b.items[r->b.n];
    it->name = strdup(name);
    it->expect = NULL;
    if (expect) {
        it->expect = malloc(outlen);
        if (it->expect) memcpy(it->expect, expect, outlen);
    }
    if (!it->name || (expect && !it->expect)) {
        free(it->name);
        free(it->expect);
        return -ENOMEM;
    }
    it->off = r->b.bytes;
    it->len = got;
    r->b.bytes += got;
    r->b.outlen = outlen;
    r->b.algo = algo;
    r->b.n++;
    return 1;
}

/* Hashes one named input ("-" is stdin) and prints its result, or reports it unreadable. */
static void hash_input(hash_run *r, const char *name, kiln_hash_algo algo, const uint8_t *expect, size_t outlen)
{
    int is_stdin = strcmp(name, "-") == 0;
    /* not blocking on a FIFO's writer: the wait is stream_fd's (cli_wait_readable) */
    int fd = is_stdin ? STDIN_FILENO : cli_interrupted() ? (errno = EINTR, -1) : open(name, O_RDONLY | O_NONBLOCK);
    int err = fd < 0 ? errno : 0;
    struct stat sb;
    int regular = !err && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
    int small = !is_stdin && r->gpu && regular && (uint64_t)sb.st_size <= SMALL_FILE && default_len(algo, outlen);
    r->index++;
    r->cur_name = name;
    r->cur_done = 0;
    r->cur_size = regular && !is_stdin ? (uint64_t)sb.st_size : 0;
    r->cur_t0 = cli_now();
    uint64_t pre = 0;
    uint8_t *digest = NULL;
    if (small) {
        int q = queue_file(r, fd, (uint64_t)sb.st_size, name, algo, expect, outlen, &pre);
        if (q == 1) {
            close(fd);
            return;
        }
        if (q < 0) err = -q;
    }
    if (!err) {
        digest = must_alloc(r->cmd, outlen);
        /* a file that grew past the batch limit keeps its first bytes, read already */
        uint8_t *copy = pre ? must_alloc(r->cmd, pre) : NULL;
        if (pre) memcpy(copy, r->b.data + r->b.bytes, pre);
        flush(r);
        if (!r->stopped) err = stream_fd(r, algo, fd, regular, r->cur_size, copy, pre, digest, outlen);
        free(copy);
    } else {
        flush(r);
    }
    if (fd >= 0 && !is_stdin) close(fd);
    if (cli_interrupted()) r->stopped = 1;
    else if (err) report_open_error(r, name, algo, err);
    else emit(r, name, algo, digest, outlen, expect, r->cur_done);
    free(digest);
}

/* The bytes a GPU batch would hash for name: a regular file's size up to SMALL_FILE; stdin,
 * larger and unreadable files count nothing. */
static uint64_t small_size(const char *name)
{
    struct stat sb;
    if (strcmp(name, "-") != 0 && stat(name, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size <= SMALL_FILE)
        return (uint64_t)sb.st_size;
    return 0;
}

/* A regular file's size, for the progress line's total; 0 for anything else. */
static uint64_t regular_size(const char *name)
{
    struct stat sb;
    if (strcmp(name, "-") != 0 && stat(name, &sb) == 0 && S_ISREG(sb.st_mode)) return (uint64_t)sb.st_size;
    return 0;
}

/* The context when this run should batch small files on the GPU, else NULL (CPU streaming): the
 * device policy's choice for a hash batch of the small files' bytes. */
static kiln_ctx *pick_gpu(kiln_ctx *ctx, uint64_t bytes)
{
    return kiln_ctx_pick(ctx, KILN_KIND_HASH, bytes) != KILN_BACKEND_CPU ? ctx : NULL;
}

/* One check-list line, parsed: what to hash and what to find. */
typedef struct check_entry {
    char *name; /* NULL: an improperly formatted line; the expected digest follows the name */
    uint8_t *expect;
    size_t outlen;
    kiln_hash_algo algo;
    uint64_t lineno;
} check_entry;

typedef struct check_list {
    const char *path;
    char *shown_path; /* as messages show it */
    int algo_given, length_given, warn, strict;
    size_t length;
    int sep; /* CHECK_SEP_*: the list's digest/name separator */
    size_t bad, good, untagged; /* untagged: lines without a tag while no --algo was given */
    /* entries held for the device decision */
    check_entry *held;
    size_t n;
    uint64_t held_bytes, small;
} check_list;

/* Parses one line into *e. 0, or 1 for a line to skip (empty, comment). */
static int parse_entry(hash_run *r, check_list *cl, char *line, size_t len, check_entry *e)
{
    check_line c;
    e->name = NULL;
    int st = line ? check_line_parse(line, len, &cl->sep, &c) : CHECK_LINE_BAD;
    if (st == CHECK_LINE_SKIP) return 1;
    if (st != CHECK_LINE_OK) return 0;
    int algo = (int)r->algo;
    size_t tag_len = 0, outlen = c.hex_len / 2;
    if (c.tag) {
        /* a tag names the algorithm: it must be --algo's, or it chooses (as cksum -c does); b2sum's
         * "BLAKE2b-256" also the digest length */
        algo = hash_tag_algo_len(c.tag, c.tag_len, &tag_len);
        if (algo < 0 || (cl->algo_given && algo != (int)r->algo)) return 0;
    } else if (!cl->algo_given) {
        cl->untagged++;
        return 0;
    }
    if (kiln_hash_is_xof((kiln_hash_algo)algo)) {
        if (cl->length_given ? outlen != cl->length : outlen > HASH_MAX_LENGTH) return 0;
    } else if (tag_len ? outlen != tag_len
                       : outlen != kiln_hash_digest_len((kiln_hash_algo)algo) &&
                             (c.tag || !hash_digest_len_ok((kiln_hash_algo)algo, outlen))) {
        /* a tag without a length is the default digest; an untagged line of an algorithm with
         * digest lengths is of any length it takes, as b2sum -c reads them (--length or not) */
        return 0;
    }
    size_t name_len = strlen(c.name);
    e->name = must_alloc(r->cmd, name_len + 1 + outlen);
    memcpy(e->name, c.name, name_len + 1);
    e->expect = (uint8_t *)e->name + name_len + 1;
    hex_to_bytes(c.hex, outlen, e->expect);
    e->outlen = outlen;
    e->algo = (kiln_hash_algo)algo;
    return 0;
}

/* Checks one entry: hashes its file, or says its line was improperly formatted. */
static void check_entry_run(hash_run *r, check_list *cl, check_entry *e)
{
    if (!e->name) {
        cl->bad++;
        if (cl->warn && !r->status) {
            fflush(stdout);
            progress_clear();
            /* sha256sum -c -w's words: "list: 7: improperly formatted SHA256 checksum line", the
             * algorithm named by its tag */
            fprintf(stderr, "kiln %s: %s: %llu: improperly formatted %s%schecksum line\n", r->cmd, cl->shown_path,
                    (unsigned long long)e->lineno, cl->algo_given ? hash_tag_name(r->algo) : "",
                    cl->algo_given ? " " : "");
        }
        return;
    }
    cl->good++;
    if (!r->stopped) hash_input(r, e->name, e->algo, e->expect, e->outlen);
    free(e->name);
}

/* Checks the held entries, on the GPU when their small files weigh enough. */
static void run_held(hash_run *r, check_list *cl, kiln_ctx *ctx)
{
    flush(r); /* the batch on its thread uses ctx: done with before ctx is asked anything */
    r->gpu = pick_gpu(ctx, cl->small);
    for (size_t i = 0; i < cl->n; i++) check_entry_run(r, cl, &cl->held[i]);
    flush(r);
    cl->n = 0;
    cl->held_bytes = cl->small = 0;
}

/* The list's summary and exit code, as sha256sum -c words it (--status: the code only). */
static int check_summary(hash_run *r, check_list *cl, int read_err)
{
    fflush(stdout);
    progress_end();
    const char *algo = cl->algo_given ? kiln_hash_algo_name(r->algo) : "";
    if (read_err) {
        name_error(r->cmd, cl->path, strerror(read_err));
    } else if (cl->good == 0) {
        return cli_error(EXIT_USAGE, r->cmd, "%s: no properly formatted %s%schecksum lines found%s", cl->shown_path,
                         algo, cl->algo_given ? " " : "",
                         cl->untagged ? " (lines without an algorithm tag need --algo)" : "");
    }
    /* --ignore-missing and every listed file missing: nothing was verified, a failure */
    int none = !read_err && r->ok + r->mismatched + r->unreadable == 0;
    int code = read_err ? EXIT_USAGE
               : r->unreadable || r->mismatched || (cl->strict && cl->bad) || none ? EXIT_NOT_FOUND
                                                                                    : EXIT_OK;
    if (r->status) return code;
    if (none) return cli_error(EXIT_NOT_FOUND, r->cmd, "%s: no file was verified", cl->shown_path);
    if (cl->bad)
        cli_error(0, r->cmd, "WARNING: %zu line%s improperly formatted", cl->bad, cl->bad == 1 ? " is" : "s are");
    if (r->unreadable)
        cli_error(0, r->cmd, "WARNING: %zu listed file%s could not be read", r->unreadable,
                  r->unreadable == 1 ? "" : "s");
    if (r->mismatched)
        cli_error(0, r->cmd, "WARNING: %zu computed checksum%s did NOT match", r->mismatched,
                  r->mismatched == 1 ? "" : "s");
    return code;
}

static int run_check(hash_run *r, check_list *cl, kiln_ctx *ctx)
{
    r->ok = r->mismatched = r->unreadable = r->missing = 0; /* each list has its own summary */
    int is_stdin = strcmp(cl->path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(cl->path, O_RDONLY);
    if (fd < 0 && cli_interrupted()) return cli_interrupt_exit(r->cmd);
    if (fd < 0) {
        name_error(r->cmd, cl->path, strerror(errno));
        return EXIT_USAGE;
    }
    line_reader lr;
    if (line_reader_init(&lr, fd, HASH_LINE_MAX) != 0) return cli_error(EXIT_DEVICE, r->cmd, "out of memory");
    /* only an auto device with a GPU weighs the files: otherwise each line is checked as read */
    int weigh = kiln_ctx_pick(ctx, KILN_KIND_HASH, 0) != kiln_ctx_pick(ctx, KILN_KIND_HASH, UINT64_MAX);
    if (weigh) cl->held = must_alloc(r->cmd, WINDOW_ENTRIES * sizeof *cl->held);
    check_entry one;
    int read_err = 0;
    r->gpu = pick_gpu(ctx, 0);
    cl->shown_path = shown(r->cmd, cl->path);
    for (;;) {
        /* a list that never blocks (/dev/urandom) gets no EINTR: the flag is looked at every line */
        if (cli_interrupted()) r->stopped = 1;
        if (r->stopped) break;
        char *line = NULL;
        size_t len = 0;
        int got = line_reader_next(&lr, &line, &len);
        if (got == LINE_ERROR && errno == EINTR) continue; /* the loop's top looks at the flag */
        if (got == LINE_ERROR) read_err = errno;
        if (got == LINE_ERROR || got == LINE_END) break;
        check_entry *e = weigh ? &cl->held[cl->n] : &one;
        if (parse_entry(r, cl, got == LINE_OK ? line : NULL, len, e) != 0) continue;
        e->lineno = lr.lineno;
        if (!weigh) {
            check_entry_run(r, cl, e);
            continue;
        }
        if (e->name) cl->small += small_size(e->name);
        cl->held_bytes += sizeof *e + (e->name ? strlen(e->name) + 1 + e->outlen : 0);
        if (++cl->n == WINDOW_ENTRIES || cl->held_bytes >= WINDOW_BYTES) run_held(r, cl, ctx);
    }
    if (r->stopped) { /* entries held are dropped unchecked */
        for (size_t i = 0; i < cl->n; i++) free(cl->held[i].name);
        cl->n = 0;
    }
    run_held(r, cl, ctx);
    free(cl->held);
    line_reader_free(&lr);
    if (!is_stdin) close(fd);
    int code = r->stopped ? cli_interrupt_exit(r->cmd) : check_summary(r, cl, read_err);
    free(cl->shown_path);
    r->all_ok += r->ok;
    r->all_mismatched += r->mismatched;
    r->all_unreadable += r->unreadable;
    r->all_bad += cl->bad;
    return code;
}

/* Appends name to a list written "A, B and C": *last holds the previous name, written once the
 * next one shows it is not the last. */
static void list_add(char *list, size_t size, const char **last, const char *name)
{
    size_t used = strlen(list);
    if (*last) snprintf(list + used, size - used, "%s%s", used ? ", " : "", *last);
    *last = name;
}

static void list_end(char *list, size_t size, const char *last)
{
    size_t used = strlen(list);
    snprintf(list + used, size - used, "%s%s", used ? " and " : "", last ? last : "none");
}

/* "--length applies to A, B and C (bytes) and D and E (bits) only": the registry's extendable-output
 * hashes and those with digest lengths of their own (b2sum's -l). */
static int length_error(const char *cmd, const char *algo)
{
    char xofs[256] = "", bits[256] = "";
    const char *last_xof = NULL, *last_bits = NULL;
    for (size_t i = 0; i < kiln_workload_count(); i++) {
        const kiln_workload *w = kiln_workload_at(i);
        if (!(w->kinds & KILN_KIND_HASH)) continue;
        kiln_hash_algo a = (kiln_hash_algo)w->hash_algo;
        if (kiln_hash_is_xof(a)) list_add(xofs, sizeof xofs, &last_xof, w->name);
        else if (hash_digest_len_ok(a, 1)) list_add(bits, sizeof bits, &last_bits, w->name);
    }
    list_end(xofs, sizeof xofs, last_xof);
    list_end(bits, sizeof bits, last_bits);
    return cli_error(EXIT_USAGE, cmd, "--length applies to %s (bytes) and %s (bits) only, not %s", xofs, bits, algo);
}

/* --keyed: the key, exactly key_len raw bytes from stdin as b3sum --keyed reads it. 0, or an
 * exit code. */
static int read_key(const char *cmd, uint8_t *key, size_t key_len)
{
    size_t got = 0;
    while (got <= key_len) {
        uint8_t extra;
        ssize_t k = got < key_len ? read(STDIN_FILENO, key + got, key_len - got) : read(STDIN_FILENO, &extra, 1);
        if (k < 0 && errno == EINTR && !cli_interrupted()) continue;
        if (k < 0 && cli_interrupted()) return cli_interrupt_exit(cmd);
        if (k < 0) return cli_error(EXIT_USAGE, cmd, "--keyed: reading the key from stdin: %s", strerror(errno));
        if (k == 0) break;
        got += (size_t)k;
    }
    if (got != key_len)
        return cli_error(EXIT_USAGE, cmd, "--keyed: expected %zu key bytes from stdin, found %s%zu", key_len,
                         got > key_len ? "more than " : "", got > key_len ? key_len : got);
    return 0;
}

/* Whether binary mode is the last asked for in argv: GNU's last of -b/--binary, -t/--text and
 * --tag (which sets binary mode) wins; argv's options only, up to "--". */
static int binary_last(int argc, char **argv)
{
    int binary = 0;
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "-b") == 0 || strcmp(argv[i], "--binary") == 0 || strcmp(argv[i], "--tag") == 0) binary = 1;
        if (strcmp(argv[i], "-t") == 0 || strcmp(argv[i], "--text") == 0) binary = 0;
    }
    return binary;
}

int cmd_hash(int argc, char **argv)
{
    const char *cmd = "hash", *algo_s = NULL, *device = "auto";
    uint64_t length = 0;
    int tag = 0, warn = 0, check = 0, status = 0, strict = 0, ignore_missing = 0, zero = 0, binary = 0, text = 0;
    int keyed = 0;
    const char *derive = NULL;
    uint8_t key[32] = {0}; /* read from stdin after the probe below */
    kiln_hash_params params;
    memset(&params, 0, sizeof params);
    cli_output out = {0, 0, 0};
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    if (!files) return cli_error(EXIT_DEVICE, cmd, "out of memory");
    cli_option opts[] = {
        {"--algo", OPT_ALGO, &algo_s, "A", "the hash (required, except that --check can take it from tagged lines)",
         .kinds = KILN_KIND_HASH, .short_name = 'a'},
        {"--length", OPT_U64, &length, "N",
         "output bytes of an extendable-output (SHAKE) hash (default twice its security level); for blake2b and "
         "blake2s the digest length in bits, a multiple of 8, as b2sum -l",
         .lo = 1, .hi = HASH_MAX_LENGTH, .short_name = 'l'},
        {"--binary", OPT_FLAG, &binary, NULL,
         "mark the lines '<hex> *<name>', as sha256sum -b (the digest is the same: files are read as bytes, as GNU does "
         "on Linux)",
         .modes = DIGESTS, .short_name = 'b'},
        {"--text", OPT_FLAG, &text, NULL, "'<hex>  <name>' lines, the default (sha256sum -t); of -b and -t the last wins",
         .modes = DIGESTS, .short_name = 't'},
        {"--tag", OPT_FLAG, &tag, NULL, "print BSD-style 'TAG (<name>) = <hex>' lines, as sha256sum --tag", .modes = DIGESTS},
        {"--zero", OPT_FLAG, &zero, NULL, "end each digest line with NUL, not newline, and leave names unescaped (sha256sum -z)",
         .modes = DIGESTS, .short_name = 'z'},
        {"--keyed", OPT_FLAG, &keyed, NULL,
         "keyed hashing (blake3): the 32-byte key is read raw from stdin, as b3sum --keyed reads it", .modes = DIGESTS},
        {"--derive-key", OPT_STR, &derive, "CONTEXT",
         "key derivation (blake3): the FILEs are key material for this context string, as b3sum --derive-key",
         .modes = DIGESTS},
        {"--check", OPT_FLAG, &check, NULL,
         "the FILEs are lists to verify ('<hex>  <name>' and 'TAG (<name>) = <hex>' lines; none: stdin), printing "
         "'<name>: OK' (not with --quiet) or '<name>: FAILED'",
         .modes = 0, .short_name = 'c'},
        {"--warn", OPT_FLAG, &warn, NULL, "name each improperly formatted line of a --check list", .modes = CHECKS,
         .short_name = 'w'},
        {"--strict", OPT_FLAG, &strict, NULL, "exit 1 when a --check list has an improperly formatted line", .modes = CHECKS},
        {"--status", OPT_FLAG, &status, NULL, "print no verdict and no warning: the exit status tells (errors still on stderr)",
         .modes = CHECKS},
        {"--ignore-missing", OPT_FLAG, &ignore_missing, NULL,
         "a listed file that does not exist is neither reported nor a failure (a list with no file verified fails)",
         .modes = CHECKS},
        CLI_OPT_DEVICE(&device, CLI_DEVICE_VALUES, "cuda hashes files of up to 1 MiB in GPU batches; auto does so when they "
                       "hold 256 MiB; opencl:I, opencl:I,J or opencl:all for OpenCL devices (docs/OPENCL.md)", 0),
        CLI_OPT_JSON(&out, 0),
        CLI_OPT_PROGRESS(&out, 0),
    };
    cli_command c = CLI_COMMAND(cmd, "--algo A [options] [FILE...]  |  --check [--algo A] [options] [LIST...]",
                                "Prints '<hex>  <name>' per input; no FILE or '-' reads stdin; '--' ends the options.\n"
                                "A FILE that cannot be read is reported and the others hashed (exit 2); a file of a\n"
                                "--check list that cannot be read is a failed check (exit 1), as with sha256sum -c.\n"
                                "Several lists are checked one after the other, each with its own warnings.\n",
                                opts);
    c.pos = files;
    c.max_pos = (size_t)argc;
    hash_run r;
    memset(&r, 0, sizeof r);
    r.cmd = cmd;
    const kiln_workload *w = NULL;
    int code = cli_parse(&c, argc, argv);
    size_t nfiles = c.npos;
    if (code == 0 && check && (binary || text)) /* sha256sum's words */
        code = cli_error(EXIT_USAGE, cmd, "the --binary and --text options are meaningless when verifying checksums");
    if (code == 0) code = cli_check_mode(&c, check ? CHECKS : DIGESTS, check ? "--check" : "computing digests");
    if (code == 0 && tag && !binary_last(argc, argv)) code = cli_error(EXIT_USAGE, cmd, "--tag does not support --text mode");
    if (code == 0) code = cli_output_start(&c, &out);
    if (code == 0) code = cli_exclusive(&c, "--tag", "--json");
    if (code == 0) code = cli_exclusive(&c, "--zero", "--json");
    if (code == 0) code = cli_exclusive(&c, "--status", "--json");
    if (code == 0 && !algo_s && (!check || length)) {
        char list[1024];
        kiln_workload_list(KILN_KIND_HASH, 0, list, sizeof list);
        code = cli_error(EXIT_USAGE, cmd, "--algo is required%s (%s)", check ? " with --length" : "", list);
    }
    if (code == 0 && algo_s) w = cli_workload(cmd, algo_s, KILN_KIND_HASH, &code);
    if (w) r.algo = (kiln_hash_algo)w->hash_algo;
    int length_bits = w && !kiln_hash_is_xof(r.algo) && hash_digest_len_ok(r.algo, 1);
    if (w && length && !kiln_hash_is_xof(r.algo) && !length_bits) code = length_error(cmd, algo_s);
    if (code == 0 && length_bits && length && (length % 8 || !hash_digest_len_ok(r.algo, (size_t)length / 8)))
        code = cli_error(EXIT_USAGE, cmd, "--length for %s is in bits: a multiple of 8 from 8 to %zu, not %llu", algo_s,
                         8 * kiln_hash_digest_len(r.algo), (unsigned long long)length);
    if (code == 0 && (keyed || derive)) code = cli_exclusive(&c, "--keyed", "--derive-key");
    if (code == 0 && w && (keyed || derive)) {
        /* the algorithm's own check of the parameters: one that takes no key or context refuses */
        kiln_hash_stream probe;
        params.key = keyed ? key : NULL;
        params.key_len = keyed ? sizeof key : 0;
        params.context = derive;
        params.context_len = derive ? strlen(derive) : 0;
        if (kiln_hash_init_params(&probe, r.algo, &params) != KILN_OK)
            code = cli_error(EXIT_USAGE, cmd, "%s does not apply to %s", keyed ? "--keyed" : "--derive-key", algo_s);
        else if (keyed)
            code = read_key(cmd, key, sizeof key);
        r.params = &params;
    }
    kiln_ctx *ctx = code == 0 ? cli_open(cmd, device, 0, &code) : NULL;
    if (!ctx) {
        free(files);
        return json_end(code == CLI_HELP ? EXIT_OK : code);
    }
    /* no progress_attach: GPU batches are hashed on a thread while the main thread reads the next
     * files and draws the line (show_progress), which the library's reports would race with */
    r.check = check;
    r.tag = tag;
    r.json = out.json;
    r.quiet = out.quiet;
    r.status = status;
    r.ignore_missing = ignore_missing;
    r.zero = zero;
    r.binary = binary && binary_last(argc, argv);
    r.t0 = cli_now();
    if (nfiles == 0) files[nfiles++] = "-";
    json_object(NULL);
    if (check) {
        json_str("check", files[0]);
        json_array("lists");
        for (size_t i = 0; i < nfiles; i++) json_str(NULL, files[i]);
        json_close();
        json_array("files");
        code = EXIT_OK;
        for (size_t i = 0; i < nfiles && !r.stopped; i++) {
            /* as sha256sum -c A B: each list checked and summed up; the worst outcome is the exit */
            check_list cl = {.path = files[i], .algo_given = w != NULL, .length_given = length != 0, .warn = warn,
                             .strict = strict, .length = (size_t)length, .sep = CHECK_SEP_UNKNOWN};
            int one = run_check(&r, &cl, ctx);
            if (r.stopped || one > code) code = one;
        }
        json_close();
        json_u64("matched", r.all_ok);
        json_u64("mismatched", r.all_mismatched);
        json_u64("unreadable", r.all_unreadable);
        json_u64("improperly_formatted", r.all_bad);
    } else {
        size_t outlen = !length ? kiln_hash_digest_len(r.algo) : length_bits ? (size_t)length / 8 : (size_t)length;
        uint64_t small = 0;
        for (size_t i = 0; i < nfiles; i++) small += small_size(files[i]);
        r.count = nfiles;
        for (size_t i = 0; i < nfiles; i++) r.all_total += regular_size(files[i]);
        r.gpu = r.params ? NULL : pick_gpu(ctx, small); /* the GPU batches take no parameters */
        json_str("algo", kiln_hash_algo_name(r.algo));
        json_u64("length", outlen);
        json_array("files");
        for (size_t i = 0; i < nfiles && !r.stopped; i++) hash_input(&r, files[i], r.algo, NULL, outlen);
        flush(&r);
        progress_end();
        json_close();
        json_u64("unreadable", r.unreadable);
        code = r.stopped ? cli_interrupt_exit(cmd) : r.unreadable ? EXIT_USAGE : EXIT_OK;
    }
    progress_end();
    free(r.b.items);
    free(r.b.data);
    free(r.fly.items);
    free(r.fly.data);
    kiln_ctx_free(ctx);
    free(files);
    return json_end(code);
}
