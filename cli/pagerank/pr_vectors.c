/* Vector files of `kiln pagerank`: see pr_vectors.h for the format. */
#include "pr_vectors.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cli.h"
#include "common/interrupt.h"

enum { LINE_OK, LINE_EOF, LINE_LONG, LINE_ERROR };

/* One line without its LF into buf (cap bytes, NUL-terminated), *len its length (a NUL byte in
 * it counts, so the parser can refuse it). A line longer than cap - 1 bytes is LINE_LONG at
 * once, without reading the rest. */
static int read_line(FILE *f, char *buf, size_t cap, size_t *len)
{
    size_t n = 0;
    int c;
    while ((c = getc_unlocked(f)) != EOF && c != '\n') {
        if (n + 1 >= cap) return LINE_LONG;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    *len = n;
    if (c == EOF) {
        if (ferror(f)) return LINE_ERROR;
        if (n == 0) return LINE_EOF;
    }
    return LINE_OK;
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* A decimal node id: digits only, at most 2^64 - 1. */
static int parse_id(const char *s, size_t len, uint64_t *out)
{
    if (len == 0) return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* A decimal number ([+-]digits[.digits][e[+-]digits]): no hex, inf or nan, nothing around it,
 * nothing past the largest double (underflow to a subnormal or 0 is the value it rounds to). */
static int parse_value(const char *s, size_t len, double *out)
{
    if (len == 0 || len > 400) return -1;
    char tmp[401];
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) return -1;
        tmp[i] = c;
    }
    tmp[len] = '\0';
    char *end;
    errno = 0;
    double v = strtod(tmp, &end);
    if (end != tmp + len || !isfinite(v) || (errno == ERANGE && fabs(v) > 1)) return -1;
    *out = v;
    return 0;
}

typedef struct vec_file {
    const char *cmd, *path, *what;
    const kiln_graph *g;
    double *x; /* -1: not listed yet */
    unsigned long long line;
} vec_file;

/* One line: 0, or the exit code after the message. */
static int take_line(vec_file *v, const char *p, size_t len)
{
    if (len && p[len - 1] == '\r') len--;
    if (strlen(p) < len) return cli_error(EXIT_USAGE, v->cmd, "%s:%llu: a NUL byte", v->path, v->line);
    size_t i = 0;
    while (i < len && is_blank(p[i])) i++;
    if (i == len || p[i] == '#') return 0;
    size_t id0 = i;
    while (i < len && !is_blank(p[i])) i++;
    size_t id1 = i;
    while (i < len && is_blank(p[i])) i++;
    size_t val0 = i;
    while (i < len && !is_blank(p[i])) i++;
    size_t val1 = i;
    while (i < len && is_blank(p[i])) i++;
    if (val0 == val1 || i != len)
        return cli_error(EXIT_USAGE, v->cmd, "%s:%llu: expected 'node<TAB>value'", v->path, v->line);
    uint64_t id, index;
    double value;
    if (parse_id(p + id0, id1 - id0, &id) != 0)
        return cli_error(EXIT_USAGE, v->cmd, "%s:%llu: bad node id '%.*s'", v->path, v->line, (int)(id1 - id0), p + id0);
    if (parse_value(p + val0, val1 - val0, &value) != 0)
        return cli_error(EXIT_USAGE, v->cmd, "%s:%llu: bad number '%.*s'", v->path, v->line, (int)(val1 - val0),
                         p + val0);
    if (value < 0)
        return cli_error(EXIT_USAGE, v->cmd, "%s:%llu: negative value %.*s for node %llu", v->path, v->line,
                         (int)(val1 - val0), p + val0, (unsigned long long)id);
    if (kiln_graph_find_node(v->g, id, &index) != KILN_OK)
        return cli_error(EXIT_USAGE, v->cmd, "%s:%llu: node %llu is not in the graph", v->path, v->line,
                         (unsigned long long)id);
    if (v->x[index] >= 0)
        return cli_error(EXIT_USAGE, v->cmd, "%s:%llu: node %llu is listed twice", v->path, v->line,
                         (unsigned long long)id);
    v->x[index] = value == 0 ? 0.0 : value; /* -0 becomes 0 */
    return 0;
}

/* Reads every line of f into v; 0 or the exit code. */
static int read_all(vec_file *v, FILE *f)
{
    char buf[PR_VECTOR_LINE_MAX + 2]; /* the line, a CR, the NUL */
    size_t len;
    for (;;) {
        if ((v->line & 0xFFFF) == 0 && cli_interrupted()) return cli_interrupt_exit(v->cmd);
        int r = read_line(f, buf, sizeof buf, &len);
        if (r == LINE_EOF) return 0;
        v->line++;
        if (r == LINE_ERROR) {
            if (errno == EINTR && cli_interrupted()) return cli_interrupt_exit(v->cmd);
            return cli_error(EXIT_DEVICE, v->cmd, "%s:%llu: read error: %s", v->path, v->line, strerror(errno));
        }
        if (r == LINE_LONG || (len == PR_VECTOR_LINE_MAX + 1 && buf[len - 1] != '\r'))
            return cli_error(EXIT_USAGE, v->cmd, "%s:%llu: longer than %d bytes", v->path, v->line, PR_VECTOR_LINE_MAX);
        int code = take_line(v, buf, len);
        if (code) return code;
    }
}

int pr_vector_read(const char *cmd, const char *path, const char *what, const kiln_graph *g, double **out)
{
    *out = NULL;
    kiln_graph_info info;
    kiln_graph_get_info(g, &info);
    vec_file v = {.cmd = cmd,
                  .path = path,
                  .what = what,
                  .g = g,
                  .x = malloc((info.nodes ? info.nodes : 1) * sizeof(double)),
                  .line = 0};
    if (!v.x) return cli_error(EXIT_DEVICE, cmd, "out of memory for the %s vector", what);
    for (uint64_t i = 0; i < info.nodes; i++) v.x[i] = -1;
    FILE *f;
    do f = fopen(path, "r");
    while (!f && errno == EINTR && !cli_interrupted());
    if (!f) {
        int e = errno;
        free(v.x);
        if (e == EINTR) return cli_interrupt_exit(cmd);
        return cli_error(EXIT_USAGE, cmd, "%s: %s", path, strerror(e));
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        free(v.x);
        return cli_error(EXIT_USAGE, cmd, "%s: is a directory", path);
    }
    flockfile(f);
    int code = read_all(&v, f);
    funlockfile(f);
    fclose(f);
    double sum = 0;
    for (uint64_t i = 0; i < info.nodes; i++) {
        if (v.x[i] < 0) v.x[i] = 0;
        sum += v.x[i];
    }
    if (!code && !(sum > 0))
        code = cli_error(EXIT_USAGE, cmd, "%s: the %s vector sums to 0 (no node has a positive value)", path, what);
    if (code) {
        free(v.x);
        return code;
    }
    *out = v.x;
    return 0;
}
