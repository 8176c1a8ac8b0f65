/* The search API on the CPU: real blocks found in windows around their nonces, windows without
 * them exhausted, every hit of an easy target found (checked by hashing each header directly),
 * range validation and stopping from a callback. */
#include "check.h"
#include "kiln.h"
#include "real_headers.h"

#define MAX_HITS 4096

typedef struct hits {
    uint32_t nonce[MAX_HITS];
    uint8_t hash[MAX_HITS][32];
    int n;
    int stop_after;
} hits;

static int collect(void *user, uint32_t nonce, const uint8_t hash[32])
{
    hits *h = user;
    if (h->n < MAX_HITS) {
        h->nonce[h->n] = nonce;
        memcpy(h->hash[h->n], hash, 32);
    }
    h->n++;
    return h->stop_after && h->n >= h->stop_after;
}

static int stop_now(void *user, uint64_t done, uint64_t total)
{
    (void)user, (void)done, (void)total;
    return 1;
}

static void job_for(kiln_scan_job *job, const real_header *r, hits *h)
{
    memset(job, 0, sizeof *job);
    kiln_header_from_hex(NULL, r->header_hex, job->header);
    kiln_header_set_nonce(job->header, 0);
    kiln_target_from_bits(NULL, r->bits, job->target);
    job->on_found = collect;
    job->user = h;
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    CHECK(kiln_ctx_set_device(ctx, "cpu") == KILN_OK, "cpu device");
    static hits h;
    kiln_scan_job job;
    kiln_scan_result res;
    char hex[65];

    for (int i = 0; i < REAL_HEADER_COUNT; i++) {
        const real_header *r = &real_headers[i];
        memset(&h, 0, sizeof h);
        job_for(&job, r, &h);
        job.start = r->nonce > 70000 ? r->nonce - 70000 : 0;
        job.count = 100000;
        kiln_status st = kiln_scan(ctx, &job, &res);
        CHECK(st == KILN_OK, "%s: status %d %s", r->name, st, kiln_last_error(ctx));
        CHECK(h.n == 1 && h.nonce[0] == r->nonce, "%s: found %d, first %u", r->name, h.n, h.nonce[0]);
        kiln_hex_encode(h.hash[0], 32, 1, hex);
        CHECK_STR(hex, r->block_hash);
        CHECK(res.found == 1 && res.false_candidates == 0, "%s result", r->name);
        /* it stops at the first hit: the rest of the window is not searched */
        CHECK(res.hashes <= job.count, "%s hashes %llu", r->name, (unsigned long long)res.hashes);

        /* the window just past the nonce holds no block */
        memset(&h, 0, sizeof h);
        job.start = (uint64_t)r->nonce + 1;
        job.count = 30000;
        st = kiln_scan(ctx, &job, &res);
        CHECK(st == KILN_NOT_FOUND && h.n == 0, "%s: empty window status %d", r->name, st);
        CHECK(res.hashes == 30000, "%s: empty window hashes %llu", r->name, (unsigned long long)res.hashes);
    }

    /* easy target: every hit in a range, ascending, each checked by hashing the header itself */
    memset(&h, 0, sizeof h);
    job_for(&job, &real_headers[2], &h);
    job.find_all = 1;
    CHECK(kiln_target_from_hex(ctx, "003fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", job.target) == KILN_OK,
          "easy target");
    job.start = 4294967295u - 200000;
    job.count = 200001; /* up to and including nonce 2^32 - 1 */
    CHECK(kiln_scan(ctx, &job, &res) == KILN_OK, "easy scan");
    int expect = 0, ok = h.n <= MAX_HITS;
    uint8_t header[80], hash[32];
    memcpy(header, job.header, 80);
    for (uint64_t n = job.start; n < job.start + job.count && ok; n++) {
        kiln_header_set_nonce(header, (uint32_t)n);
        kiln_header_hash(header, hash);
        if (kiln_hash_meets_target(hash, job.target)) {
            ok = expect < h.n && h.nonce[expect] == (uint32_t)n && memcmp(h.hash[expect], hash, 32) == 0;
            expect++;
        }
    }
    CHECK(ok && expect == h.n, "easy target: %d reported, %d expected", h.n, expect);
    CHECK(expect > 120, "easy target gives many hits (%d, about 195 expected)", expect);

    /* a target every hash meets: all nonces, more than the candidate buffer of one launch */
    memset(&h, 0, sizeof h);
    memset(job.target, 0xff, 32);
    job.start = 1000;
    job.count = 3000;
    CHECK(kiln_scan(ctx, &job, &res) == KILN_OK && h.n == 3000 && h.nonce[0] == 1000 && h.nonce[2999] == 3999,
          "all-meeting target: %d hits", h.n);

    /* stopping: from on_found, and from on_progress */
    memset(&h, 0, sizeof h);
    h.stop_after = 5;
    CHECK(kiln_scan(ctx, &job, &res) == KILN_STOPPED && h.n == 5, "stop from on_found: %d", h.n);
    memset(&h, 0, sizeof h);
    job.on_progress = stop_now;
    job.target[31] = 0; /* nothing meets it */
    memset(job.target, 0, 32);
    job.count = 1u << 22;
    CHECK(kiln_scan(ctx, &job, &res) == KILN_STOPPED && res.hashes < job.count, "stop from on_progress");
    job.on_progress = NULL;

    /* range validation */
    job.start = UINT64_C(1) << 32;
    job.count = 1;
    CHECK(kiln_scan(ctx, &job, &res) == KILN_ERR_INPUT, "start past 2^32");
    job.start = 10;
    job.count = (UINT64_C(1) << 32) - 9;
    CHECK(kiln_scan(ctx, &job, &res) == KILN_ERR_INPUT, "range past 2^32");
    CHECK(strstr(kiln_last_error(ctx), "past 2^32") != NULL, "message: %s", kiln_last_error(ctx));
    job.count = 0;
    CHECK(kiln_scan(ctx, &job, &res) == KILN_NOT_FOUND && res.hashes == 0, "empty range");

    /* selftest on the CPU */
    CHECK(kiln_selftest(ctx) == KILN_OK, "selftest: %s", kiln_last_error(ctx));
    kiln_ctx_free(ctx);
    return check_summary();
}
