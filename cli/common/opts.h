/* The one option parser of the command line: each command declares its options in a table, and
 * parsing, --help and the "does not apply here" checks all read that table, so an option is
 * written once. Errors are one line, "kiln <cmd>: <message>", exit 2. */
#ifndef KILN_CLI_OPTS_H
#define KILN_CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "kiln.h"

/* A macro's value as a string literal: a help line names a default defined elsewhere. */
#define CLI_STR(x) CLI_STR_(x)
#define CLI_STR_(x) #x

typedef enum opt_kind {
    OPT_FLAG, /* int, set to 1 */
    OPT_STR, /* const char * */
    OPT_U64, /* uint64_t in lo..hi (decimal or 0x-hex) */
    OPT_SECONDS, /* double, > 0 and <= hi */
    OPT_REAL, /* double, finite, min <= v <= max (v < max with .below_max); max INFINITY: no maximum */
    OPT_CHOICE, /* int: one of the words of `value` ("auto|grid|persistent"), stored as choices[i] (NULL: i) */
    OPT_DEVICE, /* const char *, opened by cli_open */
    OPT_ALGO, /* const char *, a name of the registry (kinds; bench/tune names when `bench`) */
    OPT_LIST, /* const char *[hi]: repeatable */
} opt_kind;

typedef struct cli_option {
    const char *name; /* "--algo", or "-N" for a one-letter option */
    opt_kind kind;
    void *dest;
    const char *value; /* the value's name in --help ("HEX64"), NULL for flags; the manual and the
                          shell completions read it too: "a|b|c" are the words it can be, a name
                          ending in FILE (or LIST, F) completes as a file name (cli/help/render.h) */
    const char *help;
    unsigned modes; /* the modes it applies to (the command's bits); 0: every mode */
    uint64_t lo, hi; /* OPT_U64 range, OPT_SECONDS / OPT_LIST maximum */
    double min, max; /* OPT_REAL range */
    int below_max; /* OPT_REAL: max itself is out of range (a damping factor is < 1) */
    const int *choices; /* OPT_CHOICE: the value of each word, in order, or NULL: its index */
    unsigned kinds; /* OPT_ALGO: kiln_kind bits listed in --help */
    int bench; /* OPT_ALGO: list bench (1) or tune (2) names */
    int gpu_only; /* applies to GPU devices only */
    int given; /* set by the parser: times the option was seen */
    char short_name; /* 'a': also given as -a VALUE (or -aVALUE), as the tools users know name it; 0: none.
                        --help, the manual and the completions show it */
} cli_option;

typedef struct cli_command {
    const char *name; /* "mine" */
    const char *usage; /* the synopsis after "usage: kiln <name> " */
    const char *notes; /* text after the option list, or NULL */
    cli_option *opts;
    size_t nopts;
    const char **pos; /* positional arguments, or NULL when the command takes none */
    size_t max_pos, npos;
} cli_command;

/* The output options commands share, each declared once here and expanded into the tables that
 * take them: --json (every command that prints results), and --quiet and --progress (those with
 * long jobs). `modes` as for any option. */
typedef struct cli_output {
    int json, quiet, progress;
} cli_output;
#define CLI_OPT_JSON(out, modes_)                                                                    \
    {"--json", OPT_FLAG, &(out)->json, NULL, "print the result as one JSON object (docs/JSON.md)", \
     .modes = (modes_)}
#define CLI_OPT_PROGRESS(out, modes_)                                                                 \
    {"--quiet", OPT_FLAG, &(out)->quiet, NULL, "no progress line on stderr", .modes = (modes_)},      \
    {"--progress", OPT_FLAG, &(out)->progress, NULL, "a progress line on stderr even when it is not a terminal", \
     .modes = (modes_)}

/* The --device option, declared once: its values as --help, the manual and the completions show
 * them (the syntax kiln_device_parse reads, include/kiln.h), and the row every command's table
 * takes, with the command's own help text and modes. A command that runs on GPUs only (tune) takes
 * CLI_DEVICE_GPU_VALUES, one that runs on one device at a time (selftest) CLI_DEVICE_ONE_VALUES. */
#define CLI_DEVICE_GPUS "cuda|cuda:I|cuda:I,J|cuda:all|opencl|opencl:I|opencl:I,J|opencl:all"
#define CLI_DEVICE_VALUES "auto|cpu|" CLI_DEVICE_GPUS
#define CLI_DEVICE_GPU_VALUES "auto|" CLI_DEVICE_GPUS
#define CLI_DEVICE_ONE_VALUES "auto|cpu|cuda|cuda:I|opencl|opencl:I"
#define CLI_OPT_DEVICE(dest, values, help_, modes_) {"--device", OPT_DEVICE, (dest), (values), (help_), .modes = (modes_)}

