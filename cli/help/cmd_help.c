/* kiln help: a command's help, its manual page as roff, the shell completion scripts, the command
 * names. The manual pages and completions installed with kiln are written by this command at build
 * time (share/CMakeLists.txt), so they hold exactly what the option tables hold. */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "common/commands.h"
#include "common/opts.h"
#include "render.h"

typedef struct page_arg {
    const cli_entry *e;
} page_arg;

static void page(const cli_command *c, void *arg) { roff_command_page(stdout, ((page_arg *)arg)->e, c); }

int cmd_help(int argc, char **argv)
{
    const char *cmd = "help", *shell = NULL;
    const char *pos[1] = {NULL};
    int roff = 0, names = 0;
    cli_option opts[] = {
        {"--roff", OPT_FLAG, &roff, NULL, "print the manual page of COMMAND (kiln(1) without one) as roff; man -l - shows it",
         .modes = 0},
        {"--completion", OPT_STR, &shell, "bash|zsh", "print the completion script for bash or zsh", .modes = 0},
        {"--commands", OPT_FLAG, &names, NULL, "print the command names, one a line", .modes = 0},
    };
    cli_command c = CLI_COMMAND(cmd, "[COMMAND] [--roff] | --completion bash|zsh | --commands",
                                "Without options: kiln --help, or with COMMAND kiln COMMAND --help.\n", opts);
    c.pos = pos;
    c.max_pos = 1;
    int code = cli_parse(&c, argc, argv);
    if (code) return code == CLI_HELP ? EXIT_OK : code;
    if ((code = cli_exclusive(&c, "--roff", "--completion")) || (code = cli_exclusive(&c, "--roff", "--commands")) ||
        (code = cli_exclusive(&c, "--completion", "--commands")))
        return code;
    if (pos[0] && (shell || names))
        return cli_error(EXIT_USAGE, cmd, "%s takes no COMMAND", shell ? "--completion" : "--commands");
    const cli_entry *e = pos[0] ? cli_command_find(pos[0]) : NULL;
    if (pos[0] && !e) return cli_error(EXIT_USAGE, cmd, "unknown command '%s' (see kiln --help)", pos[0]);
    if (names) {
        for (size_t i = 0; i < cli_ncommands; i++) puts(cli_commands[i].name);
        return EXIT_OK;
    }
    if (shell) {
        if (strcmp(shell, "bash") != 0 && strcmp(shell, "zsh") != 0)
            return cli_error(EXIT_USAGE, cmd, "bad --completion '%s' (expected bash or zsh)", shell);
        if (completion_script(stdout, shell) != 0)
            return cli_error(EXIT_DEVICE, cmd, "a command never reached its option table");
        return EXIT_OK;
    }
    if (roff && !e) {
        roff_main_page(stdout);
        return EXIT_OK;
    }
    if (roff) {
        page_arg a = {e};
        if (render_with_table(e, page, &a) != 0)
            return cli_error(EXIT_DEVICE, cmd, "%s never reached its option table", e->name);
        return EXIT_OK;
    }
    if (!e) {
        cli_usage(stdout);
        return EXIT_OK;
    }
    char help[] = "--help";
    char *av[] = {help, NULL};
    return e->run(1, av);
}
