#include "lib/apic_timer_calc.h"

#include <string.h>

u32 apic_dcr_divisor(u32 dcr)
{
    u32 value = ((dcr >> 1) & 4) | (dcr & 3); /* SDM Vol.3A Figure 11-10: bits 3, 1, 0 */
    return value == 7 ? 1 : 2u << value;
}

bool apic_dcr_for_divisor(u32 divisor, u32 *dcr)
{
    for (u32 value = 0; value < 8; value++) {
        u32 d = ((value & 4) << 1) | (value & 3);
        if (apic_dcr_divisor(d) == divisor) {
            *dcr = d;
            return true;
        }
    }
    return false;
}

/* Shift-and-subtract long division of the 128-bit product (hi:lo) by c. */
u64 mul_div_u64(u64 a, u64 b, u64 c, bool *ok)
{
    bool dummy;
    if (!ok)
        ok = &dummy;
    *ok = false;
    if (c == 0)
        return UINT64_MAX;
    /* 64x64 -> 128 multiply from 32-bit halves. */
    u64 a_lo = (u32)a, a_hi = a >> 32, b_lo = (u32)b, b_hi = b >> 32;
    u64 p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
    u64 mid = (p0 >> 32) + (u32)p1 + (u32)p2;
    u64 lo = (mid << 32) | (u32)p0;
    u64 hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
    if (hi >= c) /* the quotient would need more than 64 bits */
        return UINT64_MAX;
    u64 rem = hi, q = 0;
    for (int i = 63; i >= 0; i--) {
        bool carry = rem >> 63;
        rem = (rem << 1) | ((lo >> i) & 1);
        q <<= 1;
        if (carry || rem >= c) {
            rem -= c;
            q |= 1;
        }
    }
    *ok = true;
    return q;
}

u64 median_u64(u64 *values, u32 n)
{
    for (u32 i = 1; i < n; i++) { /* insertion sort: n is a handful of samples */
        u64 v = values[i];
        u32 j = i;
        for (; j > 0 && values[j - 1] > v; j--)
            values[j] = values[j - 1];
        values[j] = v;
    }
    return values[(n - 1) / 2];
}

u64 timer_rate_diff_ppm(struct timer_rate a, struct timer_rate b)
{
    if (!a.ticks || !a.tsc || !b.ticks || !b.tsc)
        return UINT64_MAX;
    /* Rates as ticks per 2^20 TSC ticks, so the comparison needs no floating point. */
    u64 ra = mul_div_u64(a.ticks, 1u << 20, a.tsc, NULL), rb = mul_div_u64(b.ticks, 1u << 20, b.tsc, NULL);
    u64 diff = ra > rb ? ra - rb : rb - ra, mean = ra / 2 + rb / 2;
    return mean ? mul_div_u64(diff, 1000000, mean, NULL) : UINT64_MAX;
}

struct timer_rate timer_rate_mean(struct timer_rate a, struct timer_rate b)
{
    /* Scale b to a's TSC span, then average the tick counts over that span. */
    u64 b_ticks = a.tsc ? timer_rate_ticks(b, a.tsc) : 0;
    return (struct timer_rate){.ticks = a.ticks / 2 + b_ticks / 2 + (a.ticks & b_ticks & 1), .tsc = a.tsc};
}

u64 timer_rate_ticks(struct timer_rate r, u64 tsc)
{
    return r.tsc ? mul_div_u64(tsc, r.ticks, r.tsc, NULL) : 0;
}

u64 timer_rate_tsc(struct timer_rate r, u64 ticks)
{
    return r.ticks ? mul_div_u64(ticks, r.tsc, r.ticks, NULL) : 0;
}

void timer_attempts_init(struct timer_attempts *t)
{
    memset(t, 0, sizeof(*t));
}

void timer_attempts_init_noise(struct timer_attempts *t, u64 prior_noise_ppm)
{
    timer_attempts_init(t);
    t->prior_noise_ppm = prior_noise_ppm;
}

u64 timer_attempts_noise_ppm(const struct timer_attempts *t)
{
    return MAX(t->worst_ref_ppm, t->prior_noise_ppm);
}

bool timer_attempts_add(struct timer_attempts *t, u64 refs_agree_ppm, s64 expected, s64 observed, u64 tolerance)
{
    return timer_attempts_add_scaled(t, refs_agree_ppm, expected, observed, tolerance,
                                     expected < 0 ? (u64)-expected : (u64)expected);
}

static u64 abs_diff_s64(s64 a, s64 b)
{
    return a > b ? (u64)a - (u64)b : (u64)b - (u64)a;
}

