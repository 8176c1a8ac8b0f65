/* The monitoring endpoint's request-head parser over any bytes: a whole head is at most
 * HTTP_MAX_HEAD bytes and ends at a blank line, its method is a token, its path starts with '/'
 * and holds only visible ASCII; a refusal is one of the statuses the server answers; and the
 * verdict does not depend on how the bytes arrived (every prefix of a whole head is "incomplete",
 * bytes after it change nothing), as the server reads them in pieces. */
#include "fuzz_util.h"

#include "mine/monitor/http_request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *buf = (const char *)data;
    http_request rq, again;
    int r = http_parse(buf, size, &rq);
    if (r == 0) {
        FUZZ_CHECK(size < HTTP_MAX_HEAD);
    } else if (r > 0) {
        FUZZ_CHECK((size_t)r <= size && r <= HTTP_MAX_HEAD && buf[r - 1] == '\n');
        size_t ml = strlen(rq.method), pl = strlen(rq.path);
        FUZZ_CHECK(ml >= 1 && ml < sizeof rq.method && pl >= 1 && pl <= HTTP_MAX_PATH && rq.path[0] == '/');
        for (size_t i = 0; i < pl; i++)
            FUZZ_CHECK((unsigned char)rq.path[i] > 0x20 && (unsigned char)rq.path[i] < 0x7f && rq.path[i] != '?');
        FUZZ_CHECK(http_parse(buf, (size_t)r, &again) == r);
        FUZZ_CHECK(strcmp(rq.method, again.method) == 0 && strcmp(rq.path, again.path) == 0);
        FUZZ_CHECK(http_parse(buf, (size_t)r - 1, &again) == 0);
        FUZZ_CHECK(http_parse(buf, (size_t)r / 2, &again) == 0);
    } else {
        FUZZ_CHECK(r == -400 || r == -414 || r == -431 || r == -505);
        /* once refused, more bytes do not make it acceptable */
        if (size < HTTP_MAX_HEAD) {
            char *more = malloc(size + 4);
            if (!more) return 0;
            memcpy(more, buf, size);
            memcpy(more + size, "\r\n\r\n", 4);
            FUZZ_CHECK(http_parse(more, size + 4, &again) < 0);
            free(more);
        }
    }
    return 0;
}
