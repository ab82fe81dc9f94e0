/* A check's verdict line and YAML block, and the checklist's header and closing lines (docs/checklist.md). */
#pragma once
#include "harness/report.h"
#include "lib/bootinfo.h"
#include "lib/cmdline.h"
#include "lib/cpu_ident.h"

struct check;

void tap_report_header(const struct boot_info *bi, const struct options *o, const struct cpu_ident *id);
void report_check(const struct check *c); /* one "ok/not ok" line and its YAML block, atomically */
/* The same in two steps, for a check reported later (harness/runner.c buffers per CPU): render its line after
 * "ok N"/"not ok N" and its YAML block into buf (a block that does not fit is replaced by a note saying so; size
 * at least 512), then report_emit() it with the next test number. */
u32 report_render(const struct check *c, char *buf, u32 size);
/* The record kind of a verdict for report_emit(). */
u32 report_verdict_kind(const struct check *c);
/* The emulated PMU's closing lines, then report_finish(). */
NORETURN void tap_report_finish(void);
