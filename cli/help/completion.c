/* Shell completion scripts for bash and zsh, written from every command's option table: the
 * commands, each command's options, the values an option takes (the registry's algorithm names, a
 * table's "a|b|c" choices, devices, file names) and what a command's arguments are. A script is
 * generated, not kept, so it cannot drift from the tables (share/CMakeLists.txt installs them). */
#include <string.h>

#include "kiln.h"
#include "render.h"

typedef struct comp {
    FILE *f;
    const cli_entry *e;
} comp;

/* The words an option's value completes to; *files set when it is a file name. */
static void value_words(const cli_option *o, render_words *w, int *files)
{
    *files = render_value_is_file(o);
    if (o->kind == OPT_ALGO) render_algo_names(o, w);
    else render_value_words(o->value, w);
}

/* `kiln help COMMAND` completes command names; the other commands' arguments are files. */
static int args_are_commands(const cli_entry *e) { return e->run == cmd_help; }

static void words_list(FILE *f, const render_words *w)
{
    for (int i = 0; i < w->n; i++) fprintf(f, " %s", w->word[i]);
}

/* ---------------------------------------------------------------- bash */

static const char bash_head[] =
    "# _kiln_words CUR WORD...: the WORDs that start with CUR.\n"
    "_kiln_words() {\n"
    "    local cur=$1 w\n"
    "    shift\n"
    "    COMPREPLY=()\n"
    "    for w in \"$@\"; do\n"
    "        [[ $w == \"$cur\"* ]] && COMPREPLY+=(\"$w\")\n"
    "    done\n"
    "    # bash replaces only what follows the word's last ':' (COMP_WORDBREAKS)\n"
    "    if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then\n"
    "        local stem=${cur%\"${cur##*:}\"}\n"
    "        COMPREPLY=(\"${COMPREPLY[@]#\"$stem\"}\")\n"
    "    fi\n"
    "    # a stem typed out whole (cuda:) is finished by hand: it offers only what may follow (all)\n"
    "    local kept=() x\n"
    "    for x in \"${COMPREPLY[@]}\"; do [[ -n $x ]] && kept+=(\"$x\"); done\n"
    "    COMPREPLY=(\"${kept[@]}\")\n"
    "    # a stem such as cuda: is finished by hand: no space after it\n"
    "    if [[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *: ]]; then compopt -o nospace 2>/dev/null; fi\n"
    "    return 0\n"
    "}\n"
    "\n"
    "# _kiln_files CUR: file names.\n"
    "_kiln_files() {\n"
    "    local IFS=$'\\n'\n"
    "    COMPREPLY=($(compgen -f -- \"$1\"))\n"
    "    compopt -o filenames 2>/dev/null\n"
    "    return 0\n"
    "}\n"
    "\n"
    "_kiln() {\n"
    "    local i w cur prev\n"
    "    local -a words=()\n"
    "    # bash splits --name=VALUE and cuda:0 at '=' and ':' (COMP_WORDBREAKS): join them again\n"
    "    for ((i = 0; i <= COMP_CWORD; i++)); do\n"
    "        w=${COMP_WORDS[i]}\n"
    "        if ((${#words[@]} > 1)) && [[ -n $w && ( $w == [=:]* || ${words[${#words[@]}-1]} == *[=:] ) ]]; then\n"
    "            words[${#words[@]}-1]+=$w\n"
    "        else\n"
    "            words+=(\"$w\")\n"
    "        fi\n"
    "    done\n"
    "    cur=${words[${#words[@]}-1]}\n"
    "    prev=\n"
    "    ((${#words[@]} > 2)) && prev=${words[${#words[@]}-2]}\n"
    "    if [[ $cur == -*=* ]]; then\n"
    "        prev=${cur%%=*}\n"
    "        cur=${cur#*=}\n"
    "    fi\n";

/* One arm of `case $prev` for the options of c whose value completes as `action` (files: 1 file
 * names, 0 nothing; else the words of option `with`, written as the arm's action). */
