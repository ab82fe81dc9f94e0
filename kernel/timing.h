/* Time base: the TSC, with its frequency from CPUID 0x15/0x16 where present and always measured against
 * the 8254 PIT, so the two can be compared. */
#pragma once
#include "kernel/types.h"

enum tsc_freq_source { TSC_FREQ_NONE, TSC_FREQ_CPUID15, TSC_FREQ_CPUID16, TSC_FREQ_PIT };

struct timing_info {
    u64 tsc_hz;                  /* the frequency in use */
    enum tsc_freq_source source; /* where tsc_hz came from */
    u64 cpuid15_hz;              /* 0 when leaf 0x15 gives no frequency */
    u64 cpuid16_hz;              /* 0 when leaf 0x16 is absent */
    u64 pit_hz;                  /* 0 when the PIT did not answer */
    bool invariant;              /* CPUID 0x80000007 EDX[8] */
};

extern struct timing_info timing;

void timing_init(void);
const char *tsc_freq_source_name(enum tsc_freq_source s);
void udelay(u64 us);
u64 tsc_to_us(u64 ticks);
u64 us_to_tsc(u64 us);
/* Measure `ticks` PIT input clocks (1.193182 MHz) on channel 2 and return the TSC ticks elapsed, or 0 if
 * the PIT output never rose (no PIT). */
u64 pit_measure_tsc(u32 pit_ticks);
#define PIT_HZ 1193182ull
