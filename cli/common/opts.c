#include "opts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "json_out.h"
#include "progress.h"

cli_option *cli_find(cli_command *c, const char *name)
{
    for (size_t i = 0; i < c->nopts; i++)
        if (strcmp(c->opts[i].name, name) == 0) return &c->opts[i];
    return NULL;
}

int cli_given(cli_command *c, const char *name)
{
    cli_option *o = cli_find(c, name);
    return o ? o->given : 0;
}

static cli_help_hook help_hook;
static void *help_hook_arg;

void cli_set_help_hook(cli_help_hook fn, void *arg)
{
    help_hook = fn;
    help_hook_arg = arg;
}

void cli_option_help(const cli_option *o, int with_list, char *out, size_t n)
{
    char list[1024] = "";
    if (o->kind == OPT_ALGO && with_list) kiln_workload_list(o->kinds, o->bench, list, sizeof list);
    snprintf(out, n, "%s%s%s%s%s", o->help, *list ? ": " : "", list, o->gpu_only ? " (GPU only)" : "",
             o->kind == OPT_LIST ? " (repeatable)" : "");
}

void cli_option_names(const cli_option *o, char *out, size_t n)
{
    if (o->short_name) snprintf(out, n, "-%c, %s", o->short_name, o->name);
    else snprintf(out, n, "%s", o->name);
}

static void help(const cli_command *c)
{
    printf("usage: kiln %s %s\noptions:\n", c->name, c->usage);
    for (size_t i = 0; i < c->nopts; i++) {
        const cli_option *o = &c->opts[i];
        char left[96], names[48], right[1536];
        cli_option_names(o, names, sizeof names);
        snprintf(left, sizeof left, "%s%s%s", names, o->value ? " " : "", o->value ? o->value : "");
        cli_option_help(o, 1, right, sizeof right);
        if (strlen(left) > 26) printf("  %s\n%29s", left, ""); /* a long value name gets a line of its own */
        else printf("  %-26s ", left);
        printf("%s\n", right);
    }
    printf("  %-26s %s\n", "--help, -h", "this help");
    if (c->notes) fputs(c->notes, stdout);
}

/* An OPT_REAL value: "bad --damping 'x': not a number (expected 0 <= D < 1)". 0 or the exit code. */
static int store_real(const cli_command *c, cli_option *o, const char *v)
{
    double x = 0;
    const char *why = cli_parse_real(v, &x);
    if (!why && (x < o->min || x > o->max || (o->below_max && x == o->max)))
        why = x < 0 && o->min == 0 ? "negative" : "out of range";
    if (why) {
        char want[96];
        if (isinf(o->max)) snprintf(want, sizeof want, "a number >= %g", o->min);
        else snprintf(want, sizeof want, "%g <= %s %s %g", o->min, o->value, o->below_max ? "<" : "<=", o->max);
        return cli_error(EXIT_USAGE, c->name, "bad %s '%s': %s (expected %s)", o->name, v, why, want);
    }
    *(double *)o->dest = x;
    o->given++;
    return 0;
}

/* An OPT_CHOICE value: a word of o->value, "bad --format 'x' (expected auto, snap, mtx or csr)"
 * otherwise. 0 or the exit code. */
static int store_choice(const cli_command *c, cli_option *o, const char *v)
{
    char list[256] = "";
    const char *w = o->value;
    for (int i = 0; *w; i++) {
        size_t n = strcspn(w, "|");
        if (strlen(v) == n && strncmp(v, w, n) == 0) {
            *(int *)o->dest = o->choices ? o->choices[i] : i;
            o->given++;
            return 0;
        }
        size_t used = strlen(list);
        const int last = w[n] == '\0';
        snprintf(list + used, sizeof list - used, "%s%.*s", i == 0 ? "" : last ? " or " : ", ", (int)n, w);
        w += n + !last;
    }
    return cli_error(EXIT_USAGE, c->name, "bad %s '%s' (expected %s)", o->name, v, list);
}

