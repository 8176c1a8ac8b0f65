/* NCCL opened at run time, and the communicators of PageRank parts (nccl_lib.h). */
#ifdef KILN_HAVE_NCCL
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nccl_lib.h"

namespace {

kiln_nccl_api api;
const kiln_nccl_api *loaded = nullptr;
pthread_once_t once = PTHREAD_ONCE_INIT;

template <typename F> bool resolve(void *lib, const char *name, F &fn)
{
    fn = reinterpret_cast<F>(dlsym(lib, name));
    return fn != nullptr;
}

void load()
{
    const char *want = getenv("KILN_NCCL");
    if (want && strcmp(want, "0") == 0) return;
    /* NVLink multicast (NVLS) stays off unless the user set it: on shared hosts a program using it
     * can take the GPUs out of service, and kiln's exchanges (broadcasts) gain nothing from it */
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    void *lib = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    ncclResult_t (*get_version)(int *) = nullptr;
    bool ok = resolve(lib, "ncclGetUniqueId", api.get_unique_id) && resolve(lib, "ncclCommInitRank", api.comm_init_rank) &&
              resolve(lib, "ncclCommDestroy", api.comm_destroy) && resolve(lib, "ncclCommAbort", api.comm_abort) &&
              resolve(lib, "ncclCommGetAsyncError", api.comm_get_async_error) &&
              resolve(lib, "ncclGroupStart", api.group_start) && resolve(lib, "ncclGroupEnd", api.group_end) &&
              resolve(lib, "ncclBroadcast", api.broadcast) && resolve(lib, "ncclSend", api.send) &&
              resolve(lib, "ncclRecv", api.recv) && resolve(lib, "ncclGetErrorString", api.get_error_string) &&
              resolve(lib, "ncclGetVersion", get_version);
    const char *how = getenv("KILN_NCCL_EXCHANGE");
    api.broadcast_exchange = how && strcmp(how, "broadcast") == 0;
    /* the 2.x interface kiln is written against (ncclUniqueId of 128 bytes, ncclSend/ncclRecv) */
    if (ok && get_version(&api.version) == ncclSuccess && api.version >= 20000) loaded = &api;
    else dlclose(lib);
}

} // namespace

const kiln_nccl_api *kiln_nccl(void)
{
    pthread_once(&once, load);
    return loaded;
}

double kiln_nccl_timeout(void)
{
    const char *s = getenv("KILN_EXCHANGE_TIMEOUT");
    double t = s ? strtod(s, nullptr) : 0;
    return t > 0 ? t : 300;
}

namespace {

void *abort_one(void *comm)
{
    kiln_nccl()->comm_abort(static_cast<ncclComm_t>(comm));
    return nullptr;
}

} // namespace

void kiln_nccl_abort(kiln_gpu_comm *c)
{
    __atomic_store_n(&c->failed, 1, __ATOMIC_RELEASE);
    /* each communicator taken once (the devices' threads may abort at once, each on a signal),
     * and aborted on a thread of its own: an abort joins NCCL's proxy thread and frees the
     * communicator's buffers, and a process of several GPUs waited for them in turn after an
     * interrupt (issue 36.8) */
    ncclComm_t mine[KILN_MAX_GPUS];
    pthread_t th[KILN_MAX_GPUS];
    bool started[KILN_MAX_GPUS];
    int k = 0;
    for (int i = 0; i < c->nlocal; i++) {
        ncclComm_t cm = __atomic_exchange_n(&c->comm[i], static_cast<ncclComm_t>(nullptr), __ATOMIC_ACQ_REL);
        if (cm) mine[k++] = cm;
    }
    for (int i = 0; i < k; i++) started[i] = k > 1 && pthread_create(&th[i], nullptr, abort_one, mine[i]) == 0;
    for (int i = 0; i < k; i++) {
        if (started[i]) pthread_join(th[i], nullptr);
        else abort_one(mine[i]);
    }
}

