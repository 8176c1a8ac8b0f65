/* One SNAP line, shared by the serial parser (snap.c) and the chunked one (snap_chunked.c), so
 * that both accept and refuse exactly the same lines with the same words. */
#ifndef KILN_GRAPH_SNAP_LINE_H
#define KILN_GRAPH_SNAP_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "parse_util.h"

/* line[0 .. len) without its end: 0 for a blank or comment line; 1 with the edge in *a, *b and its
 * weight in *w (1 unless weighted and given; weighted needs the C numeric locale on this thread);
 * -1 with *why naming what is wrong. */
static inline int kiln_snap_line(const char *line, size_t len, int weighted, uint64_t *a, uint64_t *b, double *w,
                                 const char **why)
{
    const char *p = line, *end = line + len;
    p = kiln_skip_blank(p, end);
    if (p == end || *p == '#' || *p == '%') return 0;
    if (kiln_parse_id(&p, end, a, why) != 0) return -1;
    const char *q = kiln_skip_blank(p, end);
    if (q == p) {
        *why = q == end ? "missing destination id" : "ids must be separated by spaces or tabs";
        return -1;
    }
    p = q;
    if (kiln_parse_id(&p, end, b, why) != 0) return -1;
    q = kiln_skip_blank(p, end);
    *w = 1;
    if (q != end && weighted) {
        p = q;
        if (kiln_parse_weight(&p, end, 0, 1, w, why) != 0) return -1;
        q = kiln_skip_blank(p, end);
        if (q != end) {
            *why = "unexpected text after the weight (only 'src dst [weight]' per line)";
            return -1;
        }
    }
    if (q != end) {
        *why = "unexpected text after the destination id (only 'src dst' per line; a third column, the "
               "weight, is read when weights are asked for)";
        return -1;
    }
    return 1;
}

#endif
