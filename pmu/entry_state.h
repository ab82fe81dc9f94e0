/* What firmware left in the PMU: the registers read at entry, before pmuboot wrote any (pmu/kernel/pmu_cpu.c), sorted
 * into those at their reset value, those left programmed and those left enabled. Portable.
 *
 * "Enabled" is Linux's test in check_hw_exists() (arch/x86/events/core.c), which prints "Broken BIOS detected,
 * complain to your hardware vendor" and "[Firmware Bug]: the BIOS has corrupted hw-PMU resources (MSR %x is %Lx)"
 * for it and still uses the PMU: a GP event select with its enable bit (22, ARCH_PERFMON_EVENTSEL_ENABLE: SDM
 * Vol.3B 21.2.1.1 Figure 21-1, AMD APM Vol.2 13.2.1, KNC PMU Table 1-5), or the OS/USR bits (0x3 << 4i) of an
 * existing fixed counter's field in IA32_FIXED_CTR_CTRL (SDM Vol.3B 21.2.2). When every GP select is enabled
 * Linux cannot test the counters and gives the PMU up ("Broken PMU hardware detected, using software events
 * only").
 *
 * "Programmed" is any other register away from its reset value (pmu/reset_values.h): a counter holding a count, a
 * select or fixed field set up but not enabled, a global control other than a documented reset value, an overflow
 * bit pending. Linux does not look at those; they are reported because they show firmware used the PMU. */
#pragma once
#include "pmu/pmu_state.h"

enum pmu_left { PMU_LEFT_RESET, PMU_LEFT_PROGRAMMED, PMU_LEFT_ENABLED, PMU_LEFT_UNREADABLE };

struct pmu_entry_judgement {
    enum pmu_left left[PMU_STATE_MAX]; /* per entry of the state judged */
    u32 enabled, programmed, unreadable; /* entries of each kind */
    u64 enabled_counters; /* counters (PMU_GP/PMU_FIXED bits) their own control enables */
    u64 counting;         /* of those, the ones counting now: the global control enables them too, or there is none
                           * (or it could not be read) */
    bool all_gp_enabled;  /* every GP select enabled: Linux gives the PMU up */
};

/* Judge a state read by pmu_state_read on a PMU with these caps. */
void pmu_entry_judge(const struct pmu_caps *caps, const struct pmu_state *s, struct pmu_entry_judgement *j);
/* "reset", "programmed", "enabled", "unreadable". */
const char *pmu_left_name(enum pmu_left l);
