#include "linebuf.h"

#include <stdlib.h>
#include <string.h>

int linebuf_init(linebuf *lb, size_t max_line)
{
    memset(lb, 0, sizeof *lb);
    lb->buf = malloc(max_line + 1);
    if (!lb->buf) return -1;
    lb->cap = max_line + 1;
    lb->max_line = max_line;
    return 0;
}

void linebuf_free(linebuf *lb)
{
    free(lb->buf);
    memset(lb, 0, sizeof *lb);
}

void linebuf_reset(linebuf *lb) { lb->head = lb->len = 0; }

char *linebuf_space(linebuf *lb, size_t *avail)
{
    if (lb->head > 0) { /* keep the unread bytes at the start */
        memmove(lb->buf, lb->buf + lb->head, lb->len - lb->head);
        lb->len -= lb->head;
        lb->head = 0;
    }
    *avail = lb->cap - lb->len;
    return lb->buf + lb->len;
}

void linebuf_commit(linebuf *lb, size_t n) { lb->len += n; }

int linebuf_next(linebuf *lb, char **line, size_t *len)
{
    for (;;) {
        char *start = lb->buf + lb->head;
        size_t avail = lb->len - lb->head;
        char *nl = memchr(start, '\n', avail);
        if (!nl) {
            /* no newline: a pending line already past the limit can never end well */
            return avail > lb->max_line ? -1 : 0;
        }
        size_t n = (size_t)(nl - start);
        if (n > lb->max_line) return -1;
        lb->head += n + 1;
        if (n > 0 && start[n - 1] == '\r') n--;
        start[n] = '\0';
        if (n == 0) continue;
        *line = start;
        *len = n;
        return 1;
    }
}

int linebuf_has_line(const linebuf *lb) { return memchr(lb->buf + lb->head, '\n', lb->len - lb->head) != NULL; }
