/* Suite pebs's comparison of PEBS records with the instruction stream (tests/pebs/portable/pebs_judge.c): an
 * eventing IP off by one, a missing record, records not evenly spaced, records closer than a period. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "tests/pebs/portable/pebs_judge.h"

static u64 rip[301]; /* one more: the instruction after the last counted one */
static u16 ev[300];

/* 300 counted instructions 4 bytes apart from 0x400000, and the one after the last. */
static void straight_stream(void)
{
    for (u32 i = 0; i < 301; i++)
        rip[i] = 0x400000 + 4 * i;
    for (u32 i = 0; i < 300; i++)
        ev[i] = (u16)i;
}

static void test_judge_spacing(void **state)
{
    (void)state;
    struct pebs_record r[4];
    struct pebs_stream s = {rip, 301, ev, 300, NULL};
    struct pebs_judgement j;
    straight_stream();
    /* Precise distribution (the record on the overflowing event): 29 apart, the first at index 28. */
    for (u32 k = 0; k < 4; k++)
        r[k] = (struct pebs_record){.size = 0x20, .eventing_ip = rip[28 + 29 * k], .has_eventing_ip = true};
    assert_false(pebs_judge(&s, 29, r, 4, 0, true, true, &j)); /* 300 events hold 10 records, not 4 */
    assert_int_equal(j.expected, 10);
    assert_int_equal(j.d, 29);
    /* Counting one event before the workload: the first record one instruction earlier, on silicon only. */
    struct pebs_record q[10];
    for (u32 k = 0; k < 10; k++)
        q[k] = (struct pebs_record){.size = 0x20, .eventing_ip = rip[28 + 30 * k], .has_eventing_ip = true};
    assert_true(pebs_judge(&s, 29, q, 10, 1, true, true, &j));
    assert_int_equal(j.start, 1);
    assert_false(pebs_judge(&s, 29, q, 10, 0, true, true, &j));
    /* A record 29 events on, where the others are 30 apart. */
    for (u32 k = 0; k < 10; k++)
        q[k] = (struct pebs_record){.size = 0x20, .eventing_ip = rip[29 + 30 * k - (k >= 5)], .has_eventing_ip = true};
    assert_false(pebs_judge(&s, 29, q, 10, 0, true, true, &j));
    assert_int_equal(j.bad, 5);
    /* Only the RIP after (formats 0-1, trap-like): the instruction before it is the eventing one. */
    for (u32 k = 0; k < 10; k++)
        q[k] = (struct pebs_record){.size = 0x90, .ip_after = rip[30 + 30 * k], .has_ip_after = true};
    assert_true(pebs_judge(&s, 29, q, 10, 0, true, true, &j));
}

/* Without precise distribution: records may come late (the PEBS shadow), never closer than a period, never more than
 * the events allow. */
static void test_judge_shadow(void **state)
{
    (void)state;
    struct pebs_record q[10];
    struct pebs_stream s = {rip, 301, ev, 300, NULL};
    struct pebs_judgement j;
    straight_stream();
    u32 at[] = {31, 63, 93, 125, 160, 190, 222, 252, 285}; /* 2..6 events late */
    for (u32 k = 0; k < 9; k++)
        q[k] = (struct pebs_record){.size = 0x20, .eventing_ip = rip[at[k]], .has_eventing_ip = true};
    assert_true(pebs_judge(&s, 29, q, 9, 1, true, false, &j));
    assert_int_equal(j.shadow_max, 6);
    assert_false(pebs_judge(&s, 29, q, 9, 1, true, true, &j)); /* not evenly spaced */
    q[3].eventing_ip = rip[110]; /* 17 after the one before: closer than a period */
    assert_false(pebs_judge(&s, 29, q, 9, 1, true, false, &j));
    assert_int_equal(j.bad, 3);
    assert_false(pebs_judge(&s, 29, q, 0, 1, true, false, &j)); /* no record */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge_spacing),
        cmocka_unit_test(test_judge_shadow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
