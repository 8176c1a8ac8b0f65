#include "commands.h"

#include <string.h>

#include "cli.h"

const char cli_summary[] = "proof-of-work, hashing, Merkle trees and PageRank on CPUs and NVIDIA GPUs";

const cli_entry cli_commands[] = {
    {"mine", cmd_mine, "search nonces of a block header (--demo for a real block)"},
    {"devices", cmd_devices, "list the CPU and GPUs kiln can use"},
    {"selftest", cmd_selftest, "known-answer checks of every algorithm on a device"},
    {"bench", cmd_bench, "measure hash rates"},
    {"tune", cmd_tune, "sweep GPU launch shapes, print the table, cache the best"},
    {"pagerank", cmd_pagerank, "PageRank of a graph file or an RMAT graph"},
    {"merkle", cmd_merkle, "Merkle roots, proofs and raw Bitcoin blocks"},
    {"hash", cmd_hash, "SHA-2, SHA-3, SHAKE and Keccak digests of files (sha256sum format, --check)"},
    {"scrypt", cmd_scrypt, "the scrypt key derivation function (RFC 7914)"},
    {"version", cmd_version, "the version and how this kiln was built (also kiln --version, -V)"},
    {"help", cmd_help, "a command's help, its manual page as roff, or a shell completion script"},
};

const size_t cli_ncommands = sizeof cli_commands / sizeof cli_commands[0];

const cli_entry *cli_command_find(const char *name)
{
    for (size_t i = 0; i < cli_ncommands; i++)
        if (strcmp(name, cli_commands[i].name) == 0) return &cli_commands[i];
    return NULL;
}

void cli_usage(FILE *out)
{
    fprintf(out, "usage: kiln <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < cli_ncommands; i++) fprintf(out, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
    fprintf(out, "\n'kiln <command> --help' lists a command's options; kiln-<command>(1) is its manual page.\n");
}
