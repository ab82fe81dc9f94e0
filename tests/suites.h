/* The suite list (tests/suites.c), which kmain gives the runner (suites_register). */
#pragma once
#include "harness/framework.h"

extern const struct suite *const all_suites[];
extern const u32 all_suites_count;
