/* tests/reset/portable/reset_plan.c: a run of reset=all walks cf9, kbc, triple in four boots; a boot that died
 * (state still RUNNING) or one boot too many ends the run; a record of another request starts afresh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "tests/reset/portable/reset_plan.h"

/* The CMOS bytes across "resets". */
static u8 cmos[RESET_RECORD_BYTES];

static enum reset_boot boot(struct reset_record *r, u8 requested)
{
    bool valid = reset_record_decode(cmos, r);
    return reset_plan_boot(r, valid, requested);
}

static void test_all_in_four_boots(void **state)
{
    (void)state;
    memset(cmos, 0, sizeof(cmos));
    struct reset_record r;
    const int order[] = {RESET_CF9, RESET_KBC, RESET_TRIPLE};
    assert_int_equal(boot(&r, 7), RESET_BOOT_FIRST);
    for (int i = 0; i < 3; i++) {
        int next = reset_plan_next(&r);
        assert_int_equal(next, order[i]);
        reset_plan_issue(&r, next);
        reset_record_encode(&r, cmos); /* then the machine resets */
        assert_int_equal(boot(&r, 7), RESET_BOOT_PHASE2);
        assert_int_equal(r.current, order[i]);
        assert_true(r.result[order[i]] & RESET_R_CAME_BACK);
        assert_int_equal(r.boots, i + 2);
    }
    assert_int_equal(reset_plan_next(&r), -1);
    assert_int_equal(r.boots, reset_plan_max_boots(7));
}

static void test_crash_and_runaway_end_the_run(void **state)
{
    (void)state;
    struct reset_record r;
    memset(cmos, 0, sizeof(cmos));
    assert_int_equal(boot(&r, 2), RESET_BOOT_FIRST);
    reset_record_encode(&r, cmos); /* state RUNNING written, then the boot dies: the loader runs it again */
    assert_int_equal(boot(&r, 2), RESET_BOOT_CRASHED);

    memset(cmos, 0, sizeof(cmos));
    assert_int_equal(boot(&r, 2), RESET_BOOT_FIRST);
    reset_plan_issue(&r, reset_plan_next(&r));
    reset_record_encode(&r, cmos);
    assert_int_equal(boot(&r, 2), RESET_BOOT_PHASE2);
    reset_plan_issue(&r, RESET_KBC); /* a bug issuing once more */
    reset_record_encode(&r, cmos);
    assert_int_equal(boot(&r, 2), RESET_BOOT_RUNAWAY);
}

static void test_other_request_is_stale(void **state)
{
    (void)state;
    struct reset_record r;
    memset(cmos, 0, sizeof(cmos));
    assert_int_equal(boot(&r, 1), RESET_BOOT_FIRST);
    reset_plan_issue(&r, RESET_CF9);
    reset_record_encode(&r, cmos);
    assert_int_equal(boot(&r, 4), RESET_BOOT_FIRST);
    assert_int_equal(r.requested, 4);
    assert_int_equal(reset_plan_next(&r), RESET_TRIPLE);
    assert_string_equal(reset_type_name(RESET_KBC), "kbc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_in_four_boots),
        cmocka_unit_test(test_crash_and_runaway_end_the_run),
        cmocka_unit_test(test_other_request_is_stale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
