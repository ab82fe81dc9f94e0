/* apic/timer_calc.c: the DCR encoding (SDM Vol.3A 11.5.4, Figure 11-10) and the overflow-free mul/div the
 * APIC timer checks use to turn ticks into time. References: the SDM table, and the host's unsigned
 * __int128 arithmetic for mul_div_u64. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "apic/timer_calc.h"

/* Figure 11-10, row by row: DCR bits 3,1,0 -> divisor. */
static void dcr_table(void **state)
{
    (void)state;
    static const struct {
        u32 dcr, divisor;
    } rows[] = {
        {0x0, 2}, {0x1, 4}, {0x2, 8}, {0x3, 16}, {0x8, 32}, {0x9, 64}, {0xA, 128}, {0xB, 1},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        assert_int_equal(apic_dcr_divisor(rows[i].dcr), rows[i].divisor);
        u32 dcr = 0xFF;
        assert_true(apic_dcr_for_divisor(rows[i].divisor, &dcr));
        assert_int_equal(dcr, rows[i].dcr);
    }
    /* Bit 2 is reserved: it does not change the divisor. */
    assert_int_equal(apic_dcr_divisor(0x4 | 0x3), 16);
}

static void dcr_rejects_other_divisors(void **state)
{
    (void)state;
    static const u32 bad[] = {0, 3, 5, 6, 12, 256, 1024, 0xFFFFFFFFu};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        u32 dcr = 0x77;
        assert_false(apic_dcr_for_divisor(bad[i], &dcr));
        assert_int_equal(dcr, 0x77);
    }
}

static void mul_div_matches_int128(void **state)
{
    (void)state;
    static const u64 vals[] = {0, 1, 2, 3, 7, 1000, 1000000, 1193182, 999999937ull, 0xFFFFFFFFull,
                               0x100000000ull, 3000000000ull, 0x123456789ABCDEFull, 0x7FFFFFFFFFFFFFFFull,
                               0xFFFFFFFFFFFFFFFFull};
    size_t n = sizeof(vals) / sizeof(vals[0]);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (size_t k = 1; k < n; k++) {
                unsigned __int128 want = (unsigned __int128)vals[i] * vals[j] / vals[k];
                bool ok = false;
                u64 got = mul_div_u64(vals[i], vals[j], vals[k], &ok);
                if (want >> 64) {
                    assert_false(ok);
                    assert_true(got == UINT64_MAX);
                } else {
                    assert_true(ok);
                    assert_true(got == (u64)want);
                }
            }
}

static void mul_div_by_zero(void **state)
{
    (void)state;
    bool ok = true;
    assert_true(mul_div_u64(5, 6, 0, &ok) == UINT64_MAX);
    assert_false(ok);
    assert_true(mul_div_u64(5, 6, 0, NULL) == UINT64_MAX); /* ok may be omitted */
}

static void median(void **state)
{
    (void)state;
    u64 one[] = {42};
    assert_true(median_u64(one, 1) == 42);
    u64 three[] = {30, 10, 20};
    assert_true(median_u64(three, 3) == 20);
    u64 four[] = {4, 1, 3, 2}; /* lower middle: a measured value, not an average */
    assert_true(median_u64(four, 4) == 2);
    u64 outlier[] = {1000, 1001, 999, 5000000, 1002};
    assert_true(median_u64(outlier, 5) == 1001);
}


/* A simulated timer clock and TSC: F timer ticks per second at divide by 1, T TSC ticks per second, and a
 * hypervisor's drift of the ratio (ppm, positive: the TSC runs fast) that holds through one attempt, as seen
 * under QEMU TCG. */
#define SIM_F 1000000000ull
#define SIM_T 2400000000ull
static struct timer_rate sim_rate(u64 tsc, s64 drift_ppm)
{
    u64 ticks = mul_div_u64(tsc, SIM_F, SIM_T, NULL);
    ticks = (u64)((s64)ticks - (s64)ticks * drift_ppm / 1000000);
    return (struct timer_rate){.ticks = ticks, .tsc = tsc};
}
static u64 sim_ticks(u64 tsc, s64 drift_ppm)
{
    return sim_rate(tsc, drift_ppm).ticks;
}

