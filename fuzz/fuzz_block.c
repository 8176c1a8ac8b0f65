/* kiln_block_parse over any bytes. On success: the header is the first 80 bytes, there is at
 * least one transaction and no more segwit ones than transactions; a block of one legacy
 * transaction has as txid the sha256d of everything after the count. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kiln_ctx *ctx = fuzz_ctx();
    kiln_block b;
    kiln_status st = kiln_block_parse(ctx, data, size, &b);
    if (st != KILN_OK) {
        FUZZ_CHECK(st == KILN_ERR_INPUT && kiln_last_error(ctx)[0] != '\0');
        return 0;
    }
    FUZZ_CHECK(size > KILN_HEADER_SIZE && memcmp(b.header, data, KILN_HEADER_SIZE) == 0);
    FUZZ_CHECK(b.n_tx >= 1 && b.n_segwit <= b.n_tx && b.txids != NULL);
    if (b.n_tx == 1 && b.n_segwit == 0) {
        /* the count 1 is one byte, canonical CompactSize */
        FUZZ_CHECK(data[KILN_HEADER_SIZE] == 1);
        uint8_t txid[32];
        kiln_sha256d(data + KILN_HEADER_SIZE + 1, size - KILN_HEADER_SIZE - 1, txid);
        FUZZ_CHECK(memcmp(txid, b.txids, 32) == 0);
    }
    kiln_block_free(&b);
    return 0;
}
