/* lib/clock_select.c: judging measured windows of the HPET, PM timer and PIT against the TSC, and choosing the
 * TSC's calibration. Windows are synthesised from a true TSC frequency and a counter's nominal rate, with the
 * faults seen in QEMU (a PIT gated off reads 0xFFFF; a descheduled vCPU) and on hardware (slow reads). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/clock_select.h"

#define TSC_HZ 2445300000ull
#define HPET_QEMU ((struct clock_rate){1000000000000000ull, 10000000}) /* 100 MHz, QEMU's hpet */

/* A 10 ms window of a counter at rate r, the TSC at tsc_hz, reads bracketed by `bracket` TSC ticks each. */
static struct clock_window window(u64 tsc_hz, struct clock_rate r, u64 bracket)
{
    struct clock_window w = {0};
    w.ticks = r.num / r.den / 100;
    w.tsc = (u64)((unsigned __int128)w.ticks * r.den * tsc_hz / r.num);
    w.bracket = bracket;
    w.max_gap = 2 * bracket;
    w.max_step = 3;
    return w;
}

static void measured_bracket(struct clock_meas *m, u64 tsc_hz, struct clock_rate r, u32 bits, u64 bracket)
{
    clock_meas_begin(m, r, bits);
    while (clock_meas_more(m)) {
        struct clock_window w = window(tsc_hz, r, bracket);
        clock_meas_add(m, &w);
    }
    clock_meas_finish(m);
}

static void measured(struct clock_meas *m, u64 tsc_hz, struct clock_rate r, u32 bits)
{
    measured_bracket(m, tsc_hz, r, bits, 2000);
}

static void counter_delta(void **state)
{
    (void)state;
    assert_int_equal(clock_counter_delta(0xFFFFF0, 0x10, 24, false), 0x20);       /* PM timer, 24-bit wrap */
    assert_int_equal(clock_counter_delta(0xFFFFFFF0u, 0x10, 32, false), 0x20);    /* TMR_VAL_EXT */
    assert_int_equal(clock_counter_delta(0x10, 0xFFF0, 16, true), 0x20);          /* PIT counts down */
    assert_int_equal(clock_counter_delta(5, 5, 16, true), 0);
    assert_int_equal(clock_counter_delta(~0ull, 1, 64, false), 2);
}

static void window_rates_exact(void **state)
{
    (void)state;
    /* 3579545 PIT ticks are exactly 3 s: the 14.31818 MHz / 12 fraction keeps the result exact to the Hz. */
    struct clock_window w = {.ticks = 3579545, .tsc = 3 * TSC_HZ, .bracket = 100};
    assert_int_equal(clock_window_tsc_hz(&w, CLOCK_PIT_RATE), TSC_HZ);
    w = (struct clock_window){.ticks = 1000000, .tsc = TSC_HZ / 100};
    assert_int_equal(clock_window_tsc_hz(&w, HPET_QEMU), TSC_HZ);
    w.ticks = 0;
    assert_int_equal(clock_window_tsc_hz(&w, HPET_QEMU), 0);
}

static void good_source_measured(void **state)
{
    (void)state;
    struct clock_meas m;
    measured(&m, TSC_HZ, CLOCK_PMTMR_RATE, 24);
    assert_int_equal(m.state, CLOCK_OK);
    assert_int_equal(m.kept, CLOCK_WINDOWS_WANT);
    assert_true(clock_diff_ppm(m.tsc_hz, TSC_HZ) < 10);
    assert_true(m.uncertainty_ppm <= 100);
}

