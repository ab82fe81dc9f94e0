/* APIC timer arithmetic, portable (kernel and host tests): the divide configuration register encoding and
 * overflow-free tick/time conversions. No hardware access here; apic/timer.c does that. */
#pragma once
#include "kernel/types.h"

/* SDM Vol.3A 11.5.4, Figure 11-10: DCR bits 0, 1 and 3 select the divisor: value = bit3:bit1:bit0,
 * divisor = 2 << value for value 0..6 (2..128), and 1 for value 7 (0b1011). Bit 2 is reserved (0). */
#define APIC_DCR_MASK 0xBu
u32 apic_dcr_divisor(u32 dcr);
/* The DCR value for a divisor (1, 2, 4, ..., 128); false for any other divisor. */
bool apic_dcr_for_divisor(u32 divisor, u32 *dcr);

/* floor(a * b / c) without 64-bit overflow of the product; *ok is false when c is 0 or the quotient does not
 * fit in 64 bits (the result is then UINT64_MAX). No 128-bit division: the kernel has no libgcc. */
u64 mul_div_u64(u64 a, u64 b, u64 c, bool *ok);

/* The median of n values (n >= 1). Sorts values in place, ascending. For odd n the middle one, for even n
 * the lower middle one, so the result is always one of the measured values. */
u64 median_u64(u64 *values, u32 n);

/* Timing under a hypervisor (issue: verdicts that can be trusted). A vCPU can be descheduled between any two
 * instructions, and under QEMU TCG the TSC and the APIC timer clock are two host clocks whose ratio was seen to
 * drift by 2.5% for tens of milliseconds. So a check never compares the timer with a rate measured long before:
 * each attempt measures a reference rate of the timer's own clock (divide by 1, ticks over TSC ticks) just before
 * and just after the measurement, and counts only when the two references agree (the clocks kept their ratio
 * through it). A bounded number of attempts is made; the verdict is that of the best valid attempt, and every
 * attempt's deviation is reported as the measured noise. A broken timer (a wrong divide, a count-down at the
 * wrong rate, no reload) is off in every attempt, so it still fails. */
struct timer_rate {
    u64 ticks, tsc; /* timer ticks (at divide by 1) counted over tsc TSC ticks */
};
#define TIMER_ATTEMPTS_MAX 8
#define TIMER_REF_AGREE_PPM 5000 /* 0.5%: the two references of a valid attempt */

/* |a - b| relative to their mean, in parts per million; UINT64_MAX when either rate is empty. */
u64 timer_rate_diff_ppm(struct timer_rate a, struct timer_rate b);
/* The mean of two rates (each weighted equally), as one rate. */
struct timer_rate timer_rate_mean(struct timer_rate a, struct timer_rate b);
/* Ticks at divide by 1 over `tsc` TSC ticks, at rate r (0 for an empty rate). */
u64 timer_rate_ticks(struct timer_rate r, u64 tsc);
/* TSC ticks for `ticks` timer ticks (divide by 1) at rate r (0 for an empty rate). */
u64 timer_rate_tsc(struct timer_rate r, u64 ticks);

/* The attempts of one expectation. */
struct timer_attempts {
    u32 made, valid;                  /* attempts made; those whose references agreed */
    u32 unbracketed;                  /* attempts with a read not bracketed closely (a descheduled vCPU) */
    s64 expected[TIMER_ATTEMPTS_MAX]; /* per valid attempt */
    s64 observed[TIMER_ATTEMPTS_MAX];
    u64 tolerance[TIMER_ATTEMPTS_MAX];
    u64 scale[TIMER_ATTEMPTS_MAX];    /* what a deviation is relative to (timer_attempts_deviation_ppm) */
    u64 worst_ref_ppm; /* the largest disagreement of two references seen (the clocks' noise) */
};
void timer_attempts_init(struct timer_attempts *t);
/* Record one attempt: refs_agree_ppm is the disagreement of its two references; the attempt is valid (and its
 * expectation kept) when that is within TIMER_REF_AGREE_PPM. TIMER_UNBRACKETED records an attempt none of whose
 * numbers count, because a read took too long. Returns whether it was valid. */
#define TIMER_UNBRACKETED UINT64_MAX
bool timer_attempts_add(struct timer_attempts *t, u64 refs_agree_ppm, s64 expected, s64 observed, u64 tolerance);
/* The same, for an expectation whose deviation is relative to `scale` rather than to the expected value (a phase
 * error expected to be 0 is relative to the ticks elapsed). */
bool timer_attempts_add_scaled(struct timer_attempts *t, u64 refs_agree_ppm, s64 expected, s64 observed,
                               u64 tolerance, u64 scale);
/* Index of the valid attempt closest to its expectation (relative to its tolerance), or -1 if none is valid. */
int timer_attempts_best(const struct timer_attempts *t);
/* Whether the best valid attempt is within its tolerance (false when none is valid). */
bool timer_attempts_pass(const struct timer_attempts *t);
/* The best valid attempt's deviation from its expectation, in ppm of its scale (0 when none is valid). */
u64 timer_attempts_deviation_ppm(const struct timer_attempts *t);
/* Not passed, and the clocks themselves were measured moving about as far: the best valid attempt's deviation is
 * at most TIMER_NOISE_FACTOR times the worst disagreement of two references of one attempt in the same expectation
 * (worst_ref_ppm, the measured noise). A jump of the clocks' ratio inside a measured window is not seen by that
 * attempt's own references (which is why it was valid), only by other attempts' references, which sample the
 * same noise; hence the factor. Seen under QEMU 7.2 TCG at 64 vCPUs on 2 host cores: deviations of 1.1-2.3% with
 * references 1.4-3.1% apart in other attempts; 8% under QEMU 10 TCG at 288 vCPUs. Such a failure is no evidence
 * against the timer; a deviation beyond it (a wrong divider is 100% off), or any with stable clocks, stays a
 * failure. Never a pass. */
#define TIMER_NOISE_FACTOR 2
bool timer_attempts_inconclusive(const struct timer_attempts *t);
/* Whether another attempt is worth making: none valid and within tolerance yet, and attempts remain. */
bool timer_attempts_more(const struct timer_attempts *t);

/* The expectations of the timer checks, from a local rate m (the mean of an attempt's two references) whose
 * references disagreed by ref_ppm. Each gives the expected value and its tolerance: the time uncertainty
 * bracket_tsc (the reads' TSC brackets) converted at m, ref_ppm of the value (how far the rate moved during the
 * attempt) plus 0.5% (the references' own read uncertainty), and 2 ticks. */
/* Ticks at divide by `div` over tsc TSC ticks (SDM Vol.3A Figure 11-10: exactly 1/div of divide by 1); with
 * div 1, the ticks a one-shot counts down between two reads (SDM 11.5.4: at the timer's rate). */
void timer_expect_divided(struct timer_rate m, u64 ref_ppm, u64 tsc, u64 bracket_tsc, u32 div, u64 *expected,
                          u64 *tolerance);
/* A periodic count-down of `count` read as c0, then c1 elapsed_tsc later: the ticks counted (modulo the reload)
 * minus the ticks elapsed (modulo the reload), folded into [-count/2, count/2]: 0 for a timer that reloads
 * from the initial count at 0 (SDM 11.5.4). */
s64 timer_periodic_phase_error(struct timer_rate m, u64 ref_ppm, u32 count, u32 c0, u32 c1, u64 elapsed_tsc,
                               u64 bracket_tsc, u64 *tolerance);
