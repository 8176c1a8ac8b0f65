/* Shared by the files of the _kiln extension: the exceptions and the mapping of kiln_status to
 * them, and contexts made for one call. */
#ifndef KILN_PY_COMMON_H
#define KILN_PY_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kiln.h"

extern PyObject *kiln_py_DeviceError;
extern PyObject *kiln_py_NotConverged;

/* Sets the exception for st (ValueError, kiln.DeviceError, kiln.NotConverged, KeyboardInterrupt)
 * with the context's message; returns NULL for the caller to return. */
PyObject *kiln_py_raise(kiln_ctx *ctx, kiln_status st);

/* A context on device spec, whose long calls Ctrl-C stops, ("auto", "cpu", "cuda", "cuda:N"). Under "auto" the workload of `kind`
 * and size `work` picks the CPU or the GPU, as the CLI does (kiln_ctx_pick). NULL with the
 * exception set. */
kiln_ctx *kiln_py_ctx(const char *device, kiln_kind kind, uint64_t work);

/* Frees a context of kiln_py_ctx (NULL: nothing). */
void kiln_py_ctx_free(kiln_ctx *ctx);

/* Ctrl-C (interrupt.c): begin installs the SIGINT flag for the context's interrupt poll while a
 * call runs (kiln_py_ctx does it; kiln_py_ctx_free ends it); raise_stopped sets the exception of
 * a call that stopped on it. */
void kiln_py_interrupt_begin(kiln_ctx *ctx);
void kiln_py_interrupt_end(void);
void kiln_py_raise_stopped(void);

/* The hash algorithm named `name` as hashlib.new takes names: hashlib's ("sha3_256"), kiln's in
 * any case ("sha3-256", "KECCAK256"), or any other spelling hashlib.new takes on this Python
 * ("SHA-256": OpenSSL's names); -1 with ValueError set for a name hashlib refuses too, or for an
 * algorithm kiln lacks. */
int kiln_py_algo(const char *name);

/* Module parts: each adds its types and functions to the module. */
int kiln_py_hash_init(PyObject *module);
extern PyMethodDef kiln_py_hash_methods[];
extern PyMethodDef kiln_py_batch_methods[];
extern PyMethodDef kiln_py_scrypt_methods[];
extern PyMethodDef kiln_py_pagerank_methods[];
extern PyMethodDef kiln_py_device_methods[];
extern PyMethodDef kiln_py_nxconv_methods[];
extern PyMethodDef kiln_py_merkle_methods[];
extern PyMethodDef kiln_py_scan_methods[];
extern PyMethodDef kiln_py_block_methods[];
extern PyMethodDef kiln_py_devarray_methods[]; /* devarray.c: CUDA arrays in, CuPy arrays out */

#endif
