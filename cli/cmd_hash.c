/* kiln hash: sha256sum/sha3sum-style digests of files and stdin, and --check of such lists.
 *
 * Each input is streamed on the CPU in constant memory, except that when the device policy
 * (kiln_ctx_pick for the bytes of the small files) puts the work on a GPU, regular files of at most SMALL_FILE bytes are read whole and hashed in batches on the GPU. Results are
 * printed in input order either way. Unreadable inputs are reported by name on stderr and the
 * rest are still hashed; the exit status is then 1, as with sha256sum. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "hash_lines.h"
#include "opts.h"

#define SMALL_FILE (1u << 20)
#define BATCH_BYTES (64u << 20)
#define BATCH_FILES 65536
#define MAX_LENGTH (1u << 20)
#define CHUNK (1u << 16)

typedef struct item {
    char *name;
    uint64_t off, len; /* in the batch buffer */
    uint8_t *expect; /* check mode: the listed digest (outlen bytes) */
} item;

typedef struct hash_run {
    const char *cmd;
    kiln_hash_algo algo;
    int check; /* --check mode */
    kiln_ctx *gpu; /* NULL: everything on the CPU */
    /* the pending GPU batch, all with the same output length */
    item *items;
    size_t n, cap;
    uint8_t *data;
    uint64_t bytes, data_cap;
    size_t outlen;
    /* tallies */
    size_t unreadable, mismatched, ok;
} hash_run;

static void report_open_error(hash_run *r, const char *name, int err)
{
    fflush(stdout);
    fprintf(stderr, "kiln %s: %s: %s\n", r->cmd, name, strerror(err));
    if (r->check) printf("%s: FAILED open or read\n", name);
    r->unreadable++;
}

/* Prints one result: the digest line, or the --check verdict. */
static void emit(hash_run *r, const char *name, const uint8_t *digest, size_t outlen, const uint8_t *expect)
{
    if (r->check) {
        int same = memcmp(digest, expect, outlen) == 0;
        printf("%s: %s\n", name, same ? "OK" : "FAILED");
        if (same) r->ok++;
        else r->mismatched++;
        return;
    }
    char *hex = malloc(2 * outlen + 1), line[4096];
    if (!hex) {
        fprintf(stderr, "kiln %s: out of memory\n", r->cmd);
        exit(EXIT_DEVICE);
    }
    kiln_hex_encode(digest, outlen, 0, hex);
    size_t need = hash_line_format(line, sizeof line, hex, name);
    if (need < sizeof line) {
        fputs(line, stdout);
    } else {
        char *big = malloc(need + 1);
        if (!big) exit(EXIT_DEVICE);
        hash_line_format(big, need + 1, hex, name);
        fputs(big, stdout);
        free(big);
    }
    free(hex);
}

/* Streams fd through the hash on the CPU, after `pre` bytes already read. 0, or an errno. */
static int stream_fd(hash_run *r, int fd, const uint8_t *pre, size_t pre_len, uint8_t *digest, size_t outlen)
{
    kiln_hash_stream s;
    kiln_hash_init(&s, r->algo);
    kiln_hash_update(&s, pre, pre_len);
    static uint8_t buf[CHUNK];
    for (;;) {
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return errno;
        if (got == 0) break;
        kiln_hash_update(&s, buf, (size_t)got);
    }
    kiln_hash_final(&s, digest, outlen);
    return 0;
}

static void free_items(hash_run *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->items[i].name);
        free(r->items[i].expect);
    }
    r->n = 0;
    r->bytes = 0;
}

/* Hashes and prints the pending batch on the GPU (on the CPU if the GPU fails). */
static void flush(hash_run *r)
{
    if (r->n == 0) return;
    uint64_t *offsets = malloc((r->n + 1) * sizeof *offsets);
    uint8_t *out = malloc(r->n * r->outlen);
    if (!offsets || !out) {
        fprintf(stderr, "kiln %s: out of memory\n", r->cmd);
        exit(EXIT_DEVICE);
    }
    for (size_t i = 0; i < r->n; i++) offsets[i] = r->items[i].off;
    offsets[r->n] = r->bytes;
    kiln_status st = kiln_hash_batch(r->gpu, r->algo, r->data, offsets, r->n, out, r->outlen);
    if (st != KILN_OK) {
        fprintf(stderr, "kiln %s: GPU batch failed (%s); hashing on the CPU\n", r->cmd, kiln_last_error(r->gpu));
        cli_device(r->cmd, r->gpu, "cpu", 0);
        kiln_hash_batch(r->gpu, r->algo, r->data, offsets, r->n, out, r->outlen);
    }
    for (size_t i = 0; i < r->n; i++)
        emit(r, r->items[i].name, out + i * r->outlen, r->outlen, r->items[i].expect);
    free(offsets);
    free(out);
    free_items(r);
}

