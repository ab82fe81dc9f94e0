/* lib/hang_record.c: the boot CPU's breadcrumb in CMOS survives a watchdog reset, is told from stale or foreign
 * bytes, shares the area with suite reset's record, and the plan never loops: a place that hung is skipped, a
 * place that hangs although skipped, a third place, too many boots, or a watchdog reset without a record gives up
 * the watchdog; another run's record starts a new run; suite reset's deliberate reset carries the run on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "lib/hang_record.h"
#include "lib/reset_record.h"

/* The two kinds' slots as the record store pairs them (kernel/record_store.c): each clear of the other's record. */
static int hang_slot(const struct cmos_window *w, const u8 cmos[0x40], bool *found)
{
    return cmos_record_slot(w, cmos, hang_record_valid, reset_record_valid, found);
}

static int reset_slot(const struct cmos_window *w, const u8 cmos[0x40], bool *found)
{
    return cmos_record_slot(w, cmos, reset_record_valid, hang_record_valid, found);
}

static void test_round_trip_and_corruption(void **state)
{
    (void)state;
    struct hang_record r = {.state = HANG_IN_CHECK, .boots = 2, .at = {7, 3}, .cpu_apic_id = 0x12, .seconds = 5,
                            .run_id = 0xa5, .nskip = 2, .skip = {{4, 1}, {9, 0}}, .skip_not_watchdog = {false, true}},
                       back;
    u8 b[HANG_RECORD_BYTES];
    hang_record_encode(&r, b);
    assert_true(hang_record_decode(b, &back));
    assert_memory_equal(&r, &back, sizeof(r));
    for (u32 i = 0; i < HANG_RECORD_BYTES; i++) { /* any one byte changed: not a record */
        u8 c[HANG_RECORD_BYTES];
        memcpy(c, b, sizeof(c));
        c[i] ^= 0x40;
        assert_false(hang_record_decode(c, &back));
    }
    u8 zero[HANG_RECORD_BYTES] = {0};
    assert_false(hang_record_decode(zero, &back));
    /* Suite reset's record is not a hang record. */
    struct reset_record rr = {.requested = 1, .state = RESET_STATE_ISSUED, .boots = 1};
    reset_record_encode(&rr, b);
    assert_false(hang_record_decode(b, &back));
}

static void test_slot_beside_the_reset_record(void **state)
{
    (void)state;
    u8 cmos[0x40] = {0};
    bool found;
    struct cmos_window qemu;
    cmos_window_qemu(&qemu);
    assert_int_equal(hang_slot(&qemu, cmos, &found), 0x40);
    assert_false(found);
    /* Suite reset took 0x40..0x4F: the hang record goes after the bytes kept for QEMU and SeaBIOS (0x5B..0x5F). */
    struct reset_record rr = {.requested = 1, .state = RESET_STATE_RUNNING, .boots = 1};
    reset_record_encode(&rr, cmos);
    assert_int_equal(hang_slot(&qemu, cmos, &found), 0x60);
    struct hang_record h = {.state = HANG_IDLE, .boots = 1, .seconds = 4};
    hang_record_encode(&h, &cmos[0x60 - 0x40]);
    assert_int_equal(hang_slot(&qemu, cmos, &found), 0x60);
    assert_true(found);
    bool rfound;
    assert_int_equal(reset_slot(&qemu, cmos, &rfound), 0x40);
    assert_true(rfound);
    /* Every byte used: no slot. */
    memset(cmos, 0xff, sizeof(cmos));
    assert_int_equal(hang_slot(&qemu, cmos, &found), -1);
}

/* Two kinds of record, "AA..." and "BB...", whose tails are 0 (an empty skip list, a checksum that came out 0): a
 * slot for one never starts inside the other's record, though its zero tail and the unused bytes after it would
 * make a run of 16 zeros. */
static bool is_a(const u8 b[CMOS_RECORD_BYTES]) { return b[0] == 'A' && b[1] == 'A'; }
static bool is_b(const u8 b[CMOS_RECORD_BYTES]) { return b[0] == 'B' && b[1] == 'B'; }

