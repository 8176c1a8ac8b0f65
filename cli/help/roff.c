/* The manual pages, as roff for man(7): kiln(1) and kiln-<command>(1), written from the command
 * tables (what --help lists, cli/common/opts.h), the workload registry (the algorithms an option takes,
 * with their descriptions) and the hand-written text of cli/manual.c. */
#include <ctype.h>
#include <string.h>

#include "kiln.h"
#include "render.h"

typedef struct roff {
    FILE *f;
    int bol; /* at the beginning of an output line */
} roff;

static void raw(roff *r, const char *s)
{
    fputs(s, r->f);
    if (*s) r->bol = s[strlen(s) - 1] == '\n';
}

/* Starts a request (".SH", ".TP", ...) on a line of its own. */
static void request(roff *r, const char *req)
{
    if (!r->bol) fputc('\n', r->f);
    fputs(req, r->f);
    fputc('\n', r->f);
    r->bol = 1;
}

/* Text, escaped: a backslash, a minus (options stay typable), a control character at the start of
 * a line; leading blanks are dropped (in filled text they would force a break). */
static void text_n(roff *r, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        char c = s[i];
        if (r->bol && (c == ' ' || c == '\t')) continue;
        if (r->bol && (c == '.' || c == '\'')) fputs("\\&", r->f);
        if (c == '\\') fputs("\\e", r->f);
        else if (c == '-') fputs("\\-", r->f);
        else fputc(c, r->f);
        r->bol = c == '\n';
    }
}

static void text(roff *r, const char *s) { text_n(r, s, strlen(s)); }

static void font(roff *r, char f, const char *s, size_t n)
{
    fprintf(r->f, "\\f%c", f);
    text_n(r, s, n);
    fputs("\\fR", r->f);
}

static int is_placeholder(const char *s, size_t n)
{
    int upper = 0;
    for (size_t i = 0; i < n; i++) {
        if (islower((unsigned char)s[i])) return 0;
        upper |= isupper((unsigned char)s[i]) != 0;
    }
    return upper;
}

/* A synopsis or a value written as in --help: options in bold, placeholders (FILE, HEX64, the I
 * of cuda:I) in italics, the rest as it is. A value may break after each '|' (\:, no hyphen): a
 * list of words longer than a narrow page's line ("auto|cuda|...|opencl:all") has nowhere else to. */
static void synopsis_words(roff *r, const char *s, int dashes)
{
    while (*s) {
        size_t n = 0;
        while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '_' || (dashes && s[n] == '-'))) n++;
        if (n == 0) {
            text_n(r, s, 1);
            if (!dashes && *s == '|' && s[1]) raw(r, "\\:");
            s++;
            continue;
        }
        if (s[0] == '-') font(r, 'B', s, n);
        else if (is_placeholder(s, n)) font(r, 'I', s, n);
        else text_n(r, s, n);
        s += n;
    }
}

static void header(roff *r, const char *page)
{
    char upper[64];
    size_t i = 0;
    for (; page[i] && i + 1 < sizeof upper; i++) upper[i] = (char)toupper((unsigned char)page[i]);
    upper[i] = '\0';
    raw(r, ".\\\" Written by `kiln help --roff` from kiln's option tables (cli/) and cli/help/manual.c:\n"
           ".\\\" edit those, not this page.\n");
    raw(r, ".TH \"");
    text(r, upper);
    raw(r, "\" 1 \"\" \"kiln ");
    text(r, kiln_version());
    raw(r, "\" \"kiln manual\"\n");
    /* ragged right, as git's pages: the lists of algorithm names hold words too long to justify a
     * 60-column line around (merkle-poseidon2_goldilocks8), which troff warns of */
    raw(r, ".ad l\n");
}

static int is_heading(const char *line, size_t n)
{
    if (n < 2) return 0;
    for (size_t i = 0; i < n; i++)
        if (!isupper((unsigned char)line[i]) && line[i] != ' ') return 0;
    return 1;
}