/* The divide check's attempts over a timer whose divider is `actual` where `div` was programmed. */
static bool divide_verdict(u32 div, u32 actual, s64 drift_ppm, s64 ref_skew_ppm)
{
    struct timer_attempts at;
    timer_attempts_init(&at);
    const u64 ref = SIM_T / 1000, win = 4 * SIM_T / 1000, bracket = 2400; /* 1 ms, 4 ms, 1 us */
    while (timer_attempts_more(&at)) {
        struct timer_rate r0 = sim_rate(ref, drift_ppm), r1 = sim_rate(ref, drift_ppm + ref_skew_ppm);
        u64 observed = sim_ticks(win, drift_ppm) / actual, expected, tolerance;
        u64 ref_ppm = timer_rate_diff_ppm(r0, r1);
        timer_expect_divided(timer_rate_mean(r0, r1), ref_ppm, win, bracket, div, &expected, &tolerance);
        timer_attempts_add(&at, ref_ppm, (s64)expected, (s64)observed, tolerance);
    }
    assert_true(at.made >= 1 && at.made <= TIMER_ATTEMPTS_MAX);
    return timer_attempts_pass(&at);
}

static void divide_good_and_broken(void **state)
{
    (void)state;
    static const u32 divs[] = {2, 16, 128};
    for (size_t i = 0; i < 3; i++) {
        assert_true(divide_verdict(divs[i], divs[i], 0, 0));
        /* The clocks drifted 2.5% apart for the whole attempt (seen under TCG): the local references follow. */
        assert_true(divide_verdict(divs[i], divs[i], 25000, 0));
        assert_true(divide_verdict(divs[i], divs[i], -25000, 100));
        /* Broken dividers: by the next or previous power of two, or not dividing at all. */
        assert_false(divide_verdict(divs[i], divs[i] * 2, 0, 0));
        assert_false(divide_verdict(divs[i], divs[i] / 2, 25000, 0));
        assert_false(divide_verdict(divs[i], 1, 0, 0));
    }
    /* A divider off by 1% (a timer clock that is not what it seems within an attempt) fails too. */
    struct timer_rate m = sim_rate(SIM_T / 1000, 0);
    u64 expected, tolerance;
    timer_expect_divided(m, TIMER_REF_AGREE_PPM, 4 * SIM_T / 1000, 2400, 16, &expected, &tolerance);
    assert_true(tolerance < expected / 90); /* even with the references 0.5% apart */
}

/* Attempts whose references disagree are not evidence: none valid means no verdict, never a pass. */
static void attempts_need_agreeing_references(void **state)
{
    (void)state;
    assert_false(divide_verdict(16, 16, 0, 20000)); /* refs 2% apart in every attempt */
    struct timer_attempts at;
    timer_attempts_init(&at);
    assert_false(timer_attempts_add(&at, TIMER_REF_AGREE_PPM + 1, 100, 100, 5));
    assert_int_equal(timer_attempts_best(&at), -1);
    assert_false(timer_attempts_pass(&at));
    assert_true(timer_attempts_more(&at));
    /* A valid good attempt after noisy ones passes and stops the attempts; the noise is kept. */
    assert_true(timer_attempts_add(&at, 10, 100, 180, 5)); /* valid, off by 80 */
    assert_true(timer_attempts_more(&at));
    assert_true(timer_attempts_add(&at, 20, 100, 103, 5));
    assert_false(timer_attempts_more(&at));
    assert_true(timer_attempts_pass(&at));
    assert_int_equal(timer_attempts_best(&at), 1);
    assert_int_equal(at.worst_ref_ppm, TIMER_REF_AGREE_PPM + 1);
    /* An attempt with a delayed read is counted apart and moves no figure. */
    timer_attempts_init(&at);
    assert_false(timer_attempts_add(&at, TIMER_UNBRACKETED, 0, 0, 0));
    assert_int_equal(at.made, 1);
    assert_int_equal(at.unbracketed, 1);
    assert_int_equal(at.worst_ref_ppm, 0);
    assert_int_equal(at.valid, 0);
    /* Bounded: never more than TIMER_ATTEMPTS_MAX. */
    timer_attempts_init(&at);
    for (int i = 0; i < 10; i++)
        timer_attempts_add(&at, 0, 0, 1000, 1);
    assert_int_equal(at.made, TIMER_ATTEMPTS_MAX);
    assert_false(timer_attempts_more(&at));
    assert_false(timer_attempts_pass(&at));
}

