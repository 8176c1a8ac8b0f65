/* The subcommands of kiln, listed once: main.c dispatches through this table, `kiln --help`
 * lists it, and `kiln help` renders the manual pages and shell completions from it (and from each
 * command's option table, cli/common/opts.h). */
#ifndef KILN_CLI_COMMANDS_H
#define KILN_CLI_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

typedef struct cli_entry {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line: `kiln --help`, the NAME line of kiln-<name>(1) */
} cli_entry;

/* What kiln is, in one line (kiln(1)'s NAME). */
extern const char cli_summary[];
extern const cli_entry cli_commands[];
extern const size_t cli_ncommands;

/* The command called name, NULL when there is none. */
const cli_entry *cli_command_find(const char *name);
/* "usage: kiln <command> [options]" and the list of commands. */
void cli_usage(FILE *out);

/* kiln version: the version and the build's options (cli/version/cmd_version.c). */
int cmd_version(int argc, char **argv);
/* `git describe` of the checkout the binary was built from ("" when none): main.c's, generated at
 * build time, so that only the executable is rebuilt when the checkout moves. */
void cli_version_set_git(const char *describe);
/* kiln help: a command's help, its manual page as roff, the shell completions (cli/help/cmd_help.c). */
int cmd_help(int argc, char **argv);

#endif