/* scrypt's cost parameters, -N, -r and -p (kiln scrypt, and the key derivation of bench and tune),
 * declared once with RFC 7914's example values as defaults (those of tune's cache). */
typedef struct cli_scrypt_cost {
    uint64_t N, r, p;
} cli_scrypt_cost;
#define CLI_SCRYPT_N 16384
#define CLI_SCRYPT_R 8
#define CLI_SCRYPT_P 1
#define CLI_SCRYPT_COST_DEFAULT {CLI_SCRYPT_N, CLI_SCRYPT_R, CLI_SCRYPT_P}
#define CLI_OPT_SCRYPT_COST(cost, modes_)                                                                    \
    {"-N", OPT_U64, &(cost)->N, "n", "scrypt CPU/memory cost N, a power of two > 1 (default " CLI_STR(CLI_SCRYPT_N) ")", \
     .modes = (modes_), .hi = UINT64_MAX},                                                                  \
    {"-r", OPT_U64, &(cost)->r, "r", "scrypt block size r (default " CLI_STR(CLI_SCRYPT_R) ")", .modes = (modes_),     \
     .hi = UINT32_MAX},                                                                                     \
    {"-p", OPT_U64, &(cost)->p, "p", "scrypt parallelization p (default " CLI_STR(CLI_SCRYPT_P) ")", .modes = (modes_), \
     .hi = UINT32_MAX}
/* The parsed cost as the library takes it (the table bounds r and p to 32 bits). */
static inline kiln_scrypt_params cli_scrypt_params(const cli_scrypt_cost *c)
{
    return (kiln_scrypt_params){c->N, (uint32_t)c->r, (uint32_t)c->p};
}

#define CLI_HELP (-1)
#define CLI_COMMAND(name, usage, notes, opts) {name, usage, notes, opts, sizeof opts / sizeof opts[0], NULL, 0, 0}

/* Parses argv into the table's destinations. Returns 0, CLI_HELP after printing --help to stdout
 * (or handing the table to the help hook), or the exit code after printing the error. When the
 * table has --json and it is among the arguments (as an option, not as another option's value),
 * JSON mode is on (json_out.h) before anything is parsed, so that an error in the arguments is a
 * JSON document too. */
int cli_parse(cli_command *c, int argc, char **argv);
/* After cli_parse, for a command with CLI_OPT_PROGRESS: refuses --quiet with --progress and starts
 * the progress display (progress.h): on a terminal, or as the options say. 0 or the exit code. */
int cli_output_start(cli_command *c, const cli_output *out);

/* What --help does instead of printing the help, while a hook is set: `kiln help --roff` and
 * `--completion` run a command with "--help" to reach its table (the command's options are built
 * in the command, so this is how the manual and the completions read the very rows --help lists;
 * a command therefore parses its table before it does anything else). NULL restores the help. */
typedef void (*cli_help_hook)(const cli_command *c, void *arg);
void cli_set_help_hook(cli_help_hook fn, void *arg);
/* The text of an option's --help line: its help, then (with_list) the algorithm names it accepts,
 * "(GPU only)" and "(repeatable)". The manual leaves the names out to list them described. */
void cli_option_help(const cli_option *o, int with_list, char *out, size_t n);
/* "-a, --algo" (with the short name) or "--algo": how --help and the manual name an option. */
void cli_option_names(const cli_option *o, char *out, size_t n);
/* Before parsing: how many times argv gives the option called name (by either name), and in
 * *value (when not NULL) the last value given; nothing is stored or refused. */
int cli_peek(cli_command *c, int argc, char **argv, const char *name, const char **value);
/* The option called name (with its dashes), NULL when the table has none. */
cli_option *cli_find(cli_command *c, const char *name);
int cli_given(cli_command *c, const char *name);
/* Refuses options given that do not apply to `mode` (a mask of the command's mode bits):
 * "<option> does not apply to <what>". 0 or the exit code. */
int cli_check_mode(cli_command *c, unsigned mode, const char *what);
/* Refuses GPU-only options on a context whose device is the CPU. 0 or the exit code. */
int cli_check_gpu(cli_command *c, kiln_ctx *ctx);
/* Two options that exclude each other: 0 or the exit code. */
int cli_exclusive(cli_command *c, const char *a, const char *b);

/* The workload called name among kinds; prints the library's message and sets *code when none. */
const kiln_workload *cli_workload(const char *cmd, const char *name, unsigned kinds, int *code);
/* The same for a bench (tune = 0) or tune (tune = 1) name; *kind receives its kind. */
const kiln_workload *cli_bench_workload(const char *cmd, const char *name, int tune, kiln_kind *kind, int *code);

#endif
