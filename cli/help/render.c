#include "render.h"

#include <ctype.h>
#include <string.h>

static void add(render_words *w, const char *s, size_t len)
{
    if (w->n == RENDER_MAX_WORDS || len == 0 || len >= sizeof w->word[0]) return;
    for (int i = 0; i < w->n; i++) /* "cuda:I|cuda:I,J": one stem "cuda:" */
        if (strlen(w->word[i]) == len && memcmp(w->word[i], s, len) == 0) return;
    memcpy(w->word[w->n], s, len);
    w->word[w->n][len] = '\0';
    w->n++;
}

void render_algo_names(const cli_option *o, render_words *w)
{
    char list[1024];
    w->n = 0;
    if (o->kind != OPT_ALGO) return;
    /* "a, b or c": names have no spaces or commas */
    kiln_workload_list(o->kinds, o->bench, list, sizeof list);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ", ");
        if (len && !(len == 2 && strncmp(p, "or", 2) == 0)) add(w, p, len);
        p += len;
        p += strspn(p, ", ");
    }
    if (o->bench == 1) add(w, "all", 3); /* kiln bench --algo all: every workload's bench_all_kinds */
}

static int has_upper(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (isupper((unsigned char)s[i])) return 1;
    return 0;
}

void render_value_words(const char *value, render_words *w)
{
    w->n = 0;
    if (!value || !strchr(value, '|')) return;
    for (const char *p = value; *p;) {
        size_t len = strcspn(p, "|");
        const char *colon = memchr(p, ':', len);
        if (!has_upper(p, len)) add(w, p, len);
        else if (colon && !has_upper(p, (size_t)(colon - p))) add(w, p, (size_t)(colon - p) + 1);
        p += len;
        if (*p) p++;
    }
}

int render_value_is_file(const cli_option *o)
{
    if ((o->kind != OPT_STR && o->kind != OPT_LIST) || !o->value || strchr(o->value, '|')) return 0;
    size_t len = strlen(o->value);
    return (len >= 4 && strcmp(o->value + len - 4, "FILE") == 0) || strcmp(o->value, "LIST") == 0 ||
           strcmp(o->value, "F") == 0;
}

typedef struct table_call {
    cli_help_hook fn;
    void *arg;
    int reached;
} table_call;

static void reached(const cli_command *c, void *arg)
{
    table_call *t = arg;
    t->reached = 1;
    t->fn(c, t->arg);
}

int render_with_table(const cli_entry *e, cli_help_hook fn, void *arg)
{
    table_call t = {fn, arg, 0};
    char help[] = "--help";
    char *argv[] = {help, NULL};
    cli_set_help_hook(reached, &t);
    e->run(1, argv);
    cli_set_help_hook(NULL, NULL);
    return t.reached ? 0 : -1;
}
