/* The hand-written part of each manual page: what a command is for, its output, exit status and
 * examples. The NAME, SYNOPSIS and OPTIONS come from the command tables (cli/common/commands.c and each
 * command's options), so nothing here repeats an option's help; the markup is cli/help/render.h's. */
#include <string.h>

#include "render.h"

static const struct {
    const char *name;
    const char *text;
} pages[] = {
    {"kiln",
     "kiln runs the classic GPU-parallel workloads of proof-of-work and hashing (Bitcoin SHA-256d mining,\n"
     "solo or for a Stratum pool, scrypt mining and key derivation, SHA-2, SHA-3, SHAKE and Keccak\n"
     "digests, Merkle trees) and PageRank, on NVIDIA GPUs through CUDA and on every CPU core. Every\n"
     "result a GPU produces is recomputed on the CPU before it is reported.\n"
     "\n"
     "Each command has its own page, kiln-<command>(1), and lists its options with `--help`. Every\n"
     "option is written `--name VALUE` or `--name=VALUE`. An unknown option, a missing or bad value, two\n"
     "options that exclude each other, or an option the chosen mode would ignore is refused with one line\n"
     "on standard error, `kiln <command>: <message>`, and exit status 2.\n"
     "DEVICES\n"
     "Commands that compute take `--device`: `auto` (the default), `cpu`, `cuda` (the first GPU) or\n"
     "`cuda:N`. `auto` takes the first GPU when there is one, else the CPU, and leaves each workload one\n"
     "rule: hashing files goes to the GPU only from 256 MiB of input, and an edge list becomes a CSR on\n"
     "the GPU only from 2^22 edges; everything else runs on the GPU. `kiln devices` lists what this\n"
     "machine has.\n"
     "EXIT STATUS\n"
     "@ `0`\n"
     "success\n"
     "@ `1`\n"
     "nothing found, or a check failed\n"
     "@ `2`\n"
     "bad usage or bad input, with a one-line message on standard error\n"
     "@ `3`\n"
     "a device or system failure, e.g. `--device cuda` without a GPU, or standard output that cannot be\n"
     "written\n"
     "@ `130`, `143`\n"
     "stopped by SIGINT or SIGTERM, within a second and with no partial output (mining instead stops at\n"
     "the next launch and prints its summary, exit 0)\n"
     "ENVIRONMENT\n"
     "@ `XDG_CACHE_HOME`, `HOME`\n"
     "where `kiln tune` keeps the launch shapes it measured: $XDG_CACHE_HOME/kiln/tune.txt, else\n"
     "~/.cache/kiln/tune.txt\n"
     "@ `OMP_WAIT_POLICY`\n"
     "kiln sets it to `PASSIVE` unless it is set, so that idle CPU threads sleep rather than spin on a\n"
     "busy machine\n"
     "@ `KILN_NCCL`, `KILN_EXCHANGE_TIMEOUT`\n"
     "PageRank over several GPUs: `KILN_NCCL=0` exchanges without NCCL; a wait for a peer gives up\n"
     "after `KILN_EXCHANGE_TIMEOUT` seconds (default 300)\n"
     "EXAMPLES\n"
     "    kiln mine --demo\n"
     "    kiln hash --algo sha3-256 file\n"
     "    kiln pagerank --rmat 20 --top 5\n"
     "    kiln version\n"},
    {"mine",
     "Searches the nonces of an 80-byte Bitcoin block header (160 hex characters in serialized order, as\n"
     "`bitcoin-cli getblockheader <hash> false` prints them) for block hashes that meet a target, or\n"
     "mines for a Stratum v1 pool with `--pool`.\n"
     "\n"
     "Without `--bits` or `--target` the target is the header's own nBits. The search covers `--start`\n"
     "to the end of the 2^32 nonce space unless `--count` bounds it, and stops at the first nonce found\n"
     "(the lowest in its launch) unless `--all` is given. Every nonce a GPU reports is verified on the\n"
     "CPU. With `--algo scrypt` the header is Litecoin-style and the proof-of-work hash is scrypt(header,\n"
     "header, N=1024, r=1, p=1). A GPU search uses the launch shape cached by `kiln tune`. When standard\n"
     "error is a terminal a progress line shows the rate, the share done and the time left.\n"
     "OUTPUT\n"
     "One line `nonce=<decimal> hash=<block hash>` per nonce found (the hash byte-reversed, as block\n"
     "explorers show it), then `hashes=<n> seconds=<s> rate=<H/s>`; `--json` prints one JSON object\n"
     "instead. With `--pool`, connection events, jobs and share results go to standard error and a\n"
     "summary to standard output.\n"
     "EXIT STATUS\n"
     "0 when a nonce was found (or `--duration` ran out, or a pool session ended), 1 when the range was\n"
     "exhausted without one, 2 for bad input (a target of zero is refused), 3 when no device or no pool\n"
     "can be reached (a pool that does not answer is retried for the whole run unless `--retries`).\n"
     "cpuminer's and cgminer's options are kiln's: `-a -o -u -p -t -r`, `--benchmark`, `-c FILE` (JSON whose\n"
     "keys are the long option names, and `url`); `-x` is refused: kiln has no proxy.\n"
     "EXAMPLES\n"
     "Block 840000 with its nonce cleared; kiln finds the real nonce:\n"
     "    kiln mine --demo\n"
     "\n"
     "A header kept in a file, every nonce of the first 10^8 that meets a compact target, on the CPU:\n"
     "    kiln mine --header \"$(cat header.hex)\" --bits 1d00ffff --count 100000000 --all --device cpu\n"
     "\n"
     "For a pool, for ten minutes:\n"
     "    kiln mine --pool stratum+tcp://pool.example.com:3333 --user WORKER --duration 600\n"},
    {"devices",
     "Lists the CPU and every GPU this kiln can use, then every workload of the registry with its kinds,\n"
     "the devices that run it and what it is. The CPU line ends with the kernel each CPU dispatch chose:\n"
     "the fastest this processor supports whose known-answer self-test passed on it.\n"
     "EXAMPLES\n"
     "    kiln devices\n"
     "    kiln devices --json\n"},
    {"selftest",
     "Runs a known-answer check of every workload of the registry that has one on one device: the FIPS\n"
     "180-4 SHA-256 examples, a search of the genesis block that must find its real nonce, RFC 7914's\n"
     "scrypt vector and a scrypt search of a real Litecoin block, the SHA-3 and Keccak test vectors.\n"
     "EXIT STATUS\n"
     "0 when every check passed, 1 naming the first that failed, 3 when the device cannot be used.\n"
     "EXAMPLES\n"
     "    kiln selftest --device cuda\n"},
    {"bench",
     "Measures rates: the median of repeated passes after a warm-up, mining with a target nothing meets.\n"
     "Hashes are measured per second for messages of `--size` bytes (on a GPU over a batch resident in\n"
     "device memory); key derivation in hashes per second for its N, r and p; Merkle trees per approach,\n"
     "with launches and time per tree. `--algo all`, the default, measures every workload.\n"
     "EXAMPLES\n"
     "    kiln bench --algo sha256d --device cuda\n"
     "    kiln bench --algo all --device cpu --json\n"
     "    kiln bench --algo scrypt-kdf --device cuda -N 1024 -r 1 -p 1\n"
     "    kiln bench --algo merkle-sha256d --leaves 2^24\n"},
    {"tune",
     "Sweeps the launch shapes of a GPU kernel (threads per block by nonces per thread for mining, the\n"
     "layout and lookup gap for scrypt, threads per block by subtree height for Merkle trees), prints the\n"
     "rate of each and caches the best per algorithm and GPU model; `kiln mine`, `kiln bench` and\n"
     "`kiln merkle` use it from then on.\n"
     "FILES\n"
     "@ $XDG_CACHE_HOME/kiln/tune.txt, else ~/.cache/kiln/tune.txt\n"
     "the cache: plain text, one line per algorithm and device\n"
     "EXAMPLES\n"
     "    kiln tune --algo sha256d --device cuda:0\n"
     "    kiln tune --algo scrypt\n"
     "    kiln tune --algo merkle-rp64\n"},
    {"pagerank",
     "Computes PageRank as NetworkX defines it: damping d, teleport and dangling nodes' rank uniform\n"
     "unless given, iterations until the L1 change is below N times the tolerance or `--max-iter` is\n"
     "reached, ranks that sum to 1. The graph is a SNAP edge list or a Matrix Market file (either\n"
     "optionally gzip-compressed; `-` or a pipe reads standard input), a CSR cache written by\n"
     "`--save-csr`, or a Graph500 RMAT graph generated on the spot. Its format is told from its first\n"
     "bytes, and node ids are reported as the file has them. On a GPU the ranks are float32 with float64\n"
     "sums (`--precision float64` on request); the CPU computes in float64.\n"
     "OUTPUT\n"
     "`rank<TAB>node<TAB>score` lines for the best nodes (the top 10 unless `--top` or `--output` is\n"
     "given); `--output` writes `node<TAB>score` for every node, whole or not at all; `--json` gives the\n"
     "iterations, the residual, the time per iteration and edges per second.\n"
     "EXIT STATUS\n"
     "0 on convergence, 1 when `--max-iter` was reached first (the ranks are still printed), 2 for a\n"
     "malformed input (naming FILE:LINE) or bad options, 3 for a device failure.\n"
     "EXAMPLES\n"
     "    kiln pagerank facebook_combined.txt --undirected --top 3\n"
     "    kiln pagerank --rmat 24 --device cuda --tol 0 --max-iter 20 --json\n"
     "    zcat graph.txt.gz | kiln pagerank - --top 10\n"
     "    kiln pagerank g.txt --weighted --personalization p.tsv --top 10\n"},
    {"merkle",
     "Computes Merkle roots, whole trees and inclusion proofs, and checks raw Bitcoin blocks. A level of\n"
     "odd length pairs its last node with itself (Bitcoin's rule) for every algorithm. sha256d hashes are\n"
     "read and printed byte-reversed, as explorers show txids; the others in natural byte order (an\n"
     "rp64_256 node is four little-endian 64-bit field elements). On a GPU the tree is built in device\n"
     "memory and its top levels and a sample of nodes are checked again on the CPU.\n"
     "EXIT STATUS\n"
     "0 on success; 1 when a proof does not verify, or a block's computed root differs from its header's\n"
     "or the header misses its own target; 2 for bad input (a truncated or malformed block names the byte\n"
     "offset).\n"
     "EXAMPLES\n"
     "    kiln merkle --block block.raw\n"
     "    kiln merkle --leaves txids.txt --proof 5 > proof\n"
     "    kiln merkle --verify proof --leaf TXID --index 5 --count 1557\n"
     "    kiln merkle --algo rp64_256 --leaves digests.txt --tree\n"},
    {"hash",
     "Prints digests of files in sha256sum's format, and checks lists of them with `--check`. Lists are\n"
     "coreutils' format byte for byte: a name with a newline, a backslash or a carriage return is escaped\n"
     "as sha256sum does; `--tag` writes BSD-style lines, and `--check` reads both forms (without `--algo`\n"
     "each tagged line's tag chooses the hash). A list is read line by line in bounded memory. The keccak\n"
     "names are the original Keccak padding (Ethereum's keccak256), the sha3 names FIPS 202's.\n"
     "\n"
     "Files stream on the CPU in constant memory. With `--device cuda`, or `auto` when files of up to\n"
     "1 MiB hold 256 MiB or more, those files are hashed in batches on the GPU.\n"
     "EXIT STATUS\n"
     "0 when every input was hashed or every listed file matched; 1 when a listed file did not match or\n"
     "could not be read; 2 when a FILE named on the command line could not be read (the others are still\n"
     "hashed) or the list has no properly formatted line. sha256sum's options are kiln's: `-a`, `-c` with\n"
     "several lists, `--status`, `--strict` (improperly formatted lines fail, exit 1), `--ignore-missing`,\n"
     "`-w`, `-z`, with sha256sum's outputs and exit statuses (a list that cannot be read is exit 2).\n"
     "EXAMPLES\n"
     "    kiln hash --algo sha3-256 file1 file2\n"
     "    kiln hash --algo sha256 --tag *.iso > SHA256SUMS\n"
     "    kiln hash --check SHA256SUMS\n"
     "    kiln hash -c --status --ignore-missing SHA256SUMS other.sums\n"
     "    kiln hash --algo shake256 --length 16 file\n"},
    {"scrypt",
     "Derives a key with scrypt (RFC 7914) from one password and salt on the CPU, the p lanes spread over\n"
     "`--threads`, and prints it as lowercase hex. A password file's bytes are used exactly. Parameters\n"
     "outside RFC 7914's limits, or a scratchpad of 128*r*N bytes the host cannot hold, are refused\n"
     "(exit 2). Many passwords at once go through the library's kiln_scrypt_batch, on the CPU or a GPU.\n"
     "EXAMPLES\n"
     "RFC 7914's second test vector:\n"
     "    kiln scrypt --password password --salt NaCl -N 1024 -r 8 -p 16\n"
     "\n"
     "    kiln scrypt --password-file pw.bin --salt-hex 536f6469756d --length 32\n"},
    {"version",
     "Prints `kiln VERSION`, with `git describe` of the checkout it was built from when it was built from\n"
     "one, then how it was built: CUDA and the GPU architectures compiled for, NCCL, zlib\n"
     "(gzip-compressed graph files), MPI, the CPU kernels compiled in, pool mining (jansson), TLS pools\n"
     "(OpenSSL), node mining (libcurl), and the CPU features and kernels this machine uses.\n"
     "`kiln --version` and `kiln -V` print the same.\n"
     "EXAMPLES\n"
     "    kiln version\n"
     "    kiln version --short\n"},
    {"help",
     "Prints the help of kiln or of COMMAND, the manual page of kiln or of COMMAND as roff, or a shell\n"
     "completion script. The manual pages and completion scripts installed with kiln are written this\n"
     "way when kiln is built, from the same option tables that parse the command line and print --help.\n"
     "EXAMPLES\n"
     "    kiln help --roff hash | man -l -\n"
     "    source <(kiln help --completion bash)\n"
     "    kiln help --completion zsh > ~/.zsh/functions/_kiln\n"},
};

const char *cli_manual_text(const char *name)
{
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
        if (strcmp(name, pages[i].name) == 0) return pages[i].text;
    return NULL;
}
