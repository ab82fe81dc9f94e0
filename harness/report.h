/* The checklist stream: TAP version 13 on the console (docs/checklist.md). It numbers and counts verdict
 * lines and prints comments; what a check's line says is rendered by the harness (harness/tap_report.h). */
#pragma once
#include "kernel/exit.h"
#include "lib/types.h"

enum report_verdict { VERDICT_PASS, VERDICT_FAIL, VERDICT_SKIP, VERDICT_TODO_FAIL, VERDICT_TODO_PASS };

struct report_counts {
    u32 number, passed, failed, skipped, todo;
    u32 emul_passed, emul_failed, emul_skipped; /* of those, verdicts on the emulated PMU */
};

/* verbose: 0 (verdict lines, YAML only for failures), 1 (YAML for every check), 2 (and report_debug lines). */
void report_begin(u32 verbose, enum exit_mode exit);
u32 report_verbose(void);
const struct report_counts *report_counts(void);
/* Render a verdict's text into a record of at most REPORT_RECORD_MAX bytes (harness/tap_report.h), then emit it
 * with the next test number. verdict: an enum report_verdict, | REPORT_EMULATED when it came from the emulated
 * PMU (counted apart in the closing lines). */
#define REPORT_RECORD_MAX 12288 /* a check's whole YAML (harness/framework.h diag_buf, 8 KiB) and its verdict line */
#define REPORT_EMULATED 0x80u
void report_emit(u32 verdict, const char *text, u32 len);
void report_comment(const char *fmt, ...) PRINTF_LIKE(1, 2);
void report_emit_text(const char *text, u32 len); /* raw lines (already "# "-prefixed), under the console lock */
/* hook(text) may take a comment (returns true), e.g. into the buffer of a check that reports later. */
void report_set_comment_hook(bool (*hook)(const char *text));
void report_debug(const char *fmt, ...) PRINTF_LIKE(1, 2); /* only with verbose=2 */
NORETURN void report_finish(void);                          /* plan, summary line, exit */
NORETURN void report_bail_out(const char *why);