/* Slow reads (an SMI, a descheduled vCPU in a read) and gaps are rejected; too few left is UNUSABLE. */
static void bad_windows_rejected(void **state)
{
    (void)state;
    struct clock_meas m;
    clock_meas_begin(&m, CLOCK_PMTMR_RATE, 24);
    struct clock_window w = window(TSC_HZ, CLOCK_PMTMR_RATE, 2000);
    w.bracket = w.tsc / 100; /* 1% of the window in the end reads */
    assert_false(clock_meas_add(&m, &w));
    w = window(TSC_HZ, CLOCK_PMTMR_RATE, 2000);
    w.max_gap = w.tsc / 2; /* not clean: kept apart */
    assert_false(clock_meas_add(&m, &w));
    assert_int_equal(m.gapped, 1);
    w = window(TSC_HZ, CLOCK_PIT_RATE, 2000);
    w.max_step = 0x5000; /* more than a quarter of the PIT's 16 bits in one step: a wrap could hide */
    clock_meas_begin(&m, CLOCK_PIT_RATE, 16);
    assert_false(clock_meas_add(&m, &w));
    assert_int_equal(m.rejected_wrap, 1);
    /* A 60 ms window of which 14 ms unobserved (under 25%), but 14 ms is a quarter of the PIT's 55 ms wrap: a
     * whole wrap could have gone unseen in a longer one. */
    w = window(TSC_HZ, CLOCK_PIT_RATE, 2000);
    w.ticks *= 6, w.tsc *= 6;
    w.max_gap = TSC_HZ / 1000 * 14;
    assert_false(clock_meas_add(&m, &w));
    assert_int_equal(m.rejected_wrap, 2);
    w.max_gap = TSC_HZ / 1000 * 13; /* 13 ms: fine */
    assert_true(clock_meas_add(&m, &w));
    for (int i = 0; i < 13; i++) {
        w = window(TSC_HZ, CLOCK_PIT_RATE, 2000);
        w.bracket = w.tsc; /* every read slow */
        clock_meas_add(&m, &w);
    }
    assert_false(clock_meas_more(&m));
    clock_meas_finish(&m);
    assert_int_equal(m.state, CLOCK_UNUSABLE);
    assert_non_null(strstr(m.note, "1 of 16 windows usable"));
}

/* A slow end read or a gap stretches the window instead of wasting it, up to 4 times its length. */
static void window_stretches(void **state)
{
    (void)state;
    struct clock_window w = {.ticks = 999, .tsc = 24453000, .bracket = 100, .max_gap = 1000, .max_step = 1};
    assert_false(clock_window_can_end(&w, 1000, 100)); /* not yet 1000 ticks */
    w.ticks = 1000;
    assert_true(clock_window_can_end(&w, 1000, 100));
    assert_false(clock_window_can_end(&w, 1000, 60000)); /* this read took 0.25% of the window: read on */
    w.max_gap = w.tsc / 2;                               /* half the window unobserved: read on */
    assert_false(clock_window_can_end(&w, 1000, 100));
    w.tsc *= 3, w.ticks *= 3;                            /* the gap is now a sixth of it */
    assert_true(clock_window_can_end(&w, 1000, 100));
    w = (struct clock_window){.ticks = 10000, .tsc = 1000, .bracket = 900, .max_gap = 1000};
    assert_true(clock_window_can_end(&w, 1000, 900)); /* 10 times: ends, and is judged (rejected) */
    struct clock_meas m;
    clock_meas_begin(&m, CLOCK_PMTMR_RATE, 24);
    assert_false(clock_meas_add(&m, &w));
}

/* Windows with gaps (a descheduled vCPU) serve when too few clean ones were had; if the clock stopped during the
 * gaps, the windows disagree with each other and the source is not used. */
static void gapped_windows_second_tier(void **state)
{
    (void)state;
    struct clock_meas m;
    clock_meas_begin(&m, HPET_QEMU, 32);
    for (u32 i = 0; i < 5; i++) {
        struct clock_window w = window(TSC_HZ, HPET_QEMU, 2000);
        if (i >= 2) /* two clean windows, then three with a 40% gap: the clocks ran on through it */
            w.max_gap = w.tsc / 10 * 4;
        clock_meas_add(&m, &w);
    }
    clock_meas_finish(&m);
    assert_int_equal(m.state, CLOCK_OK);
    assert_int_equal(m.kept, 3);
    assert_int_equal(m.used_gapped, 1);
    assert_true(clock_diff_ppm(m.tsc_hz, TSC_HZ) < 10);

    /* A hypervisor clock that stood still in each gap (of a different length): rates 10-40% apart. */
    clock_meas_begin(&m, HPET_QEMU, 32);
    for (u32 i = 0; i < 3; i++) {
        struct clock_window w = window(TSC_HZ, HPET_QEMU, 2000);
        w.max_gap = w.tsc / 10 * (3 + i);
        w.tsc += w.max_gap; /* the TSC ran, the counter did not */
        clock_meas_add(&m, &w);
    }
    clock_meas_finish(&m);
    assert_int_equal(m.state, CLOCK_UNUSABLE);
    assert_non_null(strstr(m.note, "spread"));
}