static void test_slots_never_overlap(void **state)
{
    (void)state;
    u8 cmos[0x40] = {0};
    bool found;
    struct cmos_window qemu;
    cmos_window_qemu(&qemu);
    cmos[0] = cmos[1] = 'B';
    assert_int_equal(cmos_record_slot(&qemu, cmos, is_b, is_a, &found), 0x40);
    assert_true(found);
    assert_int_equal(cmos_record_slot(&qemu, cmos, is_a, is_b, &found), 0x60); /* not 0x42; 0x50.. reaches 0x5B */
    assert_false(found);
    cmos[0x20] = cmos[0x21] = 'A';
    assert_int_equal(cmos_record_slot(&qemu, cmos, is_a, is_b, &found), 0x60);
    assert_true(found);
    memset(cmos, 0, sizeof(cmos));
    cmos[0x22] = cmos[0x23] = 'B'; /* at 0x62: the 16 bytes from 0x60 would overlap it, and so would 0x61..0x6F */
    assert_int_equal(cmos_record_slot(&qemu, cmos, is_a, is_b, &found), 0x40);
    memset(cmos, 0xee, 0x1b);      /* 0x40..0x5A used by firmware */
    assert_int_equal(cmos_record_slot(&qemu, cmos, is_a, is_b, &found), -1); /* 0x72.. reaches past 0x7F */
}

/* cmos=FIRST-LAST: only bytes of 0x40..0x7F, at least one record, never the century byte; a slot stays inside. */
static void test_user_window(void **state)
{
    (void)state;
    struct cmos_window w;
    assert_non_null(cmos_window_user(&w, 0x0e, 0x1f, 0));  /* diagnostic/shutdown status, AT bytes */
    assert_non_null(cmos_window_user(&w, 0x2e, 0x4f, 0));  /* the AT checksum */
    assert_non_null(cmos_window_user(&w, 0x70, 0x80, 0));  /* past the bank */
    assert_non_null(cmos_window_user(&w, 0x70, 0x7e, 0));  /* 15 bytes */
    assert_non_null(cmos_window_user(&w, 0x70, 0x60, 0));  /* reversed */
    assert_non_null(cmos_window_user(&w, 0x40, 0x7f, 0x48)); /* FADT CENTURY at 0x48 */
    assert_null(cmos_window_user(&w, 0x70, 0x7f, 0x32));
    u8 cmos[0x40] = {0};
    bool found;
    assert_int_equal(hang_slot(&w, cmos, &found), 0x70);
    assert_false(cmos_slot_allowed(&w, 0x6f));
    assert_false(cmos_slot_allowed(&w, 0x71));
    cmos[0x75 - 0x40] = 1; /* a byte in use inside the window: no slot */
    assert_int_equal(hang_slot(&w, cmos, &found), -1);
    assert_null(cmos_window_user(&w, 0x50, 0x6f, 0)); /* no bytes kept: 0x5B..0x5F are the user's here */
    assert_true(cmos_slot_allowed(&w, 0x58));
}

/* CMOS is QEMU's, with its documented layout, only under a hypervisor whose ACPI tables are QEMU's: real boards, and
 * other hypervisors (Xen, cloud-hypervisor, Firecracker build their own tables), get no CMOS record store. */
static void test_qemu_layout(void **state)
{
    (void)state;
    assert_true(cmos_layout_is_qemu(true, "BOCHS "));
    assert_false(cmos_layout_is_qemu(false, "BOCHS ")); /* no hypervisor: a board whose tables say BOCHS */
    assert_false(cmos_layout_is_qemu(true, "LENOVO"));
    assert_false(cmos_layout_is_qemu(true, "Xen"));
    assert_false(cmos_layout_is_qemu(true, ""));
    assert_false(cmos_layout_is_qemu(true, NULL));
}

#define RUN 0x5c

