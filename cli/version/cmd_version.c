/* kiln version (also kiln --version and -V): the version, the checkout it was built from, how it
 * was built, and what this CPU runs. The library's part comes from kiln_build_info(); what only the
 * command line has (pool, TLS and node mining) from the build's configure header. */
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "common/commands.h"
#include "common/opts.h"
#include "kiln_build.h" /* written by CMake from share/kiln_build.h.in */

static const char *git_describe = "";

void cli_version_set_git(const char *describe) { git_describe = describe ? describe : ""; }

int cmd_version(int argc, char **argv)
{
    int brief = 0;
    cli_option opts[] = {{"--short", OPT_FLAG, &brief, NULL, "print the version number only", .modes = 0}};
    cli_command c = CLI_COMMAND("version", "[--short]",
                                "Prints the version, then one 'name: value' line per build option.\n", opts);
    int code = cli_parse(&c, argc, argv);
    if (code) return code == CLI_HELP ? EXIT_OK : code;
    if (brief) {
        printf("%s\n", kiln_version());
        return EXIT_OK;
    }
    printf("kiln %s", kiln_version());
    if (*git_describe) printf(" (git %s)", git_describe);
    printf("\n");
    /* a shared library other than the one this kiln was built with */
    if (strcmp(kiln_version(), KILN_BUILD_VERSION) != 0) printf("built with: libkiln %s\n", KILN_BUILD_VERSION);
    fputs(kiln_build_info(), stdout);
    printf("pool mining: %s\n", KILN_BUILD_POOL ? "on (jansson)" : "off");
    printf("tls pools: %s\n", KILN_BUILD_TLS ? "on (OpenSSL)" : "off");
    printf("node mining: %s\n", KILN_BUILD_SOLO ? "on (libcurl, jansson)" : "off");
    kiln_device_info cpu;
    if (kiln_device_get(0, &cpu) == KILN_OK) printf("this cpu: %s\n", cpu.features);
    return EXIT_OK;
}