/* A line of hand-written text: `x` in bold. */
static void inline_text(roff *r, const char *s, size_t n)
{
    while (n) {
        const char *tick = memchr(s, '`', n);
        const char *end = tick ? memchr(tick + 1, '`', n - (size_t)(tick + 1 - s)) : NULL;
        if (!end) {
            text_n(r, s, n);
            break;
        }
        text_n(r, s, (size_t)(tick - s));
        font(r, 'B', tick + 1, (size_t)(end - tick - 1));
        n -= (size_t)(end + 1 - s);
        s = end + 1;
    }
    raw(r, "\n");
}

/* Renders the hand-written text between from and to (the markup of cli_manual_text). */
static void manual_text(roff *r, const char *from, const char *to)
{
    int pending = 0, example = 0; /* a paragraph break is due; inside an example */
    for (const char *p = from; p < to;) {
        const char *nl = memchr(p, '\n', (size_t)(to - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(to - p);
        const char *next = nl ? nl + 1 : to;
        int literal = n >= 4 && strncmp(p, "    ", 4) == 0;
        if (example && !literal) {
            request(r, ".EE");
            request(r, ".RE");
            example = 0;
        }
        if (n == 0) {
            pending = 1;
        } else if (literal) {
            if (!example) {
                request(r, ".PP");
                request(r, ".RS 4");
                request(r, ".EX");
                example = 1;
            }
            text_n(r, p + 4, n - 4);
            raw(r, "\n");
        } else if (is_heading(p, n)) {
            if (!r->bol) raw(r, "\n");
            raw(r, ".SH ");
            text_n(r, p, n); /* capitals and blanks: the section's name as .SH's arguments */
            raw(r, "\n");
            pending = 0;
        } else if (strncmp(p, "- ", 2) == 0) {
            request(r, ".IP \\(bu 2");
            inline_text(r, p + 2, n - 2);
            pending = 0;
        } else if (strncmp(p, "@ ", 2) == 0) {
            request(r, ".TP");
            inline_text(r, p + 2, n - 2);
            pending = 0;
        } else {
            if (pending) request(r, ".PP");
            pending = 0;
            inline_text(r, p, n);
        }
        p = next;
    }
    if (example) {
        request(r, ".EE");
        request(r, ".RE");
    }
}

/* Where the DESCRIPTION ends: the first heading line of the text. */
static const char *first_heading(const char *t)
{
    for (const char *p = t; *p;) {
        size_t n = strcspn(p, "\n");
        if (is_heading(p, n)) return p;
        p += n;
        if (*p) p++;
    }
    return t + strlen(t);
}

/* An OPT_ALGO option's names, each with the registry's description. */
static void algo_list(roff *r, const cli_option *o)
{
    render_words w;
    render_algo_names(o, &w);
    size_t width = 0;
    for (int i = 0; i < w.n; i++)
        if (strlen(w.word[i]) > width) width = strlen(w.word[i]);
    /* at most 28 (+2): a wider column leaves the descriptions too narrow for their words at 60
     * columns (troff: "can't break line"); a longer name (merkle-poseidon2_goldilocks12) takes a
     * line of its own, its description below it, as .TP does */
    if (width > 28) width = 28;
    char req[32];
    snprintf(req, sizeof req, ".TP %zun", width + 2);
    request(r, ".RS");
    request(r, ".PD 0"); /* one line each, no space between */
    for (int i = 0; i < w.n; i++) {
        kiln_kind kind = 0;
        const kiln_workload *wl = o->bench ? kiln_workload_for_bench(NULL, w.word[i], o->kinds, o->bench == 2, &kind)
                                           : kiln_workload_find(NULL, w.word[i], o->kinds);
        request(r, req);
        font(r, 'B', w.word[i], strlen(w.word[i]));
        raw(r, "\n");
        /* a bench name of a tree ("merkle-sha256") is the tree built with the workload's merge */
        if (wl && kind == KILN_KIND_TREE && (wl->kinds & ~KILN_KIND_TREE)) {
            text(r, "Merkle trees with the ");
            text(r, wl->name);
            text(r, " merge");
        } else {
            text(r, wl ? wl->help : "every workload above, in the kinds it is measured in by default");
        }
    }
    request(r, ".PD");
    request(r, ".RE");
}

static void options(roff *r, const cli_command *c)
{
    request(r, ".SH OPTIONS");
    for (size_t i = 0; i < c->nopts; i++) {
        const cli_option *o = &c->opts[i];
        char help[1536];
        char names[48];
        cli_option_names(o, names, sizeof names);
        request(r, ".TP");
        font(r, 'B', names, strlen(names));
        if (o->value) {
            raw(r, " ");
            if (strchr(o->value, '|')) synopsis_words(r, o->value, 0);
            else font(r, 'I', o->value, strlen(o->value));
        }
        raw(r, "\n");
        cli_option_help(o, 0, help, sizeof help);
        text(r, help);
        if (o->kind == OPT_ALGO) {
            raw(r, ":\n");
            algo_list(r, o);
        }
    }
    request(r, ".TP");
    raw(r, "\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n");
    text(r, "this help");
}

static void see_also(roff *r, int main_page)
{
    request(r, ".SH \"SEE ALSO\"");
    if (!main_page) { /* kiln(1) lists every page */
        raw(r, ".BR kiln (1)\n");
        return;
    }
    for (size_t i = 0; i < cli_ncommands; i++) {
        raw(r, i ? ",\n.BR kiln\\-" : ".BR kiln\\-");
        text(r, cli_commands[i].name);
        raw(r, " (1)");
    }
    raw(r, "\n");
}

void roff_command_page(FILE *out, const cli_entry *e, const cli_command *c)
{
    roff r = {out, 1};
    char page[64];
    snprintf(page, sizeof page, "kiln-%s", e->name);
    header(&r, page);
    request(&r, ".SH NAME");
    text(&r, page);
    raw(&r, " \\- ");
    text(&r, e->summary);
    request(&r, ".SH SYNOPSIS");
    raw(&r, "\\fBkiln ");
    text(&r, e->name);
    raw(&r, "\\fR ");
    synopsis_words(&r, c->usage, 1);
    request(&r, ".SH DESCRIPTION");
    const char *t = cli_manual_text(e->name);
    const char *rest = t ? first_heading(t) : NULL;
    if (t) manual_text(&r, t, rest);
    if (c->notes) {
        request(&r, ".PP");
        text(&r, c->notes);
    }
    options(&r, c);
    if (t) manual_text(&r, rest, rest + strlen(rest));
    see_also(&r, 0);
}

void roff_main_page(FILE *out)
{
    roff r = {out, 1};
    header(&r, "kiln");
    request(&r, ".SH NAME");
    raw(&r, "kiln \\- ");
    text(&r, cli_summary);
    request(&r, ".SH SYNOPSIS");
    raw(&r, "\\fBkiln\\fR \\fIcommand\\fR [\\fIoptions\\fR]\n.br\n\\fBkiln\\fR \\fB\\-\\-version\\fR\n.br\n"
            "\\fBkiln\\fR \\fB\\-\\-help\\fR\n");
    request(&r, ".SH DESCRIPTION");
    const char *t = cli_manual_text("kiln");
    const char *rest = t ? first_heading(t) : NULL;
    if (t) manual_text(&r, t, rest);
    request(&r, ".SH COMMANDS");
    for (size_t i = 0; i < cli_ncommands; i++) {
        request(&r, ".TP");
        raw(&r, ".BR kiln\\-");
        text(&r, cli_commands[i].name);
        raw(&r, " (1)\n");
        text(&r, cli_commands[i].summary);
    }
    request(&r, ".SH OPTIONS");
    request(&r, ".TP");
    raw(&r, "\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n");
    text(&r, "list the commands");
    request(&r, ".TP");
    raw(&r, "\\fB\\-V\\fR, \\fB\\-\\-version\\fR\n");
    raw(&r, "the version and the build's options, as \\fBkiln version\\fR\n");
    if (t) manual_text(&r, rest, rest + strlen(rest));
    see_also(&r, 1);
}
