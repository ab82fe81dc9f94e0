/* Fatal errors: report on the console, close the TAP stream as failed, end the run. */
#pragma once
#include "kernel/percpu.h"
#include "lib/types.h"

NORETURN void panic(const char *fmt, ...) PRINTF_LIKE(1, 2);
NORETURN void panic_fault(const struct fault_record *f, const char *why);
