/* APIC timer arithmetic, portable (kernel and host tests): the divide configuration register encoding and
 * overflow-free tick/time conversions. No hardware access here; apic/timer.c does that. */
#pragma once
#include "lib/types.h"

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

/* Timing under a hypervisor, and on bare metal with SMIs. A window can be descheduled between any two
 * instructions (a vCPU by its host, a core by System Management Mode), and under QEMU TCG the TSC and the APIC
 * timer clock are two host clocks whose ratio was seen to drift by 2.5% for tens of milliseconds and to jump by
 * up to 10% inside a window. So a check never compares the timer with a rate measured long before: each attempt
 * measures a reference rate of the timer's own clock (divide by 1, ticks over TSC ticks) just before and just
 * after the measurement, and counts only when the two references agree (the clocks kept their ratio through it).
 *
 * The verdict is decided from every valid attempt (timer_attempts_judge), because one window is no evidence that
 * repeats:
 *  - FAIL: at least TIMER_REPRODUCE failed attempts agree, with one sign and a similar size (the largest at most
 *    TIMER_SIMILAR_FACTOR times the smallest), they are most of the valid attempts and number TIMER_REPRODUCE more
 *    than the passed ones (each pass is evidence the other way), and the smallest of them is beyond
 *    TIMER_NOISE_FACTOR times the clock noise measured on the CPU (timer_attempts_noise_ppm). A broken timer (a
 *    wrong divider, a count-down at the wrong rate) is off the same way in every attempt and never passes.
 *  - PASS: at least one attempt within tolerance, and no fewer than the largest group of failures that agree
 *    with each other (a broken timer does not pass by chance; a window hit by noise fails by chance).
 *  - INCONCLUSIVE otherwise, never a pass: too few valid attempts (most windows descheduled), failures that
 *    contradict each other (opposite signs, sizes a factor apart), or agreeing failures within the measured
 *    clock noise (a jump of the clocks' ratio inside a window is not seen by that attempt's own references,
 *    which is why it was valid, only by other attempts' references, which sample the same noise).
 * Attempts stop as soon as the verdict is PASS or FAIL (timer_attempts_more), so a healthy timer on a quiet
 * machine costs one attempt and a broken one TIMER_REPRODUCE; only noise costs more, up to TIMER_ATTEMPTS_MAX,
 * enough that a quarter of them valid still makes TIMER_REPRODUCE. */
struct timer_rate {
    u64 ticks, tsc; /* timer ticks (at divide by 1) counted over tsc TSC ticks */
};
#define TIMER_ATTEMPTS_MAX 16
#define TIMER_REF_AGREE_PPM 5000 /* 0.5%: the two references of a valid attempt */
#define TIMER_REPRODUCE 3        /* agreeing failed attempts that make a FAIL */
#define TIMER_SIMILAR_FACTOR 2   /* agreeing: the largest deviation at most this times the smallest */
/* Seen under QEMU 7.2 TCG at 64 vCPUs on 2 host cores: deviations of 1.1-2.3% with references 1.4-3.1% apart in
 * other attempts, and with two host hogs three agreeing deviations of 4.5-6.4% with references 6% apart; 8% apart
 * under QEMU 10 TCG at 288 vCPUs. A wrong divider is 50% off or more: beyond 3 x 13%, the worst seen. */
#define TIMER_NOISE_FACTOR 3

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
    u64 scale[TIMER_ATTEMPTS_MAX];    /* what a deviation is relative to (timer_attempt_deviation_ppm) */
    u64 worst_ref_ppm; /* the largest disagreement of two references seen (the clocks' noise) */
    u64 prior_noise_ppm; /* the clock noise measured on this CPU before these attempts (other expectations) */
    bool last_failed;    /* the attempt added last was valid and beyond its tolerance */
};
void timer_attempts_init(struct timer_attempts *t);
/* The same, with the clock noise this CPU measured before: a jump of the clocks' ratio is seen only by the
 * references it happens to fall in, so every reference taken on the CPU samples the noise a FAIL is held to. */
