/* tests/pmu_regs/portable/pmu_regs_judge.c: reserved select bits that all fault (Intel) or are all ignored (AMD)
 * pass and one that behaves otherwise is counted; where the manual says nothing (KNC) the first bit sets the rule;
 * RDPMC at CPL 0 and CPL 3 must return the counter RDMSR reads, and a fault, another counter's value or a lost
 * value is a finding. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/pmu_regs/portable/pmu_regs_judge.h"

/* The tally after writing bits that faulted as given (1) or not (0). */
static struct reserved_bits_tally tally(bool faults, bool documented, const char *seen)
{
    struct reserved_bits_tally t;
    reserved_bits_begin(&t, faults, documented);
    for (const char *s = seen; *s; s++)
        reserved_bits_step(&t, *s == '1');
    return t;
}

static void test_reserved_documented(void **state)
{
    (void)state;
    struct reserved_bits_tally t = tally(true, true, "1111"); /* SDM Vol.3B 21.2.1.1: reserved, must be 0 */
    assert_int_equal(t.wrong, 0);
    assert_int_equal(t.faulted, 4);
    assert_int_equal(t.tested, 4);
    t = tally(true, true, "1101"); /* one bit a hypervisor lets through */
    assert_int_equal(t.wrong, 1);
    assert_int_equal(t.faulted, 3);
    t = tally(false, true, "0000"); /* APM Vol.2 13.2.1: ignored */
    assert_int_equal(t.wrong, 0);
    t = tally(false, true, "0100");
    assert_int_equal(t.wrong, 1);
    t = tally(true, true, ""); /* no reserved bit: nothing tested, which the check fails on its own */
    assert_int_equal(t.tested, 0);
}

static void test_reserved_undocumented_first_bit_sets_the_rule(void **state)
{
    (void)state;
    struct reserved_bits_tally t = tally(true, false, "0000"); /* KNC: all ignored, whatever was assumed */
    assert_int_equal(t.wrong, 0);
    assert_false(t.faults);
    t = tally(false, false, "111");
    assert_int_equal(t.wrong, 0);
    assert_true(t.faults);
    t = tally(false, false, "1001"); /* not alike: the two that differ from the first */
    assert_int_equal(t.wrong, 2);
    assert_true(reserved_bits_step(&t, false));
    assert_false(reserved_bits_step(&t, true));
    assert_int_equal(t.wrong, 3);
}

static void test_rdpmc_pattern_is_distinct(void **state)
{
    (void)state;
    for (u32 a = 0; a < 64; a++) {
        assert_true(pmu_regs_rdpmc_pattern(a) != 0);
        for (u32 b = a + 1; b < 64; b++)
            assert_true(pmu_regs_rdpmc_pattern(a) != pmu_regs_rdpmc_pattern(b));
    }
}

#define MASK48 0xFFFFFFFFFFFFull

static void test_rdpmc_agrees(void **state)
{
    (void)state;
    u64 v = pmu_regs_rdpmc_pattern(3);
    struct rdpmc_reading r = {.msr = v, .cpl0 = v, .cpl3 = v};
    assert_true(pmu_regs_rdpmc_agrees(&r, MASK48));
    /* RDPMC at CPL 0 may return bits above the width (SDM Vol.2B RDPMC); only the width is compared. */
    r.cpl0 = v | 0xFFFF000000000000ull;
    assert_true(pmu_regs_rdpmc_agrees(&r, MASK48));
    /* A 64-bit counter: the CPL-3 read carries 48 bits, compared as such. */
    r = (struct rdpmc_reading){.msr = v | (1ull << 60), .cpl0 = v | (1ull << 60), .cpl3 = v};
    assert_true(pmu_regs_rdpmc_agrees(&r, ~0ull));
}

static void test_rdpmc_findings(void **state)
{
    (void)state;
    u64 v = pmu_regs_rdpmc_pattern(1), other = pmu_regs_rdpmc_pattern(0);
    const struct rdpmc_reading good = {.msr = v, .cpl0 = v, .cpl3 = v};
    struct rdpmc_reading r = good;
    r.cpl3 = (u64)0x8000000Dull << 48; /* #GP at CPL 3 on a valid index */
    assert_false(pmu_regs_rdpmc_agrees(&r, MASK48));
    r = good;
    r.cpl0_rc = 1;
    assert_false(pmu_regs_rdpmc_agrees(&r, MASK48));
    r = good;
    r.cpl0 = r.cpl3 = other; /* a vPMU that passes RDPMC through for counter 0 only */
    assert_false(pmu_regs_rdpmc_agrees(&r, MASK48));
    r = good;
    r.cpl3 = other;
    assert_false(pmu_regs_rdpmc_agrees(&r, MASK48));
    r = (struct rdpmc_reading){0}; /* the write was lost: nothing to tell the counters apart by */
    assert_false(pmu_regs_rdpmc_agrees(&r, MASK48));
    r = good;
    r.write_rc = 1;
    assert_false(pmu_regs_rdpmc_agrees(&r, MASK48));
    r = good;
    r.msr_rc = 1;
    assert_false(pmu_regs_rdpmc_agrees(&r, MASK48));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reserved_documented),
        cmocka_unit_test(test_reserved_undocumented_first_bit_sets_the_rule),
        cmocka_unit_test(test_rdpmc_pattern_is_distinct),
        cmocka_unit_test(test_rdpmc_agrees),
        cmocka_unit_test(test_rdpmc_findings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
