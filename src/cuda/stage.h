/* Copies between pageable host memory and the device at the link's speed: the bytes go through a
 * ring of page-locked buffers on a copy stream of the handle's own, so the host's copy into one
 * buffer, the link's copy of another and the kernels on the handle's stream overlap. A copy from
 * pageable memory straight to the device runs at a fraction of the link (the driver stages it
 * through small buffers of its own, one at a time); page-locked memory is costly to make, so the
 * ring is made once per handle and kept. Used by every large host copy of src/cuda: the Merkle
 * leaves (one device or a set), hash batches' messages and digests. */
#ifndef KILN_CUDA_STAGE_H
#define KILN_CUDA_STAGE_H

#include "cuda_state.h"
#include "host_copy.h"

#define KILN_CUDA_STAGES 3
#define KILN_CUDA_STAGE_BYTES ((size_t)16 << 20) /* each buffer: 0.3 ms at 55 GB/s */

struct kiln_cuda_stage {
    cudaStream_t copy;
    /* an event per buffer recorded after its last copy (the host touches the buffer only once it
     * has fired), and one that orders the copies after earlier work on the handle's stream */
    cudaEvent_t done[KILN_CUDA_STAGES], ready;
    uint8_t *buf[KILN_CUDA_STAGES];
    size_t bytes; /* each buffer */
};

/* Writes source bytes [off, off + len) into dst (page-locked); KILN_OK or a status that ends the copy. */
typedef kiln_status (*kiln_cuda_stage_fill)(void *user, size_t off, size_t len, uint8_t *dst);
/* Called once bytes [0, end) have been queued to land on the device before anything enqueued now
 * on the handle's stream runs: enqueues the work that needs them. */
typedef kiln_status (*kiln_cuda_stage_landed)(void *user, size_t end);

/* The copy stream, the events and buffers of at least `bytes` each (the handle's ring, grown on
 * demand). On failure the ring is closed. */
kiln_status kiln_cuda_stage_open(kiln_gpu *st, size_t bytes);
/* Frees the ring (nothing may be in flight on it). */
void kiln_cuda_stage_close(kiln_gpu *st);

/* total bytes to dst on the device, chunk (<= the ring's buffers) at a time: fill writes each chunk
 * into a buffer on the calling thread (NULL: copied from src by kiln_cuda_host_copy), the copy
 * stream sends it, the handle's stream waits for it, then landed (may be NULL) enqueues what can
 * run on the bytes landed so far. The copies start after the work already on the handle's stream.
 * Leaves work in flight: the caller ends with kiln_cuda_stage_finish. */
kiln_status kiln_cuda_stage_in(kiln_gpu *st, uint8_t *dst, const uint8_t *src, size_t total, size_t chunk,
                               kiln_cuda_stage_fill fill, kiln_cuda_stage_landed landed, void *user);
/* total bytes from src on the device to dst in host memory, once the work already on the handle's
 * stream has made them. Returns with the bytes in dst, or with a failure (then finish). */
kiln_status kiln_cuda_stage_out(kiln_gpu *st, uint8_t *dst, const uint8_t *src, size_t total);
/* Waits for both streams whatever s is (a buffer is refilled or freed only after its copy), and
 * returns s or the first wait's failure; on failure the ring is closed. */
kiln_status kiln_cuda_stage_finish(kiln_gpu *st, kiln_status s, const char *work);

#endif
