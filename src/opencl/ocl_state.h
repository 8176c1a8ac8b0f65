/* The OpenCL backend's own declarations: the device handle behind core/gpu.h's kiln_gpu, the
 * flattened device list (every platform's devices, one ordinal each), the checked-call helper and
 * the program build. Reached by the rest of the library only through kiln_opencl_ops
 * (ocl_ops.c). */
#ifndef KILN_OPENCL_STATE_H
#define KILN_OPENCL_STATE_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <string.h>

#include "../core/gpu.h"

struct kiln_gpu {
    kiln_ctx *ctx;
    int ordinal;
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue; /* in order, profiling on: kernel times from events */
    /* the embedded programs (one a .cl file of kernels/, ocl_program.c), each built on first use of
     * one of its kernels: kiln_ocl_program_count() slots, then as many for the same programs
     * built on NVIDIA with at most KILN_OCL_CAPPED_REGS registers a work-item (the driver's
     * -cl-nv-maxrregcount; OpenCL has no launch bounds), for the kernels whose occupancy the
     * caller must know (scrypt's ROMix kernel 2). NULL until the first kernel is asked for. */
    cl_program *programs;
    char name[128];
    /* clBuildProgram's options: the OpenCL C version, and KILN_OCL_NV=1 on NVIDIA's driver, whose
     * compiler takes inline PTX (funnel shifts, warp shuffles) that OpenCL C 1.2 cannot name */
    char build_options[64];
    cl_mem tree; /* the Merkle tree (ocl_tree.c), tree_cap nodes of 32 bytes, kept between builds */
    uint64_t tree_cap;
    double tree_rate; /* the tree builds' merges a second, measured where they wait (0: not yet) */
    /* scrypt's scratchpads (ocl_scrypt.c), kept between calls as the CUDA backend keeps its
     * scratch: a search range or a KDF batch takes a fraction of a second, and allocating tens of
     * GB again each time would show in it. scrypt_nbuf buffers of scrypt_buf_bytes each. */
    cl_mem scrypt_v[4];
    int scrypt_nbuf;
    uint64_t scrypt_buf_bytes;
    /* OpenCL cannot say how much device memory is free, and a driver may refuse at launch what
     * clCreateBuffer accepted (NVIDIA's places buffers lazily): each such refusal takes a quarter
     * off the scratchpads' memory budget for the handle's life (ocl_scrypt.c). scrypt_alloc_refused:
     * the last launch failed for memory. */
    int scrypt_budget_backoffs;
    int scrypt_alloc_refused;
};

/* The name of an OpenCL error code ("CL_OUT_OF_RESOURCES"), or "OpenCL error <n>". */
const char *kiln_ocl_error_name(cl_int err, char buf[32]);

/* KILN_ERR_DEVICE "OpenCL <what> failed: <code name>" into ctx, or KILN_OK when err is CL_SUCCESS. */
kiln_status kiln_ocl_check(kiln_ctx *ctx, cl_int err, const char *what);
#define KILN_OCL_TRY(ctx, call, what)                                     \
    do {                                                                  \
        kiln_status kiln_ocl_st_ = kiln_ocl_check((ctx), (call), (what)); \
        if (kiln_ocl_st_ != KILN_OK) return kiln_ocl_st_;                 \
    } while (0)

/* Devices of every platform, in platform order: the number (0 without a loader's platform), and
 * device `ordinal` with its platform. */
int kiln_ocl_device_count(void);
/* Whether opencl:ordinal is a CPU device (gpu.h, host_cores). */
int kiln_ocl_host_cores(int ordinal);
kiln_status kiln_ocl_device_at(kiln_ctx *ctx, int ordinal, cl_platform_id *platform, cl_device_id *device);
kiln_status kiln_ocl_device_info(kiln_ctx *ctx, int ordinal, kiln_device_info *out);
kiln_status kiln_ocl_open(kiln_ctx *ctx, int ordinal, kiln_gpu **out);
void kiln_ocl_close(kiln_gpu *g);

/* The embedded programs (ocl_program.c): how many, program i's name (its kernels/ file's name
 * without .cl; NULL past the end), and program i built for the handle's device (from the cache or
 * anew, kept by the handle). A kernel builds its own program: these are for warming the cache. */
