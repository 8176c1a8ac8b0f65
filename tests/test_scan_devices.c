/* Each device's part of a search (kiln_scan_devices). On the CPU, always: one entry, the CPU's
 * (ordinal -1), equal to the total, readable from on_progress with the nonces done so far; too
 * small an array refused. With a GPU: logical devices of GPU 0 ("cuda:0,0", "cuda:0,0,0") each
 * count about their equal share of the range, the shares sum to the range, and the nonces found
 * are the CPU's. */
#include "check.h"
#include "kiln.h"

#define MAX_FOUND 4096

typedef struct watch {
    kiln_scan_device dev[16];
    int ndev;
    int calls, bad_sum; /* on_progress calls; those where the entries did not sum to done */
    uint32_t nonce[MAX_FOUND];
    int n;
} watch;

static int on_found(void *user, uint32_t nonce, const uint8_t hash[32])
{
    (void)hash;
    watch *w = user;
    if (w->n < MAX_FOUND) w->nonce[w->n++] = nonce;
    return 0;
}

static int on_progress(void *user, uint64_t done, uint64_t total)
{
    (void)total;
    watch *w = user;
    uint64_t sum = 0;
    for (int i = 0; i < w->ndev; i++) sum += w->dev[i].hashes;
    w->calls++;
    w->bad_sum += sum != done;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void job_for(kiln_scan_job *job, watch *w, uint64_t count)
{
    memset(job, 0, sizeof *job);
    job->algo = KILN_ALGO_SHA256D;
    for (int i = 0; i < 76; i++) job->header[i] = (uint8_t)(i * 7 + 1);
    job->target[29] = 0x80; /* the hash as a little-endian number below 2^239: about 1 in 2^17 */
    job->start = 777;
    job->count = count;
    job->find_all = 1;
    job->on_found = on_found;
    job->on_progress = on_progress;
    job->user = w;
}

/* The nonces of the range meeting the target, hashed one by one (the known answer). */
static int direct(const kiln_scan_job *job, uint32_t *out)
{
    uint8_t h[80], hash[32];
    memcpy(h, job->header, 80);
    int n = 0;
    for (uint64_t k = 0; k < job->count; k++) {
        uint32_t nonce = (uint32_t)(job->start + k);
        kiln_header_set_nonce(h, nonce);
        kiln_header_hash(h, hash);
        if (kiln_hash_meets_target(hash, job->target) && n < MAX_FOUND) out[n++] = nonce;
    }
    return n;
}

static void test_cpu(void)
{
    static watch w;
    static uint32_t want[MAX_FOUND];
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, "cpu") == KILN_OK, "cpu");
    kiln_scan_job job;
    job_for(&job, &w, UINT64_C(1) << 21);
    memset(&w, 0, sizeof w);
    w.ndev = 1;
    w.dev[0].hashes = 99; /* zeroed by the call */
    kiln_scan_result res;
    kiln_status st = kiln_scan_devices(ctx, &job, &res, w.dev, 1);
    int nwant = direct(&job, want);
    qsort(w.nonce, (size_t)w.n, 4, cmp_u32);
    CHECK(st == KILN_OK && w.n == nwant && nwant > 4 && memcmp(w.nonce, want, (size_t)nwant * 4) == 0,
          "CPU: status %d, %d nonces, %d by direct hashing", st, w.n, nwant);
    CHECK(res.hashes == job.count && w.dev[0].hashes == job.count, "CPU: %llu hashes, the entry %llu, of %llu",
          (unsigned long long)res.hashes, (unsigned long long)w.dev[0].hashes, (unsigned long long)job.count);
    CHECK(w.dev[0].ordinal == -1 && w.dev[0].seconds == res.seconds && res.seconds > 0,
          "CPU: ordinal %d, %g s (the search %g s)", w.dev[0].ordinal, w.dev[0].seconds, res.seconds);
    CHECK(w.calls > 0 && w.bad_sum == 0, "CPU: %d progress calls, %d with the entry off done", w.calls, w.bad_sum);
    CHECK(kiln_scan_devices(ctx, &job, &res, w.dev, 0) == KILN_ERR_INPUT && strstr(kiln_last_error(ctx), "room for 0"),
          "no room: %s", kiln_last_error(ctx));
    CHECK(kiln_scan_devices(ctx, &job, &res, NULL, 0) == KILN_OK, "NULL devices: kiln_scan");
    kiln_ctx_free(ctx);
}

static uint32_t set_want[MAX_FOUND];
static int set_nwant = -1;

static void test_set(const char *spec, int k)
{
    static watch w;
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, spec) == KILN_OK && kiln_ctx_device_count(ctx) == k, "%s: %s", spec,
          kiln_last_error(ctx));
    kiln_scan_job job;
    job_for(&job, &w, UINT64_C(1) << 24);
    memset(&w, 0, sizeof w);
    w.ndev = k;
    kiln_scan_result res;
    kiln_status st = kiln_scan_devices(ctx, &job, &res, w.dev, 16);
    qsort(w.nonce, (size_t)w.n, 4, cmp_u32);
    if (set_nwant < 0) set_nwant = direct(&job, set_want); /* one range for every set */
    const int nwant = set_nwant;
    CHECK(st == KILN_OK && w.n == nwant && nwant > 60 && memcmp(w.nonce, set_want, (size_t)nwant * 4) == 0 &&
              res.false_candidates == 0,
          "%s: status %d (%s), %d nonces, %d by direct hashing", spec, st, kiln_last_error(ctx), w.n, nwant);
    uint64_t sum = 0;
    for (int i = 0; i < k; i++) {
        sum += w.dev[i].hashes;
        /* each launch's range is cut in k equal slices: a share is off count/k by less than one a launch */
        double share = (double)job.count / k, off = (double)w.dev[i].hashes - share;
        CHECK(w.dev[i].ordinal == 0 && (off < 0 ? -off : off) <= w.calls && w.dev[i].seconds > 0 &&
                  w.dev[i].seconds <= res.seconds,
              "%s: device %d: ordinal %d, %llu nonces (share %.0f, %d launches), %g s of %g", spec, i, w.dev[i].ordinal,
              (unsigned long long)w.dev[i].hashes, share, w.calls, w.dev[i].seconds, res.seconds);
        printf("%s device %d: %llu nonces in %.3f s busy: %.3g H/s\n", spec, i, (unsigned long long)w.dev[i].hashes,
               w.dev[i].seconds, (double)w.dev[i].hashes / w.dev[i].seconds);
    }
    CHECK(sum == job.count && res.hashes == job.count && w.bad_sum == 0,
          "%s: the devices %llu nonces, the search %llu, of %llu; %d progress calls off done", spec,
          (unsigned long long)sum, (unsigned long long)res.hashes, (unsigned long long)job.count, w.bad_sum);
    kiln_ctx_free(ctx);
}

int main(void)
{
    test_cpu();
    if (kiln_cuda_device_count() == 0) {
        printf("no CUDA GPU: the CPU's entry only\n");
        return check_summary();
    }
    test_set("cuda:0", 1);
    test_set("cuda:0,0", 2);
    test_set("cuda:0,0,0", 3);
    return check_summary();
}
