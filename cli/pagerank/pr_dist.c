/* The processes other than 0 write their stdout to /dev/null and their stderr to an unlinked
 * temporary file, whose last line is the message process 0 prints when such a process fails (a
 * bad input only it could not read, say), so one line tells the user what went wrong. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "pr_dist.h"

static FILE *captured; /* stderr's file on processes other than 0 */

int pr_dist_start(const char *cmd, kiln_dist **d)
{
    *d = NULL;
    if (!kiln_dist_launched()) return 0;
    kiln_status st = kiln_dist_open(NULL, d);
    if (st != KILN_OK) return cli_error(EXIT_DEVICE, cmd, "cannot join the MPI processes");
    if (kiln_dist_rank(*d) != 0) {
        fflush(stdout);
        fflush(stderr);
        if (!freopen("/dev/null", "w", stdout)) return cli_error(EXIT_DEVICE, cmd, "cannot silence process %d", kiln_dist_rank(*d));
        captured = tmpfile();
        if (captured) dup2(fileno(captured), fileno(stderr));
        else if (!freopen("/dev/null", "w", stderr)) return EXIT_DEVICE;
    }
    return 0;
}

/* The last non-empty line this process wrote to stderr, or "". */
static void last_line(char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!captured) return;
    fflush(stderr);
    long end = lseek(fileno(stderr), 0, SEEK_END);
    long from = end > (long)cap - 1 ? end - (long)cap + 1 : 0;
    ssize_t got = pread(fileno(stderr), buf, cap - 1, from);
    if (got <= 0) return;
    buf[got] = '\0';
    while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r')) buf[--got] = '\0';
    char *nl = strrchr(buf, '\n');
    if (nl) memmove(buf, nl + 1, strlen(nl + 1) + 1);
}

int pr_dist_agree(const char *cmd, kiln_dist *d, int code)
{
    if (!d) return code;
    char why[400], msg[512];
    const char *w = "failed";
    if (code) {
        last_line(why, sizeof why);
        /* its own "kiln CMD: " goes: process 0 puts it before the process's number */
        char prefix[64];
        snprintf(prefix, sizeof prefix, "kiln %s: ", cmd);
        w = strncmp(why, prefix, strlen(prefix)) == 0 ? why + strlen(prefix) : why[0] ? why : w;
    }
    kiln_status all = kiln_dist_agree(d, (kiln_status)code, w, msg, sizeof msg);
    /* a process that failed has said so itself */
    if (all && !code) cli_error((int)all, cmd, "%s", msg);
    return (int)all;
}

int pr_dist_root(const kiln_dist *d) { return !d || kiln_dist_rank(d) == 0; }

void pr_dist_end(kiln_dist *d) { kiln_dist_close(d); }