/* Reads a whole small regular file into the batch. Returns 1 when queued, 0 when the file must
 * be streamed instead (it grew past SMALL_FILE: its first bytes are left in the batch buffer's
 * tail, at *pre), or -errno. */
static int queue_file(hash_run *r, int fd, uint64_t size, const char *name, const uint8_t *expect, size_t outlen,
                      uint64_t *pre)
{
    if (r->n && (r->outlen != outlen || r->n == BATCH_FILES || r->bytes + size > BATCH_BYTES)) flush(r);
    if (r->data_cap < r->bytes + SMALL_FILE + 1) {
        uint64_t cap = r->bytes + SMALL_FILE + 1 > 2 * r->data_cap ? r->bytes + SMALL_FILE + 1 : 2 * r->data_cap;
        uint8_t *d = realloc(r->data, cap);
        if (!d) return -ENOMEM;
        r->data = d;
        r->data_cap = cap;
    }
    uint64_t got = 0;
    while (got <= SMALL_FILE) {
        ssize_t k = read(fd, r->data + r->bytes + got, SMALL_FILE + 1 - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -errno;
        if (k == 0) break;
        got += (uint64_t)k;
    }
    if (got > SMALL_FILE) {
        *pre = got;
        return 0;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 1024;
        item *it = realloc(r->items, cap * sizeof *it);
        if (!it) return -ENOMEM;
        r->items = it;
        r->cap = cap;
    }
    item *it = &r->items[r->n];
    it->name = strdup(name);
    it->expect = NULL;
    if (expect) {
        it->expect = malloc(outlen);
        if (it->expect) memcpy(it->expect, expect, outlen);
    }
    if (!it->name || (expect && !it->expect)) return -ENOMEM;
    it->off = r->bytes;
    it->len = got;
    r->bytes += got;
    r->outlen = outlen;
    r->n++;
    return 1;
}

/* Hashes one named input ("-" is stdin) and prints its result, or reports it unreadable. */
static void hash_input(hash_run *r, const char *name, const uint8_t *expect, size_t outlen)
{
    int is_stdin = strcmp(name, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(name, O_RDONLY);
    if (fd < 0) {
        flush(r);
        report_open_error(r, name, errno);
        return;
    }
    struct stat sb;
    int small = !is_stdin && r->gpu && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size <= SMALL_FILE;
    uint64_t pre = 0;
    int err = 0;
    if (small) {
        int q = queue_file(r, fd, (uint64_t)sb.st_size, name, expect, outlen, &pre);
        if (q == 1) {
            close(fd);
            return;
        }
        if (q < 0) err = -q;
    }
    uint8_t *digest = malloc(outlen);
    if (!digest) err = ENOMEM;
    if (!err) {
        /* a file that grew past the batch limit keeps its first bytes, read already */
        uint8_t *prefix = pre ? r->data + r->bytes : NULL;
        uint8_t *copy = NULL;
        if (pre) {
            copy = malloc(pre);
            if (copy) memcpy(copy, prefix, pre);
            else err = ENOMEM;
        }
        flush(r);
        if (!err) err = stream_fd(r, fd, copy, pre, digest, outlen);
        free(copy);
    } else {
        flush(r);
    }
    if (!is_stdin) close(fd);
    if (err) report_open_error(r, name, err);
    else emit(r, name, digest, outlen, expect);
    free(digest);
}

/* Whole text of a file or stdin, NUL-terminated; NULL with errno set on failure. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (n < cap) break;
        cap *= 2;
        char *b = realloc(buf, cap + 1);
        if (!b) free(buf);
        buf = b;
    }
    int bad = ferror(f);
    if (f != stdin) fclose(f);
    if (!buf || bad) {
        free(buf);
        errno = bad ? EIO : ENOMEM;
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Bytes of the regular files of at most SMALL_FILE bytes among names (stdin and unreadable
 * names count nothing): what a GPU batch would hash. */
static uint64_t small_bytes(const char *const *names, size_t n, size_t stride)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = *(const char *const *)((const char *)names + i * stride);
        struct stat sb;
        if (name && strcmp(name, "-") != 0 && stat(name, &sb) == 0 && S_ISREG(sb.st_mode) &&
            (uint64_t)sb.st_size <= SMALL_FILE)
            sum += (uint64_t)sb.st_size;
    }
    return sum;
}

