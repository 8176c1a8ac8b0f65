/* The tune cache's reader (cli/tune/tune_cache.h: tune_cache_scan, the text of tune.txt once read
 * whole and bounded) over any bytes: an entry it returns has the keys asked for and a launch shape
 * in the documented ranges; the first line, when it is an entry, is found under its own keys; and
 * an entry appended after the bytes is found whatever came before (the last entry wins). */
#include "fuzz_util.h"

#include "tune/tune_cache.h"

static void check_entry(const tune_entry *e, const char *algo, const char *device)
{
    FUZZ_CHECK(strcmp(e->algo, algo) == 0 && strcmp(e->device, device) == 0);
    const int tpb = e->launch.threads_per_block, ipt = e->launch.items_per_thread;
    FUZZ_CHECK(tpb >= 32 && tpb <= 1024 && tpb % 32 == 0 && ipt >= 1 && ipt <= 16 && e->rate >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    tune_entry e, first;
    if (tune_cache_scan(text, size, "sha256d", "GPU X", &e) == 0) check_entry(&e, "sha256d", "GPU X");
    /* the first line, as the writer would give it to the parser */
    const char *nl = memchr(text, '\n', size);
    size_t n = nl ? (size_t)(nl - text) : size;
    char line[512];
    if (n < sizeof line && !memchr(text, '\0', n)) {
        memcpy(line, text, n);
        line[n] = '\0';
        if (tune_cache_parse_line(line, &first) == 0) {
            FUZZ_CHECK(tune_cache_scan(text, size, first.algo, first.device, &e) == 0);
            check_entry(&e, first.algo, first.device);
        }
    }
    /* an entry appended on a line of its own is the one found */
    static const char tail[] = "\nfz-algo\tfz device\t96\t8\t7\n";
    char *all = malloc(size + sizeof tail);
    if (!all) abort();
    memcpy(all, data, size);
    memcpy(all + size, tail, sizeof tail - 1);
    FUZZ_CHECK(tune_cache_scan(all, size + sizeof tail - 1, "fz-algo", "fz device", &e) == 0);
    FUZZ_CHECK(e.launch.threads_per_block == 96 && e.launch.items_per_thread == 8 && e.rate == 7);
    free(all);
    return 0;
}
