/* The sets of cores the uncore PMI routing check routes to (tests/uncore/portable/uncore_route_sets.h): each core
 * alone, every core, every core but the arming one, within the routing field and the room given. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "lib/format.h"
#include "tests/uncore/portable/uncore_route_sets.h"

static struct uncore_route_set sets[UNCORE_ROUTE_SETS_MAX];

/* Two cores (wsm-ep at --smp 4): each alone, both; no set leaving the arming core out (it would be one core alone). */
static void test_two_cores(void **state)
{
    (void)state;
    u32 n = uncore_route_sets(2, 4, 0, sets, UNCORE_ROUTE_SETS_MAX);
    assert_int_equal(n, 3);
    assert_int_equal(sets[0].mask, 0x1);
    assert_int_equal(sets[1].mask, 0x2);
    assert_int_equal(sets[1].kind, UNCORE_SET_ONE_CORE);
    assert_int_equal(sets[2].mask, 0x3);
    assert_int_equal(sets[2].kind, UNCORE_SET_EVERY_CORE);
}

/* Four cores, armed from core 2: the arming core alone first, then the others, every core, every core but 2. */
static void test_four_cores_arming_elsewhere(void **state)
{
    (void)state;
    u32 n = uncore_route_sets(4, 4, 2, sets, UNCORE_ROUTE_SETS_MAX);
    assert_int_equal(n, 6);
    assert_int_equal(sets[0].mask, 0x4);
    assert_int_equal(sets[1].mask, 0x1);
    assert_int_equal(sets[3].mask, 0x8);
    assert_int_equal(sets[4].mask, 0xf);
    assert_int_equal(sets[5].kind, UNCORE_SET_ALL_BUT_ARMING);
    assert_int_equal(sets[5].mask, 0xb);
    char buf[128];
    struct strbuf sb;
    sb_init(&sb, buf, sizeof(buf));
    uncore_route_set_describe(&sets[1], 2, &sb);
    assert_string_equal(buf, "0x1: core 0 alone (not the arming core, core 2)");
}

/* Six cores behind a four-bit field (a six-core Westmere-EP): cores 4 and 5 are in no set. */
static void test_field_narrower_than_package(void **state)
{
    (void)state;
    u32 n = uncore_route_sets(6, 4, 0, sets, UNCORE_ROUTE_SETS_MAX);
    assert_int_equal(n, 6);
    for (u32 i = 0; i < n; i++)
        assert_int_equal(sets[i].mask & ~0xfu, 0);
    assert_int_equal(sets[4].mask, 0xf);
}

/* Little room: the wider sets are kept, the singles start with the arming core and one other. */
static void test_little_room(void **state)
{
    (void)state;
    u32 n = uncore_route_sets(5, 5, 3, sets, 4);
    assert_int_equal(n, 4);
    assert_int_equal(sets[0].mask, 0x8);
    assert_int_equal(sets[1].mask, 0x1);
    assert_int_equal(sets[2].mask, 0x1f);
    assert_int_equal(sets[3].mask, 0x17);
}

/* One core: that core alone, nothing else. */
static void test_one_core(void **state)
{
    (void)state;
    assert_int_equal(uncore_route_sets(1, 4, 0, sets, UNCORE_ROUTE_SETS_MAX), 1);
    assert_int_equal(sets[0].mask, 0x1);
    assert_int_equal(uncore_route_sets(0, 4, 0, sets, UNCORE_ROUTE_SETS_MAX), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_cores), cmocka_unit_test(test_four_cores_arming_elsewhere),
        cmocka_unit_test(test_field_narrower_than_package), cmocka_unit_test(test_little_room),
        cmocka_unit_test(test_one_core),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
