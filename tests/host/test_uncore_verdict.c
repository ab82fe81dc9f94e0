/* The uncore verdicts (pmu/uncore_verdict.h) on hand-made observations: each passes what the manual describes and
 * fails each way of not doing it, with the evidence naming what was wrong. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/format.h"
#include "pmu/uncore_verdict.h"

static const struct uncore_kind_desc *kind(const char *name)
{
    const struct uncore_kind_desc *k = uncore_kind_by_name(name);
    assert_non_null(k);
    return k;
}

static void test_kind_can(void **state)
{
    (void)state;
    const char *why;
    assert_true(uncore_kind_can(kind("nhm"), UNCORE_NEED_ROUTING, &why));
    assert_true(uncore_kind_can(kind("snb"), UNCORE_NEED_FREEZE, &why));
    assert_false(uncore_kind_can(kind("amd_l3_zen3"), UNCORE_NEED_ROUTING, &why));
    assert_non_null(strstr(why, "routes no"));
    assert_false(uncore_kind_can(kind("amd_l3_zen3"), UNCORE_NEED_FIXED, &why));
    assert_false(uncore_kind_can(kind("tgl"), UNCORE_NEED_ROUTING, &why));
    assert_false(uncore_kind_can(NULL, UNCORE_NEED_STATUS, &why));
    assert_non_null(strstr(why, "no uncore PMU"));
}

static void test_route(void **state)
{
    (void)state;
    struct uncore_route_judgement j;
    char buf[512];
    struct strbuf sb;
    const u32 ok[4] = {1, 0, 1, 0};
    assert_int_equal(uncore_route_judge(0x5, ok, 4, &j), UNCORE_PASS);
    assert_int_equal(j.received, 0x5);
    assert_int_equal(j.total, 2);
    const u32 stray[4] = {1, 1, 1, 0};
    assert_int_equal(uncore_route_judge(0x5, stray, 4, &j), UNCORE_FAIL);
    assert_int_equal(j.stray, 0x2);
    const u32 twice[4] = {2, 0, 1, 0};
    assert_int_equal(uncore_route_judge(0x5, twice, 4, &j), UNCORE_FAIL);
    assert_int_equal(j.repeated, 0x1);
    const u32 lost[4] = {1, 0, 0, 0};
    assert_int_equal(uncore_route_judge(0x5, lost, 4, &j), UNCORE_FAIL);
    assert_int_equal(j.missing, 0x4);
    sb_init(&sb, buf, sizeof(buf));
    uncore_route_describe(&j, lost, 4, &sb);
    assert_non_null(strstr(buf, "pmis_per_core: [1, 0, 0, 0]"));
    assert_non_null(strstr(buf, "missing: 0x4"));
    /* A selected core beyond those counted is missing, not ignored. */
    assert_int_equal(uncore_route_judge(0x10, ok, 4, &j), UNCORE_FAIL);
    assert_int_equal(j.missing, 0x10);
}

static void test_freeze(void **state)
{
    (void)state;
    struct uncore_freeze_judgement j;
    const struct uncore_kind_desc *nhm = kind("nhm"), *snb = kind("snb");
    const u64 at[2] = {100, 0xffffffffffffull}, later[2] = {100, 0xffffffffffffull}, rel[2] = {150, 5};
    assert_int_equal(uncore_freeze_judge(nhm, 48, at, later, rel, 2, 0xff, 0, &j), UNCORE_PASS);
    const u64 moved[2] = {101, 0xffffffffffffull};
    assert_int_equal(uncore_freeze_judge(nhm, 48, at, moved, rel, 2, 0xff, 0, &j), UNCORE_FAIL);
    assert_int_equal(j.moved_while_frozen, 0x1);
    assert_int_equal(uncore_freeze_judge(nhm, 48, at, later, later, 2, 0xff, 0, &j), UNCORE_FAIL);
    assert_int_equal(j.stuck_after_release, 0x3);
    /* The client documents EN cleared by the freeze: a handler finding it set fails. */
    assert_int_equal(uncore_freeze_judge(snb, 44, at, later, rel, 2, BIT(29), BIT(29), &j), UNCORE_FAIL);
    assert_int_equal(uncore_freeze_judge(snb, 44, at, later, rel, 2, BIT(29) | BIT(31), BIT(31), &j), UNCORE_PASS);
    assert_true(j.en_cleared);
}

static void test_status(void **state)
{
    (void)state;
    struct uncore_status_judgement j;
    const struct uncore_kind_desc *nhm = kind("nhm"), *snb = kind("snb");
    u64 full = BIT(2) | BIT(61) | BIT(63);
    assert_int_equal(uncore_status_judge(nhm, BIT(2), true, full, 0, &j), UNCORE_PASS);
    assert_int_equal(uncore_status_judge(nhm, BIT(2), true, full | BIT(3), 0, &j), UNCORE_FAIL);
    assert_int_equal(j.extra, BIT(3));
    assert_int_equal(uncore_status_judge(nhm, BIT(2), true, full, BIT(2), &j), UNCORE_FAIL);
    assert_int_equal(j.not_cleared, BIT(2));
    assert_int_equal(uncore_status_judge(nhm, BIT(2), true, BIT(2) | BIT(63), 0, &j), UNCORE_FAIL);
    assert_true(j.ovf_pmi_missing);
    assert_int_equal(uncore_status_judge(nhm, BIT(2), false, BIT(2), 0, &j), UNCORE_FAIL);
    assert_true(j.chg_missing);
    /* CHG after the clear is not judged: the clear is a change. */
    assert_int_equal(uncore_status_judge(nhm, BIT(2), true, full, BIT(63), &j), UNCORE_PASS);
    assert_int_equal(uncore_status_judge(snb, BIT(0), true, BIT(0), 0, &j), UNCORE_PASS);
    u32 msr;
    u64 v;
    assert_true(uncore_status_clear_write(nhm, BIT(2), full, &msr, &v));
    assert_int_equal(msr, 0x393);
    assert_int_equal(v, full);
    assert_true(uncore_status_clear_write(snb, BIT(0), BIT(0) | BIT(3), &msr, &v));
    assert_int_equal(msr, 0x392);
    assert_int_equal(v, BIT(3));
    assert_false(uncore_status_clear_write(kind("amd_l3_zen12"), 1, 0, &msr, &v));
}

