/* Fatal errors: report on the console, close the TAP stream as failed, end the run. */
#pragma once
#include "lib/types.h"

NORETURN void panic(const char *fmt, ...) PRINTF_LIKE(1, 2);