bool timer_attempts_add_scaled(struct timer_attempts *t, u64 refs_agree_ppm, s64 expected, s64 observed,
                               u64 tolerance, u64 scale)
{
    if (t->made >= TIMER_ATTEMPTS_MAX)
        return false;
    t->made++;
    t->last_failed = false;
    if (refs_agree_ppm == TIMER_UNBRACKETED) {
        t->unbracketed++;
        return false;
    }
    if (refs_agree_ppm > t->worst_ref_ppm)
        t->worst_ref_ppm = refs_agree_ppm;
    if (refs_agree_ppm > TIMER_REF_AGREE_PPM)
        return false;
    t->expected[t->valid] = expected;
    t->observed[t->valid] = observed;
    t->tolerance[t->valid] = tolerance;
    t->scale[t->valid] = scale;
    t->valid++;
    t->last_failed = abs_diff_s64(observed, expected) > tolerance;
    return true;
}

int timer_attempts_best(const struct timer_attempts *t)
{
    int best = -1;
    u64 best_score = 0;
    for (u32 i = 0; i < t->valid; i++) {
        /* Deviation in thousandths of the tolerance (a zero tolerance counts as 1). */
        u64 tol = t->tolerance[i] ? t->tolerance[i] : 1;
        u64 score = mul_div_u64(abs_diff_s64(t->observed[i], t->expected[i]), 1000, tol, NULL);
        if (best < 0 || score < best_score) {
            best = (int)i;
            best_score = score;
        }
    }
    return best;
}

s64 timer_attempt_deviation_ppm(const struct timer_attempts *t, u32 i)
{
    u64 dev = mul_div_u64(abs_diff_s64(t->observed[i], t->expected[i]), 1000000, t->scale[i] ? t->scale[i] : 1,
                          NULL);
    dev = MIN(dev, (u64)INT64_MAX);
    return t->observed[i] >= t->expected[i] ? (s64)dev : -(s64)dev;
}

static bool attempt_passed(const struct timer_attempts *t, u32 i)
{
    return abs_diff_s64(t->observed[i], t->expected[i]) <= t->tolerance[i];
}

/* The largest group of failed attempts of sign `sign` whose deviations are within TIMER_SIMILAR_FACTOR of each
 * other: over the magnitudes sorted ascending, the longest run whose largest is at most the factor times its
 * smallest. Returns its size and sets *lo, *hi (magnitudes) and *median (an attempt index in it). */
static u32 agreeing_group(const struct timer_attempts *t, int sign, u64 *lo, u64 *hi, int *median)
{
    u64 mag[TIMER_ATTEMPTS_MAX];
    int idx[TIMER_ATTEMPTS_MAX];
    u32 n = 0;
    for (u32 i = 0; i < t->valid; i++) {
        s64 d = timer_attempt_deviation_ppm(t, i);
        if (attempt_passed(t, i) || (sign > 0) != (d > 0) || d == 0)
            continue;
        u64 m = d < 0 ? (u64)-d : (u64)d;
        u32 j = n++;
        for (; j > 0 && mag[j - 1] > m; j--) { /* insertion sort: a handful of attempts */
            mag[j] = mag[j - 1];
            idx[j] = idx[j - 1];
        }
        mag[j] = m;
        idx[j] = (int)i;
    }
    u32 best = 0, first = 0;
    for (u32 a = 0, b = 0; b < n; b++) {
        while (mag[b] > mag[a] * TIMER_SIMILAR_FACTOR)
            a++;
        if (b - a + 1 > best) {
            best = b - a + 1;
            first = a;
        }
    }
    if (best) {
        *lo = mag[first];
        *hi = mag[first + best - 1];
        *median = idx[first + (best - 1) / 2];
    }
    return best;
}

void timer_attempts_judge(const struct timer_attempts *t, struct timer_judgement *j)
{
    memset(j, 0, sizeof(*j));
    int best = timer_attempts_best(t);
    j->example = best;
    for (u32 i = 0; i < t->valid; i++) {
        if (attempt_passed(t, i))
            j->passed++;
        else
            j->failed++;
    }
    u64 lo = 0, hi = 0, plo = 0, phi = 0;
    int median = -1, pmedian = -1;
    u32 neg = agreeing_group(t, -1, &lo, &hi, &median), pos = agreeing_group(t, 1, &plo, &phi, &pmedian);
    int sign = -1;
    if (pos > neg) {
        sign = 1;
        lo = plo;
        hi = phi;
        median = pmedian;
    }
    j->agreeing = MAX(pos, neg);
    if (j->agreeing) {
        j->agree_lo_ppm = sign * (s64)MIN(lo, (u64)INT64_MAX);
        j->agree_hi_ppm = sign * (s64)MIN(hi, (u64)INT64_MAX);
    }
    if (j->agreeing >= TIMER_REPRODUCE + j->passed && j->agreeing * 2 > t->valid) {
        if (lo <= TIMER_NOISE_FACTOR * timer_attempts_noise_ppm(t)) {
            j->verdict = TIMER_INCONCLUSIVE;
            j->basis = TIMER_BASIS_WITHIN_NOISE;
        } else {
            j->verdict = TIMER_FAIL;
            j->basis = TIMER_BASIS_REPRODUCED;
            j->example = median;
        }
    } else if (j->passed && j->passed >= j->agreeing) {
        j->verdict = TIMER_PASS;
        j->basis = TIMER_BASIS_PASSES;
    } else {
        j->verdict = TIMER_INCONCLUSIVE;
        j->basis = t->valid < TIMER_REPRODUCE ? TIMER_BASIS_TOO_FEW : TIMER_BASIS_CONTRADICT;
    }
}