static void test_clock(void **state)
{
    (void)state;
    struct uncore_clock_judgement j;
    char buf[256];
    struct strbuf sb;
    /* 10 ms at a 2.4 GHz TSC, the uncore at 2.133 GHz. */
    u64 tsc = 24000000, fixed = 21330000;
    u32 tol = uncore_clock_tolerance_ppm(tsc, 240); /* reads 100 ns apart: 20 ppm + base */
    assert_int_equal(tol, 20 + UNCORE_CLOCK_BASE_PPM);
    assert_int_equal(uncore_clock_judge(fixed, tsc, 2400000000ull, 2133000000ull, tol, &j), UNCORE_PASS);
    assert_int_equal(j.rate_hz, 2133000000ull);
    /* Counting at the TSC's rate instead. */
    assert_int_equal(uncore_clock_judge(tsc, tsc, 2400000000ull, 2133000000ull, tol, &j), UNCORE_FAIL);
    sb_init(&sb, buf, sizeof(buf));
    uncore_clock_describe(&j, &sb);
    assert_non_null(strstr(buf, "observed_hz: 2400000000"));
    /* Just outside the bound fails, just inside passes. */
    assert_int_equal(uncore_clock_judge(fixed + fixed / 1000, tsc, 2400000000ull, 2133000000ull, tol, &j),
                     UNCORE_FAIL);
    assert_int_equal(uncore_clock_judge(fixed + fixed / 5000, tsc, 2400000000ull, 2133000000ull, tol, &j),
                     UNCORE_PASS);
    assert_int_equal(uncore_clock_judge(fixed, 0, 2400000000ull, 2133000000ull, tol, &j), UNCORE_FAIL);
    assert_int_equal(uncore_clock_judge(fixed, tsc, 2400000000ull, 0, tol, &j), UNCORE_SKIP);
    /* Hardware: the rate not known per part, a sanity bound of 0.1x to 4x the TSC's, both printed. */
    assert_int_equal(uncore_clock_sanity_judge(fixed, tsc, 2400000000ull, &j), UNCORE_PASS);
    sb_init(&sb, buf, sizeof(buf));
    uncore_clock_describe(&j, &sb);
    assert_non_null(strstr(buf, "a sanity bound, not the documented rate"));
    assert_non_null(strstr(buf, "observed_hz: 2133000000"));
    assert_non_null(strstr(buf, "bound_hz: [240000000, 9600000000]"));
    assert_int_equal(uncore_clock_sanity_judge(0, tsc, 2400000000ull, &j), UNCORE_FAIL);          /* stopped */
    assert_int_equal(uncore_clock_sanity_judge(tsc / 11, tsc, 2400000000ull, &j), UNCORE_FAIL);   /* too slow */
    assert_int_equal(uncore_clock_sanity_judge(tsc / 10, tsc, 2400000000ull, &j), UNCORE_PASS);
    assert_int_equal(uncore_clock_sanity_judge(tsc * 4, tsc, 2400000000ull, &j), UNCORE_PASS);
    assert_int_equal(uncore_clock_sanity_judge(tsc * 4 + tsc / 100, tsc, 2400000000ull, &j), UNCORE_FAIL);
    assert_int_equal(uncore_clock_sanity_judge(fixed, 0, 2400000000ull, &j), UNCORE_FAIL);
}

static void test_latency_and_at_least(void **state)
{
    (void)state;
    char buf[256];
    struct strbuf sb;
    const u32 pmis[3] = {1, 0, 1};
    const u64 lat[3] = {2400, 0, 4800};
    sb_init(&sb, buf, sizeof(buf));
    uncore_route_latency_describe(lat, pmis, 3, 2400000000ull, &sb);
    assert_string_equal(buf, "latency_ns: [1000, -, 2000]\n");
    struct uncore_at_least_judgement j;
    assert_int_equal(uncore_at_least_judge(4096, 4096, &j), UNCORE_PASS);
    assert_int_equal(uncore_at_least_judge(5000, 4096, &j), UNCORE_PASS);
    assert_int_equal(uncore_at_least_judge(4095, 4096, &j), UNCORE_FAIL);
    assert_int_equal(uncore_at_least_judge(0, 0, &j), UNCORE_FAIL); /* a workload of no lines proves nothing */
    sb_init(&sb, buf, sizeof(buf));
    uncore_at_least_describe(&j, &sb);
    assert_non_null(strstr(buf, "at least 0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_can), cmocka_unit_test(test_route), cmocka_unit_test(test_freeze),
        cmocka_unit_test(test_status),   cmocka_unit_test(test_clock), cmocka_unit_test(test_latency_and_at_least),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
