/* Suite "uncore"'s per-scope plan (tests/uncore/portable/uncore_scope.h): a leader per package, the routing bit of
 * each thread's core, on the topologies the emulated faces present and a six-core Westmere-EP's sparse core IDs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tests/uncore/portable/uncore_scope.h"

static struct uncore_scope_plan plan;

/* Two packages of four cores, two threads each, threads numbered package-major (the wsm-ep face). */
static void test_two_packages(void **state)
{
    (void)state;
    u32 pkg[16], core[16], scope_of[16], idx[16];
    for (u32 t = 0; t < 16; t++) {
        pkg[t] = t / 8;
        core[t] = t / 2 % 4;
    }
    const char *why = NULL;
    assert_true(uncore_scope_plan(pkg, core, NULL, 16, scope_of, idx, &plan, &why));
    assert_int_equal(plan.nscopes, 2);
    assert_int_equal(plan.leader[0], 0);
    assert_int_equal(plan.leader[1], 8);
    assert_int_equal(plan.cores[1], 4);
    assert_int_equal(plan.threads[1], 8);
    assert_int_equal(scope_of[13], 1);
    assert_int_equal(idx[13], 2);
}

/* The boot CPU need not be in package 0, and a thread left out (an AP that did not start) is no leader. */
static void test_order_and_absent(void **state)
{
    (void)state;
    const u32 pkg[4] = {1, 1, 0, 0}, core[4] = {0, 1, 0, 1};
    const bool present[4] = {true, true, false, true};
    u32 scope_of[4], idx[4];
    const char *why = NULL;
    assert_true(uncore_scope_plan(pkg, core, present, 4, scope_of, idx, &plan, &why));
    assert_int_equal(plan.scope_key[0], 1);
    assert_int_equal(plan.leader[1], 3);
    assert_int_equal(scope_of[2], UINT32_MAX);
    assert_int_equal(idx[3], 0); /* the only core of package 0 present */
}

/* A six-core Westmere-EP's core IDs are 0, 1, 2, 8, 9, 10: the routing bit is the rank, not the ID. */
static void test_sparse_core_ids(void **state)
{
    (void)state;
    const u32 pkg[6] = {0, 0, 0, 0, 0, 0}, core[6] = {10, 0, 9, 1, 8, 2};
    u32 scope_of[6], idx[6];
    const char *why = NULL;
    assert_true(uncore_scope_plan(pkg, core, NULL, 6, scope_of, idx, &plan, &why));
    assert_int_equal(idx[0], 5);
    assert_int_equal(idx[2], 4);
    assert_int_equal(idx[4], 3);
    assert_int_equal(idx[5], 2);
}

static void test_limits(void **state)
{
    (void)state;
    static u32 pkg[100], core[100], scope_of[100], idx[100];
    for (u32 t = 0; t < 100; t++) {
        pkg[t] = t;
        core[t] = 0;
    }
    const char *why = NULL;
    assert_false(uncore_scope_plan(pkg, core, NULL, 100, scope_of, idx, &plan, &why));
    assert_non_null(why);
    for (u32 t = 0; t < 100; t++) {
        pkg[t] = 0;
        core[t] = t;
    }
    why = NULL;
    assert_false(uncore_scope_plan(pkg, core, NULL, 100, scope_of, idx, &plan, &why));
    assert_non_null(why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_packages),    cmocka_unit_test(test_order_and_absent),
        cmocka_unit_test(test_sparse_core_ids), cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
