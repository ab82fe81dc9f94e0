/* The local APIC timer (SDM Vol.3A 11.5.4): calibration against the TSC, once per CPU, and the three modes
 * (one-shot, periodic, TSC-deadline). The register access goes through apic/apic.h, so it works in xAPIC and
 * x2APIC mode alike. */
#pragma once
#include "lib/types.h"

#define MSR_TSC_DEADLINE 0x6E0u /* IA32_TSC_DEADLINE, SDM Vol.3A 11.5.4.1 */
#define APIC_TIMER_CAL_WINDOWS 3
#define APIC_TIMER_WINDOW_VECTOR 0xF2 /* the interrupt that ends a halted window (apic_timer_window_halted) */

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
    u32 halted;          /* accepted windows measured halted (apic_timer_window_halted) rather than spinning */
    u32 halted_dropped;  /* halted windows measured, then dropped for spinning ones: they disagreed */
};

/* Calibrate this CPU's timer (first call) and return the result; later calls return the cached result.
 * Leaves the timer stopped and its LVT entry masked, with the previous divide configuration restored. */
const struct apic_timer_cal *apic_timer_calibrate(void);

/* Calibrate again with spinning windows when the calibration was halted (a check found it disagreeing with an
 * independent clock); the halted windows are counted in halted_dropped. */
const struct apic_timer_cal *apic_timer_calibrate_spinning(void);

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

/* Waiting costs nothing under a hypervisor: a vCPU that spins through a window takes a host CPU from the others
 * (and, under QEMU TCG, from the thread that raises their timer interrupts), one that halts does not. A halted
 * window runs the timer in periodic mode with the window as its period (SDM 11.5.4: at 0 the count reloads and
 * the timer interrupts): the count is read at the start, the CPU halts until the reload's interrupt, and the count
 * is read again; the ticks between are worked out from the timer's own count (timer_halted_ticks,
 * lib/apic_timer_calc.h). HLT has no timeout, so a CPU halts only under a hypervisor (CPUID.01H:ECX[31]) and once
 * a timer interrupt reached it while it spun (apic_timer_mark_delivered); on bare metal, where a timer that
 * counts but never interrupts is what bring-up looks for, and spinning costs nothing, windows spin. */
struct apic_timer_window {
    u64 ticks;        /* timer ticks counted between the two reads */
    u64 tsc;          /* TSC ticks between the two reads' midpoints */
    u64 bracket;      /* the two reads' TSC brackets, summed: the window's time uncertainty */
    u64 longest_read; /* the slower read's bracket */
    u64 other0, other1; /* the other counter read with each count, inside its TSC bracket (or 0) */
};
bool apic_timer_may_halt(void);
bool apic_timer_delivered(void); /* a timer interrupt reached this CPU while it spun */
void apic_timer_mark_delivered(void);
/* Under a hypervisor, prove delivery if not yet proved: a one-shot of `count` ticks at divide by 1, interrupts
 * enabled, spinning up to 100 ms for it. Returns apic_timer_may_halt(). */
bool apic_timer_prove_delivery(u32 count);
/* One halted window of `count` ticks at `divisor`, given up after timeout_tsc; `other` (or NULL), a clock counter
 * read just after each count read. False when this CPU may not halt or the window is no evidence
 * (timer_halted_ticks); the caller then measures spinning. Leaves the timer stopped. */
struct clock_counter;
bool apic_timer_window_halted(u32 divisor, u32 count, u64 timeout_tsc, const struct clock_counter *other,
                              struct apic_timer_window *w);
/* Wait up to `us` microseconds for *counter >= want (counter NULL: the whole time), halted with the timer ticking
 * to wake it, interrupts enabled in the HLT. Only under a hypervisor, with the timer free (masked and stopped: no
 * check is using it), delivery proved (apic_timer_prove_delivery, tried here) and the window vector above PPR;
 * false when it did not wait, and the caller spins. The timer is left as found. */
bool apic_timer_sleep(volatile u32 *counter, u32 want, u64 us);
