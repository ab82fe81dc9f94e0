/* The checklist: a TAP version 13 stream on the console (docs/checklist.md). */
#pragma once
#include "kernel/bootinfo.h"
#include "kernel/cmdline.h"
#include "kernel/cpu_ident.h"
#include "kernel/types.h"

struct check;

void report_begin(const struct options *o);
void report_header(const struct boot_info *bi, const struct options *o, const struct cpu_ident *id);
void report_check(const struct check *c); /* one "ok/not ok" line and its YAML block, atomically */
void report_comment(const char *fmt, ...) PRINTF_LIKE(1, 2);
void report_debug(const char *fmt, ...) PRINTF_LIKE(1, 2); /* only with verbose=2 */
NORETURN void report_finish(void);                          /* plan, summary line, exit */
NORETURN void report_bail_out(const char *why);
u32 report_failed_count(void);
