/* Running a measured workload: on hardware, fn runs as it is (CPL 3 through kernel/user.c, or a
 * direct call at CPL 0); under pmu=emulated:KIND it is single-stepped (kernel/singlestep.c) and every retired
 * instruction is fed to this CPU's emulated PMU (emul/kernel/pmu_emul.c), so counters count and overflows become
 * PMIs in the middle of the workload, as on hardware. `irq`: interrupts enabled while fn runs. */
#pragma once
#include "kernel/singlestep.h"
#include "lib/types.h"

u64 workload_run(u8 cpl, bool irq, u64 (*fn)(u64), u64 arg);
