/* Per-CPU report buffers: while CPUs run their checks at once, each renders its verdicts, YAML blocks and
 * comments into its own buffer; the boot CPU prints them afterwards in a fixed order (fold=on: check by check in
 * table order, the agreeing threads folded into one line; fold=off: CPU by CPU, check by check), numbering them
 * then, so the stream does not depend on which CPU finished first. */
#pragma once
#include "lib/types.h"

struct check;

#define CPU_REPORT_BYTES (64 * 1024) /* one suite's records of one CPU (~20 KiB for the apic suite, verbose=1) */
#define CPU_REPORT_COMMENT 0xFF      /* record kind of a comment; otherwise an enum report_verdict */

/* Make cpu's buffer ready for a suite (allocating it the first time). False when no memory was left for it:
 * then the runner FAILs each of its checks saying so (runner.c print_no_memory). */
bool cpu_report_reset(u32 cpu);
/* Record a check's verdict, or a comment line ("text" without "# "), for table slot `slot`, on the calling CPU.
 * Returns false when the buffer had no room. */
bool cpu_report_check(u32 slot, const struct check *c);
bool cpu_report_comment(u32 slot, const char *text);
/* Freeze what cpu recorded so far: later writes (a CPU that stopped answering and came back) are not read. */
void cpu_report_freeze(u32 cpu);
/* Print the records of `slot` on cpu, oldest first; returns whether a verdict was among them. */
bool cpu_report_print_slot(u32 cpu, u32 slot);
/* Print the verdicts of `slot` of the CPUs with in[cpu] set, folded (lib/tap_fold.h, fold=on): the threads whose
 * verdicts agree apart from their numbers as one line, after their comments, in the order of each group's first
 * CPU. found[cpu]: whether it had a verdict (the caller reports those that did not). */
void cpu_report_print_folded(u32 slot, const bool *in, bool *found);
/* Print the comments cpu recorded for `slot` (those of a check whose verdict is missing, with fold=on). */
void cpu_report_print_comments(u32 cpu, u32 slot);