/* A PIT that is not there, seen as a TSC of 73 kHz (measured on a board without one), must not be believed. */
static void implausible_rate_unusable(void **state)
{
    (void)state;
    struct clock_meas m;
    measured_bracket(&m, 73000, CLOCK_PIT_RATE, 16, 1); /* 729 TSC ticks per window: reads of 1 tick */
    assert_int_equal(m.state, CLOCK_UNUSABLE);
    assert_non_null(strstr(m.note, "not a plausible TSC"));
}

static void spread_unusable(void **state)
{
    (void)state;
    struct clock_meas m;
    clock_meas_begin(&m, CLOCK_PIT_RATE, 16);
    static const u64 hz[] = {TSC_HZ, TSC_HZ * 103 / 100, TSC_HZ * 97 / 100, TSC_HZ, TSC_HZ * 105 / 100};
    for (u32 i = 0; i < ARRAY_SIZE(hz); i++) {
        struct clock_window w = window(hz[i], CLOCK_PIT_RATE, 2000);
        assert_true(clock_meas_add(&m, &w));
    }
    clock_meas_finish(&m);
    assert_int_equal(m.state, CLOCK_UNUSABLE);
    assert_true(m.spread_ppm > 70000);
}

static void sources(struct clock_meas m[CLOCK_COUNT], u64 hpet, u64 pm, u64 pit)
{
    memset(m, 0, sizeof(struct clock_meas) * CLOCK_COUNT);
    if (hpet)
        measured(&m[CLOCK_HPET], hpet, HPET_QEMU, 32);
    if (pm)
        measured(&m[CLOCK_PMTMR], pm, CLOCK_PMTMR_RATE, 24);
    if (pit)
        measured(&m[CLOCK_PIT], pit, CLOCK_PIT_RATE, 16);
}

static void choose_hpet_pm_agree_pit_absent(void **state)
{
    (void)state;
    struct clock_meas m[CLOCK_COUNT];
    struct clock_choice c;
    sources(m, TSC_HZ, TSC_HZ + 20000, 0);
    clock_meas_dead(&m[CLOCK_PIT], "read 0xffff");
    clock_choose(m, &c);
    assert_int_equal(c.source, CLOCK_HPET);
    assert_true(c.trusted);
    assert_int_equal(c.agree, 1);
    assert_string_equal(c.summary, "HPET (PM timer agrees within 8 ppm, PIT does not count)");
    assert_string_equal(c.problem, "");
}

/* Two sources that disagree: the preferred one is used, and the run is told it cannot be trusted. */
static void choose_two_disagree(void **state)
{
    (void)state;
    struct clock_meas m[CLOCK_COUNT];
    struct clock_choice c;
    sources(m, TSC_HZ, 0, 3870000000ull); /* the PIT as measured under host load */
    clock_choose(m, &c);
    assert_int_equal(c.source, CLOCK_HPET);
    assert_false(c.trusted);
    assert_int_equal(c.disagree, 1);
    /* 3869.9: the synthesised windows hold whole PIT ticks */
    assert_string_equal(c.summary, "HPET (PM timer absent, PIT DISAGREES: 3869.9 MHz)");
    assert_non_null(strstr(c.problem, "PIT measures 3869.9 MHz"));
}

/* Three sources, one off: the two that agree win, even over the preferred one, and the run is still told. */
static void choose_majority(void **state)
{
    (void)state;
    struct clock_meas m[CLOCK_COUNT];
    struct clock_choice c;
    sources(m, TSC_HZ, TSC_HZ, TSC_HZ);
    clock_meas_enumerated(&m[CLOCK_CPUID15], 2000000000ull); /* a hypervisor's wrong leaf 15H */
    clock_choose(m, &c);
    assert_int_equal(c.source, CLOCK_HPET);
    assert_int_equal(c.agree, 2);
    assert_int_equal(c.disagree, 1);
    assert_false(c.trusted);
    assert_non_null(strstr(c.problem, "CPUID 15H measures 2000.0 MHz"));
}

