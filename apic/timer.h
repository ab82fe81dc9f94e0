/* The local APIC timer (SDM Vol.3A 11.5.4): calibration against the TSC, once per CPU, and the three modes
 * (one-shot, periodic, TSC-deadline). The register access goes through apic/apic.h, so it works in xAPIC and
 * x2APIC mode alike. */
#pragma once
#include "lib/types.h"

#define MSR_TSC_DEADLINE 0x6E0u /* IA32_TSC_DEADLINE, SDM Vol.3A 11.5.4.1 */
#define APIC_TIMER_CAL_WINDOWS 3

/* One CPU's calibration: `apic_ticks` timer ticks (at `divisor`) elapsed over `tsc_ticks` TSC ticks in the
 * median window. Every conversion goes through that ratio, so a check that times the timer with the TSC does
 * not depend on how well the TSC frequency itself is known; `hz` uses timing.tsc_hz only for reporting. */
struct apic_timer_cal {
    bool done, ok;
    char problem[120];  /* why not ok */
    u32 divisor;        /* DCR divisor used (1) */
    u64 apic_ticks, tsc_ticks;
    u64 hz;             /* timer ticks per second at that divisor (0 when the TSC frequency is unknown) */
    u64 window_us;      /* length of each window */
    u32 windows;         /* windows accepted (1..APIC_TIMER_CAL_WINDOWS when ok) */
    u64 window_hz[APIC_TIMER_CAL_WINDOWS]; /* each accepted window's result, in measurement order */
    u64 max_bracket_tsc; /* worst TSC gap around a current-count read (the read's time uncertainty) */
    u32 attempts;        /* windows tried (rejected ones included) */
    u32 slow_reads;      /* windows lost to a descheduled vCPU (or an SMI): a slow count read, or an overrun */
};

/* Calibrate this CPU's timer (first call) and return the result; later calls return the cached result.
 * Leaves the timer stopped and its LVT entry masked, with the previous divide configuration restored. */
const struct apic_timer_cal *apic_timer_calibrate(void);

/* Conversions with this CPU's calibration (0 when it failed). */
u64 apic_timer_ticks_to_tsc(const struct apic_timer_cal *cal, u64 ticks);

/* Program the timer: LVT timer = vector | mode (LVT_TIMER_PERIODIC or 0) | mask, divisor via DCR, then the
 * initial count (writing it starts the count-down, SDM 11.5.4). Returns false for an invalid divisor. */
bool apic_timer_start(u8 vector, u32 mode, bool masked, u32 divisor, u32 initial_count);
/* Mask the LVT entry and write 0 to the initial count: the timer stops (SDM 11.5.4). */
void apic_timer_stop(void);
u32 apic_timer_current(void);

/* CPUID.01H:ECX[24]: TSC-deadline mode offered (SDM 11.5.4.1). */
bool apic_tsc_deadline_supported(void);
/* Switch the LVT timer to TSC-deadline mode with vector (unmasked) and arm IA32_TSC_DEADLINE. */
void apic_timer_arm_tsc_deadline(u8 vector, u64 deadline_tsc);
