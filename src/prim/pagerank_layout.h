/* The GPU PageRank layout's shape, which the CUDA backend (cuda/pagerank_layout.h) and the OpenCL
 * backend (opencl/ocl_pagerank.c and its kernel) share: rows are visited in descending order of
 * in-degree, so the rows of one in-degree class are contiguous, and each class is one bin of
 * blocks (work-groups) of one shape: a block a row from KILN_PR_BLOCK_ROW_MIN in-edges, below that
 * a block a run of consecutive rows whose edges it stages (relabelled rows), or G lanes a row
 * over an index list (CUDA without relabelling). docs/PAGERANK.md says why. */
#ifndef KILN_PRIM_PAGERANK_LAYOUT_H
#define KILN_PRIM_PAGERANK_LAYOUT_H

#include "kiln_hd.h"

/* in-degree classes: [2048, inf) a block a row; then [1024, 2048), [512, 1024), ..., [2, 4), [0, 2) */
#define KILN_PR_CLASSES 12
#define KILN_PR_BLOCK_ROW_MIN 2048
#define KILN_PR_STAGE_EDGES 4096 /* edges a block stages at most (in shared / local memory) */
#define KILN_PR_STAGE_ROWS_MAX 2048 /* rows a staged block finishes (8 a thread of 256) */
#define KILN_PR_MAX_BLOCKS UINT64_C(0x7fffffff) /* a grid's blocks (CUDA's gridDim.x) */

/* A bin's shape */
#define KILN_PR_KIND_BLOCK 0 /* a block a row */
#define KILN_PR_KIND_LANES 1 /* G lanes a row, rows through the visiting order (not relabelled) */
#define KILN_PR_KIND_STAGED 2 /* a run of relabelled rows, their edges staged */

KILN_HD int kiln_pr_degree_class(uint64_t deg)
{
    if (deg >= (uint64_t)KILN_PR_BLOCK_ROW_MIN) return 0;
    int c = 11;
    for (uint64_t d = deg; d >= 2; d >>= 1) c--;
    return c; /* 1024..2047 -> 1, 512..1023 -> 2, ..., 2..3 -> 10, 0..1 -> 11 */
}

/* Largest in-degree of class c >= 1, and its lanes per row (log2). */
KILN_HD int kiln_pr_class_max_degree(int c) { return (1 << (12 - c)) - 1; }
KILN_HD int kiln_pr_class_lanes_log2(int c) { return c <= 6 ? 5 : 11 - c; }

typedef struct kiln_pr_bins {
    int count;
    uint64_t row_begin[KILN_PR_CLASSES + 1]; /* bin k = rows [row_begin[k], row_begin[k+1]) in visiting order */
    uint64_t block_begin[KILN_PR_CLASSES + 1]; /* its first block; block_begin[count] = grid size */
    int kind[KILN_PR_CLASSES]; /* KILN_PR_KIND_* */
    int lanes_log2[KILN_PR_CLASSES]; /* lanes per row for KIND_LANES and KIND_STAGED */
    int rows_per_block[KILN_PR_CLASSES];
} kiln_pr_bins;

/* The bins over a visiting order whose class c has cls[c] rows: a block per row of class 0, then
 * staged runs of as many rows as fit stage_edges (relabelled) or G lanes a row, each group taking
 * 2 (G >= 16) or 4 rows, in blocks of `block` threads (not relabelled). Returns 0, or -1 when the
 * classes do not add up to `rows` or the blocks overflow KILN_PR_MAX_BLOCKS. */
KILN_HD int kiln_pr_make_bins(const uint64_t *cls, int relabelled, uint64_t rows, int stage_edges, int block,
                              kiln_pr_bins *b)
{
    b->count = 0;
    for (int k = 0; k <= KILN_PR_CLASSES; k++) {
        b->row_begin[k] = b->block_begin[k] = 0;
        if (k < KILN_PR_CLASSES) b->kind[k] = b->lanes_log2[k] = b->rows_per_block[k] = 0;
    }
    uint64_t row = 0, blocks = 0;
    for (int c = 0; c < KILN_PR_CLASSES; c++) {
        if (cls[c] == 0) continue;
        const int k = b->count++;
        int kind = KILN_PR_KIND_BLOCK, l2 = 8, rpb = 1;
        if (c > 0 && !relabelled) {
            kind = KILN_PR_KIND_LANES;
            l2 = kiln_pr_class_lanes_log2(c);
            rpb = (block >> l2) * (l2 >= 4 ? 2 : 4);
        } else if (c > 0) {
            kind = KILN_PR_KIND_STAGED;
            l2 = kiln_pr_class_lanes_log2(c);
            rpb = stage_edges / kiln_pr_class_max_degree(c);
            if (rpb < 1) rpb = 1;
            if (rpb > KILN_PR_STAGE_ROWS_MAX) rpb = KILN_PR_STAGE_ROWS_MAX;
        }
        b->kind[k] = kind;
        b->lanes_log2[k] = l2;
        b->rows_per_block[k] = rpb;
        b->row_begin[k] = row;
        b->block_begin[k] = blocks;
        row += cls[c];
        blocks += (cls[c] + (uint64_t)rpb - 1) / (uint64_t)rpb;
    }
    b->row_begin[b->count] = row;
    b->block_begin[b->count] = blocks;
    return row == rows && blocks > 0 && blocks <= KILN_PR_MAX_BLOCKS ? 0 : -1;
}

/* The bins as the table of words the OpenCL kernel reads (__constant ulong): the count, then
 * row_begin[0..count] and block_begin[0..count] at fixed places, then each bin's shape: its kind,
 * lanes per row (log2) << 8 and rows per block << 16. */
#define KILN_PR_BIN_COUNT 0
#define KILN_PR_BIN_ROW 1
#define KILN_PR_BIN_BLOCK (KILN_PR_BIN_ROW + KILN_PR_CLASSES + 1)
#define KILN_PR_BIN_SHAPE (KILN_PR_BIN_BLOCK + KILN_PR_CLASSES + 1)
#define KILN_PR_BIN_WORDS (KILN_PR_BIN_SHAPE + KILN_PR_CLASSES)

KILN_HD void kiln_pr_bins_table(const kiln_pr_bins *b, uint64_t *words)
{
    for (int i = 0; i < KILN_PR_BIN_WORDS; i++) words[i] = 0;
    words[KILN_PR_BIN_COUNT] = (uint64_t)b->count;
    for (int k = 0; k <= b->count; k++) {
        words[KILN_PR_BIN_ROW + k] = b->row_begin[k];
        words[KILN_PR_BIN_BLOCK + k] = b->block_begin[k];
    }
    for (int k = 0; k < b->count; k++)
        words[KILN_PR_BIN_SHAPE + k] = (uint64_t)b->kind[k] | (uint64_t)b->lanes_log2[k] << 8 |
                                       (uint64_t)b->rows_per_block[k] << 16;
}

#endif
