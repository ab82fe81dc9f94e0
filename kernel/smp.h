/* Running work on CPUs. Until AP bring-up exists only the boot CPU is online. */
#pragma once
#include "kernel/types.h"

u32 smp_online_count(void);
/* Run fn(arg) on every online CPU in turn (boot CPU first), waiting for each. */
void smp_run_on_each(void (*fn)(void *arg), void *arg);
