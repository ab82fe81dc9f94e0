/* tests/init/portable/init_judge.c: the registers INIT must leave (SDM Vol.3A Table 10-1) with CD/NW kept from
 * before, QEMU TCG's reset value of CR0 told apart from other wrong values, and MTRRs that INIT zeroed told apart
 * from MTRRs it changed otherwise. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/init/portable/init_judge.h"

static void test_arch_expected(void **state)
{
    (void)state;
    struct init_arch_regs w;
    init_arch_expected(0x80050033, &w); /* long mode's CR0: PG, AM, WP, NE, ET, MP, PE; caches on */
    assert_int_equal(w.cr0, 0x10);
    assert_int_equal(w.cr2, 0);
    assert_int_equal(w.cr3, 0);
    assert_int_equal(w.cr4, 0);
    assert_int_equal(w.efer, 0);
    assert_int_equal(w.dr0, 0);
    assert_int_equal(w.dr6, 0xFFFF0FF0);
    assert_int_equal(w.dr7, 0x400);
    init_arch_expected(0xE0000011, &w); /* CD and NW set before INIT: kept (Table 10-1 note 2) */
    assert_int_equal(w.cr0, 0x60000010);
    init_arch_expected(0xC0000011, &w); /* CD alone */
    assert_int_equal(w.cr0, 0x40000010);
}

static void test_cr0_reset_value(void **state)
{
    (void)state;
    struct init_arch_regs w;
    init_arch_expected(0x80050033, &w);
    /* QEMU TCG sets CD and NW on INIT as on reset: a wrong CR0 recognised as that one */
    assert_true(0x60000010 != w.cr0);
    assert_true(init_cr0_is_reset_value(0x60000010));
    /* Any other wrong CR0 is not that deviation: PE or PG left set, or ET clear. */
    assert_false(init_cr0_is_reset_value(0x60000011));
    assert_false(init_cr0_is_reset_value(0xE0000010));
    assert_false(init_cr0_is_reset_value(0x60000000));
    assert_false(init_cr0_is_reset_value(w.cr0));
}

static void test_mtrr(void **state)
{
    (void)state;
    const u64 before[4] = {0xC06, 0x80000006, 0xFF80000800, 0x0606060606060606};
    struct init_mtrr_tally t;
    init_mtrr_count(before, before, 4, &t); /* kept: nothing lost */
    assert_int_equal(t.lost, 0);
    assert_false(init_mtrr_zeroed_by_init(&t));
    const u64 zeroed[4] = {0, 0, 0, 0}; /* QEMU TCG: every MTRR zeroed */
    init_mtrr_count(before, zeroed, 4, &t);
    assert_int_equal(t.lost, 4);
    assert_int_equal(t.not_zeroed, 0);
    assert_true(init_mtrr_zeroed_by_init(&t));
    const u64 changed[4] = {0xC06, 0, 0xFF80000801, 0x0606060606060606}; /* one zeroed, one changed otherwise */
    init_mtrr_count(before, changed, 4, &t);
    assert_int_equal(t.lost, 2);
    assert_int_equal(t.not_zeroed, 1);
    assert_false(init_mtrr_zeroed_by_init(&t));
    const u64 was_zero[4] = {0, 0x80000006, 0xFF80000800, 0x0606060606060606};
    init_mtrr_count(was_zero, zeroed, 4, &t); /* a zero that stays zero is not lost */
    assert_int_equal(t.lost, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arch_expected),
        cmocka_unit_test(test_cr0_reset_value),
        cmocka_unit_test(test_mtrr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
