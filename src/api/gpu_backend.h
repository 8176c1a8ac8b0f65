/* Which GPU backend this build has. Chosen here, above the backends, because the choice names
 * them (src/cuda's table) and core sits below them: core only holds the table a context was
 * given (core/gpu.h). */
#ifndef KILN_API_GPU_BACKEND_H
#define KILN_API_GPU_BACKEND_H

#include "../core/gpu.h"

/* The GPU backend compiled into this build, or NULL (built without CUDA). */
const kiln_gpu_ops *kiln_gpu_backend(void);

#endif
