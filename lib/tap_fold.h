/* Folding a per-CPU check's verdicts across the threads that agree (docs/checklist.md "Folded lines"). On a
 * machine with hundreds of threads almost every check says the same thing on every thread; printed per thread
 * the checklist grows by ~33 KB a thread, 21 minutes of a 115200-baud line at 448 threads. Folded, the threads
 * whose verdicts have the same text apart from their numbers share one line, `ok N - cpu[0-447]/suite/check`,
 * and each number that differs between them (decimal with its sign and fraction, or hex) reads
 * "MIN (cpuA) .. MAX (cpuB)". A thread whose verdict, directive
 * or wording differs in anything but a number gets its own line. Portable: host-tested, and tools/tap-fold
 * folds a recorded per-thread stream with it. */
#pragma once
#include "lib/types.h"

/* A YAML line in which more numbers than this differ between the threads (a list of APIC IDs, a histogram)
 * says how many differ instead of listing ranges. */
#define TAP_FOLD_MAX_RANGES 3

/* One thread's rendered verdict: " - cpuN/suite/check[ [emulated PMU]][ # SKIP|TODO reason]\n" and its YAML
 * block ("  ---\n" ... "  ...\n"), as report_render() writes it after "ok N"/"not ok N". */
struct tap_fold_item {
    u32 cpu;
    const char *text;
    u32 len;
};

/* Whether two threads' verdicts fold: both named cpuN/..., the same text once the CPU number, the thread's own
 * name ("cpuN" on cpu N) and the value of every number are set aside (the same words, punctuation and YAML keys,
 * in the same order), except that an evidence entry (`"key": value` with a value that is not a {...} mapping)
 * may differ in its value. The verdict kind (ok / not ok, emulated marker) is the caller's to compare. */
bool tap_fold_same_shape(const char *a, u32 alen, const char *b, u32 blen);

/* The longest CPU list a folded line's name carries ("0-3,5,7-9"). A group whose list is longer is printed as
 * several lines (tap_fold_fit), so every name lists its threads whole. */
#define TAP_FOLD_LIST_MAX 120

/* How many of it[0..n) (ascending CPUs) one folded line can name: the longest prefix whose list fits in
 * TAP_FOLD_LIST_MAX characters (at least 1). */
u32 tap_fold_fit(const struct tap_fold_item *it, u32 n);

/* "0-3,5,7-9" for ascending cpus. Returns its length (NUL-terminated; cut short when size is too small). */
u32 tap_fold_cpu_list(const struct tap_fold_item *it, u32 n, char *out, u32 size);

/* The folded verdict of it[0..n) (ascending CPUs, every pair tap_fold_same_shape, n at most tap_fold_fit()): " - cpu[LIST]/suite/check..."
 * with each differing number as "MIN (cpuA) .. MAX (cpuB)" (A, B: the first thread with that value), the
 * thread's own name as "cpu[LIST]", and an evidence entry whose values differ in shape, or in more than
 * TAP_FOLD_MAX_RANGES numbers, saying so in place of its value. n == 1: the
 * text as it is. scratch: 3 * n entries. A block that does not fit ends at its last whole line with a
 * "diagnostics truncated" entry and "  ...". Returns the length written (NUL-terminated); 0 when size < 256 or not
 * even the name line fits: then the caller prints each thread's own text. */
u32 tap_fold_render(const struct tap_fold_item *it, u32 n, u32 *scratch, char *out, u32 size);

/* The kernel's folding, shared with tools/tap-fold so that both fold alike: at most TAP_FOLD_GROUPS kinds of
 * verdict are folded per check (a thread that matches none of them once they are all taken is printed alone),
 * and a folded line is at most TAP_FOLD_OUT_MAX bytes (twice the kernel's REPORT_RECORD_MAX). */
#define TAP_FOLD_GROUPS 64
#define TAP_FOLD_OUT_MAX 24576

/* Print one group of agreeing threads (it[0..n), ascending CPUs, every pair tap_fold_same_shape): as many folded
 * lines as its CPU list needs (tap_fold_fit), each rendered into out (TAP_FOLD_OUT_MAX bytes) and passed to emit;
 * where not even the name line fits folded, each thread's own text. scratch: 3 * n entries. */
typedef void (*tap_fold_emit_fn)(void *ctx, const char *text, u32 len);
void tap_fold_emit_group(const struct tap_fold_item *it, u32 n, u32 *scratch, char *out, tap_fold_emit_fn emit,
                         void *ctx);