/* Stores v (the value given to o) where o says. 0 or the exit code. */
static int store(const cli_command *c, cli_option *o, const char *v)
{
    switch (o->kind) {
    case OPT_FLAG: *(int *)o->dest = 1; break;
    case OPT_STR:
    case OPT_DEVICE:
    case OPT_ALGO: *(const char **)o->dest = v; break;
    case OPT_LIST:
        if ((uint64_t)o->given >= o->hi)
            return cli_error(EXIT_USAGE, c->name, "at most %llu %s options", (unsigned long long)o->hi, o->name);
        ((const char **)o->dest)[o->given] = v;
        break;
    case OPT_U64: {
        uint64_t u;
        if (cli_parse_u64(v, o->hi, &u) != 0 || u < o->lo)
            return cli_error(EXIT_USAGE, c->name, "bad %s '%s' (expected %llu..%llu)", o->name, v,
                             (unsigned long long)o->lo, (unsigned long long)o->hi);
        *(uint64_t *)o->dest = u;
        break;
    }
    case OPT_REAL: return store_real(c, o, v);
    case OPT_CHOICE: return store_choice(c, o, v);
    case OPT_SECONDS:
        if (cli_parse_seconds(v, (double)o->hi, (double *)o->dest) != 0)
            return cli_error(EXIT_USAGE, c->name, "bad %s '%s' (expected seconds > 0, at most %llu)", o->name, v,
                             (unsigned long long)o->hi);
        break;
    }
    o->given++;
    return 0;
}

static int positional(cli_command *c, const char *arg)
{
    if (!c->pos) return cli_error(EXIT_USAGE, c->name, "unexpected argument '%s' (see kiln %s --help)", arg, c->name);
    if (c->npos == c->max_pos) return cli_error(EXIT_USAGE, c->name, "too many arguments ('%s')", arg);
    c->pos[c->npos++] = arg;
    return 0;
}

/* The option arg names ("--algo", "--algo=A", "-a", "-aA"), NULL when none; *eq: where its
 * value follows (eq + 1), NULL when the next argument holds it. */
static cli_option *match(cli_command *c, const char *arg, const char **eq)
{
    *eq = strchr(arg, '=');
    size_t n = *eq ? (size_t)(*eq - arg) : strlen(arg);
    cli_option *o = NULL;
    for (size_t j = 0; j < c->nopts && !o; j++)
        if (strncmp(c->opts[j].name, arg, n) == 0 && c->opts[j].name[n] == '\0') o = &c->opts[j];
    if (!o && arg[1] != '-') { /* a short name: -a VALUE, -aVALUE (no '=' form), -z */
        *eq = NULL;
        for (size_t j = 0; j < c->nopts && !o; j++)
            if (c->opts[j].short_name == arg[1]) o = &c->opts[j];
        if (o && arg[2] != '\0') {
            if (o->kind == OPT_FLAG) o = NULL; /* flags are not bundled: -zc is unknown */
            else *eq = arg + 1; /* the value follows at eq + 1 */
        }
    }
    return o;
}

int cli_peek(cli_command *c, int argc, char **argv, const char *name, const char **value)
{
    int times = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i], *eq;
        if (arg[0] != '-' || arg[1] == '\0') continue;
        if (strcmp(arg, "--") == 0 && c->pos) break;
        cli_option *o = match(c, arg, &eq);
        if (!o) continue;
        const char *v = eq ? eq + 1 : o->kind != OPT_FLAG && i + 1 < argc ? argv[++i] : NULL;
        if (strcmp(o->name, name) != 0) continue;
        times++;
        if (value) *value = v;
    }
    return times;
}

/* One pass over argv. With dry set nothing is stored, printed or refused: the pass only tells
 * whether the flag `find` is given (1), as an option and not as another option's value. */