namespace {

/* Communicators aborted in the background (kiln_cuda_comm_close): how many are still going. */
pthread_mutex_t reap_mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t reap_cv = PTHREAD_COND_INITIALIZER;
int reaping;
pthread_once_t reap_once = PTHREAD_ONCE_INIT;

void *reap_one(void *comm)
{
    abort_one(comm);
    pthread_mutex_lock(&reap_mu);
    if (--reaping == 0) pthread_cond_broadcast(&reap_cv);
    pthread_mutex_unlock(&reap_mu);
    return nullptr;
}

/* at exit, before the CUDA runtime's own teardown (registered after it, so run before it) */
void settle_at_exit(void) { kiln_nccl_settle(); }
void register_settle(void) { atexit(settle_at_exit); }

/* Every stream of c has finished its work: no exchange is under way that an abort must cut. */
bool streams_idle(const kiln_gpu_comm *c)
{
    int was = 0;
    if (cudaGetDevice(&was) != cudaSuccess) return false;
    bool idle = true;
    for (int i = 0; i < c->nlocal && idle; i++)
        idle = c->stream[i] && cudaSetDevice(c->ordinal[i]) == cudaSuccess && cudaStreamQuery(c->stream[i]) == cudaSuccess;
    cudaSetDevice(was);
    (void)cudaGetLastError(); /* a stream still busy is an answer, not a failure */
    return idle;
}

/* A pass's exchange, queued just before the stop was seen, takes milliseconds: up to 0.1 s for
 * the streams to finish it. */
bool streams_settle(const kiln_gpu_comm *c)
{
    const struct timespec ms = {0, 1000000};
    for (int k = 0; k < 100; k++) {
        if (streams_idle(c)) return true;
        nanosleep(&ms, nullptr);
    }
    return false;
}

/* Aborts c's communicators on detached threads and returns at once (one whose thread cannot be
 * started is aborted here). */
void abort_in_background(kiln_gpu_comm *c)
{
    pthread_once(&reap_once, register_settle);
    pthread_attr_t attr;
    const bool attr_ok = pthread_attr_init(&attr) == 0 && pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0;
    for (int i = 0; i < c->nlocal; i++) {
        ncclComm_t cm = __atomic_exchange_n(&c->comm[i], static_cast<ncclComm_t>(nullptr), __ATOMIC_ACQ_REL);
        if (!cm) continue;
        pthread_mutex_lock(&reap_mu);
        reaping++;
        pthread_mutex_unlock(&reap_mu);
        pthread_t th;
        if (!attr_ok || pthread_create(&th, &attr, reap_one, cm) != 0) reap_one(cm);
    }
    if (attr_ok) pthread_attr_destroy(&attr);
}

} // namespace

void kiln_nccl_settle(void)
{
    pthread_mutex_lock(&reap_mu);
    while (reaping) pthread_cond_wait(&reap_cv, &reap_mu);
    pthread_mutex_unlock(&reap_mu);
}

kiln_status kiln_nccl_wait(kiln_gpu_comm *c, kiln_gpu *st, double waited)
{
    const kiln_nccl_api *n = kiln_nccl();
    for (int i = 0; i < c->nlocal; i++) {
        ncclResult_t e = ncclSuccess;
        if (c->comm[i] && n->comm_get_async_error(c->comm[i], &e) == ncclSuccess && e != ncclSuccess &&
            e != ncclInProgress) {
            kiln_nccl_abort(c);
            return kiln_fail(st->ctx, KILN_ERR_DEVICE, "NCCL exchange failed: %s", n->get_error_string(e));
        }
    }
    /* a signal: the exchange may wait on a process that is gone (killed; mpirun SIGTERMs the rest a
     * second after, and a wait that never read the interrupt lived to its SIGKILL, issue 36.8). A
     * pass and its exchange take milliseconds: past KILN_NCCL_INTERRUPT_S the communicators are
     * aborted, so that the stream returns */
    if (waited > KILN_NCCL_INTERRUPT_S && kiln_ctx_interrupt_requested(st->ctx)) {
        kiln_nccl_abort(c);
        return kiln_interrupted(st->ctx);
    }
    if (waited > kiln_nccl_timeout()) {
        kiln_nccl_abort(c);
        return kiln_fail(st->ctx, KILN_ERR_DEVICE,
                         "the exchange between GPUs waited %.0f s (KILN_EXCHANGE_TIMEOUT): a device or process stopped "
                         "answering",
                         waited);
    }
    return KILN_OK;
}

int kiln_cuda_comm_available(void) { return kiln_nccl() != nullptr; }

kiln_status kiln_cuda_comm_id(kiln_ctx *ctx, void *id)
{
    const kiln_nccl_api *n = kiln_nccl();
    if (!n) return kiln_fail(ctx, KILN_ERR_DEVICE, "NCCL (libnccl.so.2) is not available");
    static_assert(sizeof(ncclUniqueId) == KILN_GPU_COMM_ID_BYTES, "NCCL's unique id size");
    ncclUniqueId u;
    ncclResult_t r = n->get_unique_id(&u);
    if (r != ncclSuccess) return kiln_fail(ctx, KILN_ERR_DEVICE, "ncclGetUniqueId failed: %s", n->get_error_string(r));
    memcpy(id, &u, sizeof u);
    return KILN_OK;
}

void kiln_cuda_comm_close(kiln_gpu_comm *c, int abort)
{
    if (!c) return;
    /* An interrupted run stops between passes, its streams idle: nothing waits on the abort, which
     * takes about half a second (NCCL's proxy thread polls its sockets every 500 ms), so it goes on
     * in the background and the call returns (issue 36.8: SIGINT to cuda:all ended after 1.2 s,
     * 0.6 s of it in the aborts). A failed exchange, or a stream still busy, is aborted here: the
     * parts' streams wait on it. */
    if (abort && !__atomic_load_n(&c->failed, __ATOMIC_ACQUIRE) && kiln_ctx_interrupt_requested(c->ctx) &&
        streams_settle(c))
        abort_in_background(c);
    else if (abort)
        kiln_nccl_abort(c);
    const kiln_nccl_api *n = kiln_nccl();
    for (int i = 0; i < c->nlocal; i++)
        if (c->comm[i]) n->comm_destroy(c->comm[i]);
    free(c);
}
#endif
