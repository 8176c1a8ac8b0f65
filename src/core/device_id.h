/* The words and nouns each backend is named by, written once for the whole library: the specs'
 * words ("cuda", kiln_backend_name), one device's spec ("cuda:1", kiln_device_spec, include/kiln.h)
 * and the nouns of the messages that say a device is missing. Core holds them, below the layers
 * that name devices (core's own kiln_gpu_each, src/api, and through the public functions the CLI). */
#ifndef KILN_CORE_DEVICE_ID_H
#define KILN_CORE_DEVICE_ID_H

#include "kiln.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "CUDA GPU", "OpenCL device", "CPU": one device of the backend, in a message. */
const char *kiln_backend_noun(kiln_backend backend);
/* "CUDA", "OpenCL": the runtime a build may leave out ("kiln was built without CUDA"). */
const char *kiln_backend_runtime(kiln_backend backend);

#ifdef __cplusplus
}
#endif

#endif