const char *timer_basis_text(enum timer_basis b)
{
    switch (b) {
    case TIMER_BASIS_PASSES:
        return "attempts within tolerance, as many as any group of agreeing failures";
    case TIMER_BASIS_REPRODUCED:
        return "the deviation reproduced: failed attempts agree in sign and size, beyond tolerance and the clock "
               "noise";
    case TIMER_BASIS_TOO_FEW:
        return "too few valid attempts to decide (windows descheduled or their clocks apart)";
    case TIMER_BASIS_CONTRADICT:
        return "the attempts contradict each other (signs, sizes, or passes against failures)";
    case TIMER_BASIS_WITHIN_NOISE:
        return "agreeing failures, but within the clock noise measured by the references";
    }
    return "?";
}

bool timer_attempts_more(const struct timer_attempts *t)
{
    struct timer_judgement j;
    timer_attempts_judge(t, &j);
    return t->made < TIMER_ATTEMPTS_MAX && j.verdict == TIMER_INCONCLUSIVE;
}

enum timer_verdict timer_reload_verdict(u32 reads, u32 zero_reads)
{
    if (zero_reads < reads)
        return TIMER_PASS;
    return reads >= TIMER_REPRODUCE ? TIMER_FAIL : TIMER_INCONCLUSIVE;
}

void timer_oneshot_judge(const struct timer_oneshot_sample *s, u32 n, struct timer_oneshot_judgement *j)
{
    j->once = j->stays_zero = n > 0;
    j->early = false;
    for (u32 i = 0; i < n; i++) {
        j->once = j->once && s[i].interrupts == 1;
        j->stays_zero = j->stays_zero && s[i].ccr_after == 0;
        j->early = j->early || (s[i].interrupts && s[i].ccr_in_handler != 0);
    }
}

/* ref_ppm of value, plus 0.5%; ref_ppm is at most TIMER_REF_AGREE_PPM in a valid attempt. */
static u64 rate_uncertainty(u64 value, u64 ref_ppm)
{
    return mul_div_u64(value, MIN(ref_ppm, TIMER_REF_AGREE_PPM), 1000000, NULL) + value / 200;
}

void timer_expect_divided(struct timer_rate m, u64 ref_ppm, u64 tsc, u64 bracket_tsc, u32 div, u64 *expected,
                          u64 *tolerance)
{
    *expected = timer_rate_ticks(m, tsc) / div;
    *tolerance = timer_rate_ticks(m, bracket_tsc) / div + rate_uncertainty(*expected, ref_ppm) + 2;
}

s64 timer_periodic_phase_error(struct timer_rate m, u64 ref_ppm, u32 count, u32 c0, u32 c1, u64 elapsed_tsc,
                               u64 bracket_tsc, u64 *tolerance)
{
    u64 elapsed = timer_rate_ticks(m, elapsed_tsc);
    *tolerance = timer_rate_ticks(m, bracket_tsc) + rate_uncertainty(elapsed, ref_ppm) + 2;
    if (!count)
        return 0;
    s64 e = (s64)(((u64)c0 + (u64)count * 8 - c1) % count) - (s64)(elapsed % count); /* counted - elapsed */
    if (e > (s64)count / 2)
        e -= count;
    if (e < -(s64)count / 2)
        e += count;
    return e;
}

bool timer_halted_ticks(u32 count, u32 c0, u32 c1, u32 irqs, u32 ccr_irq, u64 *ticks)
{
    *ticks = 0;
    if (count < 4 || irqs != 1 || c0 > count || c0 == 0 || c1 > ccr_irq || c1 > count)
        return false;
    *ticks = (u64)c0 + (count - c1);
    return true;
}

bool timer_halted_plausible(u64 ticks, u64 expected)
{
    return expected && ticks * 4 >= expected * 3 && ticks * 4 <= expected * 5;
}
