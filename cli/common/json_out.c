#include "json_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "interrupt.h"

#define MAX_DEPTH 16

static struct {
    int on, ended;
    int depth;
    struct {
        int array, count;
    } level[MAX_DEPTH];
    /* members of the document's own object that json_end must not write twice */
    int has_error, has_exit, has_interrupted, has_signal;
    char err[512];
} J;

void json_begin(void)
{
    memset(&J, 0, sizeof J);
    J.on = 1;
}

int json_on(void) { return J.on && !J.ended; }

/* The length of the UTF-8 sequence at s (1..4), or 0 when it is not one: overlong forms,
 * surrogates and code points past U+10FFFF are not UTF-8. */
static int utf8_len(const unsigned char *s)
{
    unsigned c = s[0];
    int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (n <= 1) return n;
    unsigned cp = c & (0x7f >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

static void put_string(const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    putchar('"');
    while (*s) {
        unsigned c = *s;
        int n = utf8_len(s);
        if (n == 0) { /* a byte that is not UTF-8: Python's surrogateescape */
            printf("\\udc%02x", c);
            s++;
        } else if (n > 1) {
            fwrite(s, 1, (size_t)n, stdout);
            s += n;
        } else {
            if (c == '"' || c == '\\') printf("\\%c", c);
            else if (c == '\n') fputs("\\n", stdout);
            else if (c == '\t') fputs("\\t", stdout);
            else if (c == '\r') fputs("\\r", stdout);
            else if (c < 0x20 || c == 0x7f) printf("\\u%04x", c);
            else putchar((int)c);
            s++;
        }
    }
    putchar('"');
}

/* The separator and key before a new member or element; 0 when nothing may be written. */
static int start(const char *key)
{
    if (!json_on() || J.depth == 0) return 0;
    if (J.level[J.depth - 1].count++) fputs(", ", stdout);
    if (key && !J.level[J.depth - 1].array) {
        put_string(key);
        fputs(": ", stdout);
        if (J.depth == 1) {
            J.has_error |= strcmp(key, "error") == 0;
            J.has_exit |= strcmp(key, "exit") == 0;
            J.has_interrupted |= strcmp(key, "interrupted") == 0;
            J.has_signal |= strcmp(key, "signal") == 0;
        }
    }
    return 1;
}

static void open_level(const char *key, int array)
{
    if (!json_on() || J.depth == MAX_DEPTH) return;
    if (J.depth > 0 && !start(key)) return;
    putchar(array ? '[' : '{');
    J.level[J.depth].array = array;
    J.level[J.depth].count = 0;
    J.depth++;
}

void json_object(const char *key) { open_level(key, 0); }
void json_array(const char *key) { open_level(key, 1); }

void json_close(void)
{
    if (!json_on() || J.depth <= 1) return;
    J.depth--;
    putchar(J.level[J.depth].array ? ']' : '}');
}

void json_str(const char *key, const char *s)
{
    if (!start(key)) return;
    if (s) put_string(s);
    else fputs("null", stdout);
}

void json_u64(const char *key, uint64_t v)
{
    if (start(key)) printf("%llu", (unsigned long long)v);
}

void json_int(const char *key, long long v)
{
    if (start(key)) printf("%lld", v);
}

void json_num(const char *key, double v, const char *fmt)
{
    if (!start(key)) return;
    if (isfinite(v)) printf(fmt, v);
    else fputs("null", stdout);
}

void json_bool(const char *key, int v)
{
    if (start(key)) fputs(v ? "true" : "false", stdout);
}

void json_null(const char *key)
{
    if (start(key)) fputs("null", stdout);
}

void json_raw(const char *members)
{
    if (!json_on() || J.depth == 0) return;
    if (!J.level[J.depth - 1].count && strncmp(members, ", ", 2) == 0) members += 2;
    if (*members) J.level[J.depth - 1].count++;
    fputs(members, stdout);
}

void json_note_error(const char *msg)
{
    if (J.on) snprintf(J.err, sizeof J.err, "%s", msg);
}

int json_end(int code)
{
    if (!json_on()) return code;
    const char *signal = cli_interrupt_name();
    if (J.depth == 0) {
        if (code == 0) { /* nothing to say: --help */
            J.ended = 1;
            return code;
        }
        json_object(NULL);
    }
    while (J.depth > 1) json_close();
    if (!J.level[0].array) {
        if (code != 0 && !J.has_error) json_str("error", J.err[0] ? J.err : "failed");
        if (code != 0 && !J.has_exit) json_int("exit", code);
        if (signal && !J.has_interrupted) json_bool("interrupted", 1);
        if (signal && !J.has_signal) json_str("signal", signal);
    }
    puts(J.level[0].array ? "]" : "}");
    fflush(stdout);
    J.depth = 0;
    J.ended = 1;
    return code;
}