/* The context when this run should batch small files on the GPU, else NULL (CPU streaming): the
 * device policy's choice for a hash batch of the small files' bytes. */
static kiln_ctx *pick_gpu(kiln_ctx *ctx, uint64_t bytes)
{
    return kiln_ctx_pick(ctx, KILN_KIND_HASH, bytes) == KILN_BACKEND_CUDA ? ctx : NULL;
}

typedef struct check_entry {
    const char *name; /* NULL: improperly formatted line */
    const char *hex;
    size_t outlen, lineno;
} check_entry;

static int run_check(hash_run *r, const char *list, size_t length, int length_given, kiln_ctx *ctx)
{
    size_t len;
    char *text = slurp(list, &len);
    if (!text) return cli_error(EXIT_NOT_FOUND, r->cmd, "%s: %s", list, strerror(errno));
    size_t cap = 1;
    for (size_t i = 0; i < len; i++) cap += text[i] == '\n';
    check_entry *ents = calloc(cap, sizeof *ents);
    size_t max_out = kiln_hash_is_xof(r->algo) ? MAX_LENGTH : kiln_hash_digest_len(r->algo), n = 0, bad = 0;
    uint8_t *expect = malloc(max_out);
    if (!ents || !expect) return cli_error(EXIT_DEVICE, r->cmd, "out of memory");
    /* parse every line first: the GPU decision needs the listed files' sizes */
    for (char *line = text; line < text + len && n < cap; n++) {
        char *nl = memchr(line, '\n', (size_t)(text + len - line));
        char *next = nl ? nl + 1 : text + len;
        if (nl) *nl = '\0';
        check_line c;
        check_entry *e = &ents[n];
        e->lineno = n + 1;
        int ok = strlen(line) == (size_t)((nl ? nl : text + len) - line) && check_line_parse(line, &c) == 0;
        if (ok) {
            e->outlen = c.hex_len / 2;
            if (kiln_hash_is_xof(r->algo)) ok = length_given ? e->outlen == length : e->outlen <= MAX_LENGTH;
            else ok = e->outlen == kiln_hash_digest_len(r->algo);
        }
        if (ok) ok = hex_to_bytes(c.hex, e->outlen, expect) == 0;
        if (ok) {
            e->name = c.name;
            e->hex = c.hex;
        }
        line = next;
    }
    r->gpu = pick_gpu(ctx, small_bytes(&ents[0].name, n, sizeof *ents));
    for (size_t i = 0; i < n; i++) {
        check_entry *e = &ents[i];
        if (!e->name) {
            fflush(stdout);
            fprintf(stderr, "kiln %s: %s:%zu: improperly formatted %s checksum line\n", r->cmd, list, e->lineno,
                    kiln_hash_algo_name(r->algo));
            bad++;
            continue;
        }
        hex_to_bytes(e->hex, e->outlen, expect);
        hash_input(r, e->name, expect, e->outlen);
    }
    flush(r);
    free(expect);
    free(ents);
    free(text);
    fflush(stdout);
    if (bad == n) return cli_error(EXIT_USAGE, r->cmd, "%s: no properly formatted %s checksum lines found", list,
                                   kiln_hash_algo_name(r->algo));
    if (bad)
        fprintf(stderr, "kiln %s: WARNING: %zu line%s improperly formatted\n", r->cmd, bad, bad == 1 ? " is" : "s are");
    if (r->unreadable)
        fprintf(stderr, "kiln %s: WARNING: %zu listed file%s could not be read\n", r->cmd, r->unreadable,
                r->unreadable == 1 ? "" : "s");
    if (r->mismatched)
        fprintf(stderr, "kiln %s: WARNING: %zu computed checksum%s did NOT match\n", r->cmd, r->mismatched,
                r->mismatched == 1 ? "" : "s");
    return r->unreadable || r->mismatched ? EXIT_NOT_FOUND : EXIT_OK;
}

