/* --algo names are matched as coreutils' and hashlib's users spell them (issue 39.5): without
 * regard to case and with dashes and underscores optional (hashlib.new accepts "SHA256", "sha-256"
 * and "sha3_256"; coreutils' tags are "SHA256", "SHA3-256"), in the one matcher every command's
 * --algo goes through (kiln_workload_find, and bench/tune names); kiln's names stay distinct
 * under that matching, and a name that is not one of them is still refused. */
#include <ctype.h>
#include <string.h>

#include "check.h"
#include "kiln.h"

/* name lowercased, without '-' and '_' */
static void squash(const char *name, char *out, size_t n)
{
    size_t k = 0;
    for (; *name && k + 1 < n; name++)
        if (*name != '-' && *name != '_') out[k++] = (char)tolower((unsigned char)*name);
    out[k] = '\0';
}

static void distinct(void)
{
    for (size_t i = 0; i < kiln_workload_count(); i++)
        for (size_t j = i + 1; j < kiln_workload_count(); j++) {
            char a[64], b[64];
            squash(kiln_workload_at(i)->name, a, sizeof a);
            squash(kiln_workload_at(j)->name, b, sizeof b);
            CHECK(strcmp(a, b) != 0, "%s and %s alike", kiln_workload_at(i)->name, kiln_workload_at(j)->name);
        }
}

static void spellings(kiln_ctx *ctx)
{
    static const struct {
        const char *typed, *name;
        unsigned kinds;
    } cases[] = {
        {"SHA256", "sha256", KILN_KIND_HASH},       {"sha-256", "sha256", KILN_KIND_HASH},
        {"Sha-256", "sha256", KILN_KIND_HASH},      {"SHA3-256", "sha3-256", KILN_KIND_HASH},
        {"sha3_256", "sha3-256", KILN_KIND_HASH},   {"sha3256", "sha3-256", KILN_KIND_HASH},
        {"SHA512_256", "sha512-256", KILN_KIND_HASH}, {"SHAKE128", "shake128", KILN_KIND_HASH},
        {"SHA256D", "sha256d", KILN_KIND_SEARCH},   {"Scrypt", "scrypt", KILN_KIND_SEARCH},
        {"RP64-256", "rp64_256", KILN_KIND_TREE},   {"sha-256", "sha256", KILN_KIND_TREE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const kiln_workload *w = kiln_workload_find(ctx, cases[i].typed, cases[i].kinds);
        CHECK(w && strcmp(w->name, cases[i].name) == 0, "%s -> %s (got %s)", cases[i].typed, cases[i].name,
              w ? w->name : "none");
    }
    kiln_hash_algo a;
    CHECK(kiln_hash_algo_from_name(ctx, "SHA-256", &a) == KILN_OK && strcmp(kiln_hash_algo_name(a), "sha256") == 0,
          "kiln_hash_algo_from_name(SHA-256)");
    kiln_kind kind;
    const kiln_workload *b = kiln_workload_for_bench(ctx, "MERKLE-SHA256D", KILN_KIND_ALL, 0, &kind);
    CHECK(b && kind == KILN_KIND_TREE && strcmp(b->name, "sha256d") == 0, "bench MERKLE-SHA256D");
    b = kiln_workload_for_bench(ctx, "SHA3_256", KILN_KIND_ALL, 0, &kind);
    CHECK(b && kind == KILN_KIND_HASH && strcmp(b->name, "sha3-256") == 0, "bench SHA3_256");
    static const char *const refused[] = {"sha25", "sha256x", "sha 256", "md4", "", "-", "sha3-2566"};
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
        CHECK(kiln_workload_find(ctx, refused[i], KILN_KIND_ALL) == NULL, "'%s' refused", refused[i]);
}

int main(void)
{
    kiln_ctx *ctx = kiln_ctx_new();
    distinct();
    spellings(ctx);
    kiln_ctx_free(ctx);
    return check_summary();
}
