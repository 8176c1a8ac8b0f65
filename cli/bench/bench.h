/* `kiln bench`: what it parsed, one routine per kind of workload, and the one row printer. */
#ifndef KILN_CLI_BENCH_H
#define KILN_CLI_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "kiln.h"

typedef struct bench_args {
    int json;
    double seconds; /* 0: the kind's default */
    /* hash: message bytes, offsets array; permutation: GPU layout, 16 permutations per load */
    uint64_t size;
    int offsets, in_registers;
    kiln_keccak_layout layout;
    kiln_scrypt_params sp; /* KDF */
    /* tree */
    uint64_t leaves, k, tpb, reps; /* reps 0: the default */
    int graph_only, method_all;
    int whole_build; /* time the whole kiln_merkle_build (implied on a device set) */
    kiln_merkle_method method;
    int name_width, device_width; /* the text table's columns, wide enough for every row of the run */
} bench_args;

/* One measured row: JSON {"algo": name, "device", "rate", "unit"<json>} through the JSON writer
 * (json is the members after those, each after ", "), or the text row: label (name when NULL),
 * device and rate in the columns of a->name_width and a->device_width, then text. */
typedef struct bench_row {
    const char *name, *label, *unit;
    double rate;
    char json[2048], text[128];
} bench_row;

void bench_row_print(kiln_ctx *ctx, const bench_row *r, const bench_args *a);
/* The label of (w, kind)'s text row: the name, "sha256/32B" (a hash and its message size),
 * "keccakf1600/thread" (a permutation's layout), "scrypt-kdf N=16384 r=8 p=1". gpu: the context
 * is a GPU's. The one place a label is made, so that the columns can be sized before the first
 * row is measured. */
void bench_label(const kiln_workload *w, kiln_kind kind, const bench_args *a, int gpu, char *out, size_t n);
/* Sizes a's columns for the row of (w, kind) on ctx's device; call for every row, then print
 * the header. */
void bench_fit(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, bench_args *a);
/* The text table's header. */
void bench_header(const bench_args *a);

/* Measures one (workload, kind) on ctx and prints its row (the tree prints its own table). */
typedef kiln_status (*bench_fn)(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a);
kiln_status bench_search(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a);
kiln_status bench_hash(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a);
kiln_status bench_kdf(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a);
kiln_status bench_tree(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a);
/* The tree kind's routine: bench_tree on one device, the whole build timed on a set or with
 * --whole-build (bench_merkle.c). */
kiln_status bench_tree_devices(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a);
kiln_status bench_graph(kiln_ctx *ctx, const kiln_workload *w, kiln_kind kind, const bench_args *a);

#endif