/* Clocks measured moving about as far as the deviation (within TIMER_NOISE_FACTOR) make a failed attempt
 * inconclusive, never a pass; a deviation beyond that, or with stable clocks, stays a failure. */
static void unstable_clocks_inconclusive(void **state)
{
    (void)state;
    struct timer_attempts at;
    timer_attempts_init(&at);
    assert_false(timer_attempts_inconclusive(&at)); /* nothing valid: not this rule's case */
    timer_attempts_add(&at, 100, 15264, 15620, 165); /* divide by 128, 2.3% off, stable references */
    assert_false(timer_attempts_pass(&at));
    assert_false(timer_attempts_inconclusive(&at));
    assert_int_equal(timer_attempts_deviation_ppm(&at), 23322);
    timer_attempts_add(&at, 11660, 0, 0, 0); /* another attempt saw the clocks 1.166% apart: 2x is 2.332% */
    assert_false(timer_attempts_inconclusive(&at));
    timer_attempts_add(&at, 16675, 0, 0, 0); /* 1.67%: as seen at 64 vCPUs on 2 host cores */
    assert_false(timer_attempts_pass(&at));
    assert_true(timer_attempts_inconclusive(&at));
    /* A phase error (expected 0) is relative to the ticks elapsed. */
    struct timer_attempts ph;
    timer_attempts_init(&ph);
    timer_attempts_add_scaled(&ph, 100, 0, -24637, 18188, 1645000);
    assert_int_equal(timer_attempts_deviation_ppm(&ph), 14976);
    assert_false(timer_attempts_inconclusive(&ph));
    timer_attempts_add(&ph, 31324, 0, 0, 0);
    assert_true(timer_attempts_inconclusive(&ph));
    /* A wrong divider (100% off) is beyond any clock noise seen: still a failure. */
    struct timer_attempts wrong;
    timer_attempts_init(&wrong);
    timer_attempts_add(&wrong, 100, 60000, 120000, 600);
    timer_attempts_add(&wrong, 80000, 0, 0, 0); /* clocks 8% apart (QEMU 10, 288 vCPUs) */
    assert_false(timer_attempts_inconclusive(&wrong));
    timer_attempts_add(&at, 10, 1000, 1001, 10); /* a good valid attempt: a pass is a pass */
    assert_true(timer_attempts_pass(&at));
    assert_false(timer_attempts_inconclusive(&at));
    /* A broken divider fails (divide_good_and_broken), and its 100% deviation is beyond any clock noise. */
    assert_false(divide_verdict(16, 32, 0, 0));
}

static void rate_arithmetic(void **state)
{
    (void)state;
    struct timer_rate a = {1000000, 2400000}, b = {1005000, 2400000}, z = {0, 0};
    assert_int_equal(timer_rate_diff_ppm(a, a), 0);
    u64 d = timer_rate_diff_ppm(a, b);
    assert_true(d >= 4980 && d <= 4990); /* 0.5% of the mean */
    assert_true(timer_rate_diff_ppm(a, z) == UINT64_MAX);
    struct timer_rate m = timer_rate_mean(a, (struct timer_rate){2010000, 4800000}); /* b over twice the span */
    assert_int_equal(m.tsc, 2400000);
    assert_int_equal(m.ticks, 1002500);
    assert_int_equal(timer_rate_ticks(a, 4800000), 2000000);
    assert_int_equal(timer_rate_tsc(a, 2000000), 4800000);
    assert_int_equal(timer_rate_ticks(z, 5), 0);
    assert_int_equal(timer_rate_tsc(z, 5), 0);
}