/* "--length applies to A and B only": the registry's extendable-output hashes. */
static int length_error(const char *cmd, const char *algo)
{
    char xofs[256] = "";
    for (size_t i = 0; i < kiln_workload_count(); i++) {
        const kiln_workload *w = kiln_workload_at(i);
        size_t used = strlen(xofs);
        if ((w->kinds & KILN_KIND_HASH) && kiln_hash_is_xof((kiln_hash_algo)w->hash_algo))
            snprintf(xofs + used, sizeof xofs - used, "%s%s", used ? " and " : "", w->name);
    }
    return cli_error(EXIT_USAGE, cmd, "--length applies to %s only, not %s", xofs, algo);
}

int cmd_hash(int argc, char **argv)
{
    const char *cmd = "hash", *algo_s = NULL, *check = NULL, *device = "auto";
    uint64_t length = 0;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    if (!files) return cli_error(EXIT_DEVICE, cmd, "out of memory");
    cli_option opts[] = {
        {"--algo", OPT_ALGO, &algo_s, "A", "the hash (required)", .kinds = KILN_KIND_HASH},
        {"--length", OPT_U64, &length, "N", "output bytes of an extendable-output (SHAKE) hash (default twice its security level)", .lo = 1,
         .hi = MAX_LENGTH},
        {"--check", OPT_STR, &check, "LIST", "verify '<hex>  <name>' lines, printing '<name>: OK' or '<name>: FAILED'", .modes = 0},
        {"--device", OPT_DEVICE, &device, "auto|cpu|cuda|cuda:I",
         "cuda hashes files of up to 1 MiB in GPU batches; auto does so when they hold 256 MiB", .modes = 0},
    };
    cli_command c = CLI_COMMAND(cmd, "--algo A [options] [FILE...]",
                                "Prints '<hex>  <name>' per input; no FILE or '-' reads stdin; '--' ends the options.\n",
                                opts);
    c.pos = files;
    c.max_pos = (size_t)argc;
    hash_run r;
    memset(&r, 0, sizeof r);
    r.cmd = cmd;
    const kiln_workload *w = NULL;
    int code = cli_parse(&c, argc, argv);
    size_t nfiles = c.npos;
    if (code == 0 && !algo_s) {
        char list[1024];
        kiln_workload_list(KILN_KIND_HASH, 0, list, sizeof list);
        code = cli_error(EXIT_USAGE, cmd, "--algo is required (%s)", list);
    }
    if (code == 0) w = cli_workload(cmd, algo_s, KILN_KIND_HASH, &code);
    if (w) r.algo = (kiln_hash_algo)w->hash_algo;
    if (w && length && !kiln_hash_is_xof(r.algo))
        code = length_error(cmd, algo_s);
    else if (w && check && nfiles)
        code = cli_error(EXIT_USAGE, cmd, "--check takes the list to verify, not further FILE arguments");
    kiln_ctx *ctx = code == 0 ? cli_open(cmd, device, 0, &code) : NULL;
    if (!ctx) {
        free(files);
        return code == CLI_HELP ? EXIT_OK : code;
    }
    r.check = check != NULL;
    size_t outlen = length ? (size_t)length : kiln_hash_digest_len(r.algo);
    if (check) {
        code = run_check(&r, check, outlen, length != 0, ctx);
    } else {
        r.gpu = pick_gpu(ctx, small_bytes(files, nfiles, sizeof *files));
        if (nfiles == 0) files[nfiles++] = "-";
        for (size_t i = 0; i < nfiles; i++) hash_input(&r, files[i], NULL, outlen);
        flush(&r);
        code = r.unreadable ? EXIT_NOT_FOUND : EXIT_OK;
    }
    free(r.items);
    free(r.data);
    kiln_ctx_free(ctx);
    free(files);
    return code;
}
