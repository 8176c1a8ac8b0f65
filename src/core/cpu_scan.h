/* The threaded driver of every CPU nonce search: a range cut into pieces, spread over the cores,
 * each thread with its own candidate buffer (and scratch memory, where the kernel needs it). */
#ifndef KILN_CORE_CPU_SCAN_H
#define KILN_CORE_CPU_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* Searches nonces start .. start+n-1 of one piece with the kernel impl for job (each the
 * algorithm's own type); writes at most cap candidates, returns how many passed. scratch is this
 * thread's scratch_bytes (64-byte aligned), or NULL for none. */
typedef uint64_t (*kiln_cpu_piece_fn)(const void *impl, const void *job, uint32_t start, uint32_t n, uint32_t *cand,
                                      uint32_t cap, void *scratch);

/* Scans start .. start+count-1 in pieces of `piece` nonces with `threads` threads (0 = all cores).
 * Candidates land in cand (at most cap, in no particular order); returns how many passed in all,
 * or UINT64_MAX when a thread's buffers could not be allocated. */
uint64_t kiln_cpu_scan_pieces(kiln_cpu_piece_fn fn, const void *impl, const void *job, uint32_t piece,
                              size_t scratch_bytes, int threads, uint32_t start, uint64_t count, uint32_t *cand,
                              uint32_t cap);

/* Every CPU nonce search behind one signature, with the kernel the CPU dispatch chose: job is the
 * algorithm's per-job state; returns the candidates as kiln_cpu_scan_pieces does. */
typedef uint64_t (*kiln_cpu_search_fn)(int threads, const void *job, uint32_t start, uint64_t count, uint32_t *cand,
                                       uint32_t cap);

#endif