/* One-shot count-down between two reads: at the clock's rate it passes; 10% slow or fast fails; drift is
 * followed. The start latency does not enter: both reads are inside the count-down. */
static void oneshot_countdown_readings(void **state)
{
    (void)state;
    const u64 between_tsc = SIM_T / 1000; /* 1 ms between the reads */
    static const struct {
        s64 drift_ppm;
        u32 rate_pct; /* the count-down's rate, % of the clock */
        bool pass;
    } cases[] = {{0, 100, true}, {25000, 100, true}, {0, 90, false}, {0, 110, false}, {25000, 95, false}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct timer_rate m = sim_rate(SIM_T / 1000, cases[i].drift_ppm);
        u64 observed = sim_ticks(between_tsc, cases[i].drift_ppm) * cases[i].rate_pct / 100, expected, tolerance;
        timer_expect_divided(m, 0, between_tsc, 24000, 1, &expected, &tolerance);
        u64 dev = observed > expected ? observed - expected : expected - observed;
        assert_int_equal(dev <= tolerance, cases[i].pass);
    }
}

/* Periodic phase: a timer that reloads from the initial count agrees; one that stops at 0 (no reload) or
 * reloads from another value does not. */
static void periodic_phase_readings(void **state)
{
    (void)state;
    const u32 count = 2000000; /* 2 ms */
    const u64 span_tsc = SIM_T * 66 / 10000; /* 3.3 periods */
    struct timer_rate m = sim_rate(SIM_T / 1000, 0);
    u64 elapsed = sim_ticks(span_tsc, 0), tol;
    u32 c0 = count - 1000;
    /* Good: c1 = c0 - elapsed modulo the count (the counter goes from 1 to count at a reload). */
    u32 c1 = (u32)((c0 + (u64)count * 8 - elapsed % count) % count);
    s64 e = timer_periodic_phase_error(m, 0, count, c0, c1, span_tsc, 4800, &tol);
    assert_true((u64)(e < 0 ? -e : e) <= tol);
    /* No reload: stuck at 0. */
    e = timer_periodic_phase_error(m, 0, count, c0, 0, span_tsc, 4800, &tol);
    assert_true((u64)(e < 0 ? -e : e) > tol);
    /* Reloads from 1.25 x count: the same counted ticks land elsewhere modulo the programmed count (1.5 x would
     * alias with 3.3 periods). */
    u64 big = count * 5ull / 4;
    u32 c1_big = (u32)((c0 + big * 8 - elapsed % big) % big);
    e = timer_periodic_phase_error(m, 0, count, c0, c1_big, span_tsc, 4800, &tol);
    assert_true((u64)(e < 0 ? -e : e) > tol);
    /* The same good timer while the clocks drift 2.5% apart: the local rate follows. */
    struct timer_rate md = sim_rate(SIM_T / 1000, 25000);
    u64 elapsed_d = sim_ticks(span_tsc, 25000);
    u32 c1_d = (u32)((c0 + (u64)count * 8 - elapsed_d % count) % count);
    e = timer_periodic_phase_error(md, 0, count, c0, c1_d, span_tsc, 4800, &tol);
    assert_true((u64)(e < 0 ? -e : e) <= tol);
    /* ... where the calibration rate of long before would have failed it (the false FAIL this replaced). */
    e = timer_periodic_phase_error(m, 0, count, c0, c1_d, span_tsc, 4800, &tol);
    assert_true((u64)(e < 0 ? -e : e) > tol);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dcr_table),           cmocka_unit_test(dcr_rejects_other_divisors),
        cmocka_unit_test(mul_div_matches_int128), cmocka_unit_test(mul_div_by_zero),
        cmocka_unit_test(median),              cmocka_unit_test(rate_arithmetic), cmocka_unit_test(unstable_clocks_inconclusive),
        cmocka_unit_test(divide_good_and_broken), cmocka_unit_test(attempts_need_agreeing_references),
        cmocka_unit_test(oneshot_countdown_readings), cmocka_unit_test(periodic_phase_readings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
