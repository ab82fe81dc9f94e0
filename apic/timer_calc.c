#include "apic/timer_calc.h"

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

bool timer_attempts_add(struct timer_attempts *t, u64 refs_agree_ppm, s64 expected, s64 observed, u64 tolerance)
{
    return timer_attempts_add_scaled(t, refs_agree_ppm, expected, observed, tolerance,
                                     expected < 0 ? (u64)-expected : (u64)expected);
}

bool timer_attempts_add_scaled(struct timer_attempts *t, u64 refs_agree_ppm, s64 expected, s64 observed,
                               u64 tolerance, u64 scale)
{
    if (t->made >= TIMER_ATTEMPTS_MAX)
        return false;
    t->made++;
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
    return true;
}

static u64 abs_diff_s64(s64 a, s64 b)
{
    return a > b ? (u64)a - (u64)b : (u64)b - (u64)a;
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

bool timer_attempts_pass(const struct timer_attempts *t)
{
    int b = timer_attempts_best(t);
    return b >= 0 && abs_diff_s64(t->observed[b], t->expected[b]) <= t->tolerance[b];
}

u64 timer_attempts_deviation_ppm(const struct timer_attempts *t)
{
    int b = timer_attempts_best(t);
    if (b < 0)
        return 0;
    return mul_div_u64(abs_diff_s64(t->observed[b], t->expected[b]), 1000000, t->scale[b] ? t->scale[b] : 1, NULL);
}

bool timer_attempts_inconclusive(const struct timer_attempts *t)
{
    return timer_attempts_best(t) >= 0 && !timer_attempts_pass(t) &&
           timer_attempts_deviation_ppm(t) <= TIMER_NOISE_FACTOR * t->worst_ref_ppm;
}

bool timer_attempts_more(const struct timer_attempts *t)
{
    return t->made < TIMER_ATTEMPTS_MAX && !timer_attempts_pass(t);
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
