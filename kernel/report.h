/* The checklist: a TAP version 13 stream on the console (docs/checklist.md). */
#pragma once
#include "lib/bootinfo.h"
#include "lib/cmdline.h"
#include "lib/cpu_ident.h"
#include "lib/types.h"

struct check;

void report_begin(const struct options *o);
void report_header(const struct boot_info *bi, const struct options *o, const struct cpu_ident *id);
void report_check(const struct check *c); /* one "ok/not ok" line and its YAML block, atomically */
/* The same in two steps, for a check reported later (tests/runner.c buffers per CPU): render its line after
 * "ok N"/"not ok N" and its YAML block into buf (a block that does not fit is replaced by a note saying so; size
 * at least 512), then emit it with the next test number. */
#define REPORT_RECORD_MAX 4096
u32 report_render(const struct check *c, char *buf, u32 size);
/* The record kind of a verdict: its enum check_verdict, | REPORT_EMULATED when it came from the emulated PMU
 * (counted apart in the closing lines). */
#define REPORT_EMULATED 0x80u
u32 report_verdict_kind(const struct check *c);
void report_emit(u32 verdict, const char *text, u32 len); /* verdict: report_verdict_kind() */
void report_comment(const char *fmt, ...) PRINTF_LIKE(1, 2);
void report_emit_text(const char *text, u32 len); /* raw lines (already "# "-prefixed), under the console lock */
/* hook(text) may take a comment (returns true), e.g. into the buffer of a check that reports later. */
void report_set_comment_hook(bool (*hook)(const char *text));
void report_debug(const char *fmt, ...) PRINTF_LIKE(1, 2); /* only with verbose=2 */
NORETURN void report_finish(void);                          /* plan, summary line, exit */
NORETURN void report_bail_out(const char *why);
