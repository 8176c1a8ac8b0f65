/* What the manual pages (cli/help/roff.c) and the shell completions (cli/help/completion.c) read of the
 * command tables beyond --help's two columns: the words an option's value can be, and the hand-written
 * part of each manual page (cli/help/manual.c). Both renderers ask here, so they cannot disagree. */
#ifndef KILN_CLI_RENDER_H
#define KILN_CLI_RENDER_H

#include <stdio.h>

#include "common/commands.h"
#include "common/opts.h"

#define RENDER_MAX_WORDS 64

typedef struct render_words {
    char word[RENDER_MAX_WORDS][48];
    int n;
} render_words;

/* The names an OPT_ALGO option accepts, as its --help lists them (bench's also "all"). */
void render_algo_names(const cli_option *o, render_words *w);
/* The literal words of a value written "a|b|c" in the table; a part with a placeholder after a
 * colon ("cuda:I") gives its stem ("cuda:"), other placeholders ("2^N", "HEX64") nothing. */
void render_value_words(const char *value, render_words *w);
/* 1 when the option's value is a file name: a string whose placeholder ends in FILE, or is LIST
 * or F (the names the tables give files). */
int render_value_is_file(const cli_option *o);
/* Runs command e with "--help" while fn receives its option table instead of the help being
 * printed. 0, or -1 when the command never reached its table. */
int render_with_table(const cli_entry *e, cli_help_hook fn, void *arg);

/* The hand-written part of a manual page ("kiln" for kiln(1)), NULL when there is none. Markup,
 * line by line: a line in capitals is a section heading (the text before the first one is the
 * DESCRIPTION); a blank line ends a paragraph; "- " starts a list item; "@ TERM" starts a tagged
 * paragraph (its text on the next lines); a line indented by four spaces is an example, kept as
 * written; `x` is set in bold (options, commands, literal values). */
const char *cli_manual_text(const char *name);

/* kiln(1), and the page kiln-<e->name>(1) of command e whose table is c, as roff (cli/help/roff.c). */
void roff_main_page(FILE *out);
void roff_command_page(FILE *out, const cli_entry *e, const cli_command *c);

/* The completion script for shell ("bash" or "zsh") of every command's table (cli/help/completion.c).
 * 0, or -1 for another shell or a command without a table. */
int completion_script(FILE *out, const char *shell);

#endif
