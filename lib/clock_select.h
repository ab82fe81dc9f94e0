/* Which clock calibrates the TSC, and whether it can be trusted (portable: kernel and host tests).
 *
 * The TSC frequency comes from what the machine has: CPUID 15H (SDM Vol.2A: TSC = crystal * EBX / EAX, when the
 * crystal is enumerated), the HPET main counter (IA-PC HPET 1.0a 2.3.4: period in femtoseconds), the ACPI PM
 * timer (ACPI 6.5 4.8.3.3: 3.579545 MHz, 24 or 32 bits) and the 8254 PIT (1.193182 MHz) when it ticks. CPUID 16H's
 * base frequency is nominal ("does not reflect actual values", SDM Vol.2A CPUID 16H): reported, used only when
 * nothing else exists, and then not trusted. kernel/timing.c measures; this file judges windows and decides.
 *
 * A measured window: the counter is read over and over, each read between two TSC reads (its bracket), and the
 * ticks between consecutive reads are summed (so a counter that wraps is followed). The window's time is
 * known to within its first and last reads' brackets; a slow end read or two consecutive reads far apart (a
 * descheduled vCPU, an SMI) make it longer (clock_window_can_end). One whose end reads stay slow, or in which a
 * wrap could have been missed, is not used; one with a gap is kept apart and used only when too few clean ones
 * were had. The median of the kept windows is the source's measurement; their spread is part of its
 * uncertainty, and shows whether the clocks ran on through the gaps. */
#pragma once
#include "lib/types.h"

/* In order of preference. */
enum clock_id { CLOCK_CPUID15, CLOCK_HPET, CLOCK_PMTMR, CLOCK_PIT, CLOCK_CPUID16, CLOCK_COUNT };

enum clock_state {
    CLOCK_ABSENT,   /* not enumerated: no leaf, no table, no PIT answering */
    CLOCK_DEAD,     /* enumerated, but the counter did not count */
    CLOCK_UNUSABLE, /* counted, but no trustworthy measurement (too few good windows, implausible rate, spread) */
    CLOCK_OK,       /* a measurement, or an enumerated frequency */
};

/* A counter's rate as a fraction, so that 14.31818 MHz / 12 (the PIT) is exact: num / den Hz. */
struct clock_rate {
    u64 num, den;
};
#define CLOCK_PIT_RATE ((struct clock_rate){3579545, 3})   /* 14.31818 MHz / 12 */
#define CLOCK_PMTMR_RATE ((struct clock_rate){3579545, 1}) /* 14.31818 MHz / 4, ACPI 6.5 4.8.3.3 */

struct clock_window {
    u64 ticks;   /* counter ticks summed over the window */
    u64 tsc;     /* TSC ticks from the midpoint of the first read's bracket to the midpoint of the last's */
    u64 bracket; /* the first and the last read's brackets, summed */
    u64 max_gap; /* the longest TSC time between two consecutive reads' midpoints */
    u64 max_step; /* the most counter ticks between two consecutive reads */
};

#define CLOCK_WINDOWS_WANT 3         /* kept, then stop: the median of three outvotes one odd window */
#define CLOCK_WINDOWS_MAX 16        /* tried at most (a loaded host makes reads slow) */
#define CLOCK_WINDOWS_MIN 3         /* kept, for a measurement */
#define CLOCK_BRACKET_MAX_PPM 2000  /* a window whose end reads took longer than 0.2% of it is not used */
#define CLOCK_GAP_MAX_PCT 25        /* one with a gap between two reads over 25% of it: second tier */
#define CLOCK_UNCERTAIN_MAX_PPM 10000 /* a measurement less certain than 1% is not trusted */
#define CLOCK_AGREE_PPM 1000        /* two sources agree within 0.1% plus both uncertainties (crystals: ~100 ppm) */
#define CLOCK_TSC_HZ_MIN 10000000ull      /* a TSC below 10 MHz or above 20 GHz is a broken measurement */
#define CLOCK_TSC_HZ_MAX 20000000000ull