/* CPUID 15H (an architectural statement of the TSC frequency) is preferred when the counters agree with it. */
static void choose_cpuid15_confirmed(void **state)
{
    (void)state;
    struct clock_meas m[CLOCK_COUNT];
    struct clock_choice c;
    sources(m, 2400000000ull, 0, 0);
    clock_meas_enumerated(&m[CLOCK_CPUID15], 2400000000ull);
    clock_meas_enumerated(&m[CLOCK_CPUID16], 2300000000ull); /* nominal: never compared */
    clock_choose(m, &c);
    assert_int_equal(c.source, CLOCK_CPUID15);
    assert_true(c.trusted);
    assert_string_equal(c.summary, "CPUID 15H (HPET agrees within 0 ppm, PM timer absent, PIT absent)");
}

static void choose_single_not_cross_checked(void **state)
{
    (void)state;
    struct clock_meas m[CLOCK_COUNT];
    struct clock_choice c;
    sources(m, 0, TSC_HZ, 0);
    clock_choose(m, &c);
    assert_int_equal(c.source, CLOCK_PMTMR);
    assert_true(c.trusted);
    assert_non_null(strstr(c.summary, "not cross-checked"));
}

static void choose_nothing(void **state)
{
    (void)state;
    struct clock_meas m[CLOCK_COUNT];
    struct clock_choice c;
    sources(m, 0, 0, 0);
    clock_meas_dead(&m[CLOCK_PIT], "read 0xffff");
    clock_choose(m, &c);
    assert_int_equal(c.source, CLOCK_COUNT);
    assert_int_equal(c.tsc_hz, 0);
    assert_false(c.trusted);
    assert_string_equal(c.problem,
                        "no trustworthy clock: CPUID 15H absent, HPET absent, PM timer absent, PIT does not count");
    /* Only CPUID 16H: used, so the run can go on, but never trusted. */
    clock_meas_enumerated(&m[CLOCK_CPUID16], 2100000000ull);
    clock_choose(m, &c);
    assert_int_equal(c.source, CLOCK_CPUID16);
    assert_int_equal(c.tsc_hz, 2100000000ull);
    assert_false(c.trusted);
    assert_non_null(strstr(c.summary, "NOT measured"));
}

static void hpet_caps(void **state)
{
    (void)state;
    struct hpet_caps caps;
    char why[96];
    /* QEMU hw/timer/hpet.c: vendor 0x8086, legacy-capable, 64-bit, 3 timers, rev 1, 10 ns. */
    assert_true(hpet_caps_decode(0x009896808086A201ull, &caps, why, sizeof(why)));
    assert_int_equal(caps.period_fs, 10000000);
    assert_int_equal(caps.bits, 64);
    assert_int_equal(caps.timers, 3);
    /* A typical chipset HPET: 14.31818 MHz, 69841279 fs. */
    assert_true(hpet_caps_decode(0x0429B17F8086A701ull, &caps, why, sizeof(why)));
    assert_int_equal(caps.period_fs, 69841279);
    assert_int_equal(caps.timers, 8);
    assert_false(hpet_caps_decode(~0ull, &caps, why, sizeof(why)));
    assert_non_null(strstr(why, "no device"));
    assert_false(hpet_caps_decode(0x000000008086A201ull, &caps, why, sizeof(why))); /* period 0 */
    assert_false(hpet_caps_decode(0x05F5E1018086A201ull, &caps, why, sizeof(why))); /* over 100 ns */
    assert_true(hpet_caps_decode(0x05F5E1008086A201ull, &caps, why, sizeof(why)));  /* exactly 100 ns */
    assert_false(hpet_caps_decode(0x009896808086A200ull, &caps, why, sizeof(why))); /* REV_ID 0 */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counter_delta),
        cmocka_unit_test(window_rates_exact),
        cmocka_unit_test(good_source_measured),
        cmocka_unit_test(window_stretches),
        cmocka_unit_test(gapped_windows_second_tier),
        cmocka_unit_test(bad_windows_rejected),
        cmocka_unit_test(implausible_rate_unusable),
        cmocka_unit_test(spread_unusable),
        cmocka_unit_test(choose_hpet_pm_agree_pit_absent),
        cmocka_unit_test(choose_two_disagree),
        cmocka_unit_test(choose_majority),
        cmocka_unit_test(choose_cpuid15_confirmed),
        cmocka_unit_test(choose_single_not_cross_checked),
        cmocka_unit_test(choose_nothing),
        cmocka_unit_test(hpet_caps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