static int scan(cli_command *c, int argc, char **argv, const char *find)
{
    const int dry = find != NULL;
    int only_pos = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        int code;
        if (only_pos || arg[0] != '-' || arg[1] == '\0') {
            if (!dry && (code = positional(c, arg)) != 0) return code;
            continue;
        }
        if (strcmp(arg, "--") == 0 && c->pos) {
            only_pos = 1;
            continue;
        }
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            if (dry) continue;
            if (help_hook) help_hook(c, help_hook_arg);
            else help(c);
            return CLI_HELP;
        }
        const char *eq;
        cli_option *o = match(c, arg, &eq);
        if (dry) {
            if (o && o->kind == OPT_FLAG && !eq && strcmp(o->name, find) == 0) return 1;
            if (o && o->kind != OPT_FLAG && !eq) i++;
            continue;
        }
        if (!o) return cli_error(EXIT_USAGE, c->name, "unknown option '%s' (see kiln %s --help)", arg, c->name);
        const char *v = eq ? eq + 1 : NULL;
        if (o->kind == OPT_FLAG && v) return cli_error(EXIT_USAGE, c->name, "option %s takes no value", o->name);
        if (o->kind != OPT_FLAG && !v) {
            if (i + 1 >= argc) return cli_error(EXIT_USAGE, c->name, "option %s needs a value", o->name);
            v = argv[++i];
        }
        if ((code = store(c, o, v)) != 0) return code;
    }
    return 0;
}

int cli_parse(cli_command *c, int argc, char **argv)
{
    if (cli_find(c, "--json") && scan(c, argc, argv, "--json") == 1) json_begin();
    return scan(c, argc, argv, NULL);
}

int cli_output_start(cli_command *c, const cli_output *out)
{
    int code = cli_exclusive(c, "--quiet", "--progress");
    if (code) return code;
    progress_init(out->quiet ? PROGRESS_OFF : out->progress ? PROGRESS_ON : PROGRESS_AUTO);
    return 0;
}

int cli_check_mode(cli_command *c, unsigned mode, const char *what)
{
    for (size_t i = 0; i < c->nopts; i++) {
        const cli_option *o = &c->opts[i];
        if (o->given && o->modes && !(o->modes & mode))
            return cli_error(EXIT_USAGE, c->name, "%s does not apply to %s", o->name, what);
    }
    return 0;
}

int cli_check_gpu(cli_command *c, kiln_ctx *ctx)
{
    if (kiln_ctx_backend(ctx) != KILN_BACKEND_CPU) return 0;
    for (size_t i = 0; i < c->nopts; i++)
        if (c->opts[i].given && c->opts[i].gpu_only)
            return cli_error(EXIT_USAGE, c->name, "%s applies to GPUs only, and the device is the CPU", c->opts[i].name);
    return 0;
}

int cli_exclusive(cli_command *c, const char *a, const char *b)
{
    if (cli_given(c, a) && cli_given(c, b)) return cli_error(EXIT_USAGE, c->name, "%s and %s exclude each other", a, b);
    return 0;
}

const kiln_workload *cli_workload(const char *cmd, const char *name, unsigned kinds, int *code)
{
    kiln_ctx *ctx = cli_ctx_new(cmd, code);
    if (!ctx) return NULL;
    const kiln_workload *w = kiln_workload_find(ctx, name, kinds);
    if (!w) *code = cli_fail(cmd, ctx, KILN_ERR_INPUT);
    kiln_ctx_free(ctx);
    return w;
}

const kiln_workload *cli_bench_workload(const char *cmd, const char *name, int tune, kiln_kind *kind, int *code)
{
    kiln_ctx *ctx = cli_ctx_new(cmd, code);
    if (!ctx) return NULL;
    const kiln_workload *w = kiln_workload_for_bench(ctx, name, KILN_KIND_ALL, tune, kind);
    if (!w) *code = cli_fail(cmd, ctx, KILN_ERR_INPUT);
    kiln_ctx_free(ctx);
    return w;
}