void timer_attempts_init_noise(struct timer_attempts *t, u64 prior_noise_ppm);
/* The clock noise a failure is held against: the larger of worst_ref_ppm and prior_noise_ppm. */
u64 timer_attempts_noise_ppm(const struct timer_attempts *t);
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
/* Valid attempt i's deviation (observed - expected) in ppm of its scale, signed. */
s64 timer_attempt_deviation_ppm(const struct timer_attempts *t, u32 i);

enum timer_verdict { TIMER_PASS, TIMER_FAIL, TIMER_INCONCLUSIVE };
enum timer_basis {
    TIMER_BASIS_PASSES,       /* PASS: passed attempts at least as many as any group of agreeing failures */
    TIMER_BASIS_REPRODUCED,   /* FAIL: a deviation reproduced, beyond tolerance and the clock noise */
    TIMER_BASIS_TOO_FEW,      /* INCONCLUSIVE: fewer than TIMER_REPRODUCE valid attempts decided nothing */
    TIMER_BASIS_CONTRADICT,   /* INCONCLUSIVE: the attempts disagree (sign, size, or passes against failures) */
    TIMER_BASIS_WITHIN_NOISE, /* INCONCLUSIVE: agreeing failures within TIMER_NOISE_FACTOR x the clock noise */
};
struct timer_judgement {
    enum timer_verdict verdict;
    enum timer_basis basis;
    u32 passed, failed;           /* valid attempts within / beyond their tolerance */
    u32 agreeing;                 /* the largest group of failures of one sign and similar size */
    s64 agree_lo_ppm, agree_hi_ppm; /* that group's deviations (signed ppm of scale; 0 when the group is empty) */
    int example; /* the attempt shown as the expectation: the best pass (PASS), the group's median member (FAIL),
                  * the best valid attempt otherwise; -1 when none is valid */
};
void timer_attempts_judge(const struct timer_attempts *t, struct timer_judgement *j);
const char *timer_basis_text(enum timer_basis b);
/* Whether another attempt is worth making: no PASS or FAIL yet, and attempts remain. */
bool timer_attempts_more(const struct timer_attempts *t);

/* A reading that needs no clock: whether a periodic timer reloads. A timer that does not reload reads 0 once its
 * count ran out (SDM 11.5.4: one-shot behaviour); one that reloads reads 0 only in the instant of a reload. FAIL
 * when at least TIMER_REPRODUCE reads taken after more than one period were all 0, PASS when one was not. */
enum timer_verdict timer_reload_verdict(u32 reads, u32 zero_reads);

/* One one-shot (SDM 11.5.4): interrupts taken for it, the current count its handler read, and the current count
 * read after it. Exact expectations, no clock in them: each one-shot interrupts once (twice is a timer that
 * reloads), and only after its count reached 0 (a count above 0 in the handler is an early interrupt); the count
 * stays 0 afterwards. */
struct timer_oneshot_sample {
    u32 interrupts, ccr_in_handler, ccr_after;
};
struct timer_oneshot_judgement {
    bool once, early, stays_zero; /* every sample: one interrupt; some sample: handler count > 0; every: 0 after */
};
void timer_oneshot_judge(const struct timer_oneshot_sample *s, u32 n, struct timer_oneshot_judgement *j);

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

/* A halted window: the timer ran in periodic mode from `count` (SDM 11.5.4: at 0 it reloads and interrupts), the
 * count was read as c0 just after the start and as c1 after the CPU, halted in between, woke; the handler took
 * `irqs` interrupts, the first of them reading `ccr_irq`. With one interrupt, and the end read no higher than the
 * handler's (no reload between them), the ticks between the reads are c0 + count - c1 when no other reload hid
 * between them: one whose interrupt a host dropped (QEMU merges the periods it ran late for), or one after the
 * handler while the CPU, interrupts masked, had not yet read. Either hides a whole period, at least a third more
 * ticks than counted, which the caller's comparison with the TSC (timer_halted_plausible) sees; it then measures
 * spinning. So a halted window can make a pass and never a failure. Returns false (no evidence) otherwise. */
bool timer_halted_ticks(u32 count, u32 c0, u32 c1, u32 irqs, u32 ccr_irq, u64 *ticks);
/* A halted window's ticks against what the TSC expects of them: within a quarter either way (a hidden period is
 * twice as many ticks elapsed as counted). */
bool timer_halted_plausible(u64 ticks, u64 expected);