static void bash_arm(FILE *f, const cli_command *c, int files, const cli_option *with)
{
    int n = 0;
    for (size_t i = 0; i < c->nopts; i++) {
        const cli_option *o = &c->opts[i];
        render_words w;
        int is_file;
        if (o->kind == OPT_FLAG) continue;
        value_words(o, &w, &is_file);
        if (with ? o != with : (is_file != files || w.n)) continue;
        fprintf(f, "%s%s", n++ ? "|" : "        ", o->name);
        if (o->short_name) fprintf(f, "|-%c", o->short_name);
    }
    if (!n) return;
    if (with) {
        render_words w;
        int is_file;
        value_words(with, &w, &is_file);
        fprintf(f, ") _kiln_words \"$cur\"");
        words_list(f, &w);
    } else {
        fprintf(f, ") %s", files ? "_kiln_files \"$cur\"" : "COMPREPLY=()");
    }
    fprintf(f, "; return 0 ;;\n");
}

static void bash_command(const cli_command *c, void *arg)
{
    comp *k = arg;
    FILE *f = k->f;
    int values = 0;
    for (size_t i = 0; i < c->nopts; i++) values |= c->opts[i].kind != OPT_FLAG;
    fprintf(f, "    %s)\n", k->e->name);
    if (values) {
        fprintf(f, "        case $prev in\n");
        for (size_t i = 0; i < c->nopts; i++) {
            render_words w;
            int is_file;
            value_words(&c->opts[i], &w, &is_file);
            if (c->opts[i].kind != OPT_FLAG && w.n && !is_file) bash_arm(f, c, 0, &c->opts[i]);
        }
        bash_arm(f, c, 1, NULL);
        bash_arm(f, c, 0, NULL); /* a number, hex, a name: nothing to offer */
        fprintf(f, "        esac\n");
    }
    if (c->pos) fprintf(f, "        if [[ $cur == -* ]]; then\n    ");
    fprintf(f, "        _kiln_words \"$cur\"");
    for (size_t i = 0; i < c->nopts; i++) {
        fprintf(f, " %s", c->opts[i].name);
        if (c->opts[i].short_name) fprintf(f, " -%c", c->opts[i].short_name);
    }
    fprintf(f, " -h --help\n");
    if (c->pos) {
        fprintf(f, "        else\n            ");
        if (args_are_commands(k->e)) {
            fprintf(f, "_kiln_words \"$cur\"");
            for (size_t i = 0; i < cli_ncommands; i++) fprintf(f, " %s", cli_commands[i].name);
            fprintf(f, "\n");
        } else {
            fprintf(f, "_kiln_files \"$cur\"\n");
        }
        fprintf(f, "        fi\n");
    }
    fprintf(f, "        ;;\n");
}

static int bash(FILE *f)
{
    fprintf(f, "# bash completion for kiln %s: written by `kiln help --completion bash` from kiln's option\n"
               "# tables; regenerate it, do not edit it.\n\n",
            kiln_version());
    fputs(bash_head, f);
    fprintf(f, "    if ((${#words[@]} == 2)); then\n        _kiln_words \"$cur\"");
    for (size_t i = 0; i < cli_ncommands; i++) fprintf(f, " %s", cli_commands[i].name);
    fprintf(f, " -h --help -V --version\n        return 0\n    fi\n    case ${words[1]} in\n");
    for (size_t i = 0; i < cli_ncommands; i++) {
        comp k = {f, &cli_commands[i]};
        if (render_with_table(&cli_commands[i], bash_command, &k) != 0) return -1;
    }
    fprintf(f, "    *) _kiln_files \"$cur\" ;;\n    esac\n    return 0\n}\n\ncomplete -F _kiln kiln\n");
    return 0;
}

/* ---------------------------------------------------------------- zsh */

/* s inside a single-quoted zsh word, with a backslash before each of `special`. */
static void zquote(FILE *f, const char *s, const char *special)
{
    for (; *s; s++) {
        if (*s == '\'') fputs("'\\''", f);
        else if (strchr(special, *s)) fprintf(f, "\\%c", *s);
        else fputc(*s, f);
    }
}

