/* lib/reset_plan.c: the record survives encode/decode and rejects garbage; a run of reset=all walks cf9,
 * kbc, triple in four boots; a boot that died (state still RUNNING) or one boot too many ends the run; a record
 * of another request starts afresh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/hang_record.h"
#include "lib/reset_plan.h"

/* The reset record's slot as the record store finds it (kernel/record_store.c): clear of the hang record. */
static int reset_slot(const struct cmos_window *w, const u8 c[RESET_CMOS_END - RESET_CMOS_FIRST], bool *found)
{
    return cmos_record_slot(w, c, reset_record_valid, hang_record_valid, found);
}

/* The CMOS bytes across "resets". */
static u8 cmos[RESET_RECORD_BYTES];

static enum reset_boot boot(struct reset_record *r, u8 requested)
{
    bool valid = reset_record_decode(cmos, r);
    return reset_plan_boot(r, valid, requested);
}

static void test_roundtrip_and_garbage(void **state)
{
    (void)state;
    struct reset_record r = {.requested = 5, .state = RESET_STATE_ISSUED, .current = 2, .boots = 3,
                             .result = {1, 2, 3}, .mismatches = {0, 7, 255}}, back;
    reset_record_encode(&r, cmos);
    assert_true(reset_record_decode(cmos, &back));
    assert_memory_equal(&r, &back, sizeof(r));
    cmos[8] ^= 1; /* checksum */
    assert_false(reset_record_decode(cmos, &back));
    memset(cmos, 0, sizeof(cmos));
    assert_false(reset_record_decode(cmos, &back));
    memset(cmos, 0xFF, sizeof(cmos));
    assert_false(reset_record_decode(cmos, &back));
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

/* The record goes only into unused (zero) CMOS bytes, never over QEMU's and SeaBIOS's 0x5B..0x5F, and is found
 * again where it was written. */
static void cmos_slot(void **state)
{
    (void)state;
    u8 cmos[RESET_CMOS_END - RESET_CMOS_FIRST];
    bool found;
    struct cmos_window qemu;
    cmos_window_qemu(&qemu);
    memset(cmos, 0, sizeof(cmos));
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x40); /* QEMU: 0x40.. unused */
    assert_false(found);
    memset(cmos, 0x5A, 0x10);                              /* settings in 0x40..0x4F */
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x60); /* 0x4B..0x5A holds some, 0x50.. reaches 0x5B */
    memset(cmos, 0x5A, sizeof(cmos));                      /* every byte in use */
    assert_int_equal(reset_slot(&qemu, cmos, &found), -1);
    memset(cmos, 0, sizeof(cmos));
    cmos[0x5F - RESET_CMOS_FIRST] = 1;                     /* QEMU's CPU count: the run 0x50..0x5F is not taken */
    memset(cmos, 0x11, 0x10);
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x60);
    /* A record of this run is found where it was written, whatever zero runs precede it. */
    memset(cmos, 0, sizeof(cmos));
    struct reset_record r = {.requested = RESET_ALL, .state = RESET_STATE_ISSUED, .current = 1, .boots = 2};
    reset_record_encode(&r, &cmos[0x62 - RESET_CMOS_FIRST]);
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x62);
    assert_true(found);
    /* ... but not one written over 0x5B..0x5F: the first unused run is taken instead. */
    memset(cmos, 0, sizeof(cmos));
    reset_record_encode(&r, &cmos[0x50 - RESET_CMOS_FIRST]);
    assert_int_equal(reset_slot(&qemu, cmos, &found), 0x40);
    assert_false(found);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cmos_slot),
        cmocka_unit_test(test_roundtrip_and_garbage),
        cmocka_unit_test(test_all_in_four_boots),
        cmocka_unit_test(test_crash_and_runaway_end_the_run),
        cmocka_unit_test(test_other_request_is_stale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