int kiln_ocl_program_count(void);
const char *kiln_ocl_program_name(int i);
kiln_status kiln_ocl_program_at(kiln_gpu *g, int i, cl_program *out);
/* Releases the handle's built programs (kiln_ocl_close). */
void kiln_ocl_release_programs(kiln_gpu *g);
/* Builds `source` for the handle's device from source (no cache): the failure's message carries
 * the device and the first lines of the build log. For the tests of that message. */
kiln_status kiln_ocl_build_source(kiln_gpu *g, const char *source, cl_program *out);

/* Whether the device is NVIDIA's driver (its build options define KILN_OCL_NV: ocl_device.c). */
static inline int kiln_ocl_is_nv(const kiln_gpu *g) { return strstr(g->build_options, "KILN_OCL_NV") != NULL; }
/* A kernel by name (the caller releases it), from the program whose file has it, built on first use. */
kiln_status kiln_ocl_kernel(kiln_gpu *g, const char *name, cl_kernel *out);
/* The same from the register-capped build on NVIDIA (program_capped), from the program elsewhere. */
#define KILN_OCL_CAPPED_REGS 128
kiln_status kiln_ocl_kernel_capped(kiln_gpu *g, const char *name, cl_kernel *out);
/* Runs kernel over global work-items (a 1-D range, the runtime picks the group size), waits for
 * it and gives its time in milliseconds from the event's profiling counters. */
kiln_status kiln_ocl_run(kiln_gpu *g, cl_kernel k, size_t global, float *ms);
/* The same with a work-group size of `local` items (global a multiple of it); 0 lets the runtime
 * choose, as kiln_ocl_run does. */
kiln_status kiln_ocl_run_local(kiln_gpu *g, cl_kernel k, size_t global, size_t local, float *ms);

/* A digest batch's parameters this backend has a kernel for, else KILN_ERR_INPUT; and that kernel
 * with its arguments set over device buffers (ocl_batch.c), data padded with 16 readable bytes and
 * 16-byte aligned (a buffer's start). *k is the caller's to release, also after a failure; *local
 * is the work-group size to launch it with (kiln_ocl_run_items). */
kiln_status kiln_ocl_check_digest(kiln_gpu *g, const kiln_gpu_hash_params *p);
/* Frees the handle's scrypt scratchpads (kept between scrypt calls, up to 64% of the device's
 * memory): a scrypt call after this allocates them again. */
void kiln_ocl_scrypt_release(kiln_gpu *g);
kiln_status kiln_ocl_digest_kernel(kiln_gpu *g, const kiln_gpu_hash_params *p, cl_mem data, cl_mem offsets,
                                   int with_offsets, cl_ulong base, cl_ulong msg_len, cl_ulong n, cl_mem out,
                                   cl_kernel *k, size_t *local);
/* The Keccak-f[1600] batch kernel of a layout (not AUTO) over n states in `states`, iters
 * permutations each, its arguments set; *items work-items in groups of *local (ocl_batch.c). */
kiln_status kiln_ocl_perm_kernel(kiln_gpu *g, kiln_keccak_layout layout, cl_mem states, cl_ulong n, cl_uint iters,
                                 cl_kernel *k, size_t *items, size_t *local);
/* Runs k over `items` work-items in groups of local (the range rounded up to whole groups; the
 * kernels return past their end), as kiln_ocl_run_local. */
kiln_status kiln_ocl_run_items(kiln_gpu *g, cl_kernel k, size_t items, size_t local, float *ms);

/* The operations of the table (ocl_batch.c, ocl_search.c, ocl_bench.c). */
kiln_status kiln_ocl_batch(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_batch_io *io, float *gpu_ms);
kiln_status kiln_ocl_batch_bench(kiln_gpu *g, const kiln_gpu_batch *w, const kiln_gpu_bench_spec *spec,
                                 float *median_ms, void *sample_in, void *sample_out);
kiln_status kiln_ocl_search(kiln_gpu *g, const kiln_gpu_search *w, uint32_t start, uint64_t count, uint32_t *cand,
                            uint32_t cap, uint64_t *ncand, float *gpu_ms);

#endif
