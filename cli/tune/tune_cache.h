/* The tuning cache: the best GPU launch shape per algorithm, GPU model and backend, as plain text
 * in $XDG_CACHE_HOME/kiln/tune.txt (else ~/.cache/kiln/tune.txt), one line per entry:
 *   <algo> TAB <device> TAB <threads per block> TAB <items per thread> TAB <rate H/s>
 * <device> is the model as `kiln devices` names it for a CUDA GPU, and "opencl:" and the model for
 * an OpenCL device: one GPU seen through both backends runs different kernels, so each keeps its
 * own shape, and the files written before OpenCL could be tuned (CUDA's entries, no prefix) still
 * mean what they meant.
 * For "merkle-*" entries the items column holds the subtree height k (1..12). scrypt entries
 * (algo "scrypt", or "scrypt-kdf" for the batch KDF) have two more fields:
 *   ... TAB <threads per hash> TAB <lookup gap>
 * The cache is read whole, and only when it is a regular file of at most TUNE_CACHE_MAX bytes
 * (thousands of entries): a cache that is a device (a link to /dev/zero), a FIFO, a directory or
 * larger is ignored with a warning on stderr, never read on and on. */
#ifndef KILN_CLI_TUNE_CACHE_H
#define KILN_CLI_TUNE_CACHE_H

#include <stddef.h>

#include "kiln.h"

#define TUNE_CACHE_MAX (1 << 20)
#define TUNE_CACHE_MAX_TEXT "1 MiB"

typedef struct tune_entry {
    char algo[32];
    char device[160]; /* the key tune_cache_device_key writes */
    kiln_launch launch;
    double rate;
    kiln_scrypt_shape shape; /* {0, 0} on lines without the scrypt fields */
} tune_entry;

/* 0 on success, -1 when neither XDG_CACHE_HOME nor HOME is set or the path is too long. */
int tune_cache_path(char *out, size_t n);
/* Parses one line (without or with its newline). 0 on success, -1 for a comment, blank or
 * malformed line. */
int tune_cache_parse_line(const char *line, tune_entry *e);
/* 0 when the cache's text (len bytes, any bytes) has an entry for algo and device, its last one
 * into *out; -1 otherwise. Lines of 512 bytes or more, and lines holding a NUL, are malformed. */
int tune_cache_scan(const char *text, size_t len, const char *algo, const char *device, tune_entry *out);
/* 0 when the file has an entry for algo and device (its last one). */
int tune_cache_lookup(const char *path, const char *algo, const char *device, tune_entry *out);
/* Adds or replaces the entry, creating the directory; 0 on success, -1 with errno set. An old
 * cache that cannot be read as above is replaced by this entry alone (with a warning). */
int tune_cache_store(const char *path, const tune_entry *e);
/* The <device> an entry of a GPU context is kept under: its GPU model (its device name; on a set,
 * its first device's, as every device of a set runs one shape), "opencl:" before it on OpenCL. */
const char *tune_cache_device_key(const kiln_ctx *ctx, char *buf, size_t n);
/* Stores the tuning result e under algo and the context's tune_cache_device_key, and tells the
 * user where it went (stdout) or why it was not cached (stderr). */
void tune_cache_save(kiln_ctx *ctx, const char *algo, tune_entry *e);
/* Applies the cached launch shape of a workload's kind (its bench name) to a GPU context, the entry
 * of its tune_cache_device_key (so a CUDA context takes only CUDA entries, an OpenCL one only
 * OpenCL's); does nothing for the CPU or without an entry. A tree's shape goes into the fields of
 * *tree left 0. */
void tune_cache_apply(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, kiln_merkle_opts *tree);

#endif
