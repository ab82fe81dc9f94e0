/* Running a function at CPL 3 on the current CPU, for privilege checks (RDPMC/RDMSR at ring 3).
 * The identity map is user-accessible, so the function can run from kernel text on a per-CPU user stack.
 * It returns through `int $VECTOR_USER_RETURN` (a DPL-3 gate). Exceptions at CPL 3 take the usual path:
 * fixed up by the safe accessors, or charged to the running check. */
#pragma once
#include "kernel/types.h"

#define VECTOR_USER_RETURN 0x81

void user_init(void);
/* Run fn(arg) at CPL 3; returns fn's return value. */
u64 run_at_cpl3(u64 (*fn)(u64 arg), u64 arg);