static void test_plan_never_loops(void **state)
{
    (void)state;
    struct hang_record r = {0};
    assert_int_equal(hang_plan_boot(&r, false, RUN, HANG_WD_UNKNOWN), HANG_BOOT_FIRST);
    assert_int_equal(r.boots, 1);
    assert_int_equal(r.run_id, RUN);
    assert_int_equal(hang_plan_boot(&r, false, RUN, HANG_WD_NOT_OURS), HANG_BOOT_FIRST);
    /* The watchdog reset the machine but no record survived: never arm again (it would loop). */
    assert_int_equal(hang_plan_boot(&r, false, RUN, HANG_WD_OURS), HANG_BOOT_LOST);
    /* Between checks: stale, a new run. */
    r.state = HANG_IDLE;
    assert_int_equal(hang_plan_boot(&r, true, RUN, HANG_WD_UNKNOWN), HANG_BOOT_STALE);
    /* In a check, but another run's record (another image or command line): a new run, nothing skipped. */
    r = (struct hang_record){.state = HANG_IN_CHECK, .boots = 1, .at = {3, 2}, .seconds = 5, .run_id = RUN + 1};
    assert_int_equal(hang_plan_boot(&r, true, RUN, HANG_WD_OURS), HANG_BOOT_STALE);
    assert_int_equal(r.nskip, 0);
    /* Hung in (3, 2): skipped from now on. */
    r = (struct hang_record){.state = HANG_IN_CHECK, .boots = 1, .at = {3, 2}, .seconds = 5, .run_id = RUN};
    assert_int_equal(hang_plan_boot(&r, true, RUN, HANG_WD_OURS), HANG_BOOT_HUNG);
    assert_int_equal(r.boots, 2);
    assert_int_equal(r.state, HANG_IDLE);
    assert_int_equal(hang_skip_index(&r, 3, 2), 0);
    assert_false(r.skip_not_watchdog[0]);
    assert_int_equal(hang_skip_index(&r, 3, 1), -1);
    /* Suite reset's deliberate reset: the run goes on with its skip list. */
    r.state = HANG_RESETTING;
    assert_int_equal(hang_plan_boot(&r, true, RUN, HANG_WD_NOT_OURS), HANG_BOOT_CONTINUE);
    assert_int_equal(r.boots, 3);
    assert_int_equal(hang_skip_index(&r, 3, 2), 0);
    /* A second place, the machine reset from outside (the watchdog says it was not its reset). */
    r.state = HANG_IN_CHECK;
    r.at = (struct hang_place){5, 0};
    assert_int_equal(hang_plan_boot(&r, true, RUN, HANG_WD_NOT_OURS), HANG_BOOT_HUNG);
    assert_int_equal(hang_skip_index(&r, 5, 0), 1);
    assert_true(r.skip_not_watchdog[1]);
    /* A third: the list is full, give up. */
    struct hang_record third = r;
    third.state = HANG_IN_CHECK;
    third.at = (struct hang_place){6, 1};
    assert_int_equal(hang_plan_boot(&third, true, RUN, HANG_WD_OURS), HANG_BOOT_GIVE_UP);
    /* The same place again although skipped: give up. */
    struct hang_record again = r;
    again.state = HANG_IN_CHECK;
    again.at = (struct hang_place){3, 2};
    assert_int_equal(hang_plan_boot(&again, true, RUN, HANG_WD_OURS), HANG_BOOT_GIVE_UP);
    /* Too many boots, hung or reset on purpose. */
    struct hang_record many = {.state = HANG_IN_CHECK, .boots = HANG_MAX_BOOTS, .at = {1, 1}, .run_id = RUN};
    assert_int_equal(hang_plan_boot(&many, true, RUN, HANG_WD_OURS), HANG_BOOT_GIVE_UP);
    many = (struct hang_record){.state = HANG_RESETTING, .boots = HANG_MAX_BOOTS, .run_id = RUN};
    assert_int_equal(hang_plan_boot(&many, true, RUN, HANG_WD_UNKNOWN), HANG_BOOT_GIVE_UP);
}

static void test_run_id(void **state)
{
    (void)state;
    u8 a = hang_run_id("3eafc5e", "suite=timeout timeout_hang=bsp");
    assert_int_equal(a, hang_run_id("3eafc5e", "suite=timeout timeout_hang=bsp"));
    /* Another image or command line: another id (these differ; an 8-bit id can collide, 1 in 256). */
    assert_int_not_equal(a, hang_run_id("3eafc5f", "suite=timeout timeout_hang=bsp"));
    assert_int_not_equal(a, hang_run_id("3eafc5e", "suite=timeout"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_corruption),
        cmocka_unit_test(test_slot_beside_the_reset_record),
        cmocka_unit_test(test_slots_never_overlap),
        cmocka_unit_test(test_user_window),
        cmocka_unit_test(test_qemu_layout),
        cmocka_unit_test(test_plan_never_loops),
        cmocka_unit_test(test_run_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
