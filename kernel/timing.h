/* Time base: the TSC, its frequency taken from the clocks the machine really has (CPUID 15H, the HPET, the ACPI
 * PM timer, the 8254 PIT when it ticks; CPUID 16H only as a last, untrusted resort), each measured source
 * cross-checked against the others. lib/clock_select.c judges and decides; this file reads the hardware. */
#pragma once
#include "lib/acpi.h"
#include "lib/clock_select.h"
#include "lib/types.h"

/* A counter to measure time with: the HPET main counter (low 32 bits), the PM timer, PIT channel 2. */
struct clock_counter {
    enum clock_id id;
    bool present;
    struct clock_rate rate;
    u32 bits;
    bool down;
    u64 addr; /* HPET register block, or the PM timer's I/O port */
};

struct timing_info {
    u64 tsc_hz;                          /* the frequency in use (0: unknown) */
    enum clock_id source;                /* where it came from (CLOCK_COUNT: nowhere) */
    struct clock_choice choice;          /* the decision, its summary and problem */
    struct clock_meas meas[CLOCK_COUNT]; /* every source's measurement or absence */
    struct clock_counter counters[CLOCK_COUNT]; /* HPET, PM timer, PIT */
    struct acpi_problems problems;       /* the FADT and HPET tables' */
    bool invariant;                      /* CPUID 0x80000007 EDX[8] */
    u64 init_tsc;                        /* TSC ticks timing_init took */
};

extern struct timing_info timing;

/* Measure and choose. ai: the ACPI tables found (root table walked), for the FADT and the HPET table. */
void timing_init(const struct acpi_info *ai);
void udelay(u64 us);
u64 tsc_to_us(u64 ticks);
u64 us_to_tsc(u64 us);

/* The counter to time things independently of the TSC: the chosen source when it is a counter, else the first
 * trusted one; NULL when none ticks. */
const struct clock_counter *timing_reference(void);
/* Read the counter until `ticks` of it have elapsed; *w gets the window (ticks, TSC, brackets, gaps). False when
 * the counter stood still (a dead clock). */
bool clock_measure_window(const struct clock_counter *c, u64 ticks, struct clock_window *w);
/* One read of the counter (the HPET's low 32 bits, the PM timer's 24 or 32, the PIT's 16, counting down). */
u64 clock_counter_read(const struct clock_counter *c);
/* Ticks of c in `us` microseconds by its nominal rate. */
u64 clock_ticks_in_us(const struct clock_counter *c, u64 us);
