/* Suite uncore's bounded-event workload (tests/uncore/uncore_lines.asm): n distinct lines, each CLFLUSHed, fenced
 * and loaded once. The asm repeats these numbers. */
#pragma once
#include "lib/types.h"

#define UNCORE_LINES_MAX 4096u
#define UNCORE_LINE_STRIDE 256u

u64 uncore_lines_touch(u64 n);
