/* Which GPU backends this build has. Chosen here, above the backends, because the choice names
 * them (src/cuda's and src/opencl's tables) and core sits below them: core only holds the table a
 * context was given (core/gpu.h). */
#ifndef KILN_API_GPU_BACKEND_H
#define KILN_API_GPU_BACKEND_H

#include "../core/gpu.h"

/* The table of a GPU backend compiled into this build, or NULL (not built, or the CPU). */
const kiln_gpu_ops *kiln_gpu_backend_of(kiln_backend backend);

#endif