struct clock_meas {
    enum clock_state state;
    struct clock_rate rate; /* the counter's (measured sources) */
    u32 bits;               /* counter width */
    u64 tsc_hz;             /* the measurement (median window) or the enumerated frequency */
    u32 tried, kept, rejected_bracket, rejected_wrap;
    u64 window_hz[CLOCK_WINDOWS_MAX]; /* kept windows */
    u32 gapped, used_gapped;          /* windows with a gap over CLOCK_GAP_MAX_PCT; those used (too few clean) */
    u64 gapped_hz[CLOCK_WINDOWS_WANT];
    u64 gapped_uncertainty_ppm;
    u64 spread_ppm;         /* (max - min) of the kept windows, relative to tsc_hz */
    u64 uncertainty_ppm;    /* the larger of the worst kept bracket and the spread */
    char note[192];         /* where it is; or why it is absent, dead or unusable */
};

/* Whether a window in progress may end at a read whose bracket is end_bracket. w holds the window so far: ticks,
 * tsc up to this read, bracket of its first read only, max_gap, max_step. It may end once it has `want` ticks
 * and both its end reads fit in CLOCK_BRACKET_MAX_PPM and its longest gap in CLOCK_GAP_MAX_PCT of it: a slow read
 * or a gap makes the window longer instead of wasting it. At CLOCK_WINDOW_STRETCH_MAX times `want` it ends
 * anyway (and clock_meas_add judges it). */
#define CLOCK_WINDOW_STRETCH_MAX 4
bool clock_window_can_end(const struct clock_window *w, u64 want, u64 end_bracket);

/* Ticks from prev to now of a `bits`-wide counter counting up (or down), modulo its width. */
u64 clock_counter_delta(u64 prev, u64 now, u32 bits, bool down);
/* The TSC frequency a window gives: tsc * rate / ticks (0 for an empty window). */
u64 clock_window_tsc_hz(const struct clock_window *w, struct clock_rate r);

/* Start a measured source: state CLOCK_UNUSABLE until finished, rate and width set. */
void clock_meas_begin(struct clock_meas *m, struct clock_rate r, u32 bits);
/* Judge one window and keep it when good. Returns whether it was kept. */
bool clock_meas_add(struct clock_meas *m, const struct clock_window *w);
/* Whether another window is worth measuring. */
bool clock_meas_more(const struct clock_meas *m);
/* The counter never changed: CLOCK_DEAD, with why. */
void clock_meas_dead(struct clock_meas *m, const char *why);
/* Median, spread, uncertainty and the verdict (CLOCK_OK or CLOCK_UNUSABLE with the reason in note). */
void clock_meas_finish(struct clock_meas *m);
/* An enumerated frequency (CPUID 15H/16H): CLOCK_OK with uncertainty 0. */
void clock_meas_enumerated(struct clock_meas *m, u64 hz);

/* |a - b| relative to b, in ppm (UINT64_MAX when b is 0). */
u64 clock_diff_ppm(u64 a, u64 b);

struct clock_choice {
    enum clock_id source; /* CLOCK_COUNT: none */
    u64 tsc_hz;           /* 0 when none */
    bool trusted;         /* false: the run must say so (boot/clocks fails) */
    u32 agree, disagree;  /* trusted sources compared with the chosen one */
    u64 worst_agree_ppm;  /* the largest difference among those that agree */
    char summary[224];    /* the source and the others: "HPET (PM timer agrees within 12 ppm, PIT does not count)" */
    char problem[224];    /* why not trusted; "" when trusted */
};

/* Choose from the sources: the CLOCK_OK source (CPUID 16H aside) that agrees with the most others, preferring the
 * earlier in enum order; trusted when at least one such source exists and no two of them disagree (tolerance:
 * CLOCK_AGREE_PPM plus both uncertainties). With none, CPUID 16H (untrusted) or nothing. */
void clock_choose(const struct clock_meas m[CLOCK_COUNT], struct clock_choice *c);

const char *clock_name(enum clock_id id);
const char *clock_state_name(enum clock_state s);

/* IA-PC HPET 1.0a 2.3.4 General Capabilities and ID: COUNTER_CLK_PERIOD 63:32 (fs, 0 < period <= 100 ns),
 * COUNT_SIZE_CAP 13, NUM_TIM_CAP 12:8, REV_ID 7:0 (not 0). */
struct hpet_caps {
    u32 period_fs;
    u32 bits;   /* 64 or 32 */
    u32 timers; /* comparators */
    u8 rev;
};
#define HPET_PERIOD_MAX_FS 0x05F5E100u
/* Decode; false with why (e.g. all ones: nothing at that address) when the register cannot be an HPET's. */
bool hpet_caps_decode(u64 gcap, struct hpet_caps *out, char *why, size_t why_size);