static const char zsh_head[] =
    "# _kiln_values WORD...: the WORDs; a stem such as cuda: is finished by hand (no space after it).\n"
    "_kiln_values() {\n"
    "  local -a words stems\n"
    "  local w ret=1\n"
    "  for w in \"$@\"; do\n"
    "    if [[ $w == *: ]]; then stems+=(\"$w\"); else words+=(\"$w\"); fi\n"
    "  done\n"
    "  compadd -a words && ret=0\n"
    "  (( $#stems )) && compadd -S '' -a stems && ret=0\n"
    "  return ret\n"
    "}\n"
    "\n"
    "_kiln() {\n"
    "  local curcontext=$curcontext state line ret=1\n"
    "  typeset -A opt_args\n"
    "  _arguments -C \\\n"
    "    '(- :)'{-h,--help}'[list the commands]' \\\n"
    "    '(- :)'{-V,--version}'[the version and the build options]' \\\n"
    "    '1:command:->command' \\\n"
    "    '*::argument:->argument' && ret=0\n"
    "  case $state in\n"
    "  command)\n"
    "    local -a commands=(\n";

static void zsh_command(const cli_command *c, void *arg)
{
    comp *k = arg;
    FILE *f = k->f;
    fprintf(f, "    %s)\n      _arguments -S \\\n", k->e->name);
    for (size_t i = 0; i < c->nopts; i++) {
        const cli_option *o = &c->opts[i];
        char help[1536], shortn[3] = {'-', o->short_name, 0};
        cli_option_help(o, 0, help, sizeof help);
        for (int sn = 0; sn < (o->short_name ? 2 : 1); sn++) { /* the long name, then the short one */
            fprintf(f, "        '%s%s%s[", o->kind == OPT_LIST ? "*" : "", sn ? shortn : o->name,
                    o->kind == OPT_FLAG ? "" : sn ? "+" : "=");
            zquote(f, help, "[]\\");
            fputc(']', f);
            if (o->kind != OPT_FLAG) {
                render_words w;
                int files;
                value_words(o, &w, &files);
                fputc(':', f);
                zquote(f, o->value, ":\\");
                fputc(':', f);
                if (files) {
                    fputs("_files", f);
                } else if (w.n) {
                    fputs("_kiln_values", f);
                    for (int j = 0; j < w.n; j++) {
                        fputc(' ', f);
                        zquote(f, w.word[j], ":\\");
                    }
                } else {
                    fputc(' ', f); /* a number, hex, a name: the message only */
                }
            }
            fprintf(f, "' \\\n");
        }
    }
    fprintf(f, "        '(- *)'{-h,--help}'[this help]'");
    if (args_are_commands(k->e)) {
        fprintf(f, " \\\n        '1:command:(");
        for (size_t i = 0; i < cli_ncommands; i++) fprintf(f, "%s%s", i ? " " : "", cli_commands[i].name);
        fprintf(f, ")'");
    } else if (c->pos) {
        fprintf(f, " \\\n        '*:file:_files'");
    }
    fprintf(f, " && ret=0 ;;\n");
}

static int zsh(FILE *f)
{
    fprintf(f, "#compdef kiln\n# zsh completion for kiln %s: written by `kiln help --completion zsh` from kiln's option\n"
               "# tables; regenerate it, do not edit it.\n\n",
            kiln_version());
    fputs(zsh_head, f);
    for (size_t i = 0; i < cli_ncommands; i++) {
        fputs("      '", f);
        zquote(f, cli_commands[i].name, ":\\");
        fputc(':', f);
        zquote(f, cli_commands[i].summary, "");
        fputs("'\n", f);
    }
    fprintf(f, "    )\n    _describe -t commands 'kiln command' commands && ret=0 ;;\n  argument)\n"
               "    curcontext=${curcontext%%:*:*}:kiln-$words[1]:\n    case $words[1] in\n");
    for (size_t i = 0; i < cli_ncommands; i++) {
        comp k = {f, &cli_commands[i]};
        if (render_with_table(&cli_commands[i], zsh_command, &k) != 0) return -1;
    }
    fprintf(f, "    *) _files && ret=0 ;;\n    esac ;;\n  esac\n  return ret\n}\n\n_kiln \"$@\"\n");
    return 0;
}

int completion_script(FILE *out, const char *shell)
{
    if (strcmp(shell, "bash") == 0) return bash(out);
    if (strcmp(shell, "zsh") == 0) return zsh(out);
    return -1;
}
