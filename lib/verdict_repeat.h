/* A per-CPU SKIP that repeats an earlier CPU's word for word is printed short: " - cpu5/suite/check # SKIP
 * no PMU: as cpu0". On a machine with hundreds of threads the same 200-byte evidence would otherwise fill most of
 * the serial log (at 115200 baud, 64 CPUs' copies of it take 40 s). Portable: host-tested. */
#pragma once
#include "lib/types.h"

#define VERDICT_REPEAT_HEAD_MAX 80 /* the reason's head (up to its first ':') kept in the short form */

/* text/len: a rendered verdict (" - NAME[ [emulated PMU]] # SKIP reason\n", report_render); ref/ref_len: the
 * same check's rendered verdict on CPU ref_cpu. When both are single-line SKIPs with the same text after the
 * name and the reason has a short head, writes the short form (NUL-terminated) to out and returns its length;
 * otherwise returns 0 (print text as it is). */
u32 verdict_repeat(const char *text, u32 len, const char *ref, u32 ref_len, u32 ref_cpu, char *out, u32 size);
